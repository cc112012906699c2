//! The table's state and what each command does to it, without I/O: who sits where,
//! the game state, the committed steps and public versions, the log, and who may see
//! and do what. A change is decided here (checked, and what it would write worked
//! out), stored by the actor (`persist`), and only then applied here: nothing changes
//! on a refusal or a failed write.

use super::clock::{Clocks, Now};
use super::log::{news_entry, LogEntry};
use super::meta::UNKNOWN_RULES;
use super::meta::{AbandonedReason, Caller, Reason, SeatInfo, Status, TableInfo, TableMeta, Turn};
use crate::action_id::ActionIds;
use crate::error::ApiError;
use crate::moves::Moves;
use serde_json::Value;
use std::sync::Arc;
use takuge_engine::record::{LoggedAction, RECORD_FORMAT};
use takuge_engine::{
    DynGame, DynState, Lang, MatchRecord, Outcome, Seat, SeatRecord, SeatSet, Viewer,
};

pub(super) struct Model {
    pub meta: TableMeta,
    pub game: Arc<dyn DynGame>,
    pub state: Option<Box<dyn DynState>>,
    pub actions: Vec<LoggedAction<Value>>,
    pub ids: ActionIds,
    pub log: Vec<LogEntry>,
    /// The public versions: one per move, a secret choice of several steps being one
    /// (`crate::moves`).
    pub moves: Moves,
    /// Per seat: the version since which it has been pending without a break.
    pub pending_since: Vec<Option<u64>>,
}

/// An action checked and played on a copy of the state: what committing it writes and
/// what it changes, not yet applied.
pub(super) struct Step {
    pub next: Box<dyn DynState>,
    lines: Vec<Option<String>>,
    lines_ja: Vec<Option<String>>,
    /// A step of a secret choice still being put together: committed, but nobody else
    /// learns of it (`crate::moves`).
    pub drafting: bool,
    news: Option<LogEntry>,
    /// The committed step count after it (its row's `version`).
    pub number: u64,
    pub version: u64,
    /// Who was pending before it.
    before: SeatSet,
    pub outcome: Option<Outcome>,
}

/// What filling seats with bots writes.
pub(super) enum Fill {
    /// One seat: a free one, or a bot's whose level the host changes.
    One(SeatInfo),
    /// Every free seat, with the bot `bot`; `seats` is the table's seats after it.
    EveryFree { bot: String, seats: Vec<SeatInfo> },
}

/// Updates, per seat, the version since which it has been pending without a break.
pub(super) fn track_pending(
    since: &mut [Option<u64>],
    before: SeatSet,
    after: SeatSet,
    version: u64,
) {
    for (i, s) in since.iter_mut().enumerate() {
        let seat = Seat(i as u8);
        *s = match (before.contains(seat), after.contains(seat)) {
            (_, false) => None,
            (true, true) => s.or(Some(version)),
            (false, true) => Some(version),
        };
    }
}

fn stale(at: u64, chosen: u64) -> ApiError {
    ApiError::conflict(
        "stale_version",
        format!("the table is at version {at}, the action was chosen at version {chosen}"),
    )
}

fn no_such_seat(players: usize) -> ApiError {
    ApiError::bad_request(
        "no_such_seat",
        format!("this table has seats 0 to {}", players - 1),
    )
}

impl Model {
    /// A copy (the state cloned), for a table that never changes again.
    pub fn copy(&self) -> Model {
        Model {
            meta: self.meta.clone(),
            game: self.game.clone(),
            state: self.state.as_ref().map(|s| s.box_clone()),
            actions: self.actions.clone(),
            ids: self.ids.clone(),
            log: self.log.clone(),
            moves: self.moves.clone(),
            pending_since: self.pending_since.clone(),
        }
    }

    /// The public version: moves, not steps (`crate::moves`).
    pub fn version(&self) -> u64 {
        self.moves.version()
    }

