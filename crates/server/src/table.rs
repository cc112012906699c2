//! Tables: one tokio task per table serialises every change to it (seats, start,
//! actions, bots, abandon), commits each change to the database before telling
//! anyone, and sends every subscribed connection exactly what its viewer may see.

use crate::action_id::{ActionIds, Seen};
use crate::error::ApiError;
use crate::metrics::Metrics;
use crate::moves::Moves;
use crate::store::Store;
use crate::time::now;
use crate::writer::Writer;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sqlx::Row;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use takuge_engine::record::{LoggedAction, RECORD_FORMAT};
use takuge_engine::Lang;
use takuge_engine::{
    DynGame, DynState, GameRng, MatchRecord, Outcome, Registry, Seat, SeatRecord, SeatSet, Viewer,
};
use tokio::sync::{mpsc, oneshot, watch};

pub use takuge_protocol::TableId;

pub use takuge_protocol::PROTOCOL;

/// How many messages a connection may fall behind before it is unsubscribed.
pub const CONNECTION_BACKLOG: usize = 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Open,
    Playing,
    Finished,
    Abandoned,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Playing => "playing",
            Status::Finished => "finished",
            Status::Abandoned => "abandoned",
        }
    }
    fn parse(s: &str) -> Status {
        match s {
            "open" => Status::Open,
            "playing" => Status::Playing,
            "finished" => Status::Finished,
            _ => Status::Abandoned,
        }
    }
    pub fn is_live(self) -> bool {
        matches!(self, Status::Open | Status::Playing)
    }
}

pub use takuge_protocol::Clock;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SeatInfo {
    pub seat: u8,
    pub user_id: Option<i64>,
    pub name: String,
    pub bot: Option<String>,
    /// A bot took over a player's seat (the player left or ran out of time).
    pub replaced: bool,
}

impl SeatInfo {
    fn is_free(&self) -> bool {
        self.user_id.is_none() && self.bot.is_none()
    }
}

/// A table as the database holds it.
#[derive(Clone, Debug)]
pub struct TableMeta {
    pub id: TableId,
    pub game: String,
    pub options: Value,
    pub players: usize,
    pub host: i64,
    pub private: bool,
    pub invite_code: Option<String>,
    pub clock: Clock,
    pub seed: u64,
    pub status: Status,
    pub seats: Vec<SeatInfo>,
    pub outcome: Option<Outcome>,
    /// The clocks as last committed (`None`: not started, or no clock).
    pub clock_state: Option<ClockState>,
    /// The rules version (`DynGame::rules_version`) the table is played under; `None`:
    /// stored before the server kept versions (migration 0003), so not known.
    pub rules: Option<u32>,
    /// Why the server itself closed the table (`None` for a host's abandon).
    pub abandoned_reason: Option<AbandonedReason>,
}

/// The rules version a record carries when the table's is not known (stored before
/// versions were kept, and this build's rules do not replay it): no build plays
/// version 0, so every build refuses to replay it instead of replaying it wrongly.
pub const UNKNOWN_RULES: u32 = 0;

/// Why the server, not the host, abandoned a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AbandonedReason {
    /// It was in play under rules this build does not play: replaying its log would
    /// show the players another match than the one they played.
    RulesVersion,
    /// Nobody started it within `Config::open_table_ttl` of its creation.
    Expired,
}

impl AbandonedReason {
    pub fn as_str(self) -> &'static str {
        match self {
            AbandonedReason::RulesVersion => "rules_version",
            AbandonedReason::Expired => "expired",
        }
    }
    fn parse(s: &str) -> Option<AbandonedReason> {
        match s {
            "rules_version" => Some(AbandonedReason::RulesVersion),
            "expired" => Some(AbandonedReason::Expired),
            _ => None,
        }
    }
}

/// An [`AbandonedReason`] as clients read it: a stable code and words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Reason {
    pub code: &'static str,
    pub message: String,
}

/// What anyone allowed to see the table may read about it.
#[derive(Clone, Debug, Serialize, utoipa::ToSchema)]
pub struct TableInfo {
    #[schema(value_type = i64)]
    pub id: TableId,
    pub game: String,
    pub options: Value,
    pub players: usize,
    pub host: i64,
    pub private: bool,
    /// Only for the host and seated players.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub invite_code: Option<String>,
    pub clock: Clock,
    pub status: Status,
    pub seats: Vec<SeatInfo>,
    pub version: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<crate::openapi::OutcomeSchema>)]
    pub outcome: Option<Outcome>,
    /// The rules version the table is played under (`null`: not known, see
    /// [`TableMeta::rules`]).
    pub rules: Option<u32>,
    /// Only when the server closed the table itself.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub abandoned_reason: Option<Reason>,
}

/// What a restart must keep of the clocks: each seat's real-time reserve left and,
/// for a seat thinking now, when it started (Unix milliseconds), from which its
/// deadline follows. Deadlines are wall-clock: time the server is down still runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub reserve_ms: Vec<u64>,
    pub thinking_since_ms: Vec<Option<i64>>,
}

/// Whether an account is to act at a table: one of its own seats (not a bot's, not one
/// a bot took over) is pending. Who is pending is public at the table; this says
/// nothing about what anyone chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Turn {
    pub to_act: bool,
    /// Its move's deadline (Unix ms), on a clocked table.
    pub deadline_ms: Option<i64>,
}

/// Who asks: an account, or the server itself (bots, clocks).
#[derive(Clone, Debug)]
pub struct Caller {
    pub user_id: i64,
    pub name: String,
}

type Reply<T> = oneshot::Sender<Result<T, ApiError>>;

pub enum Cmd {
    Info {
        caller: Caller,
        invite: Option<String>,
        reply: Reply<TableInfo>,
    },
    Sit {
        caller: Caller,
        seat: Option<u8>,
        invite: Option<String>,
        reply: Reply<TableInfo>,
    },
    Leave {
        caller: Caller,
        reply: Reply<TableInfo>,
    },
    FillBots {
        caller: Caller,
        bot: Option<String>,
        /// One seat (free, or a bot's); `None`: every free seat.
        seat: Option<u8>,
        reply: Reply<TableInfo>,
    },
    Start {
        caller: Caller,
        reply: Reply<TableInfo>,
    },
    Abandon {
        caller: Caller,
        reply: Reply<TableInfo>,
    },
    Act {
        caller: Caller,
        seat: Option<u8>,
        version: u64,
        /// The draft steps the client had seen (`crate::moves`).
        draft: Option<u64>,
        action: Value,
        /// The client's id for the action (`crate::action_id`).
        id: Option<String>,
        reply: Reply<u64>,
    },
    BotMove {
        seat: Seat,
        /// The committed step count the move was chosen at.
        version: u64,
        action: Value,
        /// The seat's kept bot, back from its search (`crate::kept_bots`).
        kept: Option<crate::kept_bots::Lent>,
    },
    /// Answers whether the table is live (open or playing).
    Subscribe {
        caller: Caller,
        conn: u64,
        invite: Option<String>,
        tx: mpsc::Sender<axum::extract::ws::Utf8Bytes>,
        /// Whether the connection may follow one more table that is over
        /// (`Config::max_finished_subscriptions`).
        room_for_over: bool,
        reply: Reply<bool>,
    },
    Unsubscribe {
        conn: u64,
    },
    Record {
        caller: Caller,
        reply: Reply<MatchRecord>,
    },
    /// Whether account `user_id` is to act here now (its profile's "waiting for you").
    Turn {
        user_id: i64,
        reply: Reply<Turn>,
    },
    /// Closes the table if it was never started (`caps::expire_loop`).
    Expire {
        reply: Reply<()>,
    },
}

