//! Tables: one tokio task per table serialises every change to it (seats, start,
//! actions, bots, abandon), commits each change to the database before telling
//! anyone, and sends every subscribed connection exactly what its viewer may see.
//!
//! This file is the task: its loop and the dispatch of each command. The rest, one
//! job a file:
//! - `cmd.rs`: the commands a table is sent;
//! - `meta.rs`: what a table is (status, seats, settings) as stored and as read;
//! - `model.rs`: the table's state and what each command does to it, no I/O;
//! - `commands.rs`: each change decided by the model, stored, then applied;
//! - `clock.rs`: the game clock, a pure value given the time;
//! - `bots.rs`: asking the pending bot seat for its move (`crate::kept_bots`);
//! - `broadcast.rs`: the followers, and what each is sent after a change;
//! - `log.rs`: log lines per viewer; `replay.rs`: a record stepped through;
//! - `persist.rs`: every database statement of a table;
//! - `restore.rs`: a table rebuilt from what the database holds;
//! - `backoff.rs`: retries spaced out while the database refuses writes;
//! - `fence.rs`: the lease epoch every write carries (several nodes).

mod backoff;
mod bots;
mod broadcast;
mod clock;
mod cmd;
mod commands;
mod fence;
mod log;
mod meta;
mod model;
mod persist;
mod replay;
mod restore;

pub use broadcast::CONNECTION_BACKLOG;
pub use clock::ClockState;
pub use cmd::Cmd;
pub use meta::{
    AbandonedReason, Caller, Clock, Reason, SeatInfo, Status, TableId, TableInfo, TableMeta, Turn,
    UNKNOWN_RULES,
};
pub use persist::{load, load_many, Log};
pub use replay::replay_steps;
pub use restore::{prepare, Prepared};
pub use takuge_protocol::PROTOCOL;

use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::writer::Writer;
use backoff::Backoff;
use bots::SeatBots;
use broadcast::Followers;
use clock::{Clocks, Now};
use cmd::Reply;
use model::Model;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use takuge_engine::Seat;
use tokio::sync::{mpsc, watch};

/// A client's action that took this long in the table (mailbox to answer) is logged
/// at debug level with its phases (`RUST_LOG=takuge_server::table=debug`).
const SLOW_ACTION: Duration = Duration::from_millis(100);

/// The time, read here and nowhere else in the table: the clock and the messages are
/// given it.
fn now() -> Now {
    Now {
        at: tokio::time::Instant::now(),
        unix_ms: crate::time::now_ms(),
    }
}

struct Table {
    model: Model,
    clocks: Clocks,
    followers: Followers,
    bots: SeatBots,
    writer: Writer,
    /// The lease's epoch its writes carry; lost once the database refuses one.
    fence: fence::TableFence,
    metrics: Arc<Metrics>,
    counted_live: bool,
    /// Counted in `Metrics::finished_tables_resident` (over, still in memory).
    counted_over: bool,
    /// While the database refuses writes, bots and clocks wait this long between
    /// tries instead of retrying at full speed.
    backoff: Backoff,
}

/// A running table's mailbox.
pub struct TableHandle {
    pub tx: mpsc::Sender<Cmd>,
    pub task: tokio::task::JoinHandle<()>,
    /// The epoch of the lease it runs under (several nodes).
    pub epoch: Option<i64>,
}

/// What a table's task is told from outside: `first`, the command it is loaded for
/// (answered first), `epoch`, its lease's (several nodes; `None` on a single node),
/// `stop` turns true at shutdown, and `ended` runs when the task ends (the hub
/// forgets the table).
pub struct Lifecycle {
    pub first: Option<Cmd>,
    pub epoch: Option<i64>,
    pub stop: watch::Receiver<bool>,
    pub ended: Box<dyn FnOnce() + Send>,
}

