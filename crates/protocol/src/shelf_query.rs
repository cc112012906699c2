//! The shelf's query strings: searching the catalog, sorting and filtering a shelf,
//! plays, exports. Unknown parameters are ignored (see `query.rs`).

use serde::{Deserialize, Serialize};

/// What a list is sorted by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SortBy {
    /// The English name, case-folded.
    #[default]
    NameEn,
    /// The Japanese name by its reading: kana folded to hiragana (五十音順), names
    /// without a kana reading after them.
    NameJa,
    Year,
    /// Fewest players first (ascending).
    Players,
    /// Longest playing time.
    Minutes,
    /// Minimum age.
    Age,
    /// The shelf owner's rating; in the catalog, the average rating.
    Rating,
    /// When the entry last changed (shelves only; the catalog: when the game did).
    Updated,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Asc,
    Desc,
}

/// A collection status, for `?status=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Own,
    PrevOwned,
    WantToPlay,
    Wishlist,
    Played,
    Favourite,
}

impl Status {
    /// The column of `collections` that holds it.
    pub fn column(self) -> &'static str {
        match self {
            Status::Own => "own",
            Status::PrevOwned => "prev_owned",
            Status::WantToPlay => "want_to_play",
            Status::Wishlist => "wishlist",
            Status::Played => "played",
            Status::Favourite => "favourite",
        }
    }
}

/// A number that is a number: `NaN` and infinities (which Rust's float parsing
/// accepts) are refused.
fn finite<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Option::<f64>::deserialize(d)? {
        Some(v) if !v.is_finite() => Err(serde::de::Error::custom("not a finite number")),
        v => Ok(v),
    }
}

/// Filters shared by the catalog and shelves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct ShelfQuery {
    /// Words in either name (or the reading), any case.
    pub q: Option<String>,
    /// Only entries with this status (shelves only).
    #[cfg_attr(feature = "openapi", param(inline))]
    pub status: Option<Status>,
    /// Playable with this many players.
    pub players: Option<u32>,
    /// Best with this many players.
    pub best: Option<u32>,
    /// At most this long (the longest playing time, in minutes).
    pub max_minutes: Option<u32>,
    /// Suitable for a player of this age (the minimum age at most this).
    pub age: Option<u32>,
    /// Published in or after this year.
    pub year_from: Option<u32>,
    /// Published in or before this year.
    pub year_to: Option<u32>,
    /// The owner's rating at least this (shelves), the average rating (catalog).
    #[serde(default, deserialize_with = "finite")]
    pub min_rating: Option<f64>,
    #[cfg_attr(feature = "openapi", param(inline))]
    pub sort: Option<SortBy>,
    #[cfg_attr(feature = "openapi", param(inline))]
    pub order: Option<Order>,
    /// At most this many (default 100, at most 2000).
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

/// `GET /api/plays`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct PlaysQuery {
    /// Whose plays: a login name or an account id; absent: the caller's.
    pub user: Option<String>,
    /// Only this game (a catalog id or a takuge game id).
    pub game: Option<String>,
    /// At most this many plays, newest first (default 100, at most 1000).
    pub limit: Option<u32>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    #[default]
    Json,
    Csv,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ExportPart {
    /// JSON: both; CSV: the collection in BoardGameGeek's columns.
    #[default]
    Collection,
    Plays,
}

/// `GET /api/collections/me/export`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct ExportQuery {
    #[cfg_attr(feature = "openapi", param(inline))]
    pub format: Option<ExportFormat>,
    /// CSV only: which file (JSON holds both).
    #[cfg_attr(feature = "openapi", param(inline))]
    pub what: Option<ExportPart>,
}

/// `GET /api/catalog/changes`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct ChangesQuery {
    /// Default `pending`.
    #[cfg_attr(feature = "openapi", param(inline))]
    pub status: Option<ChangeStatus>,
}

/// Where a catalog change stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ChangeStatus {
    #[default]
    Pending,
    Approved,
    Rejected,
}

impl ChangeStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeStatus::Pending => "pending",
            ChangeStatus::Approved => "approved",
            ChangeStatus::Rejected => "rejected",
        }
    }
}
