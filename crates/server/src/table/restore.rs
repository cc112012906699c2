//! Rebuilding a table from what the database holds (`persist::load`): its log replayed
//! from the seed under this build's rules, every viewer's log lines along the way, and
//! what to do with a table whose rules this build does not play.

use super::log::{news_entry, LogEntry};
use super::meta::{AbandonedReason, Status, TableId, TableMeta};
use super::model::{track_pending, Model};
use super::persist::Log;
use crate::error::ApiError;
use crate::moves::Moves;
use serde_json::Value;
use takuge_engine::record::LoggedAction;
use takuge_engine::{DynGame, DynState, Lang, Registry, SeatSet};

/// A table replayed from what the database holds, ready to start.
pub struct Prepared {
    pub(super) model: Model,
    /// What the restore decided about the rules version, to store before anything
    /// else (`None`: nothing to store).
    pub(super) settled: Option<(TableId, RulesWrite)>,
}

impl Prepared {
    pub fn id(&self) -> TableId {
        self.model.meta.id
    }

    /// What `user_id` is told of the table as it is.
    pub fn info(&self, user_id: i64) -> super::TableInfo {
        self.model.info(user_id)
    }

    /// A copy to start again later, for a table that is over and has nothing left to
    /// store (`None` otherwise): such a table never changes again, so the copy stays
    /// true, and starting from it costs no database read and no replay.
    pub fn snapshot(&self) -> Option<Prepared> {
        if self.model.meta.status.is_live() || self.settled.is_some() {
            return None;
        }
        Some(Prepared {
            model: self.model.copy(),
            settled: None,
        })
    }
}

/// What a restore decided about a table's rules version, to store.
pub(super) struct RulesWrite {
    pub rules: Option<u32>,
    pub status: Status,
    pub reason: Option<AbandonedReason>,
}

/// Replays a table from what the database holds.
pub fn prepare(
    registry: &Registry,
    meta: TableMeta,
    Log { actions, ids }: Log,
) -> Result<Prepared, ApiError> {
    let game = registry.get(&meta.game).cloned().ok_or_else(|| {
        ApiError::internal(format!("table {}: unknown game {}", meta.id, meta.game))
    })?;
    let mut meta = meta;
    let mut pending_since = vec![None; meta.players];
    let (state, log, moves, settled) =
        restore_under_rules(game.as_ref(), &mut meta, &actions, &mut pending_since)?;
    Ok(Prepared {
        model: Model {
            meta,
            game,
            state,
            actions,
            ids,
            log,
            moves,
            pending_since,
        },
        settled,
    })
}

/// A table replayed: its state, every viewer's log lines, its moves.
type Replayed = (Box<dyn DynState>, Vec<LogEntry>, Moves);

/// Replays `actions` from the seed; every viewer's log lines along the way, a move's
/// draft steps (`crate::moves`) in its seat's line of the move, as when played.
fn replay(
    game: &dyn DynGame,
    meta: &TableMeta,
    actions: &[LoggedAction<Value>],
    pending: &mut [Option<u64>],
) -> Result<Replayed, ApiError> {
    let mut state = game.new_game(&meta.options, meta.players, meta.seed)?;
    let mut log = Vec::with_capacity(actions.len());
    let mut moves = Moves::new(meta.players);
    track_pending(pending, SeatSet::EMPTY, state.to_move(), 0);
    for (i, a) in actions.iter().enumerate() {
        let before = state.to_move();
        let mut lines = state.describe_for_all(a.seat, &a.action, Lang::En);
        let mut lines_ja = state.describe_for_all(a.seat, &a.action, Lang::Ja);
        // The state before the action: what the action revealed is asked of the two.
        let before_state = state.box_clone();
        state.apply(a.seat, &a.action).map_err(|e| {
            ApiError::internal(format!(
                "table {}: action {} no longer replays: {}",
                meta.id,
                i + 1,
                e.message
            ))
        })?;
        let drafting = state.drafting(a.seat);
        let news = (!drafting)
            .then(|| news_entry(&*before_state, &*state, meta.players))
            .flatten();
        moves.push_step(!drafting);
        track_pending(pending, before, state.to_move(), moves.version());
        if drafting {
            let own =
                |l: &mut Vec<Option<String>>| l.get_mut(a.seat.index()).and_then(Option::take);
            moves.add_draft_lines(a.seat, own(&mut lines), own(&mut lines_ja));
        } else {
            moves.complete(a.seat, &mut lines, &mut lines_ja);
            log.push(LogEntry {
                seat: Some(a.seat),
                lines,
                lines_ja,
            });
            log.extend(news);
        }
    }
    Ok((state, log, moves))
}

