//! The `Game` trait: what every takuge game is, in the spirit of OpenSpiel's `State`
//! and shakmaty's `Position`.
//!
//! A value of a `Game` type is a validated state. Chance is drawn from a [`GameRng`]
//! the state owns, seeded at setup, so a game is fully defined by (options, seats,
//! seed, action log). Every decision is an action of one seat; when several seats
//! decide at once and in secret, each of them is pending and submits on its own —
//! the state keeps the choices hidden until all are in. An out-of-turn reaction is a
//! state in which the reacting seat, not the seat whose turn it is, is pending.

use crate::outcome::Outcome;
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet, Viewer};
use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::{Debug, Display};

/// A language the log can be written in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];
}

/// What the catalog, the lobby and the shelf know of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameMeta {
    /// The id used everywhere: CLI, API, URLs (`secret-moon`, `ghost-for-sale`, ...).
    pub id: &'static str,
    pub name_en: &'static str,
    pub name_ja: &'static str,
    pub min_players: usize,
    pub max_players: usize,
    /// Typical playing time in minutes, as printed on the box.
    pub minutes: (u32, u32),
    pub min_age: u32,
    pub year: u32,
    /// Names of the teams, if the game has teams (index = team id in an [`Outcome`]).
    pub teams: &'static [TeamName],
}

impl GameMeta {
    /// The player-count check every game's `validate` starts with.
    pub fn check_players(&self, players: usize) -> Result<(), SetupError> {
        if (self.min_players..=self.max_players).contains(&players) {
            Ok(())
        } else {
            Err(SetupError::PlayerCount {
                game: self.id,
                min: self.min_players,
                max: self.max_players,
                got: players,
            })
        }
    }
}

/// The checks every `apply` starts with: the game is not over, the seat is at the
/// table, and the seat is one of those pending.
pub fn check_mover<R>(pending: SeatSet, players: usize, seat: Seat) -> Result<(), ActionError<R>> {
    if pending.is_empty() {
        Err(ActionError::GameOver)
    } else if seat.index() >= players {
        Err(ActionError::NoSuchSeat(seat))
    } else if !pending.contains(seat) {
        Err(ActionError::NotYourTurn(seat))
    } else {
        Ok(())
    }
}

/// `apply` as the engine provides it: the mover check, then `is_legal` (the list
/// decides), then `apply_legal`; a refusal leaves the state untouched because nothing
/// is written before the checks pass.
#[inline]
pub fn apply_checked<G: Game>(
    state: &mut G,
    seat: Seat,
    action: &G::Action,
) -> Result<(), ActionError<G::Reject>> {
    check_mover(state.to_move(), state.players(), seat)?;
    if !state.is_legal(seat, action) {
        return Err(ActionError::Illegal(state.refusal(seat, action)));
    }
    state.apply_legal(seat, action);
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TeamName {
    pub en: &'static str,
    pub ja: &'static str,
}

/// Why a game could not be set up.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SetupError {
    #[error("{game} is played by {min} to {max} players, not {got}")]
    PlayerCount {
        game: &'static str,
        min: usize,
        max: usize,
        got: usize,
    },
    #[error("invalid options: {reason}")]
    InvalidOptions { reason: String },
}

/// Why an action was refused. The state is unchanged whenever this is returned.
///
/// The reason must be something the acting seat may know: it is sent to that seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize)]
#[serde(tag = "kind", content = "detail", rename_all = "snake_case")]
pub enum ActionError<R> {
    #[error("the game is over")]
    GameOver,
    #[error("there is no {0} at this table")]
    NoSuchSeat(Seat),
    #[error("{0} has nothing to decide now")]
    NotYourTurn(Seat),
    #[error("illegal action: {0}")]
    Illegal(R),
}

/// The [`Game::observation_key`] of a move the viewer reads nothing of.
pub const UNSEEN_MOVE: u64 = 0x005e_ed0f_u64;

/// A deterministic hash of a value (an action a game shows whole), for
/// [`Game::observation_key`]: FNV-1a over the `Hash` writes, the same on every machine
/// and every run (unlike `std`'s randomly keyed hasher).
pub fn action_key<A: std::hash::Hash + ?Sized>(value: &A) -> u64 {
    use std::hash::Hasher;
    let mut hasher = KeyHasher(0xcbf2_9ce4_8422_2325);
    value.hash(&mut hasher);
    hasher.finish()
}

struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 ^= u64::from(*b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    // Whole words at once: an action's fields are a few small integers.
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0 ^ n)
            .wrapping_mul(0x0000_0100_0000_01b3)
            .rotate_left(29);
    }

    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }

    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }

    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn write_isize(&mut self, n: isize) {
        self.write_u64(n as u64);
    }
}