/// Starts a table's task from a table replayed.
pub fn start(
    Prepared { model, settled }: Prepared,
    writer: Writer,
    (bots, bot_delay): (crate::bots::BotPool, Duration),
    metrics: Arc<Metrics>,
    Lifecycle {
        first,
        epoch,
        stop,
        ended,
    }: Lifecycle,
) -> Result<TableHandle, ApiError> {
    let (tx, rx) = mpsc::channel(256);
    // The command the table is loaded for goes in before anyone else can send: a
    // table over answers it before it ends.
    if let Some(cmd) = first {
        if tx.try_send(cmd).is_err() {
            return Err(ApiError::unavailable());
        }
    }
    let meta = &model.meta;
    let playing = meta
        .clock_state
        .as_ref()
        .filter(|_| meta.status == Status::Playing);
    let clocks = Clocks::new(meta.clock, meta.players, playing, now());
    let fence = fence::TableFence::new(meta.id, epoch);
    let table = Table {
        fence,
        model,
        clocks,
        followers: Followers::default(),
        bots: SeatBots::new(bots, bot_delay, metrics.clone(), tx.downgrade()),
        writer,
        metrics,
        counted_live: false,
        counted_over: false,
        backoff: Backoff::default(),
    };
    let task = tokio::spawn(async move {
        // Declared first, so dropped last: after the mailbox (in `run`) is closed.
        let _ended = Ended(Some(ended));
        // Before any command: what the restore decided about the rules version is
        // stored first, so nothing is told about the table that the database does not
        // hold. On failure the decision is made again at the next load.
        if let Some((id, write)) = settled {
            if let Err(e) = persist::save_rules(&table.writer, &table.fence, &write).await {
                tracing::error!(table = id, error = %e.message, "cannot store the table's rules version");
            }
        }
        table.run(rx, stop).await
    });
    Ok(TableHandle { tx, task, epoch })
}

/// Runs a table's `ended` however its task ends: returned, or dropped (aborted).
struct Ended(Option<Box<dyn FnOnce() + Send>>);

impl Drop for Ended {
    fn drop(&mut self) {
        if let Some(f) = self.0.take() {
            f();
        }
    }
}

impl Table {
    fn set_live(&mut self) {
        let live = self.model.meta.status.is_live();
        if live != self.counted_live {
            let delta = if live { 1 } else { -1 };
            self.metrics.open_tables.fetch_add(delta, Ordering::Relaxed);
            self.counted_live = live;
        }
        if !live && !self.counted_over {
            self.metrics
                .finished_tables_resident
                .fetch_add(1, Ordering::Relaxed);
            self.counted_over = true;
        }
    }

    fn arm_clocks(&mut self) {
        let (pending, humans) = (self.model.pending(), self.model.humans());
        self.clocks.arm(pending, humans, now());
    }