/// A viewer (and the seat it acts for) with its view and legal actions as JSON.
type Written = (Viewer, Option<Seat>, Vec<u8>, Vec<u8>);

/// One log entry as each viewer may read it: index = seat, last = spectator.
#[derive(Clone)]
struct LogEntry {
    /// The seat that acted; `None` for what an action revealed to everyone
    /// (`Game::revealed_in`), a line of its own after the action's.
    seat: Option<Seat>,
    lines: Vec<Option<String>>,
    /// The same in Japanese (`text_ja`).
    lines_ja: Vec<Option<String>>,
}

struct Sub {
    user_id: i64,
    tx: mpsc::Sender<axum::extract::ws::Utf8Bytes>,
    sent_log: usize,
}

struct Table {
    meta: TableMeta,
    game: Arc<dyn DynGame>,
    state: Option<Box<dyn DynState>>,
    actions: Vec<LoggedAction<Value>>,
    ids: ActionIds,
    log: Vec<LogEntry>,
    subs: HashMap<u64, Sub>,
    writer: Writer,
    bots: crate::bots::BotPool,
    /// `Config::bot_delay`.
    bot_delay: Duration,
    metrics: Arc<Metrics>,
    me: mpsc::WeakSender<Cmd>,
    /// The public versions: one per move, a secret choice of several steps being one
    /// (`crate::moves`).
    moves: crate::moves::Moves,
    /// Set by a draft step: the next broadcast goes to this seat only.
    only_to: Option<Seat>,
    /// The committed step count at which a bot was asked to move (a bot's move counts
    /// only at the step it was asked at).
    bot_in_flight: Option<u64>,
    /// Set to stop the search in flight, if a searching bot is thinking.
    bot_cancel: Option<Arc<AtomicBool>>,
    /// The searching bot seats' bots, kept for the table's life (tree reuse).
    kept: crate::kept_bots::KeptBots,
    counted_live: bool,
    /// Counted in `Metrics::finished_tables_resident` (over, still in memory).
    counted_over: bool,
    /// When each pending seat started thinking, and the real-time reserve left (ms).
    thinking_since: Vec<Option<tokio::time::Instant>>,
    reserve_ms: Vec<u64>,
    /// Per seat: the version since which it has been pending without a break.
    pending_since: Vec<Option<u64>>,
    /// While the database refuses writes, bots and clocks wait this long between
    /// tries (doubling up to [`MAX_BACKOFF`]) instead of retrying at full speed.
    backoff: Backoff,
}

/// The longest wait between two tries to store a bot's move or a timeout.
const MAX_BACKOFF: Duration = Duration::from_secs(30);

/// Retries after a failed write, spaced out more each time.
#[derive(Default)]
struct Backoff {
    wait: Duration,
    not_before: Option<tokio::time::Instant>,
}

impl Backoff {
    fn failed(&mut self) {
        self.wait = (self.wait * 2).clamp(Duration::from_millis(250), MAX_BACKOFF);
        self.not_before = Some(tokio::time::Instant::now() + self.wait);
    }
    fn succeeded(&mut self) {
        *self = Backoff::default();
    }
    /// `t`, or later if a retry must wait.
    fn not_before(&self, t: tokio::time::Instant) -> tokio::time::Instant {
        self.not_before.map_or(t, |nb| nb.max(t))
    }
}

fn err(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
    ApiError::new(status, code, message)
}

/// What the action that turned `before` into `after` revealed to everyone
/// (`Game::revealed_in`), as a log entry of no seat that every viewer reads alike.
fn news_entry(before: &dyn DynState, after: &dyn DynState, players: usize) -> Option<LogEntry> {
    let en = after.revealed_in(before, Lang::En)?;
    let ja = after
        .revealed_in(before, Lang::Ja)
        .unwrap_or_else(|| en.clone());
    Some(LogEntry {
        seat: None,
        lines: vec![Some(en); players + 1],
        lines_ja: vec![Some(ja); players + 1],
    })
}

/// The line of a viewer who may read nothing of the action but that it happened; the
/// seat numbered from 1, as the table shows it.
fn acted(seat: Seat, lang: Lang) -> String {
    let n = u16::from(seat.0) + 1;
    match lang {
        Lang::En => format!("seat {n} acted"),
        Lang::Ja => format!("{n}番席が行動した"),
    }
}

fn too_many_subscriptions() -> ApiError {
    ApiError::conflict(
        "too_many_subscriptions",
        "this connection follows as many tables that are over as it may; unsubscribe from one first",
    )
}

fn stale(at: u64, chosen: u64) -> ApiError {
    ApiError::conflict(
        "stale_version",
        format!("the table is at version {at}, the action was chosen at version {chosen}"),
    )
}

/// Updates, per seat, the version since which it has been pending without a break.
fn track_pending(since: &mut [Option<u64>], before: SeatSet, after: SeatSet, version: u64) {
    for (i, s) in since.iter_mut().enumerate() {
        let seat = Seat(i as u8);
        *s = match (before.contains(seat), after.contains(seat)) {
            (_, false) => None,
            (true, true) => s.or(Some(version)),
            (false, true) => Some(version),
        };
    }
}

/// A bot's seed at one version of one table: deterministic, so a restored table's
/// bots choose as they would have.
fn bot_seed(seed: u64, version: u64) -> u64 {
    seed ^ version.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xB07_B07
}

impl Table {
    /// The public version: moves, not steps (`crate::moves`).
    fn version(&self) -> u64 {
        self.moves.version()
    }

    /// The committed steps.
    fn steps(&self) -> u64 {
        self.actions.len() as u64
    }

    fn seat_of(&self, user_id: i64) -> Option<Seat> {
        self.meta
            .seats
            .iter()
            .find(|s| s.user_id == Some(user_id) && s.bot.is_none())
            .map(|s| Seat(s.seat))
    }

    /// Whether `seat` played an action after version `version` that a client at that
    /// version, having seen `draft_seen` of the seat's draft steps, has not seen. Draft
    /// steps keep the version: a client that saw them all (`draft` in its message) chose
    /// after them.
    fn acted_unseen(&self, seat: Seat, version: u64, draft_seen: Option<u64>) -> bool {
        let from = self.moves.first_step_after(version);
        let own = self
            .actions
            .get(from..)
            .map_or(0, |later| later.iter().filter(|a| a.seat == seat).count());
        let drafts = self.moves.draft_steps(seat);
        let seen_all_drafts = draft_seen.is_some_and(|d| d == drafts as u64);
        own > 0 && !(seen_all_drafts && own <= drafts)
    }

    fn is_member(&self, user_id: i64) -> bool {
        user_id == self.meta.host || self.meta.seats.iter().any(|s| s.user_id == Some(user_id))
    }

