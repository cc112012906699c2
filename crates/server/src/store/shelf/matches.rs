//! A finished takuge match becomes a play in the history of each registered seat
//! (not guests, not bots, not a seat a bot took over when its player left): the date
//! it ended, every seat's name, score and rank, the winners (rank 1), the minutes from
//! the first action to the last, and the replay. Read from what the database holds
//! about the table, so the table task (right after the last action commits) and the
//! start-up catch-up (for a match whose play a crash kept from being written) do the
//! same; a play already recorded is never written twice.

use super::plays::{insert_play, NewPlayer, PlayRow};
use crate::time::now;
use sqlx::Connection;
use sqlx::Row;

/// Records the plays of finished table `table`; how many were new.
pub async fn record_table(c: &mut sqlx::AnyConnection, table: i64) -> Result<usize, sqlx::Error> {
    let mut tx = c.begin().await?;
    let Some(t) = sqlx::query(
        "SELECT t.outcome, t.updated_at, g.id AS game_id,
            (SELECT MIN(a.created_at) FROM actions a WHERE a.table_id = t.id) AS started
         FROM game_tables t JOIN catalog_games g ON g.slug = t.game
         WHERE t.id = $1 AND t.status = 'finished'",
    )
    .bind(table)
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(0);
    };
    let Some(outcome) = t
        .try_get::<Option<String>, _>("outcome")?
        .and_then(|o| serde_json::from_str::<takuge_engine::Outcome>(&o).ok())
    else {
        return Ok(0);
    };
    let ended: i64 = t.try_get("updated_at")?;
    let started: Option<i64> = t.try_get("started")?;
    let seats = sqlx::query(
        "SELECT s.seat, s.user_id, s.name, s.bot, s.replaced, u.guest
         FROM seats s LEFT JOIN users u ON u.id = s.user_id
         WHERE s.table_id = $1 ORDER BY s.seat",
    )
    .bind(table)
    .fetch_all(&mut *tx)
    .await?;
    let mut players = Vec::new();
    let mut owners = Vec::new();
    for s in &seats {
        let k = usize::try_from(s.try_get::<i64, _>("seat")?).unwrap_or(usize::MAX);
        let user: Option<i64> = s.try_get("user_id")?;
        let bot: Option<String> = s.try_get("bot")?;
        let registered = user.is_some()
            && s.try_get::<Option<i64>, _>("guest")? == Some(0)
            && s.try_get::<i64, _>("replaced")? == 0;
        let rank = outcome.ranks.get(k).map(|r| i64::from(*r));
        if registered {
            owners.extend(user);
        }
        let name: String = s.try_get("name")?;
        players.push(NewPlayer {
            user_id: user.filter(|_| registered),
            name: match (&bot, name.is_empty()) {
                (Some(b), true) => b.clone(),
                _ => name,
            },
            score: outcome.scores.get(k).copied(),
            rank,
            winner: rank == Some(1),
        });
    }
    let minutes = started
        .map(|s| ((ended - s).max(0) + 59) / 60)
        .filter(|m| *m > 0);
    let mut row = PlayRow {
        user_id: 0,
        game_id: t.try_get("game_id")?,
        date: crate::shelf::date_of(ended),
        minutes,
        comment: String::new(),
        table_id: Some(table),
        players,
    };
    let mut new = 0;
    for owner in owners {
        row.user_id = owner;
        if insert_play(&mut tx, &row).await?.is_some() {
            new += 1;
        }
    }
    tx.commit().await?;
    Ok(new)
}

/// Plays of tables that finished in the last day without them (a crash between the
/// last action's commit and the plays' write).
///
/// Returns how many tables it walked.
pub async fn catch_up(db: &crate::store::Store) -> Result<usize, String> {
    let failed = |e: sqlx::Error| format!("recording the plays of finished matches: {e}");
    let tables: Vec<i64> = sqlx::query_scalar(
        // Only tables a registered person played have a play to write (the rule in
        // `record_table`); without this every start walked each finished table of bots
        // and guests of the last day again, one by one, before it listened.
        "SELECT t.id FROM game_tables t WHERE t.status = 'finished' AND t.updated_at > $1
           AND NOT EXISTS (SELECT 1 FROM plays p WHERE p.table_id = t.id)
           AND EXISTS (SELECT 1 FROM seats s JOIN users u ON u.id = s.user_id
                       WHERE s.table_id = t.id AND u.guest = 0 AND s.replaced = 0)",
    )
    .bind(now() - 86_400)
    .fetch_all(db.pool())
    .await
    .map_err(failed)?;
    for &table in &tables {
        let mut conn = db.pool().acquire().await.map_err(failed)?;
        record_table(&mut conn, table).await.map_err(failed)?;
    }
    Ok(tables.len())
}
