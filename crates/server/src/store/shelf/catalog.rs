//! The catalog's games as stored: the row ↔ [`CatalogGame`] mapping, the filters and
//! sorts shared with shelves, searching, a game by id or slug, everyone's counts of
//! one game, and writing a game (an addition, a correction) with its history entry.

use super::super::writer::Writer;
use super::super::{Store, StoreError};
use super::changes::{apply_fields, insert_change};
use super::sql::{contains_pattern, Sql};
use crate::shelf::catalog::{links, CatalogGame};
use crate::shelf::catalog_api::GameCounts;
use crate::shelf::kana;
use crate::time::now;
use sqlx::any::AnyRow;
use sqlx::Row;
use takuge_protocol::{GameFields, Order, ShelfQuery, SortBy};

/// The columns of `catalog_games g` that [`game_from_row`] reads.
pub const GAME_COLUMNS: &str =
    "g.id, g.slug, g.name_ja, g.name_en, g.reading_ja, g.min_players, g.max_players,
    g.best_players, g.min_minutes, g.max_minutes, g.min_age, g.year, g.designers, g.publishers,
    g.mechanics, g.categories, g.bgg_id, g.playable, g.status";

/// The average rating of a game, as the catalog sorts by it.
const AVERAGE: &str = "(SELECT AVG(c.rating) FROM collections c WHERE c.game_id = g.id)";

/// A stored JSON list of names (`[]` when it does not decode).
pub(crate) fn list(v: &str) -> Vec<String> {
    serde_json::from_str(v).unwrap_or_default()
}

/// ",3,4," → [3, 4].
fn counts(v: &str) -> Vec<i64> {
    v.split(',').filter_map(|n| n.parse().ok()).collect()
}

/// A game from a row holding [`GAME_COLUMNS`].
pub(crate) fn game_from_row(r: &AnyRow) -> Result<CatalogGame, sqlx::Error> {
    let slug: Option<String> = r.try_get("slug")?;
    let playable = r.try_get::<i64, _>("playable")? != 0;
    Ok(CatalogGame {
        id: r.try_get("id")?,
        links: links(slug.as_deref(), playable),
        slug,
        name_ja: r.try_get("name_ja")?,
        name_en: r.try_get("name_en")?,
        reading_ja: r.try_get("reading_ja")?,
        min_players: r.try_get("min_players")?,
        max_players: r.try_get("max_players")?,
        best_players: counts(&r.try_get::<String, _>("best_players")?),
        min_minutes: r.try_get("min_minutes")?,
        max_minutes: r.try_get("max_minutes")?,
        min_age: r.try_get("min_age")?,
        year: r.try_get("year")?,
        designers: list(&r.try_get::<String, _>("designers")?),
        publishers: list(&r.try_get::<String, _>("publishers")?),
        mechanics: list(&r.try_get::<String, _>("mechanics")?),
        categories: list(&r.try_get::<String, _>("categories")?),
        bgg_id: r.try_get("bgg_id")?,
        playable,
        status: r.try_get("status")?,
    })
}

