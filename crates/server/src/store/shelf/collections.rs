//! Collections as stored: a shelf's visibility and version numbers, a whole shelf's
//! rows, one entry, and writing (an entry, the shelf's visibility) or deleting one.

use super::super::writer::Writer;
use super::super::{Store, StoreError};
use super::catalog::{game_from_row, GAME_COLUMNS};
use super::versions::bump_shelf;
use crate::shelf::collection::{EntryRow, ShelfEntry};
use crate::shelf::shelf_cache::{Held, Stamp};
use crate::time::now;
use sqlx::any::AnyRow;
use sqlx::Row;

pub const ENTRY_COLUMNS: &str =
    "c.own, c.prev_owned, c.want_to_play, c.wishlist, c.wishlist_priority,
    c.played, c.favourite, c.rating, c.comment, c.updated_at";

/// An entry from a row holding `GAME_COLUMNS` and [`ENTRY_COLUMNS`].
pub(crate) fn entry_from_row(r: &AnyRow) -> Result<ShelfEntry, sqlx::Error> {
    let on = |c: &str| Ok::<_, sqlx::Error>(r.try_get::<i64, _>(c)? != 0);
    Ok(ShelfEntry {
        game: game_from_row(r)?,
        own: on("own")?,
        prev_owned: on("prev_owned")?,
        want_to_play: on("want_to_play")?,
        wishlist: on("wishlist")?,
        wishlist_priority: r.try_get("wishlist_priority")?,
        played: on("played")?,
        favourite: on("favourite")?,
        rating: r
            .try_get::<Option<i64>, _>("rating")?
            .map(|t| t as f64 / 10.0),
        comment: r.try_get("comment")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// An entry with what the in-memory filters and sorts read, from a row holding
/// `GAME_COLUMNS`, the sort keys and [`ENTRY_COLUMNS`].
fn held_from_row(r: &AnyRow) -> Result<Held, sqlx::Error> {
    Ok(Held {
        entry: entry_from_row(r)?,
        sort_ja: r.try_get("sort_ja")?,
        sort_en: r.try_get("sort_en")?,
        rating: r.try_get("rating")?,
    })
}

/// The columns of [`held_from_row`], from `collections c JOIN catalog_games g`.
fn held_columns() -> String {
    format!("{GAME_COLUMNS}, g.sort_ja, g.sort_en, {ENTRY_COLUMNS}")
}

impl Store {
    /// `owner`'s shelf visibility as stored (none: the default) and the version
    /// numbers its rows are at now, in one statement.
    pub async fn shelf_stamp(&self, owner: i64) -> Result<(Option<String>, Stamp), StoreError> {
        let row = sqlx::query(
            "SELECT (SELECT visibility FROM shelves WHERE user_id = $1),
                (SELECT version FROM shelf_versions WHERE user_id = $1),
                (SELECT version FROM catalog_version WHERE id = 1)",
        )
        .bind(owner)
        .fetch_one(self.pool())
        .await?;
        let stamp = Stamp {
            shelf: row.try_get::<Option<i64>, _>(1)?.unwrap_or(0),
            catalog: row.try_get::<Option<i64>, _>(2)?.unwrap_or(0),
        };
        Ok((row.try_get(0)?, stamp))
    }

    /// Every entry of `owner`'s shelf, with what the in-memory filters and sorts read.
    pub async fn shelf_entries(&self, owner: i64) -> Result<Vec<Held>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {} FROM collections c JOIN catalog_games g ON g.id = c.game_id
             WHERE c.user_id = $1",
            held_columns()
        ))
        .bind(owner)
        .fetch_all(self.pool())
        .await?;
        Ok(rows.iter().map(held_from_row).collect::<Result<_, _>>()?)
    }

    /// `user`'s entry of `game`, if on the shelf.
    pub async fn collection_entry(
        &self,
        user: i64,
        game: i64,
    ) -> Result<Option<ShelfEntry>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, {ENTRY_COLUMNS} FROM collections c JOIN catalog_games g ON g.id = c.game_id
             WHERE c.user_id = $1 AND c.game_id = $2"
        ))
        .bind(user)
        .bind(game)
        .fetch_optional(self.pool())
        .await?;
        Ok(row.as_ref().map(entry_from_row).transpose()?)
    }
}

