//! Recommendations (issue 18): the list's query and the "not interested" body.

use crate::Refusal;
use serde::{Deserialize, Serialize};

/// The language of the reasons' words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Language {
    En,
    Ja,
}

/// `GET /api/recommendations`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct RecommendQuery {
    /// Only games playable with this many players (1 to 99).
    pub players: Option<u32>,
    /// Only games at most this long (their longest playing time, in minutes; 1 to 10000).
    pub max_minutes: Option<u32>,
    /// Only games suitable for a player this old: the game's minimum age is at most
    /// this (0 to 99).
    pub min_age: Option<u32>,
    /// At most this many (1 to 100; default 20).
    pub limit: Option<u32>,
    /// The language of the reasons; absent: the first of `ja`/`en` in
    /// `Accept-Language`, else English.
    #[cfg_attr(feature = "openapi", param(inline))]
    pub lang: Option<Language>,
}

fn range(field: &str, v: Option<u32>, lo: u32, hi: u32) -> Result<(), Refusal> {
    match v {
        Some(x) if !(lo..=hi).contains(&x) => Err(Refusal::new(
            "invalid_field",
            format!("{field}: {x} is not from {lo} to {hi}"),
        )),
        _ => Ok(()),
    }
}

impl RecommendQuery {
    pub fn validate(&self) -> Result<(), Refusal> {
        range("players", self.players, 1, 99)?;
        range("max_minutes", self.max_minutes, 1, 10_000)?;
        range("min_age", self.min_age, 0, 99)?;
        range("limit", self.limit, 1, 100)
    }
}

/// `GET /api/catalog/{id}/similar`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct SimilarQuery {
    /// At most this many (1 to 50; default 10).
    pub limit: Option<u32>,
}

impl SimilarQuery {
    pub fn validate(&self) -> Result<(), Refusal> {
        range("limit", self.limit, 1, 50)
    }
}

/// `POST /api/recommendations/dismiss`: "not interested" in a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Dismiss {
    /// The catalog id of the game.
    pub game_id: i64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{decode_body, decode_query};

    #[test]
    fn recommendation_filters_out_of_range_are_refused() {
        let q: RecommendQuery = decode_query("players=0&limit=5").expect("decodes");
        assert_eq!(q.validate().map_err(|r| r.code), Err("invalid_field"));
        let q: RecommendQuery = decode_query("limit=101").expect("decodes");
        assert!(q.validate().is_err());
        let q: RecommendQuery =
            decode_query("players=4&max_minutes=30&min_age=8&lang=ja").expect("decodes");
        assert_eq!(q.validate(), Ok(()));
        assert_eq!(q.lang, Some(Language::Ja));
        assert!(decode_query::<RecommendQuery>("lang=fr").is_err());
        assert!(decode_body::<Dismiss>(br#"{"game_id": 3, "x": 1}"#).is_err());
        assert!(decode_body::<Dismiss>(br#"{"game_id": "3"}"#).is_err());
    }
}
