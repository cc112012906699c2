//! A live table's own rows: loading a table whole (to restore it, or for a late
//! viewer), and each write a change makes to it (seats, status, start, close, the
//! rules version a restore settled). The table actor (`table/persist.rs`) turns
//! these rows into its model and back; the actions themselves are committed by the
//! writer's batches (`writer.rs`).

use super::writer::{Fence, Writer};
use super::{Store, StoreError};
use crate::time::now;
use sqlx::Row;

/// A table's row, as stored (JSON columns as text).
pub struct TableRow {
    pub id: i64,
    pub game: String,
    pub options: String,
    pub players: i64,
    pub host: i64,
    pub private: bool,
    pub invite_code: Option<String>,
    pub clock: String,
    pub seed: i64,
    pub status: String,
    pub outcome: Option<String>,
    pub clock_state: Option<String>,
    pub rules_version: Option<i64>,
    pub abandoned_reason: Option<String>,
}

/// A seat's row.
pub struct SeatRow {
    pub seat: i64,
    pub user_id: Option<i64>,
    pub bot: Option<String>,
    pub name: String,
    pub replaced: bool,
}

/// An action's row, in version order (version 1 first).
pub struct ActionRow {
    pub version: i64,
    pub seat: i64,
    /// JSON, as stored.
    pub action: String,
    pub client_id: Option<String>,
}

/// A table's rows: the table, its seats by number, its actions by version.
pub struct LoadedTable {
    pub table: TableRow,
    pub seats: Vec<SeatRow>,
    pub actions: Vec<ActionRow>,
}

const TABLE_COLUMNS: &str =
    "id, game, options, players, host, private, invite_code, clock, seed, status, outcome,
     clock_state, rules_version, abandoned_reason";

fn table_row(r: &sqlx::any::AnyRow) -> Result<TableRow, sqlx::Error> {
    Ok(TableRow {
        id: r.try_get("id")?,
        game: r.try_get("game")?,
        options: r.try_get("options")?,
        players: r.try_get("players")?,
        host: r.try_get("host")?,
        private: r.try_get::<i64, _>("private")? != 0,
        invite_code: r.try_get("invite_code")?,
        clock: r.try_get("clock")?,
        seed: r.try_get("seed")?,
        status: r.try_get("status")?,
        outcome: r.try_get("outcome")?,
        clock_state: r.try_get("clock_state")?,
        rules_version: r.try_get("rules_version")?,
        abandoned_reason: r.try_get("abandoned_reason")?,
    })
}

fn seat_row(r: &sqlx::any::AnyRow) -> Result<SeatRow, sqlx::Error> {
    Ok(SeatRow {
        seat: r.try_get("seat")?,
        user_id: r.try_get("user_id")?,
        bot: r.try_get("bot")?,
        name: r.try_get("name")?,
        replaced: r.try_get::<i64, _>("replaced")? != 0,
    })
}

fn action_row(r: &sqlx::any::AnyRow) -> Result<ActionRow, sqlx::Error> {
    Ok(ActionRow {
        version: r.try_get("version")?,
        seat: r.try_get("seat")?,
        action: r.try_get("action")?,
        client_id: r.try_get("client_id")?,
    })
}

/// The rows of table `table` at the front of `rows` (ordered by table id), each
/// made by `make`; rows of a table before it (none was asked for) are skipped.
fn run_of<T>(
    rows: &mut std::iter::Peekable<std::slice::Iter<'_, sqlx::any::AnyRow>>,
    table: i64,
    make: fn(&sqlx::any::AnyRow) -> Result<T, sqlx::Error>,
) -> Result<Vec<T>, sqlx::Error> {
    let mut run = Vec::new();
    while let Some(row) = rows.peek() {
        let of: i64 = row.try_get("table_id")?;
        if of > table {
            break;
        }
        if of == table {
            run.push(make(row)?);
        }
        rows.next();
    }
    Ok(run)
}

impl Store {
    /// Table `id` with its seats and actions; `None` if there is no such table.
    pub async fn load_table(&self, id: i64) -> Result<Option<LoadedTable>, StoreError> {
        Ok(self.load_tables(&[id]).await?.pop())
    }

    /// The tables `ids` with their seats and actions, in three statements whatever
    /// their number (a failover restores a dead node's thousand tables: three round
    /// trips a table were most of its time); a missing table is left out.
    pub async fn load_tables(&self, ids: &[i64]) -> Result<Vec<LoadedTable>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = serde_json::to_string(ids)
            .map_err(|e| StoreError::Other(sqlx::Error::Decode(e.into())))?;
        let [tables, seats, actions] = load_statements(self.dialect());
        let tables = sqlx::query(&tables)
            .bind(&list)
            .fetch_all(self.pool())
            .await?;
        let seats = sqlx::query(&seats)
            .bind(&list)
            .fetch_all(self.pool())
            .await?;
        let actions = sqlx::query(&actions)
            .bind(&list)
            .fetch_all(self.pool())
            .await?;
        // All three are in table order: each table takes its run of seats and actions.
        let (mut seats, mut actions) = (seats.iter().peekable(), actions.iter().peekable());
        let mut loaded = Vec::with_capacity(tables.len());
        for r in &tables {
            let table = table_row(r)?;
            loaded.push(LoadedTable {
                seats: run_of(&mut seats, table.id, seat_row)?,
                actions: run_of(&mut actions, table.id, action_row)?,
                table,
            });
        }
        Ok(loaded)
    }
}

