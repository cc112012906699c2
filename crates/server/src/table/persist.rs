//! Every database statement of a table, in one place: loading it, and each write a
//! change makes (seats, status, start, expiry, the rules version a restore settled,
//! an action's commit, a finished match's plays). Each is run by the actor after the
//! model decided the change and before the model applies it.

use super::clock::ClockState;
use super::meta::{AbandonedReason, SeatInfo, Status, TableId, TableMeta};
use super::restore::RulesWrite;
use crate::action_id::ActionIds;
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::store::{Store, StoreError};
use crate::time::now;
use crate::writer::{ActionWrite, Committed, Writer};
use serde_json::Value;
use sqlx::Row;
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
    let Some(row) = sqlx::query(
        "SELECT id, game, options, players, host, private, invite_code, clock, seed, status, outcome, clock_state,
                rules_version, abandoned_reason
         FROM game_tables WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(db.pool())
    .await?
    else {
        return Ok(None);
    };
    let parse = |s: String| serde_json::from_str::<Value>(&s).map_err(ApiError::internal);
    let seat_rows = sqlx::query(
        "SELECT seat, user_id, bot, name, replaced FROM seats WHERE table_id = $1 ORDER BY seat",
    )
    .bind(id)
    .fetch_all(db.pool())
    .await?;
    let seats = seat_rows
        .iter()
        .map(|r| SeatInfo {
            seat: r.get::<i64, _>("seat") as u8,
            user_id: r.get("user_id"),
            name: r.get("name"),
            bot: r.get("bot"),
            replaced: r.get::<i64, _>("replaced") != 0,
        })
        .collect();
    let action_rows = sqlx::query(
        "SELECT version, seat, action, client_id FROM actions WHERE table_id = $1 ORDER BY version",
    )
    .bind(id)
    .fetch_all(db.pool())
    .await?;
    let mut actions = Vec::with_capacity(action_rows.len());
    let mut ids = ActionIds::default();
    for (i, r) in action_rows.iter().enumerate() {
        if r.get::<i64, _>("version") != i as i64 + 1 {
            return Err(ApiError::internal(format!(
                "table {id}: the action log has a gap at {}",
                i + 1
            )));
        }
        let seat = Seat(r.get::<i64, _>("seat") as u8);
        if let Some(client_id) = r.get::<Option<String>, _>("client_id") {
            ids.insert(seat, client_id, i as u64 + 1);
        }
        actions.push(LoggedAction {
            seat,
            action: parse(r.get("action"))?,
        });
    }
    let outcome: Option<String> = row.get("outcome");
    let meta = TableMeta {
        id: row.get("id"),
        game: row.get("game"),
        options: parse(row.get("options"))?,
        players: row.get::<i64, _>("players") as usize,
        host: row.get("host"),
        private: row.get::<i64, _>("private") != 0,
        invite_code: row.get("invite_code"),
        clock: serde_json::from_str(&row.get::<String, _>("clock")).map_err(ApiError::internal)?,
        seed: row.get::<i64, _>("seed") as u64,
        status: Status::parse(&row.get::<String, _>("status")),
        seats,
        outcome: match outcome {
            Some(s) => Some(serde_json::from_str(&s).map_err(ApiError::internal)?),
            None => None,
        },
        clock_state: match row.get::<Option<String>, _>("clock_state") {
            Some(s) => Some(serde_json::from_str(&s).map_err(ApiError::internal)?),
            None => None,
        },
        rules: match row.get::<Option<i64>, _>("rules_version") {
            Some(v) => Some(u32::try_from(v).map_err(ApiError::internal)?),
            None => None,
        },
        abandoned_reason: row
            .get::<Option<String>, _>("abandoned_reason")
            .as_deref()
            .and_then(AbandonedReason::parse),
    };
    Ok(Some((meta, Log { actions, ids })))
}

pub(super) async fn save_seat(
    writer: &Writer,
    table: TableId,
    seat: &SeatInfo,
) -> Result<(), ApiError> {
    writer
        .execute(
            "UPDATE seats SET user_id = $1, bot = $2, name = $3, replaced = $4 WHERE table_id = $5 AND seat = $6",
            vec![
                seat.user_id.into(),
                seat.bot.clone().into(),
                seat.name.clone().into(),
                i64::from(seat.replaced).into(),
                table.into(),
                i64::from(seat.seat).into(),
            ],
        )
        .await?;
    Ok(())
}

/// Every free seat a `bot`, in one statement: free in memory is free in the database.
pub(super) async fn fill_free_seats(
    writer: &Writer,
    table: TableId,
    bot: &str,
) -> Result<(), ApiError> {
    writer
        .execute(
            "UPDATE seats SET bot = $1, name = $2 WHERE table_id = $3 AND user_id IS NULL AND bot IS NULL",
            vec![bot.into(), format!("bot {bot}").into(), table.into()],
        )
        .await?;
    Ok(())
}

pub(super) async fn save_status(
    writer: &Writer,
    table: TableId,
    status: Status,
) -> Result<(), ApiError> {
    writer
        .execute(
            "UPDATE game_tables SET status = $1, updated_at = $2 WHERE id = $3",
            vec![status.as_str().into(), now().into(), table.into()],
        )
        .await?;
    Ok(())
}

/// The game started, with its clocks as they start.
pub(super) async fn save_start(
    writer: &Writer,
    table: TableId,
    clock_state: Option<&ClockState>,
) -> Result<(), ApiError> {
    let clock_state = match clock_state {
        Some(c) => Some(serde_json::to_string(c).map_err(ApiError::internal)?),
        None => None,
    };
    writer
        .execute(
            "UPDATE game_tables SET status = 'playing', clock_state = $1, updated_at = $2 WHERE id = $3",
            vec![clock_state.into(), now().into(), table.into()],
        )
        .await?;
    Ok(())
}

/// Closed by the server, with its reason.
pub(super) async fn save_closed(
    writer: &Writer,
    table: TableId,
    reason: AbandonedReason,
) -> Result<(), ApiError> {
    writer
        .execute(
            "UPDATE game_tables SET status = 'abandoned', abandoned_reason = $1, updated_at = $2 WHERE id = $3",
            vec![reason.as_str().into(), now().into(), table.into()],
        )
        .await?;
    Ok(())
}

/// What a restore decided about the table's rules version.
pub(super) async fn save_rules(
    writer: &Writer,
    table: TableId,
    write: &RulesWrite,
) -> Result<(), ApiError> {
    writer
        .execute(
            "UPDATE game_tables SET rules_version = $1, status = $2, abandoned_reason = $3, updated_at = $4 WHERE id = $5",
            vec![
                write.rules.map(i64::from).into(),
                write.status.as_str().into(),
                write.reason.map(AbandonedReason::as_str).into(),
                now().into(),
                table.into(),
            ],
        )
        .await?;
    Ok(())
}

/// Commits one action (group-committed by the writer with the others waiting), and
/// counts how long it waited.
pub(super) async fn commit_action(
    writer: &Writer,
    metrics: &Metrics,
    write: ActionWrite,
) -> Result<(), ApiError> {
    let table = write.table;
    let asked = std::time::Instant::now();
    let reply = writer.commit(write).await;
    metrics.commit_wait.observe(asked.elapsed());
    match reply {
        Ok(Committed::Yes) => Ok(()),
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

/// A finished match into its players' histories (the shelf's plays).
pub(super) async fn record_plays(writer: &Writer, table: TableId) -> Result<(), StoreError> {
    writer
        .write(move |c| Box::pin(crate::shelf::matches::record_table(c, table)))
        .await
        .map(|_| ())
}
