//! The catalog's games as stored and shown: the row ↔ [`CatalogGame`] mapping, the
//! filters and sorts shared with shelves, and writing a game's fields.

use super::kana;
use super::sql::contains_pattern;
use super::Sql;
use serde::Serialize;
use sqlx::any::AnyRow;
use sqlx::Row;
use takuge_protocol::{GameFields, Order, ShelfQuery, SortBy};
use utoipa::ToSchema;

/// The columns of `catalog_games g` that [`CatalogGame::from_row`] reads.
pub const GAME_COLUMNS: &str =
    "g.id, g.slug, g.name_ja, g.name_en, g.reading_ja, g.min_players, g.max_players,
    g.best_players, g.min_minutes, g.max_minutes, g.min_age, g.year, g.designers, g.publishers,
    g.mechanics, g.categories, g.bgg_id, g.playable, g.status";

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

fn list(v: &str) -> Vec<String> {
    serde_json::from_str(v).unwrap_or_default()
}

/// ",3,4," → [3, 4].
fn counts(v: &str) -> Vec<i64> {
    v.split(',').filter_map(|n| n.parse().ok()).collect()
}

impl CatalogGame {
    pub fn from_row(r: &AnyRow) -> CatalogGame {
        let slug: Option<String> = r.get("slug");
        let playable = r.get::<i64, _>("playable") != 0;
        CatalogGame {
            id: r.get("id"),
            links: slug.as_ref().filter(|_| playable).map(|s| GameLinks {
                tables: format!("/?game={s}"),
                rules: format!("/rules/{s}"),
            }),
            slug,
            name_ja: r.get("name_ja"),
            name_en: r.get("name_en"),
            reading_ja: r.get("reading_ja"),
            min_players: r.get("min_players"),
            max_players: r.get("max_players"),
            best_players: counts(&r.get::<String, _>("best_players")),
            min_minutes: r.get("min_minutes"),
            max_minutes: r.get("max_minutes"),
            min_age: r.get("min_age"),
            year: r.get("year"),
            designers: list(&r.get::<String, _>("designers")),
            publishers: list(&r.get::<String, _>("publishers")),
            mechanics: list(&r.get::<String, _>("mechanics")),
            categories: list(&r.get::<String, _>("categories")),
            bgg_id: r.get("bgg_id"),
            playable,
            status: r.get("status"),
        }
    }

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

/// The stored columns of a game's fields, in the order of [`FIELD_COLUMNS`].
pub struct Columns {
    pub name_ja: String,
    pub name_en: String,
    pub reading_ja: String,
    pub sort_ja: String,
    pub sort_en: String,
    pub best_players: String,
    pub lists: [String; 4],
}

pub const FIELD_COLUMNS: &str =
    "name_ja, name_en, reading_ja, sort_ja, sort_en, min_players, max_players, best_players,
    min_minutes, max_minutes, min_age, year, designers, publishers, mechanics, categories, bgg_id";

impl Columns {
    pub fn of(f: &GameFields) -> Columns {
        let name_ja = f.name_ja.clone().unwrap_or_default();
        let name_en = f.name_en.clone().unwrap_or_default();
        let reading_ja = f.reading_ja.clone().unwrap_or_default();
        let mut best = f.best_players.clone().unwrap_or_default();
        best.sort_unstable();
        best.dedup();
        let best_players = if best.is_empty() {
            String::new()
        } else {
            let joined: Vec<String> = best.iter().map(u32::to_string).collect();
            format!(",{},", joined.join(","))
        };
        let json = |l: &Option<Vec<String>>| {
            serde_json::to_string(l.as_deref().unwrap_or(&[])).unwrap_or_else(|_| "[]".into())
        };
        Columns {
            sort_ja: kana::sort_ja(&name_ja, &reading_ja, &name_en),
            sort_en: kana::sort_en(if name_en.is_empty() {
                &name_ja
            } else {
                &name_en
            }),
            name_ja,
            name_en,
            reading_ja,
            best_players,
            lists: [
                json(&f.designers),
                json(&f.publishers),
                json(&f.mechanics),
                json(&f.categories),
            ],
        }
    }
}

/// Binds a game's fields to `q` in the order of [`FIELD_COLUMNS`].
pub fn bind_fields<'q>(
    q: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    f: &GameFields,
    c: &'q Columns,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    let i = |v: Option<u32>| v.map(i64::from);
    q.bind(c.name_ja.as_str())
        .bind(c.name_en.as_str())
        .bind(c.reading_ja.as_str())
        .bind(c.sort_ja.as_str())
        .bind(c.sort_en.as_str())
        .bind(i(f.min_players))
        .bind(i(f.max_players))
        .bind(c.best_players.as_str())
        .bind(i(f.min_minutes))
        .bind(i(f.max_minutes))
        .bind(i(f.min_age))
        .bind(i(f.year))
        .bind(c.lists[0].as_str())
        .bind(c.lists[1].as_str())
        .bind(c.lists[2].as_str())
        .bind(c.lists[3].as_str())
        .bind(i(f.bgg_id))
}