/// The moves of a log that is not replayed (a table closed under other rules): every
/// step a move, as nothing says otherwise.
fn unreplayed_moves(players: usize, steps: usize) -> Moves {
    let mut moves = Moves::new(players);
    for _ in 0..steps {
        moves.push_step(true);
    }
    moves
}

type Restored = (
    Option<Box<dyn DynState>>,
    Vec<LogEntry>,
    Moves,
    Option<(TableId, RulesWrite)>,
);

/// Restores a table's state under this build's rules, if they are the rules it was
/// played under (docs/PROTOCOL.md, "Rules versions"):
/// - open: nothing was played yet, so it takes this build's version;
/// - stored under this version: replayed;
/// - not known (stored before versions were kept): replayed as before versions were
///   kept, and if the whole log replays, it takes this build's version; if not, the
///   log is from other rules;
/// - from other rules: not replayed (it would show another match); in play, it is
///   closed, `abandoned` with the reason, and its record stays downloadable.
///
/// Also what to store of that decision, when it changed anything.
fn restore_under_rules(
    game: &dyn DynGame,
    meta: &mut TableMeta,
    actions: &[LoggedAction<Value>],
    pending: &mut [Option<u64>],
) -> Result<Restored, ApiError> {
    let running = game.rules_version();
    let unreplayed = || unreplayed_moves(meta.players, actions.len());
    let write = |meta: &TableMeta| {
        Some((
            meta.id,
            RulesWrite {
                rules: meta.rules,
                status: meta.status,
                reason: meta.abandoned_reason,
            },
        ))
    };
    if meta.status == Status::Open {
        if meta.rules == Some(running) {
            return Ok((None, Vec::new(), unreplayed(), None));
        }
        meta.rules = Some(running);
        return Ok((None, Vec::new(), unreplayed(), write(meta)));
    }
    if meta.abandoned_reason.is_some() {
        // Closed already, by an earlier restore.
        return Ok((None, Vec::new(), unreplayed(), None));
    }
    match meta.rules {
        Some(v) if v == running => {
            let (state, log, moves) = replay(game, meta, actions, pending)?;
            return Ok((Some(state), log, moves, None));
        }
        None => {
            if let Ok((state, log, moves)) = replay(game, meta, actions, pending) {
                tracing::warn!(
                    table = meta.id,
                    game = %meta.game,
                    rules = running,
                    "table stored before rules versions were kept: its log replays under this build's rules, so it takes their version"
                );
                meta.rules = Some(running);
                return Ok((Some(state), log, moves, write(meta)));
            }
            pending.fill(None);
        }
        Some(_) => {}
    }
    if meta.status != Status::Playing {
        // Over already: its record (with its own version) is all there is to show.
        return Ok((None, Vec::new(), unreplayed(), None));
    }
    tracing::warn!(
        table = meta.id,
        game = %meta.game,
        stored = ?meta.rules,
        running,
        "table in play under other rules than this build's: closed (abandoned, reason rules_version); its record stays downloadable"
    );
    meta.status = Status::Abandoned;
    meta.abandoned_reason = Some(AbandonedReason::RulesVersion);
    meta.clock_state = None;
    Ok((None, Vec::new(), unreplayed(), write(meta)))
}