    fn may_see(&self, caller: &Caller, invite: Option<&str>) -> Result<(), ApiError> {
        if !self.meta.private || self.is_member(caller.user_id) {
            return Ok(());
        }
        match (&self.meta.invite_code, invite) {
            (Some(code), Some(given)) if code == given => Ok(()),
            _ => Err(ApiError::unknown_table(self.meta.id)),
        }
    }

    fn info(&self, user_id: i64) -> TableInfo {
        TableInfo {
            id: self.meta.id,
            game: self.meta.game.clone(),
            options: self.meta.options.clone(),
            players: self.meta.players,
            host: self.meta.host,
            private: self.meta.private,
            invite_code: if self.is_member(user_id) {
                self.meta.invite_code.clone()
            } else {
                None
            },
            clock: self.meta.clock,
            status: self.meta.status,
            seats: self.meta.seats.clone(),
            version: self.version(),
            outcome: self.meta.outcome.clone(),
            rules: self.meta.rules,
            abandoned_reason: self.meta.abandoned_reason.map(|r| self.reason(r)),
        }
    }

    fn turn(&self, user_id: i64) -> Turn {
        let (Some(state), Status::Playing) = (&self.state, self.meta.status) else {
            return Turn::default();
        };
        let pending = state.to_move();
        let deadlines = self.clock_out().map(|c| c.deadline_ms);
        let mut turn = Turn::default();
        for (i, s) in self.meta.seats.iter().enumerate() {
            let own = s.user_id == Some(user_id) && s.bot.is_none() && !s.replaced;
            if own && pending.contains(Seat(i as u8)) {
                turn.to_act = true;
                let deadline = deadlines.as_ref().and_then(|d| d.get(i).copied().flatten());
                turn.deadline_ms = match (turn.deadline_ms, deadline) {
                    (Some(a), Some(b)) => Some(a.min(b)),
                    (a, b) => a.or(b),
                };
            }
        }
        turn
    }

    fn reason(&self, reason: AbandonedReason) -> Reason {
        let message = match reason {
            AbandonedReason::RulesVersion => format!(
                "this table was in play under {} rules version {}, and this server plays version {}, which would not continue the same game; it was closed, and its record can still be downloaded",
                self.meta.game,
                self.meta
                    .rules
                    .map_or_else(|| "unknown".to_string(), |v| v.to_string()),
                self.game.rules_version()
            ),
            AbandonedReason::Expired => {
                "nobody started this table in the time a table may wait for its start; it was closed".to_string()
            }
        };
        Reason {
            code: reason.as_str(),
            message,
        }
    }

    /// Records are for matches that are over: finished, or closed by the server (its
    /// players can no longer play it, so its seed reveals nothing they could use).
    fn record_available(&self) -> bool {
        self.meta.status == Status::Finished
            || (self.meta.status == Status::Abandoned
                && self.meta.abandoned_reason == Some(AbandonedReason::RulesVersion))
    }

    fn record(&self) -> MatchRecord {
        MatchRecord {
            format: RECORD_FORMAT,
            game: self.meta.game.clone(),
            // The version the table was played under, which a table from an older
            // build keeps, so that no build replays it under other rules.
            rules: self.meta.rules.unwrap_or(UNKNOWN_RULES),
            options: self.meta.options.clone(),
            seats: self
                .meta
                .seats
                .iter()
                .map(|s| SeatRecord {
                    name: s.name.clone(),
                    bot: s.bot.clone(),
                })
                .collect(),
            seed: self.meta.seed,
            actions: self.actions.clone(),
        }
    }

    fn host_only(&self, caller: &Caller, what: &str) -> Result<(), ApiError> {
        if caller.user_id == self.meta.host {
            Ok(())
        } else {
            Err(ApiError::forbidden(
                "not_host",
                format!("only the host may {what}"),
            ))
        }
    }

    fn must_be(&self, status: Status, what: &str) -> Result<(), ApiError> {
        if self.meta.status == status {
            Ok(())
        } else {
            Err(err(
                StatusCode::CONFLICT,
                "wrong_status",
                format!(
                    "cannot {what}: the table is {}, not {}",
                    self.meta.status.as_str(),
                    status.as_str()
                ),
            ))
        }
    }

