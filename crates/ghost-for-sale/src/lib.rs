//! Ghost for Sale (ゴースト売ります), Acchittocca / What's Your Game?, 2007: 3–5 players
//! bid for haunted manors and castles worth most with the right number of ghosts, having
//! declared what they saw — truthfully or not, as a secret card decides.
//!
//! The rules are in `docs/games/ghost-for-sale.md`; every decision where the Japanese
//! text is silent or ambiguous is quoted there. Property names, score tables and the
//! bidding cards' back marks beyond what the text fixes are the project's defaults, in
//! `data/properties.toml`.

pub mod bot;
pub mod data;
mod determinize;
mod fast;
mod legal;
mod log_ja;
mod news;
mod rules;
mod state;
#[doc(hidden)]
pub mod testing;
mod types;
mod view;

pub use bot::Appraiser;
pub use state::GhostForSale;
pub use types::{Action, Face, Mark, Options, QuestionCard, Reject, Special, Target, Token};
pub use view::{
    AuctionView, BidView, LookView, PileCounts, PileView, PrivateView, PropertyKind, PropertyView,
    SeatTokens, SeatView, Step, TokensLeft, TurnView, View,
};

use takuge_engine::{
    BotFactory, Game, GameMeta, GameRng, Lang, MonteCarloBot, Outcome, RandomBot, Seat, SeatSet,
    SetupError, Viewer,
};

static META: GameMeta = GameMeta {
    id: "ghost-for-sale",
    name_en: "Ghost for Sale",
    name_ja: "ゴースト売ります",
    min_players: 3,
    max_players: 5,
    minutes: (40, 40),
    min_age: 8,
    year: 2007,
    teams: &[],
};

impl Game for GhostForSale {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        rules::setup::validate(options, players)
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        rules::setup::new(options, players, seed)
    }

    fn option_sets() -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                special_cards: true,
                first_player: None,
            },
        ]
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.n()
    }

    #[inline]
    fn to_move(&self) -> SeatSet {
        self.pending
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        legal::legal_actions(self, seat, out)
    }

    /// Inline, like `apply_legal`, so that both compile into the playout loops of the
    /// caller's crate.
    #[inline]
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        fast::sample_action(self, seat, rng, buf)
    }

    #[inline]
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        fast::is_legal(self, seat, action)
    }

    #[inline]
    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        rules::apply_legal(self, seat, action)
    }

    fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        legal::refusal(self, seat, action)
    }

    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        fast::random_playout(self, rng, buf, max_steps)
    }

    fn view(&self, viewer: Viewer) -> View {
        view::build(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.final_outcome()
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        determinize::determinize(self, seat, rng)
    }

    fn describe(&self, action: &Action) -> String {
        view::describe(self, action)
    }

    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        view::describe_for(self, actor, action, viewer)
    }

    fn describe_ja(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        log_ja::describe_for(self, actor, action, viewer)
    }

    /// news.rs: the bidding cards of each auction and the "?" cards of each round,
    /// when they are turned over.
    fn revealed_in(&self, before: &Self, lang: Lang) -> Option<String> {
        news::revealed_since(self, before, lang)
    }
}

/// The bots, the rule-following one first.
pub fn bots() -> Vec<(&'static str, BotFactory<GhostForSale>)> {
    vec![
        ("appraiser", Appraiser::boxed),
        ("random", RandomBot::boxed),
        ("monte-carlo", MonteCarloBot::boxed),
    ]
}