    /// The committed steps.
    pub fn steps(&self) -> u64 {
        self.actions.len() as u64
    }

    fn seat_of(&self, user_id: i64) -> Option<Seat> {
        self.meta
            .seats
            .iter()
            .find(|s| s.user_id == Some(user_id) && s.bot.is_none())
            .map(|s| Seat(s.seat))
    }

    /// The seats pending now (none unless in play).
    pub fn pending(&self) -> SeatSet {
        match (&self.state, self.meta.status) {
            (Some(s), Status::Playing) => s.to_move(),
            _ => SeatSet::EMPTY,
        }
    }

    /// The seats a person plays: the ones with a clock.
    pub fn humans(&self) -> SeatSet {
        self.meta
            .seats
            .iter()
            .enumerate()
            .filter(|(_, s)| s.bot.is_none())
            .fold(SeatSet::EMPTY, |set, (i, _)| set.with(Seat(i as u8)))
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

    pub fn may_see(&self, caller: &Caller, invite: Option<&str>) -> Result<(), ApiError> {
        if !self.meta.private || self.is_member(caller.user_id) {
            return Ok(());
        }
        match (&self.meta.invite_code, invite) {
            (Some(code), Some(given)) if code == given => Ok(()),
            _ => Err(ApiError::unknown_table(self.meta.id)),
        }
    }

    pub fn info(&self, user_id: i64) -> TableInfo {
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

    pub fn turn(&self, user_id: i64, clocks: &Clocks, now: Now) -> Turn {
        let (Some(state), Status::Playing) = (&self.state, self.meta.status) else {
            return Turn::default();
        };
        let pending = state.to_move();
        let deadlines = clocks.out(now).map(|c| c.deadline_ms);
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

    pub fn reason(&self, reason: AbandonedReason) -> Reason {
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

    /// The record, for matches that are over: finished, or closed by the server (its
    /// players can no longer play it, so its seed reveals nothing they could use).
    pub fn record(&self) -> Result<MatchRecord, ApiError> {
        let available = self.meta.status == Status::Finished
            || (self.meta.status == Status::Abandoned
                && self.meta.abandoned_reason == Some(AbandonedReason::RulesVersion));
        if !available {
            return Err(ApiError::conflict(
                "not_finished",
                "records and replays are available once the game is over",
            ));
        }
        Ok(MatchRecord {
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
        })
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
            Err(ApiError::conflict(
                "wrong_status",
                format!(
                    "cannot {what}: the table is {}, not {}",
                    self.meta.status.as_str(),
                    status.as_str()
                ),
            ))
        }
    }

    /// The seat `caller` acts for, given the seat it asked to act for (if any).
    pub fn acting_seat(&self, caller: &Caller, asked: Option<u8>) -> Result<Seat, ApiError> {
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

    /// The seat `user_id` sees the table as (a player whose seat a bot took over still
    /// sees that seat), and the seat it acts for (none once a bot took over).
    pub fn viewer_of(&self, user_id: i64) -> (Viewer, Option<Seat>) {
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
    pub fn view_and_legal(&self, viewer: Viewer, acts: Option<Seat>) -> (Vec<u8>, Vec<u8>) {
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

    // ---- seats ----

    /// Takes a seat for `caller`: the seat as it would be.
    pub fn sit(
        &self,
        caller: &Caller,
        seat: Option<u8>,
        invite: Option<&str>,
    ) -> Result<SeatInfo, ApiError> {
        self.may_see(caller, invite)?;
        self.must_be(Status::Open, "take a seat")?;
        if self.seat_of(caller.user_id).is_some() {
            return Err(ApiError::conflict(
                "already_seated",
                "you already hold a seat at this table",
            ));
        }
        let free = match seat {
            Some(k) => {
                let s = self
                    .meta
                    .seats
                    .get(k as usize)
                    .ok_or_else(|| no_such_seat(self.meta.players))?;
                if !s.is_free() {
                    return Err(ApiError::conflict(
                        "seat_taken",
                        format!("seat {k} is taken"),
                    ));
                }
                s
            }
            None => self
                .meta
                .seats
                .iter()
                .find(|s| s.is_free())
                .ok_or_else(|| ApiError::conflict("table_full", "every seat is taken"))?,
        };
        let mut new = free.clone();
        new.user_id = Some(caller.user_id);
        new.name = caller.name.clone();
        Ok(new)
    }

    /// `caller` leaves its seat: the seat as it would be (free while the table is open,
    /// a bot's from then on in play).
    pub fn leave(&self, caller: &Caller) -> Result<SeatInfo, ApiError> {
        let Some(mut new) = self
            .seat_of(caller.user_id)
            .and_then(|seat| self.meta.seats.get(seat.index()))
            .cloned()
        else {
            return Err(ApiError::conflict(
                "not_seated",
                "you hold no seat at this table",
            ));
        };
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
                return Err(ApiError::conflict(
                    "wrong_status",
                    "the game is over; there is nothing to leave",
                ))
            }
        }
        Ok(new)
    }

    /// A seat, as stored.
    pub fn set_seat(&mut self, new: SeatInfo) {
        if let Some(s) = self.meta.seats.get_mut(usize::from(new.seat)) {
            *s = new;
        }
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

    /// `seat` ran out of time: the seat as it would be, a bot's from now on.
    pub fn timed_out(&self, seat: Seat) -> Option<SeatInfo> {
        let mut new = self.meta.seats.get(seat.index())?.clone();
        new.bot = Some(self.takeover_bot());
        new.replaced = true;
        Some(new)
    }

    pub fn fill_bots(
        &self,
        caller: &Caller,
        bot: Option<String>,
        seat: Option<u8>,
    ) -> Result<Fill, ApiError> {
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
            let mut new = self
                .meta
                .seats
                .get(k as usize)
                .ok_or_else(|| no_such_seat(self.meta.players))?
                .clone();
            if new.user_id.is_some() {
                return Err(ApiError::conflict(
                    "seat_taken",
                    format!("a player holds seat {k}"),
                ));
            }
            new.bot = Some(bot.clone());
            new.name = format!("bot {bot}");
            return Ok(Fill::One(new));
        }
        let mut seats = self.meta.seats.clone();
        for s in seats.iter_mut().filter(|s| s.is_free()) {
            s.bot = Some(bot.clone());
            s.name = format!("bot {bot}");
        }
        Ok(Fill::EveryFree { bot, seats })
    }

    pub fn filled(&mut self, fill: Fill) {
        match fill {
            Fill::One(new) => self.set_seat(new),
            Fill::EveryFree { seats, .. } => self.meta.seats = seats,
        }
    }

    // ---- the game ----

    /// The game's first state, if `caller` may start it now.
    pub fn start(&self, caller: &Caller) -> Result<Box<dyn DynState>, ApiError> {
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
        Ok(self
            .game
            .new_game(&self.meta.options, self.meta.players, self.meta.seed)?)
    }

    pub fn started(&mut self, state: Box<dyn DynState>) {
        track_pending(&mut self.pending_since, SeatSet::EMPTY, state.to_move(), 0);
        self.state = Some(state);
        self.meta.status = Status::Playing;
    }

    /// Whether `caller` may abandon the table now.
    pub fn abandon(&self, caller: &Caller) -> Result<(), ApiError> {
        self.host_only(caller, "abandon the table")?;
        if !self.meta.status.is_live() {
            return Err(ApiError::conflict(
                "wrong_status",
                format!("the table is already {}", self.meta.status.as_str()),
            ));
        }
        Ok(())
    }

    /// Closed by the server (`reason`) or its host (`None`).
    pub fn closed(&mut self, reason: Option<AbandonedReason>) {
        self.meta.status = Status::Abandoned;
        if reason.is_some() {
            self.meta.abandoned_reason = reason;
        }
    }

    /// Whether `seat`, having chosen at `version` (and seen `draft_seen` of its own
    /// draft steps), may act now.
    pub fn may_act(
        &self,
        seat: Seat,
        version: u64,
        draft_seen: Option<u64>,
        has_id: bool,
    ) -> Result<(), ApiError> {
        if self.meta.status != Status::Playing {
            return Err(ApiError::conflict(
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
        if !has_id && still_pending && self.acted_unseen(seat, version, draft_seen) {
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
        Ok(())
    }

    /// Plays `action` for `seat` on a copy of the state: refused by the rules, or what
    /// committing it would change.
    pub fn step(&self, seat: Seat, action: &Value) -> Result<Step, ApiError> {
        let Some(state) = self.state.as_ref() else {
            return Err(ApiError::internal("a playing table has no state"));
        };
        let lines = state.describe_for_all(seat, action, Lang::En);
        let lines_ja = state.describe_for_all(seat, action, Lang::Ja);
        let mut next = state.box_clone();
        next.apply(seat, action)?;
        let drafting = next.drafting(seat);
        let news = news_entry(&**state, &*next, self.meta.players);
        let outcome = next.outcome();
        Ok(Step {
            drafting,
            news,
            number: self.steps() + 1,
            version: self.version() + u64::from(!drafting),
            before: state.to_move(),
            outcome,
            lines,
            lines_ja,
            next,
        })
    }

    /// A step, committed, applied: its log lines (a draft step's only in its seat's
    /// line of the move to come), and the game over if it ended it.
    pub fn take(&mut self, step: Step, seat: Seat, action: Value, id: Option<String>) {
        let Step {
            next,
            mut lines,
            mut lines_ja,
            drafting,
            news,
            number,
            version,
            before,
            outcome,
        } = step;
        track_pending(&mut self.pending_since, before, next.to_move(), version);
        self.state = Some(next);
        self.actions.push(LoggedAction { seat, action });
        self.moves.push_step(!drafting);
        if let Some(id) = id {
            self.ids.insert(seat, id, number);
        }
        if drafting {
            let own = |l: &mut Vec<Option<String>>| l.get_mut(seat.index()).and_then(Option::take);
            self.moves
                .add_draft_lines(seat, own(&mut lines), own(&mut lines_ja));
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::restore::prepare;
    use crate::table::Log;
    use takuge_protocol::Clock;

    const HOST: i64 = 1;

    fn caller(user_id: i64) -> Caller {
        Caller {
            user_id,
            name: format!("user {user_id}"),
        }
    }

    /// An open three-seat Ghost for Sale table of host 1, as a new table starts.
    fn open_table(private: bool) -> Model {
        let seats = (0..3)
            .map(|seat| SeatInfo {
                seat,
                user_id: None,
                name: String::new(),
                bot: None,
                replaced: false,
            })
            .collect();
        let meta = TableMeta {
            id: 7,
            game: "ghost-for-sale".into(),
            options: Value::Null,
            players: 3,
            host: HOST,
            private,
            invite_code: private.then(|| "secret".to_string()),
            clock: Clock::None,
            seed: 42,
            status: Status::Open,
            seats,
            outcome: None,
            clock_state: None,
            rules: None,
            abandoned_reason: None,
        };
        match prepare(&takuge_games::registry(), meta, Log::default()) {
            Ok(prepared) => prepared.model,
            Err(e) => panic!("{}", e.message),
        }
    }

    /// `open_table` with the host in seat 0 and bots in the others, started.
    fn started_table() -> Model {
        let mut m = open_table(false);
        let Ok(seat) = m.sit(&caller(HOST), Some(0), None) else {
            panic!("the host cannot sit");
        };
        m.set_seat(seat);
        let Ok(fill) = m.fill_bots(&caller(HOST), None, None) else {
            panic!("no bots");
        };
        m.filled(fill);
        let Ok(state) = m.start(&caller(HOST)) else {
            panic!("cannot start");
        };
        m.started(state);
        m
    }

    #[test]
    fn a_private_table_is_unknown_to_anyone_without_the_invite() {
        let m = open_table(true);
        let stranger = caller(9);
        assert_eq!(
            m.sit(&stranger, None, None).map_err(|e| e.code),
            Err("unknown_table")
        );
        let seat = m.sit(&stranger, None, Some("secret")).map_err(|e| e.code);
        assert_eq!(seat.map(|s| (s.seat, s.user_id)), Ok((0, Some(9))));
        // Deciding changes nothing: the seat is still free.
        assert!(m.meta.seats.iter().all(SeatInfo::is_free));
        assert_eq!(m.info(9).invite_code, None);
        assert_eq!(m.info(HOST).invite_code.as_deref(), Some("secret"));
    }

    #[test]
    fn only_the_host_fills_seats_and_starts_and_only_once_every_seat_is_taken() {
        let mut m = open_table(false);
        assert_eq!(
            m.fill_bots(&caller(2), None, None)
                .map(|_| ())
                .map_err(|e| e.code),
            Err("not_host")
        );
        assert_eq!(
            m.start(&caller(HOST)).map(|_| ()).map_err(|e| e.code),
            Err("seats_empty")
        );
        assert_eq!(
            m.fill_bots(&caller(HOST), Some("no-such".into()), None)
                .map(|_| ())
                .map_err(|e| e.code),
            Err("unknown_bot")
        );
        let Ok(fill) = m.fill_bots(&caller(HOST), None, Some(2)) else {
            panic!("cannot fill seat 2");
        };
        m.filled(fill);
        assert!(m.meta.seats[2].bot.is_some() && m.meta.seats[1].is_free());
        assert_eq!(
            m.fill_bots(&caller(HOST), None, Some(3))
                .map(|_| ())
                .map_err(|e| e.code),
            Err("no_such_seat")
        );
    }

    #[test]
    fn an_action_for_a_version_not_reached_is_stale_and_one_the_rules_refuse_changes_nothing() {
        let mut m = started_table();
        let seat = Seat(0);
        assert_eq!(m.acting_seat(&caller(HOST), None).ok(), Some(seat));
        assert_eq!(
            m.acting_seat(&caller(HOST), Some(1)).map_err(|e| e.code),
            Err("foreign_seat")
        );
        // Play until the host's seat is pending, each move applied as committed.
        let mut guard = 0;
        while !m.pending().contains(seat) {
            let Some(mover) = m.pending().first_seat() else {
                panic!("the game ended");
            };
            let Some(state) = &m.state else {
                panic!("no state")
            };
            let Some(first) = state.legal_actions(mover).into_iter().next() else {
                panic!("no legal action");
            };
            let Ok(step) = m.step(mover, &first.action) else {
                panic!("a legal action refused");
            };
            m.take(step, mover, first.action, None);
            guard += 1;
            assert!(guard < 50, "seat 0 is never asked to move");
        }
        let v = m.version();
        assert_eq!(m.may_act(seat, v, None, false), Ok(()));
        assert_eq!(
            m.may_act(seat, v + 1, None, false).map_err(|e| e.code),
            Err("stale_version")
        );
        // A refused action changes nothing.
        let steps = m.steps();
        assert!(m.step(seat, &serde_json::json!("no such action")).is_err());
        assert_eq!((m.steps(), m.version()), (steps, v));
    }

    #[test]
    fn a_player_who_leaves_a_game_in_play_is_replaced_by_the_tables_bot_level() {
        let m = started_table();
        let Ok(left) = m.leave(&caller(HOST)) else {
            panic!("the host cannot leave");
        };
        assert!(left.replaced);
        assert_eq!(left.bot, m.meta.seats[1].bot);
        assert_eq!(m.leave(&caller(5)).map_err(|e| e.code), Err("not_seated"));
        assert_eq!(m.humans(), SeatSet::EMPTY.with(Seat(0)));
    }
}