/// Appends the filters of `q` that are about the game (`g`), each as `AND ...`.
pub fn game_filters(sql: &mut Sql, q: &ShelfQuery) {
    if let Some(words) = q.q.as_deref().map(str::trim).filter(|w| !w.is_empty()) {
        let en = contains_pattern(&kana::sort_en(words));
        let ja = contains_pattern(&kana::sort_ja(words, "", ""));
        let raw = contains_pattern(words);
        sql.push(" AND (g.sort_en LIKE ")
            .text(en)
            .push(" ESCAPE '\\' OR g.sort_ja LIKE ")
            .text(ja)
            .push(" ESCAPE '\\' OR g.name_ja LIKE ")
            .text(raw)
            .push(" ESCAPE '\\')");
    }
    if let Some(n) = q.players {
        sql.push(" AND g.min_players <= ")
            .int(n.into())
            .push(" AND g.max_players >= ")
            .int(n.into());
    }
    if let Some(n) = q.best {
        sql.push(" AND g.best_players LIKE ")
            .text(format!("%,{n},%"));
    }
    if let Some(m) = q.max_minutes {
        sql.push(" AND g.max_minutes <= ").int(m.into());
    }
    if let Some(a) = q.age {
        sql.push(" AND g.min_age <= ").int(a.into());
    }
    if let Some(y) = q.year_from {
        sql.push(" AND g.year >= ").int(y.into());
    }
    if let Some(y) = q.year_to {
        sql.push(" AND g.year <= ").int(y.into());
    }
}

/// `ORDER BY` for `q`: missing values last whichever the direction, then by the
/// English name and the id so the order is total. `rating` and `updated` are the
/// expressions those sorts use where they apply.
pub fn order_by(sql: &mut Sql, q: &ShelfQuery, rating: &str, updated: &str) {
    let key = match q.sort.unwrap_or_default() {
        SortBy::NameEn => "g.sort_en",
        SortBy::NameJa => "g.sort_ja",
        SortBy::Year => "g.year",
        SortBy::Players => "g.min_players",
        SortBy::Minutes => "g.max_minutes",
        SortBy::Age => "g.min_age",
        SortBy::Rating => rating,
        SortBy::Updated => updated,
    };
    let dir = match q.order.unwrap_or_default() {
        Order::Asc => "ASC",
        Order::Desc => "DESC",
    };
    sql.push(&format!(
        " ORDER BY CASE WHEN {key} IS NULL THEN 1 ELSE 0 END, {key} {dir}, g.sort_en, g.id"
    ));
}

/// `LIMIT`/`OFFSET` for `q` (default 100, at most 2000).
pub fn page(sql: &mut Sql, q: &ShelfQuery) {
    let limit = q.limit.unwrap_or(100).clamp(1, 2000);
    sql.push(" LIMIT ")
        .int(limit.into())
        .push(" OFFSET ")
        .int(q.offset.unwrap_or(0).into());
}
