//! What a profile page reads: the tables an account sits at and the results of its
//! plays; and the display name it sets.

use super::writer::Writer;
use super::{Store, StoreError};
use sqlx::Row;

/// A table open or in play where the account holds a seat of its own.
pub struct SeatedTable {
    pub id: i64,
    pub game: String,
    /// `open` or `playing`.
    pub status: String,
    pub players: i64,
    /// The account's (first) seat there.
    pub seat: i64,
    pub private: bool,
    /// JSON, as stored.
    pub clock: String,
    pub updated_at: i64,
}

/// One play of the account with its own place in it (if it named itself), for the
/// splits by seat and team.
pub struct PlayResult {
    pub play_id: i64,
    pub played_on: String,
    pub game_id: i64,
    /// The takuge table it was played at, if any.
    pub table_id: Option<i64>,
    /// That table's outcome (JSON), if finished.
    pub outcome: Option<String>,
    pub position: Option<i64>,
    pub rank: Option<i64>,
    pub winner: Option<i64>,
    /// Players in the play.
    pub players: i64,
}

impl Store {
    /// The tables open or in play where `user` holds a seat of its own (not one a bot
    /// took over), newest first, at most 200; private ones only if `with_private`.
    pub async fn seated_tables(
        &self,
        user: i64,
        with_private: bool,
    ) -> Result<Vec<SeatedTable>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.game, t.status, t.players, t.private, t.clock, t.updated_at, MIN(s.seat) AS seat
             FROM game_tables t JOIN seats s ON s.table_id = t.id
             WHERE s.user_id = $1 AND s.replaced = 0 AND s.bot IS NULL
               AND t.status IN ('open', 'playing') AND ($2 = 1 OR t.private = 0)
             GROUP BY t.id, t.game, t.status, t.players, t.private, t.clock, t.updated_at
             ORDER BY t.id DESC LIMIT 200",
        )
        .bind(user)
        .bind(i64::from(with_private))
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(SeatedTable {
                    id: r.try_get("id")?,
                    game: r.try_get("game")?,
                    status: r.try_get("status")?,
                    players: r.try_get("players")?,
                    seat: r.try_get("seat")?,
                    private: r.try_get::<i64, _>("private")? != 0,
                    clock: r.try_get("clock")?,
                    updated_at: r.try_get("updated_at")?,
                })
            })
            .collect::<Result<_, _>>()?)
    }

    /// Every play of `user`, oldest first; a play logged by hand that names its owner
    /// twice comes once per naming (the caller keeps the first).
    pub async fn play_results(&self, user: i64) -> Result<Vec<PlayResult>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.id, p.played_on, p.game_id, p.table_id, t.outcome, pp.position, pp.rank, pp.winner,
                (SELECT COUNT(*) FROM play_players x WHERE x.play_id = p.id) AS n
             FROM plays p
             LEFT JOIN play_players pp ON pp.play_id = p.id AND pp.user_id = p.user_id
             LEFT JOIN game_tables t ON t.id = p.table_id
             WHERE p.user_id = $1
             ORDER BY p.played_on, p.id, pp.position",
        )
        .bind(user)
        .fetch_all(self.pool())
        .await?;
        Ok(rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(PlayResult {
                    play_id: r.try_get("id")?,
                    played_on: r.try_get("played_on")?,
                    game_id: r.try_get("game_id")?,
                    table_id: r.try_get("table_id")?,
                    outcome: r.try_get("outcome")?,
                    position: r.try_get("position")?,
                    rank: r.try_get("rank")?,
                    winner: r.try_get("winner")?,
                    players: r.try_get("n")?,
                })
            })
            .collect::<Result<_, _>>()?)
    }
}

impl Writer {
    pub async fn set_display_name(&self, user: i64, name: String) -> Result<(), StoreError> {
        self.execute(
            "UPDATE users SET display_name = $1 WHERE id = $2",
            vec![name.into(), user.into()],
        )
        .await?;
        Ok(())
    }
}