impl Writer {
    /// Who sits in `seat` of `table` now.
    pub async fn save_seat(&self, fence: Fence, seat: &SeatRow) -> Result<(), StoreError> {
        self.execute_fenced(
            fence,
            "UPDATE seats SET user_id = $1, bot = $2, name = $3, replaced = $4 WHERE table_id = $5 AND seat = $6",
            vec![
                seat.user_id.into(),
                seat.bot.clone().into(),
                seat.name.clone().into(),
                i64::from(seat.replaced).into(),
                fence.table.into(),
                seat.seat.into(),
            ],
        )
        .await
        .map(|_| ())
    }

    /// Every free seat of `table` a `bot`, in one statement: free in memory is free in
    /// the database.
    pub async fn fill_free_seats(&self, fence: Fence, bot: &str) -> Result<(), StoreError> {
        self.execute_fenced(
            fence,
            "UPDATE seats SET bot = $1, name = $2 WHERE table_id = $3 AND user_id IS NULL AND bot IS NULL",
            vec![bot.into(), format!("bot {bot}").into(), fence.table.into()],
        )
        .await
        .map(|_| ())
    }

    pub async fn save_status(&self, fence: Fence, status: &str) -> Result<(), StoreError> {
        self.execute_fenced(
            fence,
            "UPDATE game_tables SET status = $1, updated_at = $2 WHERE id = $3",
            vec![status.into(), now().into(), fence.table.into()],
        )
        .await
        .map(|_| ())
    }

    /// The game started, with its clocks as they start (JSON).
    pub async fn save_start(
        &self,
        fence: Fence,
        clock_state: Option<String>,
    ) -> Result<(), StoreError> {
        self.execute_fenced(
            fence,
            "UPDATE game_tables SET status = 'playing', clock_state = $1, updated_at = $2 WHERE id = $3",
            vec![clock_state.into(), now().into(), fence.table.into()],
        )
        .await
        .map(|_| ())
    }

    /// Closed by the server, with its reason.
    pub async fn save_closed(&self, fence: Fence, reason: &str) -> Result<(), StoreError> {
        self.execute_fenced(
            fence,
            "UPDATE game_tables SET status = 'abandoned', abandoned_reason = $1, updated_at = $2 WHERE id = $3",
            vec![reason.into(), now().into(), fence.table.into()],
        )
        .await
        .map(|_| ())
    }

    /// What a restore decided about the table's rules version.
    pub async fn save_rules(
        &self,
        fence: Fence,
        rules: Option<i64>,
        status: &str,
        reason: Option<&str>,
    ) -> Result<(), StoreError> {
        self.execute_fenced(
            fence,
            "UPDATE game_tables SET rules_version = $1, status = $2, abandoned_reason = $3, updated_at = $4 WHERE id = $5",
            vec![
                rules.into(),
                status.into(),
                reason.map(str::to_string).into(),
                now().into(),
                fence.table.into(),
            ],
        )
        .await
        .map(|_| ())
    }
}

/// The three statements of [`Store::load_tables`], each given the ids as a JSON array
/// (`$1`). Each must find its rows through the table id's index: on PostgreSQL the ids
/// go in as an array (`= ANY (ARRAY(…))`), since `IN (SELECT … FROM
/// jsonb_array_elements_text(…))` was planned as a hash join over a scan of the whole
/// `actions` table (31 ms a table at 90,000 actions, growing with every game played;
/// docs/PERFORMANCE.md, "A table's load scanned every action"). Public for the test
/// that reads their plans (`tests/suite/load_tables.rs`).
#[doc(hidden)]
pub fn load_statements(dialect: super::Dialect) -> [String; 3] {
    let among = |column: &str| match dialect {
        super::Dialect::Postgres => format!(
            "{column} = ANY (ARRAY(SELECT value::bigint FROM jsonb_array_elements_text($1::jsonb)))"
        ),
        super::Dialect::Sqlite => format!("{column} IN (SELECT value FROM json_each($1))"),
    };
    [
        format!(
            "SELECT {TABLE_COLUMNS} FROM game_tables WHERE {} ORDER BY id",
            among("id")
        ),
        format!(
            "SELECT table_id, seat, user_id, bot, name, replaced FROM seats
             WHERE {} ORDER BY table_id, seat",
            among("table_id")
        ),
        format!(
            "SELECT table_id, version, seat, action, client_id FROM actions
             WHERE {} ORDER BY table_id, version",
            among("table_id")
        ),
    ]
}
