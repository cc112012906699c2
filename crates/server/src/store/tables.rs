//! Tables and their seats: creating one, and the tables a sweep or a count needs.
//! (A live table's own rows are in `live_tables.rs`.)

use super::writer::Writer;
use super::{postgres, Dialect, Store, StoreError};
use sqlx::{AnyConnection, Row};

/// A new table's rows: the table and its seats, written in one transaction.
pub struct NewTable {
    pub game: String,
    pub options: String,
    pub players: i64,
    pub host: i64,
    pub private: i64,
    pub invite: Option<String>,
    pub clock: String,
    pub seed: i64,
    pub at: i64,
    pub rules_version: i64,
    /// How many tables not yet started the host may have (`caps`).
    pub open_allowed: i64,
    /// Per seat, who sits there (the host, or nobody) and the name shown.
    pub seats: Vec<(Option<i64>, String)>,
}

impl NewTable {
    /// Inserts the table and its seats; the table's id, or `None` when the host has
    /// as many tables not yet started as it may.
    async fn insert(
        self,
        dialect: Dialect,
        conn: &mut AnyConnection,
    ) -> Result<Option<i64>, sqlx::Error> {
        use sqlx::Connection;
        let mut tx = conn.begin().await?;
        if open_tables_of(&mut tx, dialect, self.host).await? >= self.open_allowed {
            return Ok(None);
        }
        let id: i64 = sqlx::query(
            "INSERT INTO game_tables (game, options, players, host, private, invite_code, clock, seed, status, created_at, updated_at, rules_version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', $9, $10, $11)
             RETURNING id",
        )
        .bind(&self.game)
        .bind(&self.options)
        .bind(self.players)
        .bind(self.host)
        .bind(self.private)
        .bind(&self.invite)
        .bind(&self.clock)
        .bind(self.seed)
        .bind(self.at)
        .bind(self.at)
        .bind(self.rules_version)
        .fetch_one(&mut *tx)
        .await?
        .get(0);
        // Every seat in one statement (each statement is a round trip to the database).
        let values: Vec<String> = (0..self.seats.len())
            .map(|k| {
                let p = k * 4;
                format!("(${}, ${}, ${}, NULL, ${})", p + 1, p + 2, p + 3, p + 4)
            })
            .collect();
        let sql = format!(
            "INSERT INTO seats (table_id, seat, user_id, bot, name) VALUES {}",
            values.join(", ")
        );
        let mut insert = sqlx::query(&sql);
        for (k, (user, name)) in self.seats.iter().enumerate() {
            insert = insert.bind(id).bind(k as i64).bind(*user).bind(name);
        }
        insert.execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(Some(id))
    }
}

/// How many tables not yet started `host` has, inside the transaction that creates
/// one. On PostgreSQL the host's row is locked first, so two creations at once
/// count one after the other; SQLite's one writer already does that.
async fn open_tables_of(
    conn: &mut AnyConnection,
    dialect: Dialect,
    host: i64,
) -> Result<i64, sqlx::Error> {
    if dialect == Dialect::Postgres {
        postgres::lock_user(conn, host).await?;
    }
    sqlx::query_scalar("SELECT COUNT(*) FROM game_tables WHERE host = $1 AND status = 'open'")
        .bind(host)
        .fetch_one(&mut *conn)
        .await
}

/// A public table as the lobby lists it.
pub struct LobbyRow {
    pub id: i64,
    pub game: String,
    pub players: i64,
    /// Seats with a person or a bot.
    pub taken: i64,
    pub host: i64,
    pub host_name: String,
    /// JSON, as stored.
    pub options: String,
    /// JSON, as stored.
    pub clock: String,
}

/// A seat of a listed table: a person's display name (none for a bot or an empty
/// seat), or its bot.
pub struct LobbySeatRow {
    pub table_id: i64,
    pub seat: i64,
    pub name: Option<String>,
    pub bot: Option<String>,
}

impl Writer {
    /// Inserts the table and its seats in one transaction; the table's id, or `None`
    /// when the host has as many tables not yet started as it may.
    pub async fn create_table(&self, table: NewTable) -> Result<Option<i64>, StoreError> {
        let dialect = self.dialect;
        self.write(move |c| Box::pin(table.insert(dialect, c)))
            .await
    }
}

impl Store {
    /// The lobby: up to 200 public tables in `status`, newest first, of `game` and
    /// for `players` if given; and their seats, by table then seat.
    pub async fn lobby(
        &self,
        status: &str,
        game: Option<&str>,
        players: Option<i64>,
    ) -> Result<(Vec<LobbyRow>, Vec<LobbySeatRow>), StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.game, t.players, t.clock, t.host, t.options, u.display_name AS host_name,
                    (SELECT COUNT(*) FROM seats s WHERE s.table_id = t.id AND (s.user_id IS NOT NULL OR s.bot IS NOT NULL)) AS taken
             FROM game_tables t JOIN users u ON u.id = t.host
             WHERE t.status = $1 AND t.private = 0
               AND ($2 IS NULL OR t.game = $3) AND ($4 IS NULL OR t.players = $5)
             ORDER BY t.id DESC LIMIT 200",
        )
        .bind(status)
        .bind(game)
        .bind(game)
        .bind(players)
        .bind(players)
        .fetch_all(self.pool())
        .await?;
        let tables = rows
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(LobbyRow {
                    id: r.try_get("id")?,
                    game: r.try_get("game")?,
                    players: r.try_get("players")?,
                    taken: r.try_get("taken")?,
                    host: r.try_get("host")?,
                    host_name: r.try_get("host_name")?,
                    options: r.try_get("options")?,
                    clock: r.try_get("clock")?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        if tables.is_empty() {
            return Ok((tables, Vec::new()));
        }
        // The listed tables' seats in one query (at most 200 ids, bound one by one).
        let marks: Vec<String> = (1..=tables.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT s.table_id, s.seat, s.bot, CASE WHEN s.user_id IS NULL THEN NULL ELSE s.name END AS name
             FROM seats s WHERE s.table_id IN ({}) ORDER BY s.table_id, s.seat",
            marks.join(", ")
        );
        let mut query = sqlx::query(&sql);
        for t in &tables {
            query = query.bind(t.id);
        }
        let seats = query
            .fetch_all(self.pool())
            .await?
            .iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(LobbySeatRow {
                    table_id: r.try_get("table_id")?,
                    seat: r.try_get("seat")?,
                    name: r.try_get("name")?,
                    bot: r.try_get("bot")?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok((tables, seats))
    }

    /// Every table open or in play (to restore on start), by id.
    pub async fn unfinished_table_ids(&self) -> Result<Vec<i64>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM game_tables WHERE status IN ('open', 'playing') ORDER BY id",
        )
        .fetch_all(self.pool())
        .await?)
    }

    /// Up to 1,000 tables never started that were created at or before `before`
    /// (seconds), oldest id first.
    pub async fn tables_open_since(&self, before: i64) -> Result<Vec<i64>, StoreError> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM game_tables WHERE status = 'open' AND created_at <= $1 ORDER BY id LIMIT 1000",
        )
        .bind(before)
        .fetch_all(self.pool())
        .await?)
    }
}
