//! The catalog's games as shown: [`CatalogGame`], its links, its fields as a proposal
//! gives them, and a correction merged over them. (Stored and searched by
//! `store/shelf/catalog.rs`.)

use serde::Serialize;
use takuge_protocol::GameFields;
use utoipa::ToSchema;

/// Where a playable game is played and explained (web paths).
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct GameLinks {
    /// The lobby, showing this game's tables.
    pub tables: String,
    pub rules: String,
}

/// A game of the catalog.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct CatalogGame {
    pub id: i64,
    /// The takuge game id of a game played here (`secret-moon`, ...).
    pub slug: Option<String>,
    /// Empty when not known.
    pub name_ja: String,
    pub name_en: String,
    pub reading_ja: String,
    pub min_players: Option<i64>,
    pub max_players: Option<i64>,
    pub best_players: Vec<i64>,
    pub min_minutes: Option<i64>,
    pub max_minutes: Option<i64>,
    pub min_age: Option<i64>,
    pub year: Option<i64>,
    pub designers: Vec<String>,
    pub publishers: Vec<String>,
    pub mechanics: Vec<String>,
    pub categories: Vec<String>,
    pub bgg_id: Option<i64>,
    /// Played on takuge: see `links`.
    pub playable: bool,
    /// `approved` (listed), `pending` (waiting for an admin), `rejected`.
    pub status: String,
    pub links: Option<GameLinks>,
}

/// Where a game is played and explained, for a playable one with a takuge id.
pub fn links(slug: Option<&str>, playable: bool) -> Option<GameLinks> {
    slug.filter(|_| playable).map(|s| GameLinks {
        tables: format!("/?game={s}"),
        rules: format!("/rules/{s}"),
    })
}

impl CatalogGame {
    /// The game's fields, as a proposal would give them all.
    pub fn fields(&self) -> GameFields {
        let u = |v: Option<i64>| v.and_then(|v| u32::try_from(v).ok());
        let name = |s: &str| (!s.is_empty()).then(|| s.to_string());
        GameFields {
            name_ja: name(&self.name_ja),
            name_en: name(&self.name_en),
            reading_ja: name(&self.reading_ja),
            min_players: u(self.min_players),
            max_players: u(self.max_players),
            best_players: Some(
                self.best_players
                    .iter()
                    .filter_map(|v| u32::try_from(*v).ok())
                    .collect(),
            ),
            min_minutes: u(self.min_minutes),
            max_minutes: u(self.max_minutes),
            min_age: u(self.min_age),
            year: u(self.year),
            designers: Some(self.designers.clone()),
            publishers: Some(self.publishers.clone()),
            mechanics: Some(self.mechanics.clone()),
            categories: Some(self.categories.clone()),
            bgg_id: self.bgg_id.and_then(|v| u32::try_from(v).ok()),
        }
    }
}

/// `base` with every field `change` gives replaced.
pub fn merged(base: &GameFields, change: &GameFields) -> GameFields {
    fn pick<T: Clone>(a: &Option<T>, b: &Option<T>) -> Option<T> {
        b.clone().or_else(|| a.clone())
    }
    GameFields {
        name_ja: pick(&base.name_ja, &change.name_ja),
        name_en: pick(&base.name_en, &change.name_en),
        reading_ja: pick(&base.reading_ja, &change.reading_ja),
        min_players: pick(&base.min_players, &change.min_players),
        max_players: pick(&base.max_players, &change.max_players),
        best_players: pick(&base.best_players, &change.best_players),
        min_minutes: pick(&base.min_minutes, &change.min_minutes),
        max_minutes: pick(&base.max_minutes, &change.max_minutes),
        min_age: pick(&base.min_age, &change.min_age),
        year: pick(&base.year, &change.year),
        designers: pick(&base.designers, &change.designers),
        publishers: pick(&base.publishers, &change.publishers),
        mechanics: pick(&base.mechanics, &change.mechanics),
        categories: pick(&base.categories, &change.categories),
        bgg_id: pick(&base.bgg_id, &change.bgg_id),
    }
}
