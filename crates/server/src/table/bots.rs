//! The table's bot seats: asking the pending bot seat for its move, one at a time,
//! and taking its answer back. A rule-following bot answers here at once; a searching
//! bot thinks on the bot pool (`crate::bots`) with the tree it kept from its last
//! search (`crate::kept_bots`), and can be stopped. Either answer comes back as a
//! `Cmd::BotMove` through the table's own mailbox, so it queues behind whatever the
//! table was already asked to do and counts only at the step it was asked at.

use super::backoff::Backoff;
use super::cmd::Cmd;
use super::meta::Status;
use super::model::Model;
use crate::bots::BotPool;
use crate::kept_bots::{KeptBots, Lent};
use crate::metrics::Metrics;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use takuge_engine::{DynState, GameRng, Seat};
use tokio::sync::mpsc;

/// A bot's seed at one version of one table: deterministic, so a restored table's
/// bots choose as they would have.
fn bot_seed(seed: u64, version: u64) -> u64 {
    seed ^ version.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xB07_B07
}

pub(super) struct SeatBots {
    pool: BotPool,
    /// `Config::bot_delay`: the pause before each bot move.
    delay: Duration,
    metrics: Arc<Metrics>,
    /// The table's own mailbox, where moves come back.
    me: mpsc::WeakSender<Cmd>,
    /// The committed step count at which a bot was asked to move (a bot's move counts
    /// only at the step it was asked at).
    in_flight: Option<u64>,
    /// Set to stop the search in flight, if a searching bot is thinking.
    cancel: Option<Arc<AtomicBool>>,
    /// The searching bot seats' bots, kept for the table's life (tree reuse).
    kept: KeptBots,
}

impl SeatBots {
    pub fn new(
        pool: BotPool,
        delay: Duration,
        metrics: Arc<Metrics>,
        me: mpsc::WeakSender<Cmd>,
    ) -> SeatBots {
        SeatBots {
            pool,
            delay,
            metrics,
            me,
            in_flight: None,
            cancel: None,
            kept: KeptBots::default(),
        }
    }

    /// Stops the search of the bot thinking for this table, if one is.
    pub fn stop_search(&mut self) {
        if let Some(cancel) = self.cancel.take() {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Tells the kept bots of a committed move (`before`: the state before it).
    pub fn observe(&mut self, before: &dyn DynState, seat: Seat, action: &Value) {
        self.kept.observe(before, seat, action);
    }

    /// A bot's move is back, asked at step `version`: its bot is kept (even when the
    /// move is stale: its tree still holds, and the moves since it left are in its
    /// backlog), and the table may ask again.
    pub fn returned(&mut self, seat: Seat, version: u64, kept: Option<Lent>) {
        if let Some(lent) = kept {
            self.kept.give_back(seat, lent);
        }
        if self.in_flight == Some(version) {
            self.in_flight = None;
        }
    }

    /// Starts a bot's computation if a bot seat is pending and none is thinking; its
    /// move is due no sooner than the pause and any retry wait.
    pub fn schedule(&mut self, model: &Model, backoff: &Backoff) {
        if model.meta.status != Status::Playing || self.in_flight == Some(model.steps()) {
            return;
        }
        let Some(state) = &model.state else { return };
        let pending = state.to_move();
        let Some((seat, bot)) = model.meta.seats.iter().find_map(|s| {
            let seat = Seat(s.seat);
            match &s.bot {
                Some(bot) if pending.contains(seat) => Some((seat, bot.clone())),
                _ => None,
            }
        }) else {
            return;
        };
        // Keyed by steps, not the public version: a bot's own draft steps make no
        // version, and each needs a new move.
        let version = model.steps();
        self.in_flight = Some(version);
        let seed = bot_seed(model.meta.seed, version);
        let table = model.meta.id;
        let due = backoff.not_before(tokio::time::Instant::now() + self.delay);
        if !model.game.bot_searches(&bot) {
            // A rule-following or random bot answers in microseconds: it thinks here,
            // which saves two thread switches a move; its move still queues behind
            // whatever the table was already asked to do.
            let mut rng = GameRng::from_seed(seed);
            let thinking = std::time::Instant::now();
            let chosen = state.bot_action(seat, &bot, &mut rng);
            let thought = thinking.elapsed();
            self.metrics.bot_think.observe(thought);
            match chosen {
                Ok(action) => {
                    let Some(tx) = self.me.upgrade() else { return };
                    let cmd = Cmd::BotMove {
                        seat,
                        version,
                        action,
                        kept: None,
                    };
                    if due > tokio::time::Instant::now() {
                        tokio::spawn(async move {
                            tokio::time::sleep_until(due).await;
                            let _ = tx.send(cmd).await;
                        });
                    } else if let Err(mpsc::error::TrySendError::Full(cmd)) = tx.try_send(cmd) {
                        tokio::spawn(async move {
                            let _ = tx.send(cmd).await;
                        });
                    }
                }
                Err(e) => tracing::error!(table, %seat, error = %e, "bot failed"),
            }
            return;
        }
        let mut lent = match self.kept.lend(seat, &bot, &**state) {
            Ok(lent) => lent,
            Err(e) => {
                tracing::error!(table, %seat, error = %e, "bot failed");
                return;
            }
        };
        let snapshot = state.box_clone();
        let me = self.me.clone();
        let runtime = tokio::runtime::Handle::current();
        // A new search: the last one's flag (its move came in, or went stale) is done with.
        let cancel = Arc::new(AtomicBool::new(false));
        self.cancel = Some(cancel.clone());
        let metrics = self.metrics.clone();
        let asked = std::time::Instant::now();
        let started = self.pool.run(move |queued| {
            let mut rng = GameRng::from_seed(seed);
            let thinking = std::time::Instant::now();
            let ask = takuge_engine::Ask {
                at: Some(asked),
                queued,
                cancel: Some(cancel.clone()),
            };
            let chosen = lent.choose(&*snapshot, seat, &mut rng, &ask);
            let (thought, decided) = (thinking.elapsed(), asked.elapsed());
            if cancel.load(Ordering::Relaxed) {
                // The table was abandoned: nobody waits for this move.
                metrics
                    .bot_searches_cancelled
                    .fetch_add(1, Ordering::Relaxed);
                return;
            }
            metrics.bot_think.observe(thought);
            metrics.bot_search_decision.observe(decided);
            if lent.reused() {
                metrics.bot_searches_reused.fetch_add(1, Ordering::Relaxed);
            }
            if lent.rushed() {
                metrics.bot_moves_rushed.fetch_add(1, Ordering::Relaxed);
            }
            match chosen {
                Ok(action) => {
                    if let Some(tx) = me.upgrade() {
                        let cmd = Cmd::BotMove {
                            seat,
                            version,
                            action,
                            kept: Some(lent),
                        };
                        if tokio::time::Instant::now() < due {
                            // The rest of the pause on the runtime's timer, not here:
                            // the bot thread serves every table.
                            runtime.spawn(async move {
                                tokio::time::sleep_until(due).await;
                                let _ = tx.send(cmd).await;
                            });
                        } else {
                            let _ = tx.blocking_send(cmd);
                        }
                    }
                }
                Err(e) => tracing::error!(table, %seat, error = %e, "bot failed"),
            }
        });
        if !started {
            tracing::error!(table, %seat, "no bot thread is running");
        }
    }
}

/// A table dropped without its loop's end (its task aborted) stops its search too.
impl Drop for SeatBots {
    fn drop(&mut self) {
        self.stop_search();
    }
}