    fn handle_info(&self, caller: &Caller, invite: Option<&str>) -> Result<TableInfo, ApiError> {
        self.model
            .may_see(caller, invite)
            .map(|()| self.model.info(caller.user_id))
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Info {
                caller,
                invite,
                reply,
            } => {
                let _ = reply.send(self.handle_info(&caller, invite.as_deref()));
            }
            Cmd::Record { caller, reply } => {
                let r = self
                    .model
                    .may_see(&caller, None)
                    .and_then(|()| self.model.record());
                let _ = reply.send(r);
            }
            Cmd::Subscribe {
                caller,
                conn,
                invite,
                tx,
                room_for_over,
                reply,
            } => {
                let live = self.model.meta.status.is_live();
                let r = self.model.may_see(&caller, invite.as_deref()).and_then(|()| {
                    if live || room_for_over {
                        Ok(live)
                    } else {
                        Err(ApiError::conflict(
                            "too_many_subscriptions",
                            "this connection follows as many tables that are over as it may; unsubscribe from one first",
                        ))
                    }
                });
                if r.is_ok() {
                    let at = now();
                    self.followers.subscribe(
                        (&self.model, &self.clocks, at),
                        conn,
                        caller.user_id,
                        tx,
                    );
                }
                let _ = reply.send(r);
            }
            Cmd::Unsubscribe { conn } => self.followers.unsubscribe(conn),
            Cmd::LeaseLost => self.fence.lose(),
            Cmd::Turn { caller, reply } => {
                let r = self
                    .model
                    .may_see(&caller, None)
                    .map(|()| self.model.turn(caller.user_id, &self.clocks, now()));
                let _ = reply.send(r);
            }
            Cmd::Expire { reply } => {
                let r = self.expire().await;
                if r == Ok(true) {
                    self.after_change();
                }
                let _ = reply.send(r.map(|_| ()));
            }
            Cmd::Sit {
                caller,
                seat,
                invite,
                reply,
            } => {
                let r = self.sit(&caller, seat, invite.as_deref()).await;
                self.finish_change(r.map(|()| self.model.info(caller.user_id)), reply);
            }
            // To anyone who may not see it, a private table answers as a missing one.
            Cmd::Leave { caller, reply } => {
                let r = match self.model.may_see(&caller, None) {
                    Ok(()) => self.leave(&caller).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.model.info(caller.user_id)), reply);
            }
            Cmd::FillBots {
                caller,
                bot,
                seat,
                reply,
            } => {
                let r = match self.model.may_see(&caller, None) {
                    Ok(()) => self.fill_bots(&caller, bot, seat).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.model.info(caller.user_id)), reply);
            }
            Cmd::Start { caller, reply } => {
                let r = match self.model.may_see(&caller, None) {
                    Ok(()) => self.start(&caller).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.model.info(caller.user_id)), reply);
            }
            Cmd::Abandon { caller, reply } => {
                let r = match self.model.may_see(&caller, None) {
                    Ok(()) => self.abandon(&caller).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.model.info(caller.user_id)), reply);
            }
            Cmd::Act {
                caller,
                seat,
                version,
                draft,
                action,
                id,
                asked,
                reply,
            } => {
                let queued = asked.elapsed();
                self.metrics.phases.queued.observe(queued);
                let model = &self.model;
                let seen = model.may_see(&caller, None).and_then(|()| {
                    let mine = model.acting_seat(&caller, seat)?;
                    let seen = model
                        .ids
                        .check(mine, id.as_deref(), &action, &model.actions)?;
                    Ok((mine, seen))
                });
                let r = match seen {
                    Err(e) => Err(e),
                    // Already played: its ack again, and nothing changes or is sent.
                    Ok((_, crate::action_id::Seen::Retry(step))) => {
                        let _ = reply.send(Ok(self.model.moves.version_after_step(step)));
                        return;
                    }
                    Ok((mine, crate::action_id::Seen::New)) => {
                        self.act(mine, (version, draft), action, id).await
                    }
                };
                self.finish_change(r, reply);
                let total = asked.elapsed();
                if total >= SLOW_ACTION {
                    tracing::debug!(
                        table = self.model.meta.id,
                        total_ms = total.as_secs_f64() * 1e3,
                        queued_ms = queued.as_secs_f64() * 1e3,
                        "slow action"
                    );
                }
            }
            Cmd::BotMove {
                seat,
                version,
                action,
                kept,
            } => self.bot_move(seat, version, action, kept).await,
        }
    }

    /// A bot's move, back: played if it is still the bot's turn at the step it was
    /// asked at; a stale one (someone else moved first) is dropped, and the bot is
    /// asked again.
    async fn bot_move(
        &mut self,
        seat: Seat,
        version: u64,
        action: serde_json::Value,
        kept: Option<crate::kept_bots::Lent>,
    ) {
        self.bots.returned(seat, version, kept);
        let is_bot = self
            .model
            .meta
            .seats
            .get(seat.index())
            .is_some_and(|s| s.bot.is_some());
        if is_bot && version == self.model.steps() {
            let at = (self.model.version(), None);
            match self.act(seat, at, action, None).await {
                Ok(_) => {
                    self.backoff.succeeded();
                    self.after_change();
                }
                Err(e) if e.status >= 500 => {
                    // The database refuses writes: try again later, not at once.
                    self.backoff.failed();
                    tracing::warn!(table = self.model.meta.id, %seat, retry_in = ?self.backoff.wait, error = %e.message, "bot move not stored");
                }
                Err(e) => {
                    tracing::error!(table = self.model.meta.id, %seat, error = %e.message, "bot move refused");
                }
            }
        }
        self.bots.schedule(&self.model, &self.backoff);
    }

    fn finish_change<T>(&mut self, r: Result<T, ApiError>, reply: Reply<T>) {
        if r.is_ok() {
            self.after_change();
        }
        let _ = reply.send(r);
    }

    fn after_change(&mut self) {
        self.arm_clocks();
        let began = std::time::Instant::now();
        self.followers.broadcast((&self.model, &self.clocks, now()));
        self.metrics.phases.broadcast.observe(began.elapsed());
        self.bots.schedule(&self.model, &self.backoff);
    }

    /// The earliest clock deadline, and whose; no sooner than a retry may run.
    fn next_deadline(&self) -> Option<(tokio::time::Instant, Seat)> {
        self.clocks
            .next_deadline()
            .map(|(t, seat)| (self.backoff.not_before(t), seat))
    }

    /// A seat ran out of time: a bot takes it, or, if that cannot be stored, the
    /// timeout is tried again later.
    async fn on_deadline(&mut self, seat: Seat) {
        match self.time_out(seat).await {
            Ok(()) => {
                self.backoff.succeeded();
                self.after_change();
            }
            Err(e) => {
                self.backoff.failed();
                tracing::error!(table = self.model.meta.id, retry_in = ?self.backoff.wait, error = %e.message, "clock timeout failed");
            }
        }
    }

    /// Serves commands until the table is over, the mailbox closes, or `stop` turns
    /// true. The stop is looked at before each command and not during one, so a commit
    /// under way is waited for; the commands still queued are dropped unanswered (their
    /// callers read `unavailable`, and nothing of theirs was written).
    ///
    /// A table that is over (finished or abandoned) never changes again, so nobody
    /// needs it in memory: it answers what is already in its mailbox, then ends, and
    /// the hub loads it from the database for the next command (a late viewer, its
    /// info or record). Its followers lose nothing: it would never send them another
    /// message (issue 20: finished tables kept in memory grew the server without end).
    async fn run(mut self, mut rx: mpsc::Receiver<Cmd>, mut stop: watch::Receiver<bool>) {
        self.set_live();
        self.arm_clocks();
        self.bots.schedule(&self.model, &self.backoff);
        loop {
            if self.fence.is_lost() {
                // Another node holds the table: nothing more is written here, and its
                // followers re-subscribe where it runs now.
                tracing::warn!(
                    table = self.fence.table(),
                    "lease lost: the table stops here"
                );
                self.followers.moved(self.fence.table());
                break;
            }
            if !self.model.meta.status.is_live() {
                // Closed first, so that no command can arrive after the last one
                // answered: a sender finds the mailbox closed and the hub loads the
                // table again. What is queued (and what a sender holding a permit
                // puts in) is answered; an over table answers without writing.
                rx.close();
                while let Some(cmd) = rx.recv().await {
                    if *stop.borrow() {
                        break;
                    }
                    self.handle(cmd).await;
                }
                break;
            }
            let deadline = self.next_deadline();
            let cmd = tokio::select! {
                biased;
                // (The guard `wait_for` answers with is not `Send`: dropped at once.)
                () = async { drop(stop.wait_for(|&stopping| stopping).await) } => {
                    // With several nodes the table is handed to another one.
                    if self.fence.epoch().is_some() {
                        self.followers.moved(self.fence.table());
                    }
                    break;
                }
                cmd = rx.recv() => cmd,
                _ = async {
                    match deadline {
                        Some((t, _)) => tokio::time::sleep_until(t).await,
                        None => std::future::pending().await,
                    }
                } => {
                    if let Some((_, seat)) = deadline {
                        self.on_deadline(seat).await;
                    }
                    continue;
                }
            };
            let Some(cmd) = cmd else { break };
            self.handle(cmd).await;
        }
        // Stopped (shutdown) or over: a search still running for this table is wasted.
        self.bots.stop_search();
        if self.counted_live {
            self.metrics.open_tables.fetch_sub(1, Ordering::Relaxed);
        }
        if self.counted_over {
            self.metrics
                .finished_tables_resident
                .fetch_sub(1, Ordering::Relaxed);
        }
    }
}
