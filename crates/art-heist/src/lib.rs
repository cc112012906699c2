//! **art-heist** (seed 001), in the catalog as *Collectors & Thieves: Auction and Castle
//! (5 players)*: a Japanese house-rules write-up of Adel Verpflichtet / Hoity Toity for
//! exactly five players. Each turn every player secretly picks the auction house
//! (オークション会場) or the castle (城) with the 「1」 card, then plays an action card
//! 「2」 there: a cheque (お金) or a thief (泥棒) at the auction house; an exhibition
//! (展示), a thief or a detective (探偵) at the castle. Exhibits of connected art
//! (美術品) move pawns toward the goal; the farthest pawn after the final exhibit wins.
//!
//! The rules, with every decision where the text is silent, are in
//! `docs/games/art-heist.md` (its "Code" section maps each rule to its file); numbers
//! the text does not give are defaults in `data/components.toml`.

mod bot;
mod cards;
mod data;
mod determinize;
mod facts;
mod fast;
mod legal;
mod log_ja;
mod news;
mod rules;
mod setup;
mod state;
#[doc(hidden)]
pub mod testing;
mod types;
mod view;

pub use bot::{best_exhibit, CollectorBot};
pub use cards::{
    ActionCard, ArtCard, ArtSet, Colour, Kind, Letter, Pile, Place, ACTION_CARDS, PLAYERS,
};
pub use data::{components, Castle, Components, COMPONENTS_TOML};
pub use state::ArtHeist;
pub use types::{Action, AuctionResult, Options, Reject};
pub use view::{ArtFace, AuctionView, CardFace, PileView, PlayerView, Step, View};

use takuge_engine::{
    BotFactory, Game, GameMeta, GameRng, Lang, MonteCarloBot, Outcome, RandomBot, Seat, SeatSet,
    Seated, SetupError, Viewer,
};

static META: GameMeta = GameMeta {
    id: "art-heist",
    name_en: "Collectors & Thieves: Auction and Castle (5 players)",
    name_ja: "美術品コレクターと泥棒(オークション会場と城・5人用)",
    min_players: PLAYERS,
    max_players: PLAYERS,
    minutes: (45, 60),
    min_age: 10,
    year: 1990,
    teams: &[],
};

/// The bots of art-heist; the first is the default.
pub fn bots() -> Vec<(&'static str, BotFactory<ArtHeist>)> {
    vec![
        ("collector", CollectorBot::boxed),
        ("random", RandomBot::boxed),
        ("monte-carlo", MonteCarloBot::boxed),
    ]
}

impl Game for ArtHeist {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        setup::validate(options, players)
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        setup::new(options, players, seed)
    }

    fn option_sets() -> Vec<Options> {
        vec![Options::default(), Options { memory_aid: true }]
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        PLAYERS
    }

    #[inline]
    fn to_move(&self) -> SeatSet {
        SeatSet::from_bits(u16::from(self.pending))
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.list_legal(seat, out);
    }

    // `sample_action`, `is_legal` and `apply_legal` are marked inline so that they are
    // compiled into the engine's generic loops (instantiated in the caller's crate).
    #[inline]
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        _buf: &mut Vec<Action>,
    ) -> Option<Action> {
        self.sample(seat, rng)
    }

    #[inline]
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.is_legal_fast(seat, action)
    }

    #[inline]
    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        // A listed action's seat is at the table: the check cannot fail here.
        if let Some(p) = Seated::check(seat, PLAYERS) {
            self.apply_action(p, action);
        }
    }

    fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        self.refuse(seat, action)
    }

    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        _buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        self.playout_in_place(rng, max_steps)
    }

    fn view(&self, viewer: Viewer) -> View {
        View::new(self, viewer)
    }

    /// Putting an exhibit together: its letters are chosen and cards of them still to
    /// show. 「「せーの!」で展示する美術品を公開する」: everyone sees the exhibits at once, so
    /// nobody may count the steps of one (1 + letters, or one step to show nothing).
    fn drafting(&self, seat: Seat) -> bool {
        self.pending_seat(seat)
            .is_some_and(|p| self.run[p].is_some())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result()
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.determinized(seat, rng)
    }

    /// `facts.rs`: whether a 「2」 card does anything where the seat plays.
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
        self.describe_action(action)
    }

    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        self.describe_line(actor, action, viewer)
    }

    fn describe_ja(&self, _actor: Seat, action: &Action, _viewer: Viewer) -> Option<String> {
        Some(log_ja::describe_ja(self, action))
    }

    /// news.rs: the places, cards and exhibits of each reveal.
    fn revealed_in(&self, before: &Self, lang: Lang) -> Option<String> {
        self.revealed_since(before, lang)
    }
}
