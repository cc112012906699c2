//! Every storage call of a table, in one place: loading it, and each write a change
//! makes (seats, status, start, expiry, the rules version a restore settled, an
//! action's commit, a finished match's plays), between the table's model and the
//! store's rows (`store/live_tables.rs`). Each is run by the actor after the model
//! decided the change and before the model applies it.

use super::clock::ClockState;
use super::fence::TableFence;
use super::meta::{AbandonedReason, SeatInfo, Status, TableId, TableMeta};
use super::restore::RulesWrite;
use crate::action_id::ActionIds;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::store::live_tables::{LoadedTable, SeatRow};
use crate::store::{Store, StoreError};
use crate::writer::{ActionWrite, Committed, Writer};
use serde_json::Value;
use takuge_engine::record::LoggedAction;
use takuge_engine::Seat;

/// A table's committed actions, and the ids their clients gave them.
#[derive(Default)]
pub struct Log {
    pub actions: Vec<LoggedAction<Value>>,
    pub ids: ActionIds,
}

/// Loads a table (any status) from the database; `None` if there is no such table.
pub async fn load(db: &Store, id: TableId) -> Result<Option<(TableMeta, Log)>, ApiError> {
    match db.load_table(id).await? {
        Some(rows) => from_rows(rows).map(Some),
        None => Ok(None),
    }
}

/// Loads the tables `ids` in a few statements (a failover's restore): each found
/// table's id with its model, or why its rows do not make one (that table alone).
pub async fn load_many(
    db: &Store,
    ids: &[TableId],
) -> Result<Vec<(TableId, Result<(TableMeta, Log), ApiError>)>, ApiError> {
    Ok(db
        .load_tables(ids)
        .await?
        .into_iter()
        .map(|rows| (rows.table.id, from_rows(rows)))
        .collect())
}

