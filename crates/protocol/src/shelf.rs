//! The shelf's request bodies (catalog, collections, plays) and their checks. Each body
//! refuses fields it does not know; `validate` says what is wrong in words.

use crate::Refusal;
use serde::{Deserialize, Serialize};

/// Longest name, reading or list item.
pub const MAX_NAME: usize = 200;
/// Longest comment.
pub const MAX_COMMENT: usize = 4000;
/// Most items in one list (designers, ...).
pub const MAX_LIST: usize = 50;
/// Most players in one play.
pub const MAX_PLAYERS: usize = 30;

fn refuse(message: impl Into<String>) -> Refusal {
    Refusal::new("invalid_field", message)
}

fn check_text(field: &str, v: &str, max: usize) -> Result<(), Refusal> {
    if v.chars().count() > max {
        return Err(refuse(format!("{field}: at most {max} characters")));
    }
    if v.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(refuse(format!(
            "{field}: control characters are not allowed"
        )));
    }
    Ok(())
}

fn check_range(field: &str, v: Option<u32>, lo: u32, hi: u32) -> Result<(), Refusal> {
    match v {
        Some(x) if !(lo..=hi).contains(&x) => {
            Err(refuse(format!("{field}: {x} is not from {lo} to {hi}")))
        }
        _ => Ok(()),
    }
}

/// A catalog game's fields: all of them to add a game (`POST /api/catalog`, at least
/// one name), the ones to change to propose a correction
/// (`POST /api/catalog/{id}/corrections`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct GameFields {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_ja: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name_en: Option<String>,
    /// The Japanese name's reading in kana (sorts the name when it has kanji).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reading_ja: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_players: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_players: Option<u32>,
    /// The player counts the game is best with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_players: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_minutes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_minutes: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_age: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub designers: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub publishers: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mechanics: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub categories: Option<Vec<String>>,
    /// The BoardGameGeek id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bgg_id: Option<u32>,
}

impl GameFields {
    /// Every field given is well-formed (ranges, lengths); names are not empty.
    pub fn validate(&self) -> Result<(), Refusal> {
        for (field, v) in [
            ("name_ja", &self.name_ja),
            ("name_en", &self.name_en),
            ("reading_ja", &self.reading_ja),
        ] {
            if let Some(v) = v {
                check_text(field, v, MAX_NAME)?;
            }
        }
        for (field, v) in [("name_ja", &self.name_ja), ("name_en", &self.name_en)] {
            if v.as_ref().is_some_and(|v| v.trim().is_empty()) {
                return Err(refuse(format!("{field}: empty")));
            }
        }
        check_range("min_players", self.min_players, 1, 99)?;
        check_range("max_players", self.max_players, 1, 99)?;
        check_range("min_minutes", self.min_minutes, 1, 10_000)?;
        check_range("max_minutes", self.max_minutes, 1, 10_000)?;
        check_range("min_age", self.min_age, 0, 99)?;
        check_range("year", self.year, 1, 2100)?;
        check_range("bgg_id", self.bgg_id, 1, 999_999_999)?;
        if let (Some(lo), Some(hi)) = (self.min_players, self.max_players) {
            if lo > hi {
                return Err(refuse("min_players is more than max_players"));
            }
        }
        if let (Some(lo), Some(hi)) = (self.min_minutes, self.max_minutes) {
            if lo > hi {
                return Err(refuse("min_minutes is more than max_minutes"));
            }
        }
        if let Some(best) = &self.best_players {
            if best.len() > 20 || best.iter().any(|n| !(1..=99).contains(n)) {
                return Err(refuse("best_players: at most 20 counts from 1 to 99"));
            }
        }
        for (field, list) in [
            ("designers", &self.designers),
            ("publishers", &self.publishers),
            ("mechanics", &self.mechanics),
            ("categories", &self.categories),
        ] {
            let Some(list) = list else { continue };
            if list.len() > MAX_LIST {
                return Err(refuse(format!("{field}: at most {MAX_LIST} items")));
            }
            for item in list {
                check_text(field, item, MAX_NAME)?;
                if item.trim().is_empty() {
                    return Err(refuse(format!("{field}: an empty item")));
                }
            }
        }
        Ok(())
    }

    /// A new game: valid, and named in at least one language.
    pub fn validate_new(&self) -> Result<(), Refusal> {
        self.validate()?;
        if self.name_ja.is_none() && self.name_en.is_none() {
            return Err(refuse("a game needs name_ja or name_en"));
        }
        Ok(())
    }

    /// Whether no field is given (a correction that changes nothing).
    pub fn is_empty(&self) -> bool {
        *self == GameFields::default()
    }
}

/// Who may see a person's collection and plays.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    #[default]
    Public,
    SignedIn,
    Private,
}

impl Visibility {
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Public => "public",
            Visibility::SignedIn => "signed_in",
            Visibility::Private => "private",
        }
    }
    pub fn parse(s: &str) -> Visibility {
        match s {
            "signed_in" => Visibility::SignedIn,
            "private" => Visibility::Private,
            _ => Visibility::Public,
        }
    }
}

/// `PUT /api/collections/me`: the shelf's settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ShelfSettings {
    pub visibility: Visibility,
}

