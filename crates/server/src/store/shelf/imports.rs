//! The BoardGameGeek import's writes: the caller's entries and the catalog's games
//! among the file's, the games the catalog lacks added, and the entries written, all
//! in one transaction on the writer's connection. (What an entry becomes is decided
//! by `crate::shelf::import`.)

use super::super::writer::Writer;
use super::super::StoreError;
use super::catalog::insert_game;
use super::collections::upsert_entry;
use super::versions::bump_shelf;
use crate::shelf::import::{after_import, fields_of, AddedGame, ImportReport, Stored};
use sqlx::Row;
use std::collections::HashMap;
use takuge_protocol::BggRow;

/// The whole import, in one transaction on the writer's connection.
async fn run(
    c: &mut sqlx::AnyConnection,
    user: i64,
    admin: bool,
    rows: Vec<BggRow>,
) -> Result<ImportReport, sqlx::Error> {
    use sqlx::Connection;
    let mut tx = c.begin().await?;
    let mut report = ImportReport {
        rows: rows.len(),
        ..ImportReport::default()
    };
    // The caller's entries of games with a BGG id, by that id.
    let mut mine: HashMap<i64, (i64, Stored)> = HashMap::new();
    for r in sqlx::query(
        "SELECT g.bgg_id, c.game_id, c.own, c.prev_owned, c.want_to_play, c.wishlist, c.played, c.favourite,
            c.wishlist_priority, c.rating, c.comment
         FROM collections c JOIN catalog_games g ON g.id = c.game_id
         WHERE c.user_id = $1 AND g.bgg_id IS NOT NULL",
    )
    .bind(user)
    .fetch_all(&mut *tx)
    .await?
    {
        let on = |c: &str| Ok::<_, sqlx::Error>(r.try_get::<i64, _>(c)? != 0);
        let stored = Stored {
            flags: [
                on("own")?,
                on("prev_owned")?,
                on("want_to_play")?,
                on("wishlist")?,
                on("played")?,
                on("favourite")?,
            ],
            priority: r.try_get("wishlist_priority")?,
            rating: r.try_get("rating")?,
            comment: r.try_get("comment")?,
        };
        mine.insert(r.try_get("bgg_id")?, (r.try_get("game_id")?, stored));
    }
    // The catalog's games among the file's, a thousand ids a statement (the ids are
    // integers the decoder parsed, written into the statement as such).
    let mut known: HashMap<i64, i64> = HashMap::new();
    for chunk in rows.chunks(1000) {
        let ids: Vec<String> = chunk.iter().map(|r| r.bgg_id.to_string()).collect();
        for r in sqlx::query(&format!(
            "SELECT id, bgg_id FROM catalog_games WHERE bgg_id IN ({})",
            ids.join(",")
        ))
        .fetch_all(&mut *tx)
        .await?
        {
            known.insert(r.try_get("bgg_id")?, r.try_get("id")?);
        }
    }
    let status = if admin { "approved" } else { "pending" };
    for row in &rows {
        let bgg = i64::from(row.bgg_id);
        let (game, before) = match mine.get(&bgg) {
            Some((game, stored)) => (*game, Some(stored.clone())),
            None => {
                let game = match known.get(&bgg).copied() {
                    Some(id) => id,
                    None => {
                        let (id, _) =
                            insert_game(&mut tx, &fields_of(row), status, "import", user).await?;
                        report.games_added.push(AddedGame {
                            line: row.line,
                            bgg_id: row.bgg_id,
                            name: row.name.clone(),
                            game_id: id,
                        });
                        id
                    }
                };
                (game, None)
            }
        };
        let after = after_import(before.as_ref(), row);
        match &before {
            Some(b) if *b == after => {
                report.entries_unchanged += 1;
                continue;
            }
            Some(_) => report.entries_updated += 1,
            None => report.entries_added += 1,
        }
        upsert_entry(&mut tx, user, game, &after.row()).await?;
    }
    // Once for the whole file (each row would be one more statement).
    if report.entries_added + report.entries_updated > 0 {
        bump_shelf(&mut tx, user).await?;
    }
    tx.commit().await?;
    Ok(report)
}

impl Writer {
    /// Imports `rows` onto `user`'s shelf (games the catalog lacks added, `approved`
    /// when an admin imports, else `pending`), all or nothing. Another import adding
    /// one of the same games meanwhile is a [`StoreError::Conflict`].
    pub async fn import_collection(
        &self,
        user: i64,
        admin: bool,
        rows: Vec<BggRow>,
    ) -> Result<ImportReport, StoreError> {
        self.write(move |c| Box::pin(run(c, user, admin, rows)))
            .await
    }
}
