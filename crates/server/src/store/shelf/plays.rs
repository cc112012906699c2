//! Plays: a person's history and per-game numbers, a game's latest public plays, and
//! writing a play (logged by hand, or recorded when a match finishes) or deleting one.

use super::super::writer::Writer;
use super::super::{Store, StoreError};
use crate::shelf::plays::{GameStats, Month, Play, PlayGame, PlayPlayer};
use crate::time::now;
use sqlx::Row;
use std::collections::HashMap;

const PLAY_SELECT: &str = "SELECT p.id, p.user_id, p.played_on, p.minutes, p.comment, p.table_id,
        g.id AS gid, g.slug, g.name_ja, g.name_en, g.bgg_id
    FROM plays p JOIN catalog_games g ON g.id = p.game_id";

/// The plays of `rows` (from [`PLAY_SELECT`]) with their players.
async fn plays_of(db: &Store, rows: Vec<sqlx::any::AnyRow>) -> Result<Vec<Play>, StoreError> {
    let mut plays: Vec<Play> = rows
        .iter()
        .map(|r| {
            let table: Option<i64> = r.try_get("table_id")?;
            Ok::<_, sqlx::Error>(Play {
                id: r.try_get("id")?,
                user_id: r.try_get("user_id")?,
                game: PlayGame {
                    id: r.try_get("gid")?,
                    slug: r.try_get("slug")?,
                    name_ja: r.try_get("name_ja")?,
                    name_en: r.try_get("name_en")?,
                    bgg_id: r.try_get("bgg_id")?,
                },
                date: r.try_get("played_on")?,
                minutes: r.try_get("minutes")?,
                comment: r.try_get("comment")?,
                table_id: table,
                replay: table.map(|t| format!("/replay/{t}")),
                players: Vec::new(),
            })
        })
        .collect::<Result<_, _>>()?;
    if plays.is_empty() {
        return Ok(plays);
    }
    // The players of every play at once: their ids are a list of integers we made.
    let ids: Vec<String> = plays.iter().map(|p| p.id.to_string()).collect();
    let rows = sqlx::query(&format!(
        "SELECT play_id, user_id, name, score, rank, winner FROM play_players
         WHERE play_id IN ({}) ORDER BY play_id, position",
        ids.join(",")
    ))
    .fetch_all(db.pool())
    .await?;
    let mut by_play: HashMap<i64, Vec<PlayPlayer>> = HashMap::new();
    for r in rows {
        by_play
            .entry(r.try_get("play_id")?)
            .or_default()
            .push(PlayPlayer {
                user_id: r.try_get("user_id")?,
                name: r.try_get("name")?,
                score: r.try_get("score")?,
                rank: r.try_get("rank")?,
                winner: r.try_get::<i64, _>("winner")? != 0,
            });
    }
    for p in &mut plays {
        p.players = by_play.remove(&p.id).unwrap_or_default();
    }
    Ok(plays)
}

/// One player of a play about to be written.
pub struct NewPlayer {
    pub user_id: Option<i64>,
    pub name: String,
    pub score: Option<i64>,
    pub rank: Option<i64>,
    pub winner: bool,
}

/// A play about to be written.
pub struct PlayRow {
    pub user_id: i64,
    pub game_id: i64,
    pub date: String,
    pub minutes: Option<i64>,
    pub comment: String,
    pub table_id: Option<i64>,
    pub players: Vec<NewPlayer>,
}