/// The games of `rows`, each holding [`GAME_COLUMNS`].
pub(crate) fn games_of(rows: &[AnyRow]) -> Result<Vec<CatalogGame>, sqlx::Error> {
    rows.iter().map(game_from_row).collect()
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

/// A game named by its catalog id or its takuge id.
#[derive(Clone, Copy, Debug)]
pub enum GameKey<'a> {
    Id(i64),
    Slug(&'a str),
}

impl Store {
    /// One page of the approved games matching `q` (and an average rating of at least
    /// `min_rating`, in tenths), and how many match.
    pub async fn search_catalog(
        &self,
        q: &ShelfQuery,
        min_rating: Option<i64>,
    ) -> Result<(Vec<CatalogGame>, i64), StoreError> {
        let mut filter = Sql::new(" WHERE g.status = 'approved'");
        game_filters(&mut filter, q);
        if let Some(r) = min_rating {
            filter.push(&format!(" AND {AVERAGE} >= ")).int(r);
        }
        let mut list = filter.clone();
        list.text = format!("SELECT {GAME_COLUMNS} FROM catalog_games g{}", filter.text);
        order_by(&mut list, q, AVERAGE, "g.updated_at");
        page(&mut list, q);
        // The count's text is the filter's with the same placeholders in the same order.
        let mut counted = filter.clone();
        counted.text = format!("SELECT COUNT(*) FROM catalog_games g{}", filter.text);
        let total: i64 = counted.query().fetch_one(self.pool()).await?.try_get(0)?;
        let games = games_of(&list.query().fetch_all(self.pool()).await?)?;
        Ok((games, total))
    }

    /// A game in any status, with the account that added it.
    pub async fn catalog_game(
        &self,
        key: GameKey<'_>,
    ) -> Result<Option<(CatalogGame, Option<i64>)>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, g.added_by FROM catalog_games g WHERE {}",
            match key {
                GameKey::Id(_) => "g.id = $1",
                GameKey::Slug(_) => "g.slug = $1",
            }
        );
        let q = sqlx::query(&sql);
        let q = match key {
            GameKey::Id(n) => q.bind(n),
            GameKey::Slug(s) => q.bind(s),
        };
        let Some(row) = q.fetch_optional(self.pool()).await? else {
            return Ok(None);
        };
        Ok(Some((game_from_row(&row)?, row.try_get("added_by")?)))
    }

    /// Everyone's collections for `game`, counted.
    pub async fn game_counts(&self, game: i64) -> Result<GameCounts, StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*) AS n,
                CAST(COALESCE(SUM(own), 0) AS BIGINT) AS own,
                CAST(COALESCE(SUM(prev_owned), 0) AS BIGINT) AS prev_owned,
                CAST(COALESCE(SUM(want_to_play), 0) AS BIGINT) AS want_to_play,
                CAST(COALESCE(SUM(wishlist), 0) AS BIGINT) AS wishlist,
                CAST(COALESCE(SUM(played), 0) AS BIGINT) AS played,
                CAST(COALESCE(SUM(favourite), 0) AS BIGINT) AS favourite,
                COUNT(rating) AS ratings,
                CAST(COALESCE(SUM(rating), 0) AS BIGINT) AS rating_sum
             FROM collections WHERE game_id = $1",
        )
        .bind(game)
        .fetch_one(self.pool())
        .await?;
        let ratings: i64 = r.try_get("ratings")?;
        let sum: i64 = r.try_get("rating_sum")?;
        Ok(GameCounts {
            own: r.try_get("own")?,
            prev_owned: r.try_get("prev_owned")?,
            want_to_play: r.try_get("want_to_play")?,
            wishlist: r.try_get("wishlist")?,
            played: r.try_get("played")?,
            favourite: r.try_get("favourite")?,
            ratings,
            average_rating: (ratings > 0)
                .then(|| (sum as f64 / ratings as f64 / 10.0 * 10.0).round() / 10.0),
        })
    }
}

/// Inserts a game with `fields` and its addition to the history, in `tx`; the game's
/// id and the change's.
pub(crate) async fn insert_game(
    tx: &mut sqlx::AnyConnection,
    fields: &GameFields,
    status: &str,
    kind: &'static str,
    author: i64,
) -> Result<(i64, i64), sqlx::Error> {
    let at = now();
    let columns = Columns::of(fields);
    let sql = format!(
        "INSERT INTO catalog_games ({FIELD_COLUMNS}, slug, playable, status, added_by, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, NULL, 0, $18, $19, $20, $21)
         RETURNING id"
    );
    let q = bind_fields(sqlx::query(&sql), fields, &columns)
        .bind(status)
        .bind(author)
        .bind(at)
        .bind(at);
    let id = crate::store::insert_returning_id(q, tx).await?;
    let decided = (status == "approved").then_some(author);
    let change = insert_change(tx, id, kind, fields, author, status, decided).await?;
    Ok((id, change))
}

impl Writer {
    /// Adds a game (`approved` when an admin adds it, else `pending`) with its
    /// addition to the history; the game's id and the change's. A BoardGameGeek id
    /// another game has is a [`StoreError::Conflict`].
    pub async fn add_game(
        &self,
        fields: GameFields,
        status: &'static str,
        author: i64,
    ) -> Result<(i64, i64), StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let ids = insert_game(&mut tx, &fields, status, "add", author).await?;
                tx.commit().await?;
                Ok(ids)
            })
        })
        .await
    }

    /// Records a correction of `game` proposing `fields`; with `apply` (an admin's),
    /// the game takes `after` at once and the correction is approved. The change's id.
    pub async fn correct_game(
        &self,
        game: i64,
        fields: GameFields,
        after: Option<GameFields>,
        author: i64,
    ) -> Result<i64, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let (status, decided) = match &after {
                    Some(after) => {
                        apply_fields(&mut tx, game, after).await?;
                        ("approved", Some(author))
                    }
                    None => ("pending", None),
                };
                let change =
                    insert_change(&mut tx, game, "correct", &fields, author, status, decided)
                        .await?;
                tx.commit().await?;
                Ok(change)
            })
        })
        .await
    }
}
