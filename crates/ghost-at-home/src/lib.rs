//! Ghost at Home (ゴーストアットホーム): each player explores a haunted house of three
//! floors, bottom to top, with room cards; the first to explore every room and escape
//! wins. Ghosts empty dark floors, cats chase ghosts away, lights make a floor hold out
//! against one ghost. The rules and every decision taken where the source is silent are
//! in `docs/games/ghost-at-home.md`; its "Code" section maps each rule to its file.
//!
//! The layout (`docs/CONTRIBUTING.md`, "The layout of a game crate"): the vocabulary in
//! `types.rs`, `cards.rs` and `hand.rs`; the deck's numbers in `data.rs`; the state in
//! `state.rs`, the deal in `setup.rs`; what may be played in `legal.rs` (the one source);
//! the effects in `rules/`; the fast second copies in `fast.rs`; views and English log
//! lines in `view.rs`, Japanese ones in `log_ja.rs`; `determinize.rs`; the bots.

pub mod bot;
pub mod cards;
pub mod data;
mod determinize;
mod facts;
mod fast;
mod hand;
mod legal;
mod log_ja;
mod rules;
mod setup;
mod state;
#[doc(hidden)]
pub mod testing;
mod types;
pub mod view;

pub use bot::RulesBot;
pub use cards::{Card, Floor};
pub use hand::Cards;
pub use state::GhostAtHome;
pub use types::{Action, Options, Reject, Then, HAND_SIZE, MAX_CARDS, MAX_PLAYERS};
pub use view::{FloorView, HouseView, PhaseView, View};

use takuge_engine::{
    BotFactory, Game, GameMeta, GameRng, MonteCarloBot, Outcome, RandomBot, Seat, SeatSet,
    SetupError, Viewer,
};

static META: GameMeta = GameMeta {
    id: "ghost-at-home",
    name_en: "Ghost at Home",
    name_ja: "ゴーストアットホーム",
    min_players: 2,
    max_players: MAX_PLAYERS,
    minutes: (20, 20),
    min_age: 8,
    year: 2020,
    teams: &[],
};

/// The bots of Ghost at Home; the first is the default for empty seats.
pub fn bots() -> Vec<(&'static str, BotFactory<GhostAtHome>)> {
    vec![
        ("rules", RulesBot::boxed),
        ("random", RandomBot::boxed),
        ("monte-carlo", MonteCarloBot::boxed),
    ]
}

impl Game for GhostAtHome {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        setup::validate(&META, options, players)
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        GhostAtHome::deal(&META, options, players, seed)
    }

    fn option_sets() -> Vec<Options> {
        setup::option_sets()
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players_usize()
    }

    fn to_move(&self) -> SeatSet {
        self.pending()
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(seat, |a| out.push(a));
    }

    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        GhostAtHome::sample_action(self, seat, rng, buf)
    }

    /// `fast.rs`: the turn's actions asked one by one of `legal.rs`'s predicates (the
    /// conformance suite compares it with the list).
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.is_legal_fast(seat, action)
    }

    /// `rules/`: a listed action's effect. A seat not at the table lists nothing, so it
    /// never gets here; if it did, nothing happens.
    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        if let Some(me) = self.seated(seat) {
            self.play(me, *action);
        }
    }

    fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        GhostAtHome::refusal(self, seat, action)
    }

    /// `fast.rs`: the engine's checked loop without the check (the same games).
    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        self.random_playout_fast(rng, buf, max_steps)
    }

    fn view(&self, viewer: Viewer) -> View {
        View::of(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.determinize_for(seat, rng)
    }

    /// `facts.rs`: what the board shows an action with.
    fn action_facts<S: serde::Serializer>(
        &self,
        seat: Seat,
        action: &Action,
        serializer: S,
    ) -> Option<Result<S::Ok, S::Error>> {
        self.facts_of(seat, action)
            .map(|f| serde::Serialize::serialize(&f, serializer))
    }

    fn describe(&self, action: &Action) -> String {
        view::describe(action)
    }

    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        self.describe_for_viewer(actor, action, viewer)
    }

    fn describe_ja(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        log_ja::describe_for(actor, action, viewer)
    }
}