/// Writes a play and its players; its id, or `None` when a play of that table is
/// already in that person's history.
pub(crate) async fn insert_play(
    c: &mut sqlx::AnyConnection,
    p: &PlayRow,
) -> Result<Option<i64>, sqlx::Error> {
    let rows = sqlx::query(
        "INSERT INTO plays (user_id, game_id, played_on, minutes, comment, table_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (table_id, user_id) DO NOTHING RETURNING id",
    )
    .bind(p.user_id)
    .bind(p.game_id)
    .bind(p.date.as_str())
    .bind(p.minutes)
    .bind(p.comment.as_str())
    .bind(p.table_id)
    .bind(now())
    .fetch_all(&mut *c)
    .await?;
    let Some(id) = rows.first().map(|r| r.try_get::<i64, _>(0)).transpose()? else {
        return Ok(None);
    };
    for (k, pl) in p.players.iter().enumerate() {
        sqlx::query(
            "INSERT INTO play_players (play_id, position, user_id, name, score, rank, winner)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(id)
        .bind(k as i64)
        .bind(pl.user_id)
        .bind(pl.name.as_str())
        .bind(pl.score)
        .bind(pl.rank)
        .bind(i64::from(pl.winner))
        .execute(&mut *c)
        .await?;
    }
    Ok(Some(id))
}

impl Store {
    /// The latest `n` plays of `game` in histories shown to everyone.
    pub async fn recent_public_plays(&self, game: i64, n: i64) -> Result<Vec<Play>, StoreError> {
        let rows = sqlx::query(&format!(
            "{PLAY_SELECT} JOIN users u ON u.id = p.user_id
             WHERE p.game_id = $1 AND u.guest = 0
               AND NOT EXISTS (SELECT 1 FROM shelves s WHERE s.user_id = p.user_id AND s.visibility <> 'public')
             ORDER BY p.played_on DESC, p.id DESC LIMIT $2"
        ))
        .bind(game)
        .bind(n)
        .fetch_all(self.pool())
        .await?;
        plays_of(self, rows).await
    }

    pub async fn play_by_id(&self, id: i64) -> Result<Option<Play>, StoreError> {
        let rows = sqlx::query(&format!("{PLAY_SELECT} WHERE p.id = $1"))
            .bind(id)
            .fetch_all(self.pool())
            .await?;
        Ok(plays_of(self, rows).await?.pop())
    }

    /// `user`'s plays (of `game` if given), newest first, at most `limit`.
    pub async fn plays_of_user(
        &self,
        user: i64,
        game: Option<i64>,
        limit: i64,
    ) -> Result<Vec<Play>, StoreError> {
        let rows = sqlx::query(&format!(
            "{PLAY_SELECT} WHERE p.user_id = $1 AND ($2 IS NULL OR p.game_id = $3)
             ORDER BY p.played_on DESC, p.id DESC LIMIT $4"
        ))
        .bind(user)
        .bind(game)
        .bind(game)
        .bind(limit)
        .fetch_all(self.pool())
        .await?;
        plays_of(self, rows).await
    }

    /// Per game (of `game` if given), `user`'s plays, wins and last date, most played
    /// first, over the whole history.
    pub async fn play_stats(
        &self,
        user: i64,
        game: Option<i64>,
    ) -> Result<Vec<GameStats>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id AS gid, g.slug, g.name_ja, g.name_en, g.bgg_id, COUNT(*) AS n, MAX(p.played_on) AS last,
                CAST(COALESCE(SUM(CASE WHEN EXISTS (SELECT 1 FROM play_players w
                     WHERE w.play_id = p.id AND w.user_id = p.user_id AND w.winner = 1) THEN 1 ELSE 0 END), 0) AS BIGINT) AS wins
             FROM plays p JOIN catalog_games g ON g.id = p.game_id
             WHERE p.user_id = $1 AND ($2 IS NULL OR p.game_id = $3)
             GROUP BY g.id, g.slug, g.name_ja, g.name_en, g.bgg_id
             ORDER BY COUNT(*) DESC, MAX(p.played_on) DESC, g.id",
        )
        .bind(user)
        .bind(game)
        .bind(game)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(GameStats {
                    game: PlayGame {
                        id: r.try_get("gid")?,
                        slug: r.try_get("slug")?,
                        name_ja: r.try_get("name_ja")?,
                        name_en: r.try_get("name_en")?,
                        bgg_id: r.try_get("bgg_id")?,
                    },
                    plays: r.try_get("n")?,
                    wins: r.try_get("wins")?,
                    last_played: r.try_get("last")?,
                })
            })
            .collect::<Result<_, _>>()?)
    }

    /// `user`'s plays (of `game` if given) per month, oldest first.
    pub async fn plays_by_month(
        &self,
        user: i64,
        game: Option<i64>,
    ) -> Result<Vec<Month>, StoreError> {
        let rows = sqlx::query(
            "SELECT SUBSTR(played_on, 1, 7) AS m, COUNT(*) AS n FROM plays
             WHERE user_id = $1 AND ($2 IS NULL OR game_id = $3)
             GROUP BY SUBSTR(played_on, 1, 7) ORDER BY SUBSTR(played_on, 1, 7)",
        )
        .bind(user)
        .bind(game)
        .bind(game)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(Month {
                    month: r.try_get("m")?,
                    plays: r.try_get("n")?,
                })
            })
            .collect::<Result<_, _>>()?)
    }
}

impl Writer {
    /// Writes a play logged by hand; its id.
    pub async fn log_play(&self, row: PlayRow) -> Result<Option<i64>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let id = insert_play(&mut tx, &row).await?;
                tx.commit().await?;
                Ok(id)
            })
        })
        .await
    }

    /// Deletes play `id` of `who` logged by hand, with its players: `Some(true)`
    /// deleted; `Some(false)` the play of a takuge match (kept); `None` not `who`'s.
    pub async fn delete_own_play(&self, id: i64, who: i64) -> Result<Option<bool>, StoreError> {
        self.write(move |c| {
            Box::pin(async move {
                use sqlx::Connection;
                let mut tx = c.begin().await?;
                let Some(table) =
                    sqlx::query("SELECT table_id FROM plays WHERE id = $1 AND user_id = $2")
                        .bind(id)
                        .bind(who)
                        .fetch_optional(&mut *tx)
                        .await?
                        .map(|r| r.try_get::<Option<i64>, _>("table_id"))
                        .transpose()?
                else {
                    return Ok(None);
                };
                if table.is_some() {
                    return Ok(Some(false));
                }
                sqlx::query("DELETE FROM play_players WHERE play_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM plays WHERE id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(Some(true))
            })
        })
        .await
    }
}