/// A table's model from its rows.
fn from_rows(rows: LoadedTable) -> Result<(TableMeta, Log), ApiError> {
    let LoadedTable {
        table: row,
        seats,
        actions: action_rows,
    } = rows;
    let id = row.id;
    let parse = |s: &str| serde_json::from_str::<Value>(s).map_err(ApiError::internal);
    let seat_number = |n: i64| {
        u8::try_from(n)
            .map_err(|_| ApiError::internal(format!("table {id}: seat {n} in the database")))
    };
    let seats = seats
        .into_iter()
        .map(|r| {
            Ok(SeatInfo {
                seat: seat_number(r.seat)?,
                user_id: r.user_id,
                name: r.name,
                bot: r.bot,
                replaced: r.replaced,
            })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    let mut actions = Vec::with_capacity(action_rows.len());
    let mut ids = ActionIds::default();
    for (i, r) in action_rows.into_iter().enumerate() {
        if r.version != i as i64 + 1 {
            return Err(ApiError::internal(format!(
                "table {id}: the action log has a gap at {}",
                i + 1
            )));
        }
        let seat = Seat(seat_number(r.seat)?);
        if let Some(client_id) = r.client_id {
            ids.insert(seat, client_id, i as u64 + 1);
        }
        actions.push(LoggedAction {
            seat,
            action: parse(&r.action)?,
        });
    }
    let meta = TableMeta {
        id: row.id,
        game: row.game,
        options: parse(&row.options)?,
        players: usize::try_from(row.players).map_err(ApiError::internal)?,
        host: row.host,
        private: row.private,
        invite_code: row.invite_code,
        clock: serde_json::from_str(&row.clock).map_err(ApiError::internal)?,
        seed: row.seed as u64,
        status: Status::parse(&row.status),
        seats,
        outcome: match row.outcome {
            Some(s) => Some(serde_json::from_str(&s).map_err(ApiError::internal)?),
            None => None,
        },
        clock_state: match row.clock_state {
            Some(s) => Some(serde_json::from_str(&s).map_err(ApiError::internal)?),
            None => None,
        },
        rules: match row.rules_version {
            Some(v) => Some(u32::try_from(v).map_err(ApiError::internal)?),
            None => None,
        },
        abandoned_reason: row
            .abandoned_reason
            .as_deref()
            .and_then(AbandonedReason::parse),
    };
    Ok((meta, Log { actions, ids }))
}

pub(super) async fn save_seat(
    writer: &Writer,
    fence: &TableFence,
    seat: &SeatInfo,
) -> Result<(), ApiError> {
    let row = SeatRow {
        seat: i64::from(seat.seat),
        user_id: seat.user_id,
        bot: seat.bot.clone(),
        name: seat.name.clone(),
        replaced: seat.replaced,
    };
    fence.check(writer.save_seat(fence.fence(), &row).await)
}

/// Every free seat a `bot`, in one statement: free in memory is free in the database.
pub(super) async fn fill_free_seats(
    writer: &Writer,
    fence: &TableFence,
    bot: &str,
) -> Result<(), ApiError> {
    fence.check(writer.fill_free_seats(fence.fence(), bot).await)
}

pub(super) async fn save_status(
    writer: &Writer,
    fence: &TableFence,
    status: Status,
) -> Result<(), ApiError> {
    fence.check(writer.save_status(fence.fence(), status.as_str()).await)
}

/// The game started, with its clocks as they start.
pub(super) async fn save_start(
    writer: &Writer,
    fence: &TableFence,
    clock_state: Option<&ClockState>,
) -> Result<(), ApiError> {
    let clock_state = match clock_state {
        Some(c) => Some(serde_json::to_string(c).map_err(ApiError::internal)?),
        None => None,
    };
    fence.check(writer.save_start(fence.fence(), clock_state).await)
}

/// Closed by the server, with its reason.
pub(super) async fn save_closed(
    writer: &Writer,
    fence: &TableFence,
    reason: AbandonedReason,
) -> Result<(), ApiError> {
    fence.check(writer.save_closed(fence.fence(), reason.as_str()).await)
}

/// What a restore decided about the table's rules version.
pub(super) async fn save_rules(
    writer: &Writer,
    fence: &TableFence,
    write: &RulesWrite,
) -> Result<(), ApiError> {
    fence.check(
        writer
            .save_rules(
                fence.fence(),
                write.rules.map(i64::from),
                write.status.as_str(),
                write.reason.map(AbandonedReason::as_str),
            )
            .await,
    )
}

/// Commits one action (group-committed by the writer with the others waiting), and
/// counts how long it waited.
pub(super) async fn commit_action(
    writer: &Writer,
    metrics: &Metrics,
    fence: &TableFence,
    write: ActionWrite,
) -> Result<(), ApiError> {
    let table = write.table;
    let asked = std::time::Instant::now();
    let reply = writer.commit(write).await;
    let waited = asked.elapsed();
    metrics.commit_wait.observe(waited);
    if waited >= super::SLOW_ACTION {
        tracing::debug!(table, commit_ms = waited.as_secs_f64() * 1e3, "slow commit");
    }
    match reply {
        Ok(Committed::Yes) => Ok(()),
        Ok(Committed::Fenced) => {
            fence.lose();
            Err(ApiError::table_moved())
        }
        Ok(Committed::VersionConflict) => Err(ApiError::conflict(
            "version_conflict",
            "another writer committed this version first; nothing was changed",
        )),
        Err(e) => {
            tracing::warn!(table, error = %e, "an action could not be stored");
            Err(ApiError::database_unavailable())
        }
    }
}

/// A finished match into its players' histories (the shelf's plays), under the
/// table's lease like its other writes.
pub(super) async fn record_plays(writer: &Writer, fence: &TableFence) -> Result<(), StoreError> {
    let table = fence.table();
    let r = match fence.epoch() {
        None => {
            writer
                .write(move |c| Box::pin(crate::shelf::matches::record_table(c, table)))
                .await
        }
        Some(epoch) => {
            writer
                .fenced(table, epoch, move |c| {
                    Box::pin(crate::shelf::matches::record_table(c, table))
                })
                .await
        }
    };
    if matches!(r, Err(StoreError::Fenced)) {
        fence.lose();
    }
    r.map(|_| ())
}