/// Writes one entry, whole.
pub(crate) async fn upsert_entry(
    c: &mut sqlx::AnyConnection,
    user: i64,
    game: i64,
    e: &EntryRow,
) -> Result<(), sqlx::Error> {
    let b = |v: bool| i64::from(v);
    sqlx::query(
        "INSERT INTO collections (user_id, game_id, own, prev_owned, want_to_play, wishlist, wishlist_priority,
            played, favourite, rating, comment, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
         ON CONFLICT (user_id, game_id) DO UPDATE SET own = excluded.own, prev_owned = excluded.prev_owned,
            want_to_play = excluded.want_to_play, wishlist = excluded.wishlist,
            wishlist_priority = excluded.wishlist_priority, played = excluded.played,
            favourite = excluded.favourite, rating = excluded.rating, comment = excluded.comment,
            updated_at = excluded.updated_at",
    )
    .bind(user)
    .bind(game)
    .bind(b(e.own))
    .bind(b(e.prev_owned))
    .bind(b(e.want_to_play))
    .bind(b(e.wishlist))
    .bind(e.wishlist_priority)
    .bind(b(e.played))
    .bind(b(e.favourite))
    .bind(e.rating)
    .bind(e.comment.as_str())
    .bind(now())
    .execute(&mut *c)
    .await?;
    Ok(())
}

impl Writer {
    /// Who may see `user`'s shelf and plays (`public`, `signed_in`, `private`).
    pub async fn set_shelf_visibility(
        &self,
        user: i64,
        visibility: &'static str,
    ) -> Result<(), StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                sqlx::query(
                    "INSERT INTO shelves (user_id, visibility) VALUES ($1, $2)
                     ON CONFLICT (user_id) DO UPDATE SET visibility = excluded.visibility",
                )
                .bind(user)
                .bind(visibility)
                .execute(&mut *c)
                .await?;
                Ok(())
            })
        })
        .await
    }

    /// Puts `game` on `user`'s shelf, or replaces its entry, raising the shelf's
    /// version; that version and the entry as stored (read in the same transaction, so
    /// it is exactly what that version holds).
    pub async fn put_entry(
        &self,
        user: i64,
        game: i64,
        row: EntryRow,
    ) -> Result<(i64, Held), StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                upsert_entry(&mut tx, user, game, &row).await?;
                let version = bump_shelf(&mut tx, user).await?;
                let stored = sqlx::query(&format!(
                    "SELECT {} FROM collections c JOIN catalog_games g ON g.id = c.game_id
                     WHERE c.user_id = $1 AND c.game_id = $2",
                    held_columns()
                ))
                .bind(user)
                .bind(game)
                .fetch_one(&mut *tx)
                .await?;
                let held = held_from_row(&stored)?;
                tx.commit().await?;
                Ok((version, held))
            })
        })
        .await
    }

    /// Takes `game` off `user`'s shelf: the shelf's version after it, `None` when the
    /// game was not there (nothing changed).
    pub async fn delete_entry(&self, user: i64, game: i64) -> Result<Option<i64>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let gone =
                    sqlx::query("DELETE FROM collections WHERE user_id = $1 AND game_id = $2")
                        .bind(user)
                        .bind(game)
                        .execute(&mut *tx)
                        .await?
                        .rows_affected();
                let version = if gone > 0 {
                    Some(bump_shelf(&mut tx, user).await?)
                } else {
                    None
                };
                tx.commit().await?;
                Ok(version)
            })
        })
        .await
    }
}