/// `PUT /api/collections/me/{id}`: one game's entry, whole (fields left out are off).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CollectionEntry {
    /// 所有
    #[serde(default)]
    pub own: bool,
    #[serde(default)]
    pub prev_owned: bool,
    /// 気になる
    #[serde(default)]
    pub want_to_play: bool,
    #[serde(default)]
    pub wishlist: bool,
    /// 1 (must have) to 5 (don't buy); only with `wishlist`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wishlist_priority: Option<u8>,
    /// プレイした
    #[serde(default)]
    pub played: bool,
    /// お気に入り
    #[serde(default)]
    pub favourite: bool,
    /// 1 to 10, in steps of 0.1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<f64>,
    #[serde(default)]
    pub comment: String,
}

/// A rating from 1 to 10 as tenths (10..=100), or why not.
pub fn rating_tenths(r: f64) -> Result<i64, Refusal> {
    if !(1.0..=10.0).contains(&r) {
        return Err(refuse(format!("rating: {r} is not from 1 to 10")));
    }
    Ok((r * 10.0).round() as i64)
}

impl CollectionEntry {
    pub fn validate(&self) -> Result<(), Refusal> {
        if let Some(p) = self.wishlist_priority {
            if !(1..=5).contains(&p) {
                return Err(refuse(format!("wishlist_priority: {p} is not from 1 to 5")));
            }
            if !self.wishlist {
                return Err(refuse("wishlist_priority: only for a game on the wishlist"));
            }
        }
        if let Some(r) = self.rating {
            rating_tenths(r)?;
        }
        check_text("comment", &self.comment, MAX_COMMENT)
    }
}

/// One player of a manual play: an account (`user`, its login name) or a `name`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<i64>,
    #[serde(default)]
    pub winner: bool,
}

/// `POST /api/plays`: a game played on a real table.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewPlay {
    /// A catalog id (`12`) or a takuge game id (`secret-moon`).
    pub game: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub minutes: Option<u32>,
    #[serde(default)]
    pub comment: String,
    pub players: Vec<PlayerEntry>,
}

/// Whether `s` is a calendar date `YYYY-MM-DD` from 1900 to 2100.
pub fn valid_date(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (Some(y), Some(m), Some(d)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1900..=2100).contains(&y) && (1..=days).contains(&d)
}

impl NewPlay {
    pub fn validate(&self) -> Result<(), Refusal> {
        check_text("game", &self.game, 64)?;
        if !valid_date(&self.date) {
            return Err(refuse(format!(
                "date: {:?} is not a date YYYY-MM-DD",
                self.date
            )));
        }
        check_range("minutes", self.minutes, 1, 10_000)?;
        check_text("comment", &self.comment, MAX_COMMENT)?;
        if self.players.is_empty() || self.players.len() > MAX_PLAYERS {
            return Err(refuse(format!("players: 1 to {MAX_PLAYERS}")));
        }
        for (k, p) in self.players.iter().enumerate() {
            match (&p.user, &p.name) {
                (None, None) => {
                    return Err(refuse(format!("players[{k}]: a user or a name")));
                }
                (Some(u), _) if u.is_empty() || u.len() > 64 => {
                    return Err(refuse(format!("players[{k}].user: not an account name")));
                }
                _ => {}
            }
            if let Some(n) = &p.name {
                check_text("players.name", n, 64)?;
                if n.trim().is_empty() {
                    return Err(refuse(format!("players[{k}].name: empty")));
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode_body;

    #[test]
    fn unknown_fields_are_refused_in_every_shelf_body() {
        assert!(decode_body::<GameFields>(br#"{"name_en": "a", "x": 1}"#).is_err());
        assert!(decode_body::<CollectionEntry>(br#"{"own": true, "x": 1}"#).is_err());
        assert!(decode_body::<NewPlay>(
            br#"{"game": "a", "date": "2026-01-01", "players": [], "x": 1}"#
        )
        .is_err());
        assert!(decode_body::<ShelfSettings>(br#"{"visibility": "public", "x": 1}"#).is_err());
        assert!(decode_body::<ShelfSettings>(br#"{"visibility": "friends"}"#).is_err());
    }

    #[test]
    fn a_date_must_be_on_the_calendar() {
        assert!(valid_date("2024-02-29"));
        assert!(!valid_date("2023-02-29"));
        assert!(!valid_date("2023-13-01"));
        assert!(!valid_date("2023-1-01"));
        assert!(!valid_date("２０２３-01-01"));
        assert!(!valid_date("+023-01-01"));
    }

    #[test]
    fn ratings_are_from_one_to_ten_in_tenths() {
        assert_eq!(rating_tenths(7.5), Ok(75));
        assert_eq!(rating_tenths(10.0), Ok(100));
        assert!(rating_tenths(0.5).is_err());
        assert!(rating_tenths(10.01).is_err());
        let e = CollectionEntry {
            wishlist_priority: Some(2),
            ..Default::default()
        };
        assert!(e.validate().is_err(), "a priority without the wishlist");
    }

    #[test]
    fn a_game_needs_a_name_and_sane_ranges() {
        assert!(GameFields::default().validate_new().is_err());
        let g = GameFields {
            name_en: Some("Catan".into()),
            min_players: Some(5),
            max_players: Some(3),
            ..Default::default()
        };
        assert!(g.validate_new().is_err());
        let g = GameFields {
            name_en: Some("Catan".into()),
            min_players: Some(3),
            max_players: Some(4),
            ..Default::default()
        };
        assert_eq!(g.validate_new(), Ok(()));
    }
}