/// A game's rules, over one validated state.
pub trait Game: Clone + PartialEq + Eq + Debug + Send + Sync + Sized + 'static {
    /// Table options (variants, match length). `Default` is the recommended setup.
    type Options: Clone + Debug + Default + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// One decision of one seat. Combinatorial choices are split into several actions
    /// so that every legal-action list stays small enough to enumerate.
    type Action: Clone + Debug + PartialEq + Eq + Serialize + DeserializeOwned + Send + Sync;
    /// Everything one viewer may see, and nothing more.
    type View: Clone + Debug + PartialEq + Serialize + Send;
    /// The game's own reasons for refusing an action.
    type Reject: Clone + Debug + Display + PartialEq + Eq + Serialize + Send + Sync;

    fn meta() -> &'static GameMeta;

    /// Which edition of this game's rules code a record was played under. Bump it whenever
    /// the same (options, seats, seed, action log) would play out differently — a change to
    /// how setup draws from the RNG, or to a rule — so that an old record is refused with a
    /// reason instead of replayed into a different game.
    const RULES_VERSION: u32 = 1;

    /// Checks options against a player count, with a reason a user can act on.
    fn validate(options: &Self::Options, players: usize) -> Result<(), SetupError>;

    /// Sets up a game for `players` seats; all chance, now and later, comes from `seed`.
    fn new(options: &Self::Options, players: usize, seed: u64) -> Result<Self, SetupError>;

    /// Every option set worth testing (the conformance suite runs each of them).
    fn option_sets() -> Vec<Self::Options> {
        vec![Self::Options::default()]
    }

    fn options(&self) -> &Self::Options;

    fn players(&self) -> usize;

    /// The seats that must decide now; empty exactly when the game is over.
    /// Who is pending is public: every viewer may know whom the table waits for.
    fn to_move(&self) -> SeatSet;

    /// The legal actions of `seat`, written into `out` (cleared first); empty when the
    /// seat has nothing to decide. Depends only on what `seat` may know.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Self::Action>);

    /// One legal action of `seat` drawn uniformly at random, or `None` if it has none.
    /// The default lists the actions into `buf` and picks one; games whose lists are
    /// long override it to draw without listing (random playouts live here).
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Self::Action>,
    ) -> Option<Self::Action> {
        self.legal_actions(seat, buf);
        rng.pick(buf).cloned()
    }

    /// Whether `seat` may play `action` now: exactly `legal_actions(seat)` contains it.
    /// The default lists and looks; a game may override it with a faster check that
    /// lives in its `fast.rs` (the conformance suite compares it with the list).
    fn is_legal(&self, seat: Seat, action: &Self::Action) -> bool {
        let mut legal = Vec::new();
        self.legal_actions(seat, &mut legal);
        legal.contains(action)
    }

    /// The effect of an action `legal_actions(seat)` lists. Called only for such an
    /// action (by [`Game::apply`] after its checks, and by fast playouts with actions
    /// drawn from the list), so it checks nothing and cannot fail: every rule about
    /// what may be played lives in `legal_actions`, once.
    fn apply_legal(&mut self, seat: Seat, action: &Self::Action);

    /// Why `seat`, pending, may not play `action` (asked only after `is_legal` said no).
    /// The reason is sent to `seat`: it may use only what that seat knows.
    fn refusal(&self, seat: Seat, action: &Self::Action) -> Self::Reject;

    /// Plays one action, or refuses it and leaves the state exactly as it was:
    /// [`apply_checked`]. Provided by the engine; a game does not override it (the
    /// conformance suite checks that it behaves as `apply_checked`).
    #[inline]
    fn apply(
        &mut self,
        seat: Seat,
        action: &Self::Action,
    ) -> Result<(), ActionError<Self::Reject>> {
        apply_checked(self, seat, action)
    }

    /// Plays uniformly random actions until the game ends or `max_steps` actions were
    /// played; returns the number played. The default is
    /// [`crate::bot::checked_random_playout`]: `sample_action`, then `apply`. A game's
    /// `fast.rs` may override it to play the actions it draws with `apply_legal` (they
    /// are legal by construction) or faster still, but it must play exactly the games
    /// the default plays from the same state and RNG (the conformance suite compares
    /// them): the bots and every benchmark run through here.
    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Self::Action>,
        max_steps: usize,
    ) -> usize {
        crate::bot::checked_random_playout(self, rng, buf, max_steps)
    }

    fn view(&self, viewer: Viewer) -> Self::View;

    /// Whether `seat` is part-way through one secret choice made of several steps (a
    /// *draft*): it has played some of the steps and must play more before the choice
    /// counts. A combinatorial choice (an exhibit of cards, 「「せーの!」で展示する」) is
    /// split into steps to keep legal-action lists small; the steps are nobody else's
    /// business until the choice is complete, and neither is how many there were — a
    /// rival who could count them would learn the choice's size. So a draft step must
    /// show nothing to anyone else (pending seats, views, log lines unchanged), every
    /// step that shows nothing to anyone else and leaves the seat choosing must be a
    /// draft step, and `determinize` for another seat begins the draft afresh; the
    /// conformance suite checks all three. The server keeps draft steps between the
    /// seat and the table: others see the choice once, when it is complete.
    /// Default: no game has drafts.
    fn drafting(&self, seat: Seat) -> bool {
        let _ = seat;
        false
    }

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// What a searching bot maximizes for `seat` in this finished game, in `[0, 1]`: by
    /// default the share of the other seats it beat ([`Outcome::reward`]). Played alone
    /// (a score attack) there is nobody to beat and every finished game would be worth
    /// the same, so a game with a solo mode maps the final score into `[0, 1]` here
    /// (linearly, so that search maximizes the expected score).
    fn search_reward(&self, outcome: &Outcome, seat: Seat) -> f64 {
        outcome.reward(seat)
    }

    /// A state in which everything hidden from `seat` is redrawn from `rng`,
    /// consistently with everything `seat` knows: `seat`'s view, pending seats and
    /// legal actions are the same as in `self`. Bots search over these.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self;

    /// What a client needs to know about one of `seat`'s legal actions to show it, and
    /// would otherwise work out from the rules itself: where it puts things, which cards
    /// of the hand it takes. Written with `serializer` and sent beside the action in the
    /// `legal` list as `facts` (docs/PROTOCOL.md); `None` for none (the default). Only
    /// `seat` receives its legal actions, so the facts may tell what `seat` may see and
    /// nothing more (the conformance suite compares them across worlds determinized for
    /// `seat`). Asked only when legal actions are written for a client, never in
    /// playouts. Generic over the serializer so a game crate needs no JSON library.
    fn action_facts<S: serde::Serializer>(
        &self,
        seat: Seat,
        action: &Self::Action,
        serializer: S,
    ) -> Option<Result<S::Ok, S::Error>> {
        let _ = (seat, action, serializer);
        None
    }

    /// A short description of an action in English, for logs and terminals.
    fn describe(&self, action: &Self::Action) -> String {
        format!("{action:?}")
    }

    /// What `viewer` may read in the game log about `actor` playing `action`, asked of
    /// the state before the action is applied; `None` means only "`actor` has acted".
    /// By default the acting seat reads the full description and nobody else anything:
    /// games whose actions are public, or partly public, say so. Must depend only on
    /// what `viewer` may know (the conformance suite checks it).
    fn describe_for(&self, actor: Seat, action: &Self::Action, viewer: Viewer) -> Option<String> {
        (viewer == Viewer::Seat(actor)).then(|| self.describe(action))
    }

    /// The Japanese line `viewer` reads of `actor` playing `action`, asked only when the
    /// English [`Game::describe_for`] gives one (so it hides exactly what the English
    /// line hides). `None` falls back to the English line.
    fn describe_ja(&self, actor: Seat, action: &Self::Action, viewer: Viewer) -> Option<String> {
        let _ = (actor, action, viewer);
        None
    }

    /// What became public to everyone with the action that turned `before` into
    /// `self`, in `lang`: the choices a simultaneous reveal turned face up, the bids an
    /// auction showed — what [`Game::describe_for`], asked before the action, could not
    /// yet say. A log a player can follow tells each secret as soon as it is out
    /// (「「せーの!」で展示する美術品を公開する」), and a replay then tells a spectator the
    /// whole story. Asked of the state after every action with the state before it;
    /// `None` when nothing came out. The line is the same for every viewer, so it must
    /// depend only on what every seat knows after the action: the conformance suite
    /// compares it in worlds determinized for each seat (of `before` and of `self`),
    /// and asks for a line in every language exactly when there is an English one.
    /// Default: nothing is ever revealed.
    fn revealed_in(&self, before: &Self, lang: Lang) -> Option<String> {
        let _ = (before, lang);
        None
    }

    /// What `viewer` observes of `actor` (another seat) playing `action`, as a number
    /// the searching bots key their trees by: two moves `viewer` reads the same
    /// [`Game::describe_for`] line of must give the same key, in every world `viewer`
    /// believes in (the conformance suite checks both), so a search never tells apart
    /// what its seat cannot. The default hashes the log line; a game whose lines are
    /// costly to format overrides it with a compact key (the action itself, hashed with
    /// [`action_key`], where the move is public).
    fn observation_key(&self, actor: Seat, action: &Self::Action, viewer: Seat) -> u64 {
        match self.describe_for(actor, action, Viewer::Seat(viewer)) {
            Some(line) => crate::golden::fnv1a(line.as_bytes()),
            None => UNSEEN_MOVE,
        }
    }

    /// [`Game::describe_for`] in `lang`: provided by the engine from `describe_for` and
    /// `describe_ja`, so every language shows a line exactly when English does, and
    /// every client always has a line to show.
    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Self::Action,
        viewer: Viewer,
        lang: Lang,
    ) -> Option<String> {
        let english = self.describe_for(actor, action, viewer)?;
        Some(match lang {
            Lang::En => english,
            Lang::Ja => self.describe_ja(actor, action, viewer).unwrap_or(english),
        })
    }

    fn is_over(&self) -> bool {
        self.to_move().is_empty()
    }
}