    fn set_live(&mut self) {
        let live = self.meta.status.is_live();
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

    async fn save_seat(&self, seat: &SeatInfo) -> Result<(), ApiError> {
        self.writer
            .execute(
                "UPDATE seats SET user_id = $1, bot = $2, name = $3, replaced = $4 WHERE table_id = $5 AND seat = $6",
                vec![
                    seat.user_id.into(),
                    seat.bot.clone().into(),
                    seat.name.clone().into(),
                    i64::from(seat.replaced).into(),
                    self.meta.id.into(),
                    i64::from(seat.seat).into(),
                ],
            )
            .await?;
        Ok(())
    }

    async fn save_status(&self, status: Status) -> Result<(), ApiError> {
        self.writer
            .execute(
                "UPDATE game_tables SET status = $1, updated_at = $2 WHERE id = $3",
                vec![status.as_str().into(), now().into(), self.meta.id.into()],
            )
            .await?;
        Ok(())
    }

    async fn sit(
        &mut self,
        caller: &Caller,
        seat: Option<u8>,
        invite: Option<&str>,
    ) -> Result<(), ApiError> {
        self.may_see(caller, invite)?;
        self.must_be(Status::Open, "take a seat")?;
        if self.seat_of(caller.user_id).is_some() {
            return Err(ApiError::conflict(
                "already_seated",
                "you already hold a seat at this table",
            ));
        }
        let index = match seat {
            Some(k) => {
                let s = self.meta.seats.get(k as usize).ok_or_else(|| {
                    ApiError::bad_request(
                        "no_such_seat",
                        format!("this table has seats 0 to {}", self.meta.players - 1),
                    )
                })?;
                if !s.is_free() {
                    return Err(ApiError::conflict(
                        "seat_taken",
                        format!("seat {k} is taken"),
                    ));
                }
                k as usize
            }
            None => self
                .meta
                .seats
                .iter()
                .position(SeatInfo::is_free)
                .ok_or_else(|| ApiError::conflict("table_full", "every seat is taken"))?,
        };
        let mut new = self.meta.seats[index].clone();
        new.user_id = Some(caller.user_id);
        new.name = caller.name.clone();
        self.save_seat(&new).await?;
        self.meta.seats[index] = new;
        Ok(())
    }

    async fn leave(&mut self, caller: &Caller) -> Result<(), ApiError> {
        let Some(seat) = self.seat_of(caller.user_id) else {
            return Err(ApiError::conflict(
                "not_seated",
                "you hold no seat at this table",
            ));
        };
        let mut new = self.meta.seats[seat.index()].clone();
        match self.meta.status {
            Status::Open => {
                new.user_id = None;
                new.name = String::new();
            }
            Status::Playing => {
                // From now on a bot plays the seat, marked in the result.
                new.bot = Some(self.takeover_bot());
                new.replaced = true;
            }
            _ => {
                return Err(err(
                    StatusCode::CONFLICT,
                    "wrong_status",
                    "the game is over; there is nothing to leave",
                ))
            }
        }
        self.save_seat(&new).await?;
        self.meta.seats[seat.index()] = new;
        Ok(())
    }

    fn default_bot(&self) -> String {
        self.game
            .bot_names()
            .first()
            .map_or_else(|| "random".to_string(), |b| b.to_string())
    }

    /// The bot that takes over a player's seat (the player left or ran out of time):
    /// the level the host chose for the table's bots — its first bot seat the host
    /// filled — or the game's default bot at a table of players only.
    fn takeover_bot(&self) -> String {
        self.meta
            .seats
            .iter()
            .filter(|s| !s.replaced && s.user_id.is_none())
            .find_map(|s| s.bot.clone())
            .unwrap_or_else(|| self.default_bot())
    }

    async fn fill_bots(
        &mut self,
        caller: &Caller,
        bot: Option<String>,
        seat: Option<u8>,
    ) -> Result<(), ApiError> {
        self.host_only(caller, "fill seats with bots")?;
        self.must_be(Status::Open, "fill seats with bots")?;
        let names = self.game.bot_names();
        let bot = bot.unwrap_or_else(|| self.default_bot());
        if !names.contains(&bot.as_str()) {
            return Err(ApiError::bad_request(
                "unknown_bot",
                format!("{} has the bots {}", self.meta.game, names.join(", ")),
            ));
        }
        if let Some(k) = seat {
            // One seat: a free one, or a bot's whose level the host changes.
            let mut new = self
                .meta
                .seats
                .get(k as usize)
                .ok_or_else(|| {
                    ApiError::bad_request(
                        "no_such_seat",
                        format!("this table has seats 0 to {}", self.meta.players - 1),
                    )
                })?
                .clone();
            if new.user_id.is_some() {
                return Err(ApiError::conflict(
                    "seat_taken",
                    format!("a player holds seat {k}"),
                ));
            }
            new.bot = Some(bot.clone());
            new.name = format!("bot {bot}");
            self.save_seat(&new).await?;
            self.meta.seats[k as usize] = new;
            return Ok(());
        }
        let mut seats = self.meta.seats.clone();
        for s in seats.iter_mut().filter(|s| s.is_free()) {
            s.bot = Some(bot.clone());
            s.name = format!("bot {bot}");
        }
        // Every free seat in one statement: free in memory is free in the database.
        self.writer
            .execute(
                "UPDATE seats SET bot = $1, name = $2 WHERE table_id = $3 AND user_id IS NULL AND bot IS NULL",
                vec![bot.clone().into(), format!("bot {bot}").into(), self.meta.id.into()],
            )
            .await?;
        self.meta.seats = seats;
        Ok(())
    }

    async fn start(&mut self, caller: &Caller) -> Result<(), ApiError> {
        self.host_only(caller, "start the game")?;
        self.must_be(Status::Open, "start")?;
        if let Some(free) = self.meta.seats.iter().find(|s| s.is_free()) {
            return Err(ApiError::conflict(
                "seats_empty",
                format!(
                    "seat {} is empty: wait for a player or fill it with a bot",
                    free.seat
                ),
            ));
        }
        let state = self
            .game
            .new_game(&self.meta.options, self.meta.players, self.meta.seed)?;
        let idle = self.thinking_since.clone();
        self.arm_clocks_for(state.to_move());
        let clock_state = self.clock_state();
        self.thinking_since = idle;
        let clock_state = match clock_state {
            Some(c) => Some(serde_json::to_string(&c).map_err(ApiError::internal)?),
            None => None,
        };
        self.writer
            .execute(
                "UPDATE game_tables SET status = 'playing', clock_state = $1, updated_at = $2 WHERE id = $3",
                vec![clock_state.into(), now().into(), self.meta.id.into()],
            )
            .await?;
        self.arm_clocks_for(state.to_move());
        track_pending(&mut self.pending_since, SeatSet::EMPTY, state.to_move(), 0);
        self.state = Some(state);
        self.meta.status = Status::Playing;
        self.set_live();
        Ok(())
    }

    async fn abandon(&mut self, caller: &Caller) -> Result<(), ApiError> {
        self.host_only(caller, "abandon the table")?;
        if !self.meta.status.is_live() {
            return Err(err(
                StatusCode::CONFLICT,
                "wrong_status",
                format!("the table is already {}", self.meta.status.as_str()),
            ));
        }
        self.save_status(Status::Abandoned).await?;
        self.meta.status = Status::Abandoned;
        self.set_live();
        self.stop_bot_search();
        Ok(())
    }

    /// Stops the search of the bot thinking for this table, if one is.
    fn stop_bot_search(&mut self) {
        if let Some(cancel) = self.bot_cancel.take() {
            cancel.store(true, Ordering::Relaxed);
        }
    }

    /// Closes the table if it is still open; whether it did.
    async fn expire(&mut self) -> Result<bool, ApiError> {
        if self.meta.status != Status::Open {
            return Ok(false);
        }
        let reason = AbandonedReason::Expired;
        self.writer
            .execute(
                "UPDATE game_tables SET status = 'abandoned', abandoned_reason = $1, updated_at = $2 WHERE id = $3",
                vec![reason.as_str().into(), now().into(), self.meta.id.into()],
            )
            .await?;
        tracing::info!(table = self.meta.id, "never started: expired");
        self.meta.status = Status::Abandoned;
        self.meta.abandoned_reason = Some(reason);
        self.set_live();
        Ok(true)
    }

    /// Checks, commits and applies one action. Nothing changes on any error.
    async fn act(
        &mut self,
        seat: Seat,
        (version, draft_seen): (u64, Option<u64>),
        action: Value,
        id: Option<String>,
    ) -> Result<u64, ApiError> {
        if self.meta.status != Status::Playing {
            return Err(err(
                StatusCode::CONFLICT,
                "not_playing",
                format!("the table is {}", self.meta.status.as_str()),
            ));
        }
        // An action chosen at an earlier version still counts when the seat has been
        // pending ever since (simultaneous choices: another seat's choice must not
        // make yours stale); the rules then decide whether it is still legal.
        let waiting_since = self.pending_since.get(seat.index()).copied().flatten();
        let still_pending = version < self.version() && waiting_since.is_some_and(|v| v <= version);
        if version != self.version() && !still_pending {
            return Err(stale(self.version(), version));
        }
        if id.is_none() && still_pending && self.acted_unseen(seat, version, draft_seen) {
            // Chosen before this seat's own later action showed: a resend of that
            // action (a lost ack) or a choice made without seeing it. Without an id
            // the two look alike, and playing a resend twice is the worse mistake.
            return Err(ApiError::conflict(
                "stale_version",
                format!(
                    "the action was chosen at version {version}, before this seat's own later action; if it is a resend, that action was already played (an action `id` makes a resend answer with its ack)"
                ),
            ));
        }
        let Some(state) = self.state.as_ref() else {
            return Err(ApiError::internal("a playing table has no state"));
        };
        let lines = state.describe_for_all(seat, &action, Lang::En);
        let lines_ja = state.describe_for_all(seat, &action, Lang::Ja);
        let mut next = state.box_clone();
        next.apply(seat, &action)?;
        // A step of a secret choice still being put together: committed, but nobody
        // else learns of it (`crate::moves`).
        let drafting = next.drafting(seat);
        let news = news_entry(&**state, &*next, self.meta.players);
        let new_step = self.steps() + 1;
        let new_version = self.version() + u64::from(!drafting);
        let before = state.to_move();
        let outcome = next.outcome();
        // The clocks after this action commit with it, so a restart resumes them; they
        // go back as they were if the commit fails. A draft step is not a move: the
        // clock runs on through it (an increment per step would pay by the step).
        let clocks_before = (self.thinking_since.clone(), self.reserve_ms.clone());
        if !drafting {
            self.charge_clock(seat);
            self.arm_clocks_for(next.to_move());
        }
        let outcome_json = outcome
            .as_ref()
            .map(|o| serde_json::to_string(o).map_err(ApiError::internal))
            .transpose();
        let clock_json = self
            .clock_state()
            .map(|c| serde_json::to_string(&c).map_err(ApiError::internal))
            .transpose();
        let committed = match (outcome_json, clock_json) {
            (Ok(outcome), Ok(clock_state)) => {
                let write = crate::writer::ActionWrite {
                    table: self.meta.id,
                    version: new_step as i64,
                    seat: i64::from(seat.0),
                    action: action.to_string(),
                    client_id: id.clone(),
                    // The last action and the outcome commit together.
                    outcome,
                    clock_state,
                };
                let asked = std::time::Instant::now();
                let reply = self.writer.commit(write).await;
                self.metrics.commit_wait.observe(asked.elapsed());
                match reply {
                    Ok(crate::writer::Committed::Yes) => Ok(()),
                    Ok(crate::writer::Committed::VersionConflict) => Err(ApiError::conflict(
                        "version_conflict",
                        "another writer committed this version first; nothing was changed",
                    )),
                    Err(e) => {
                        tracing::warn!(table = self.meta.id, error = %e, "an action could not be stored");
                        Err(ApiError::database_unavailable())
                    }
                }
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        if let Err(e) = committed {
            (self.thinking_since, self.reserve_ms) = clocks_before;
            return Err(e);
        }
        self.metrics
            .actions_committed
            .fetch_add(1, Ordering::Relaxed);
        let after = next.to_move();
        track_pending(&mut self.pending_since, before, after, new_version);
        if let Some(before) = &self.state {
            self.kept.observe(&**before, seat, &action);
        }
        self.state = Some(next);
        self.actions.push(LoggedAction { seat, action });
        self.moves.push_step(!drafting);
        if let Some(id) = id {
            self.ids.insert(seat, id, new_step);
        }
        let (mut lines, mut lines_ja) = (lines, lines_ja);
        if drafting {
            let own = |l: &mut Vec<Option<String>>| l.get_mut(seat.index()).and_then(Option::take);
            self.moves
                .add_draft_lines(seat, own(&mut lines), own(&mut lines_ja));
            self.only_to = Some(seat);
        } else {
            self.moves.complete(seat, &mut lines, &mut lines_ja);
            self.log.push(LogEntry {
                seat: Some(seat),
                lines,
                lines_ja,
            });
            self.log.extend(news);
        }
        if let Some(outcome) = outcome {
            self.meta.outcome = Some(outcome);
            self.meta.status = Status::Finished;
            self.set_live();
            // The match goes into its players' histories (the shelf's plays) before
            // the last action is answered; the action stands whatever happens here,
            // and a play missed now is written at the next start (`catch_up`).
            let table = self.meta.id;
            let recorded = self
                .writer
                .write(move |c| Box::pin(crate::shelf::matches::record_table(c, table)))
                .await;
            if let Err(e) = recorded {
                tracing::warn!(table, error = %e, "the plays of a finished match were not recorded");
            }
        }
        Ok(new_version)
    }

    /// The seat `user_id` sees the table as (a player whose seat a bot took over still
    /// sees that seat), and the seat it acts for (none once a bot took over).
    fn viewer_of(&self, user_id: i64) -> (Viewer, Option<Seat>) {
        let acts = self.seat_of(user_id);
        let sees = acts.or_else(|| {
            self.meta
                .seats
                .iter()
                .find(|s| s.user_id == Some(user_id))
                .map(|s| Seat(s.seat))
        });
        (sees.map_or(Viewer::Spectator, Viewer::Seat), acts)
    }

    /// The view and legal actions of one viewer, as JSON text.
    fn view_and_legal(&self, viewer: Viewer, acts: Option<Seat>) -> (Vec<u8>, Vec<u8>) {
        let mut view = Vec::new();
        let mut legal = Vec::new();
        match &self.state {
            Some(state) => {
                state.write_view(viewer, &mut view);
                match (acts, self.meta.status) {
                    (Some(seat), Status::Playing) => state.write_legal_actions(seat, &mut legal),
                    _ => legal.extend_from_slice(b"[]"),
                }
            }
            None => {
                view.extend_from_slice(b"null");
                legal.extend_from_slice(b"[]");
            }
        }
        (view, legal)
    }

    /// The message for one connection: its own view, legal actions, and the log lines
    /// from `from_log` on as it may read them.
    fn message_for(
        &self,
        viewer: Viewer,
        from_log: usize,
        view: &[u8],
        legal: &[u8],
    ) -> axum::extract::ws::Utf8Bytes {
        use crate::message::{table_message, LogLine, TableHead};
        use std::borrow::Cow;
        let viewer_index = match viewer {
            Viewer::Seat(s) => s.index(),
            Viewer::Spectator => self.meta.players,
        };
        fn line(
            lines: &[Option<String>],
            i: usize,
            seat: Option<Seat>,
            lang: Lang,
        ) -> Cow<'_, str> {
            match (lines.get(i), seat) {
                (Some(Some(text)), _) => Cow::Borrowed(text.as_str()),
                (_, Some(seat)) => Cow::Owned(acted(seat, lang)),
                (_, None) => Cow::Borrowed(""),
            }
        }
        let log = self
            .log
            .iter()
            .enumerate()
            .skip(from_log)
            .map(|(index, e)| LogLine {
                index,
                seat: e.seat,
                text: line(&e.lines, viewer_index, e.seat, Lang::En),
                text_ja: line(&e.lines_ja, viewer_index, e.seat, Lang::Ja),
            })
            .collect();
        let head = TableHead {
            protocol: PROTOCOL,
            kind: "table",
            table: self.meta.id,
            game: &self.meta.game,
            status: self.meta.status,
            abandoned_reason: self.meta.abandoned_reason.map(|r| self.reason(r)),
            host: self.meta.host,
            seats: &self.meta.seats,
            you: match viewer {
                Viewer::Seat(s) => Some(s),
                Viewer::Spectator => None,
            },
            version: self.version(),
            draft: match viewer {
                Viewer::Seat(s) if self.moves.has_draft(s) => Some(self.moves.draft_steps(s)),
                _ => None,
            },
            pending: self
                .state
                .as_ref()
                .map(|s| s.to_move().iter().map(|s| s.0).collect())
                .unwrap_or_default(),
            log,
            outcome: self.meta.outcome.as_ref(),
            clock: self.clock_out(),
            server_time_ms: crate::time::now_ms(),
        };
        table_message(&head, view, legal)
    }

    /// The whole message for a connection that has seen nothing yet.
    fn first_message_for(&self, user_id: i64) -> axum::extract::ws::Utf8Bytes {
        let (viewer, acts) = self.viewer_of(user_id);
        let (view, legal) = self.view_and_legal(viewer, acts);
        self.message_for(viewer, 0, &view, &legal)
    }

    fn broadcast(&mut self) {
        let log_len = self.log.len();
        let mut dead = Vec::new();
        // After a draft step only its seat hears of it (`crate::moves`).
        let only = self.only_to.take();
        // Connections of the same viewer (a player's tabs, the spectators) share one
        // view and one list of legal actions.
        let mut written: Vec<Written> = Vec::new();
        let mut msgs = Vec::with_capacity(self.subs.len());
        for (conn, sub) in &self.subs {
            let (viewer, acts) = self.viewer_of(sub.user_id);
            if only.is_some_and(|seat| viewer != Viewer::Seat(seat)) {
                continue;
            }
            let i = match written
                .iter()
                .position(|(v, a, _, _)| *v == viewer && *a == acts)
            {
                Some(i) => i,
                None => {
                    let (view, legal) = self.view_and_legal(viewer, acts);
                    written.push((viewer, acts, view, legal));
                    written.len() - 1
                }
            };
            let (_, _, view, legal) = &written[i];
            msgs.push((*conn, self.message_for(viewer, sub.sent_log, view, legal)));
        }
        for (conn, text) in msgs {
            if let Some(sub) = self.subs.get_mut(&conn) {
                if sub.tx.try_send(text).is_err() {
                    dead.push(conn);
                } else {
                    sub.sent_log = log_len;
                }
            }
        }
        for conn in dead {
            tracing::warn!(
                table = self.meta.id,
                conn,
                "connection fell behind or closed; unsubscribed"
            );
            self.subs.remove(&conn);
        }
    }

    /// Starts a bot's computation if a bot seat is pending and none is thinking.
    fn schedule_bot(&mut self) {
        if self.meta.status != Status::Playing || self.bot_in_flight == Some(self.steps()) {
            return;
        }
        let Some(state) = &self.state else { return };
        let pending = state.to_move();
        let Some((seat, bot)) = self.meta.seats.iter().find_map(|s| {
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
        let version = self.steps();
        self.bot_in_flight = Some(version);
        let seed = bot_seed(self.meta.seed, version);
        let table = self.meta.id;
        let due = self
            .backoff
            .not_before(tokio::time::Instant::now() + self.bot_delay);
        if !self.game.bot_searches(&bot) {
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
        self.bot_cancel = Some(cancel.clone());
        let metrics = self.metrics.clone();
        let asked = std::time::Instant::now();
        let started = self.bots.run(move || {
            let mut rng = GameRng::from_seed(seed);
            let thinking = std::time::Instant::now();
            let chosen = lent.choose(&*snapshot, seat, &mut rng, cancel.clone());
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

    // ---- clocks ----

    fn arm_clocks(&mut self) {
        let pending = match (&self.state, self.meta.status) {
            (Some(s), Status::Playing) => s.to_move(),
            _ => takuge_engine::SeatSet::EMPTY,
        };
        self.arm_clocks_for(pending);
    }

    /// Starts the clock of every human seat in `pending` not already thinking; stops
    /// every other.
    fn arm_clocks_for(&mut self, pending: SeatSet) {
        let now = tokio::time::Instant::now();
        for (i, since) in self.thinking_since.iter_mut().enumerate() {
            let seat = Seat(i as u8);
            let human = self.meta.seats.get(i).is_some_and(|s| s.bot.is_none());
            if pending.contains(seat) && human {
                since.get_or_insert(now);
            } else {
                *since = None;
            }
        }
    }

    fn charge_clock(&mut self, seat: Seat) {
        let Some(since) = self
            .thinking_since
            .get_mut(seat.index())
            .and_then(Option::take)
        else {
            return;
        };
        if let Clock::RealTime {
            per_move_seconds, ..
        } = self.meta.clock
        {
            let used = since.elapsed().as_millis() as u64;
            let over = used.saturating_sub(u64::from(per_move_seconds) * 1000);
            if let Some(r) = self.reserve_ms.get_mut(seat.index()) {
                *r = r.saturating_sub(over);
            }
        }
    }

    /// How long seat `i` may think this move, from when it started.
    fn allowance(&self, i: usize) -> Option<Duration> {
        match self.meta.clock {
            Clock::None => None,
            Clock::RealTime {
                per_move_seconds, ..
            } => Some(Duration::from_millis(
                u64::from(per_move_seconds) * 1000 + self.reserve_ms.get(i).copied().unwrap_or(0),
            )),
            Clock::TurnBased { hours_per_move } => {
                Some(Duration::from_secs(u64::from(hours_per_move) * 3600))
            }
        }
    }

    /// The earliest moment a thinking seat runs out of time.
    fn next_deadline(&self) -> Option<(tokio::time::Instant, Seat)> {
        self.thinking_since
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((((*s)? + self.allowance(i)?), Seat(i as u8))))
            .min_by_key(|(t, _)| *t)
            .map(|(t, seat)| (self.backoff.not_before(t), seat))
    }

    /// The clocks as they are now, in wall-clock terms (`None` without a clock).
    fn clock_state(&self) -> Option<ClockState> {
        if self.meta.clock == Clock::None {
            return None;
        }
        let now_ms = crate::time::now_ms();
        Some(ClockState {
            reserve_ms: self.reserve_ms.clone(),
            thinking_since_ms: self
                .thinking_since
                .iter()
                .map(|s| s.map(|t| now_ms - t.elapsed().as_millis() as i64))
                .collect(),
        })
    }

    /// For clients: each seat's reserve left and, while it thinks, its deadline
    /// (Unix milliseconds).
    fn clock_out(&self) -> Option<crate::message::ClockOut> {
        let state = self.clock_state()?;
        let deadline_ms = state
            .thinking_since_ms
            .iter()
            .enumerate()
            .map(|(i, s)| Some((*s)? + self.allowance(i)?.as_millis() as i64))
            .collect();
        Some(crate::message::ClockOut {
            reserve_ms: state.reserve_ms,
            deadline_ms,
        })
    }

    async fn time_out(&mut self, seat: Seat) -> Result<(), ApiError> {
        let mut new = self.meta.seats[seat.index()].clone();
        new.bot = Some(self.takeover_bot());
        new.replaced = true;
        self.save_seat(&new).await?;
        tracing::info!(table = self.meta.id, %seat, "out of time; a bot takes the seat");
        self.meta.seats[seat.index()] = new;
        if let Some(s) = self.thinking_since.get_mut(seat.index()) {
            *s = None;
        }
        Ok(())
    }

    async fn handle(&mut self, cmd: Cmd) -> bool {
        match cmd {
            Cmd::Info {
                caller,
                invite,
                reply,
            } => {
                let r = self
                    .may_see(&caller, invite.as_deref())
                    .map(|()| self.info(caller.user_id));
                let _ = reply.send(r);
                return true;
            }
            Cmd::Record { caller, reply } => {
                let r = self.may_see(&caller, None).and_then(|()| {
                    if self.record_available() {
                        Ok(self.record())
                    } else {
                        Err(ApiError::conflict(
                            "not_finished",
                            "records and replays are available once the game is over",
                        ))
                    }
                });
                let _ = reply.send(r);
                return true;
            }
            Cmd::Subscribe {
                caller,
                conn,
                invite,
                tx,
                room_for_over,
                reply,
            } => {
                let live = self.meta.status.is_live();
                let r = self.may_see(&caller, invite.as_deref()).and_then(|()| {
                    if live || room_for_over {
                        Ok(live)
                    } else {
                        Err(too_many_subscriptions())
                    }
                });
                if r.is_ok() {
                    let msg = self.first_message_for(caller.user_id);
                    if tx.try_send(msg).is_ok() {
                        self.subs.insert(
                            conn,
                            Sub {
                                user_id: caller.user_id,
                                tx,
                                sent_log: self.log.len(),
                            },
                        );
                    }
                }
                let _ = reply.send(r);
                return true;
            }
            Cmd::Unsubscribe { conn } => {
                self.subs.remove(&conn);
                return true;
            }
            Cmd::Turn { user_id, reply } => {
                let _ = reply.send(Ok(self.turn(user_id)));
                return true;
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
                self.finish_change(r.map(|()| self.info(caller.user_id)), reply);
            }
            Cmd::Leave { caller, reply } => {
                // To anyone who may not see it, a private table answers as a missing one.
                let r = match self.may_see(&caller, None) {
                    Ok(()) => self.leave(&caller).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.info(caller.user_id)), reply);
            }
            Cmd::FillBots {
                caller,
                bot,
                seat,
                reply,
            } => {
                let r = match self.may_see(&caller, None) {
                    Ok(()) => self.fill_bots(&caller, bot, seat).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.info(caller.user_id)), reply);
            }
            Cmd::Start { caller, reply } => {
                // To anyone who may not see it, a private table answers as a missing one.
                let r = match self.may_see(&caller, None) {
                    Ok(()) => self.start(&caller).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.info(caller.user_id)), reply);
            }
            Cmd::Abandon { caller, reply } => {
                // To anyone who may not see it, a private table answers as a missing one.
                let r = match self.may_see(&caller, None) {
                    Ok(()) => self.abandon(&caller).await,
                    Err(e) => Err(e),
                };
                self.finish_change(r.map(|()| self.info(caller.user_id)), reply);
            }
            Cmd::Act {
                caller,
                seat,
                version,
                draft,
                action,
                id,
                reply,
            } => {
                let seen = self.may_see(&caller, None).and_then(|()| {
                    let mine = self.acting_seat(&caller, seat)?;
                    let seen = self
                        .ids
                        .check(mine, id.as_deref(), &action, &self.actions)?;
                    Ok((mine, seen))
                });
                let r = match seen {
                    Err(e) => Err(e),
                    // Already played: its ack again, and nothing changes or is sent.
                    Ok((_, Seen::Retry(step))) => {
                        let _ = reply.send(Ok(self.moves.version_after_step(step)));
                        return true;
                    }
                    Ok((mine, Seen::New)) => self.act(mine, (version, draft), action, id).await,
                };
                self.finish_change(r, reply);
            }
            Cmd::BotMove {
                seat,
                version,
                action,
                kept,
            } => {
                // Kept even when its move is stale: its tree still holds, and the
                // moves since it left are in its backlog.
                if let Some(lent) = kept {
                    self.kept.give_back(seat, lent);
                }
                if self.bot_in_flight == Some(version) {
                    self.bot_in_flight = None;
                }
                let is_bot = self
                    .meta
                    .seats
                    .get(seat.index())
                    .is_some_and(|s| s.bot.is_some());
                if is_bot && version == self.steps() {
                    match self.act(seat, (self.version(), None), action, None).await {
                        Ok(_) => {
                            self.backoff.succeeded();
                            self.after_change();
                        }
                        Err(e) if e.status >= 500 => {
                            // The database refuses writes: try again later, not at once.
                            self.backoff.failed();
                            tracing::warn!(table = self.meta.id, %seat, retry_in = ?self.backoff.wait, error = %e.message, "bot move not stored");
                        }
                        Err(e) => {
                            tracing::error!(table = self.meta.id, %seat, error = %e.message, "bot move refused");
                        }
                    }
                }
                // A stale bot move (someone else moved first) is dropped; the next
                // scheduling asks again.
                self.schedule_bot();
            }
        }
        true
    }

    /// The seat `caller` acts for, given the seat it asked to act for (if any).
    fn acting_seat(&self, caller: &Caller, asked: Option<u8>) -> Result<Seat, ApiError> {
        match (self.seat_of(caller.user_id), asked) {
            (None, _) => Err(ApiError::forbidden(
                "not_seated",
                "you hold no seat at this table (or a bot has taken it over)",
            )),
            (Some(mine), Some(asked)) if mine.0 != asked => Err(ApiError::forbidden(
                "foreign_seat",
                format!("you play {mine}, not seat {asked}"),
            )),
            (Some(mine), _) => Ok(mine),
        }
    }

    fn finish_change<T>(&mut self, r: Result<T, ApiError>, reply: Reply<T>) {
        let ok = r.is_ok();
        if ok {
            self.after_change();
        }
        let _ = reply.send(r);
    }

    fn after_change(&mut self) {
        self.arm_clocks();
        self.broadcast();
        self.schedule_bot();
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
        self.schedule_bot();
        loop {
            if !self.meta.status.is_live() {
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
                () = async { drop(stop.wait_for(|&stopping| stopping).await) } => break,
                cmd = rx.recv() => cmd,
                _ = async {
                    match deadline {
                        Some((t, _)) => tokio::time::sleep_until(t).await,
                        None => std::future::pending().await,
                    }
                } => {
                    if let Some((_, seat)) = deadline {
                        match self.time_out(seat).await {
                            Ok(()) => {
                                self.backoff.succeeded();
                                self.after_change();
                            }
                            Err(e) => {
                                self.backoff.failed();
                                tracing::error!(table = self.meta.id, retry_in = ?self.backoff.wait, error = %e.message, "clock timeout failed");
                            }
                        }
                    }
                    continue;
                }
            };
            let Some(cmd) = cmd else { break };
            if !self.handle(cmd).await {
                break;
            }
        }
        // Stopped (shutdown) or over: a search still running for this table is wasted.
        self.stop_bot_search();
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

/// A running table's mailbox.
pub struct TableHandle {
    pub tx: mpsc::Sender<Cmd>,
    pub task: tokio::task::JoinHandle<()>,
}

/// What a table's task is told from outside: `first`, the command it is loaded for
/// (answered first), `stop` turns true at shutdown, and `ended` runs when the task
/// ends (the hub forgets the table).
pub struct Lifecycle {
    pub first: Option<Cmd>,
    pub stop: watch::Receiver<bool>,
    pub ended: Box<dyn FnOnce() + Send>,
}

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

/// A table replayed: its state, every viewer's log lines, its moves.
type Replayed = (Box<dyn DynState>, Vec<LogEntry>, Moves);

/// Replays `actions` from the seed; every viewer's log lines along the way, a move's
/// draft steps (`crate::moves`) in its seat's line of the move, as when played.
fn restore(
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

/// A table replayed from what the database holds, ready to start.
pub struct Prepared {
    meta: TableMeta,
    game: Arc<dyn DynGame>,
    state: Option<Box<dyn DynState>>,
    actions: Vec<LoggedAction<Value>>,
    ids: ActionIds,
    log: Vec<LogEntry>,
    moves: Moves,
    pending_since: Vec<Option<u64>>,
    /// What the restore decided about the rules version, to store before anything
    /// else (`None`: nothing to store).
    settled: Option<(TableId, RulesWrite)>,
}

impl Prepared {
    pub fn id(&self) -> TableId {
        self.meta.id
    }

    /// A copy to start again later, for a table that is over and has nothing left to
    /// store (`None` otherwise): such a table never changes again, so the copy stays
    /// true, and starting from it costs no database read and no replay.
    pub fn snapshot(&self) -> Option<Prepared> {
        if self.meta.status.is_live() || self.settled.is_some() {
            return None;
        }
        Some(Prepared {
            meta: self.meta.clone(),
            game: self.game.clone(),
            state: self.state.as_ref().map(|s| s.box_clone()),
            actions: self.actions.clone(),
            ids: self.ids.clone(),
            log: self.log.clone(),
            moves: self.moves.clone(),
            pending_since: self.pending_since.clone(),
            settled: None,
        })
    }
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
        meta,
        game,
        state,
        actions,
        ids,
        log,
        moves,
        pending_since,
        settled,
    })
}

/// Starts a table's task from a table replayed.
pub fn start(
    Prepared {
        meta,
        game,
        state,
        actions,
        ids,
        log,
        moves,
        pending_since,
        settled,
    }: Prepared,
    writer: Writer,
    (bots, bot_delay): (crate::bots::BotPool, Duration),
    metrics: Arc<Metrics>,
    Lifecycle { first, stop, ended }: Lifecycle,
) -> Result<TableHandle, ApiError> {
    let (tx, rx) = mpsc::channel(256);
    // The command the table is loaded for goes in before anyone else can send: a
    // table over answers it before it ends.
    if let Some(cmd) = first {
        if tx.try_send(cmd).is_err() {
            return Err(ApiError::unavailable());
        }
    }
    let players = meta.players;
    let reserve = match meta.clock {
        Clock::RealTime {
            reserve_seconds, ..
        } => u64::from(reserve_seconds) * 1000,
        _ => 0,
    };
    let mut thinking_since = vec![None; players];
    let mut reserve_ms = vec![reserve; players];
    if let (Some(c), Status::Playing) = (&meta.clock_state, meta.status) {
        if c.reserve_ms.len() == players && c.thinking_since_ms.len() == players {
            reserve_ms.clone_from(&c.reserve_ms);
            let now = tokio::time::Instant::now();
            let now_ms = crate::time::now_ms();
            for (t, since) in thinking_since.iter_mut().zip(&c.thinking_since_ms) {
                *t = since.map(|ms| {
                    let ago = Duration::from_millis(now_ms.saturating_sub(ms).max(0) as u64);
                    now.checked_sub(ago).unwrap_or(now)
                });
            }
        }
    }
    let table = Table {
        meta,
        game,
        state,
        actions,
        ids,
        log,
        subs: HashMap::new(),
        writer,
        bots,
        bot_delay,
        metrics,
        me: tx.downgrade(),
        moves,
        only_to: None,
        bot_in_flight: None,
        bot_cancel: None,
        kept: Default::default(),
        counted_live: false,
        counted_over: false,
        thinking_since,
        reserve_ms,
        pending_since,
        backoff: Backoff::default(),
    };
    let task = tokio::spawn(async move {
        // Declared first, so dropped last: after the mailbox (in `run`) is closed.
        let _ended = Ended(Some(ended));
        // Before any command: what the restore decided about the rules version is
        // stored first, so nothing is told about the table that the database does not
        // hold. On failure the decision is made again at the next load.
        if let Some((id, write)) = settled {
            if let Err(e) = write.save(&table.writer, id).await {
                tracing::error!(table = id, error = %e.message, "cannot store the table's rules version");
            }
        }
        table.run(rx, stop).await
    });
    Ok(TableHandle { tx, task })
}

/// A table dropped without its loop's end (its task aborted) stops its search too.
impl Drop for Table {
    fn drop(&mut self) {
        self.stop_bot_search();
    }
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

/// What a restore decided about a table's rules version, to store.
struct RulesWrite {
    rules: Option<u32>,
    status: Status,
    reason: Option<AbandonedReason>,
}

impl RulesWrite {
    async fn save(&self, writer: &Writer, id: TableId) -> Result<(), ApiError> {
        writer
            .execute(
                "UPDATE game_tables SET rules_version = $1, status = $2, abandoned_reason = $3, updated_at = $4 WHERE id = $5",
                vec![
                    self.rules.map(i64::from).into(),
                    self.status.as_str().into(),
                    self.reason.map(AbandonedReason::as_str).into(),
                    now().into(),
                    id.into(),
                ],
            )
            .await?;
        Ok(())
    }
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
            let (state, log, moves) = restore(game, meta, actions, pending)?;
            return Ok((Some(state), log, moves, None));
        }
        None => {
            if let Ok((state, log, moves)) = restore(game, meta, actions, pending) {
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

/// Steps through a finished record: after each action, `viewer`'s view and log line.
pub fn replay_steps(
    game: &dyn DynGame,
    record: &MatchRecord,
    viewer: Viewer,
) -> Result<Vec<Value>, ApiError> {
    // A record of other rules (a table closed on restore, or finished under an older
    // build) is downloadable, but this build cannot show its views.
    record
        .check_rules(game.rules_version())
        .map_err(|e| ApiError::conflict("rules_version", e.to_string()))?;
    let mut state = game.new_game(&record.options, record.players(), record.seed)?;
    let mut steps = vec![json!({ "version": 0, "view": state.view(viewer) })];
    for (i, a) in record.actions.iter().enumerate() {
        let text = state
            .describe_for(a.seat, &a.action, viewer)
            .unwrap_or_else(|| acted(a.seat, Lang::En));
        let text_ja = state
            .describe_for_in(a.seat, &a.action, viewer, Lang::Ja)
            .unwrap_or_else(|| acted(a.seat, Lang::Ja));
        let before = state.box_clone();
        state
            .apply(a.seat, &a.action)
            .map_err(|e| ApiError::internal(format!("replay step {}: {}", i + 1, e.message)))?;
        let mut step = json!({
            "version": i + 1,
            "seat": a.seat,
            "log": text,
            "log_ja": text_ja,
            "view": state.view(viewer),
        });
        // What the step revealed to everyone: the places, cards or exhibits of a reveal.
        if let (Some(news), Some(fields)) =
            (state.revealed_in(&*before, Lang::En), step.as_object_mut())
        {
            let ja = state.revealed_in(&*before, Lang::Ja);
            fields.insert("news".into(), json!(news));
            fields.insert("news_ja".into(), json!(ja.unwrap_or_else(|| news.clone())));
        }
        steps.push(step);
    }
    Ok(steps)
}
