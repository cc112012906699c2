//! Secret Moon (シークレットムーン), as played on Board Game Arena: hidden roles, NPC
//! cards in the centre, the thief variant, and matches of 1, 3 or 5 games.
//!
//! The rules and every decision taken where the source text is silent are in
//! `docs/games/secret-moon.md`; its "Code" section maps each rule to the file here
//! that holds it. This file is the `Game` impl and nothing else: each method is one
//! call into the files below (the model the other games' `lib.rs` follow).
//!
//! - `types.rs`, `cards.rs`, `role.rs`, `options.rs`: the game's vocabulary;
//! - `state.rs`: the match and its deal; `rules/`: setup, each action's effect, the
//!   flow of rounds and games, the order cards;
//! - `legal.rs`: what may be played (the one source) and why not; `fast.rs`: the
//!   sampler, `is_legal` and playout built on it;
//! - `view.rs`, `log_ja.rs`: what each viewer sees and reads; `determinize.rs`,
//!   `bot.rs`: for the bots.

mod bot;
mod cards;
mod determinize;
mod fast;
mod legal;
mod log_ja;
mod options;
mod role;
mod rules;
mod state;
#[doc(hidden)]
pub mod testing;
mod types;
mod view;

pub use bot::{bots, SentryBot};
pub use cards::{CardRef, CardStatus};
pub use options::{
    MatchLength, Options, MAX_PLAYERS, MIN_PLAYERS, ORDER_CARDS, ROUNDS, THIEF_MIN_PLAYERS,
};
pub use role::{Answer, Role, RoleMask, Side};
pub use rules::order::{OrderCards, OrderLoc, OrderNumber, Origin};
pub use state::{DealtRoles, EndReason, GameResult, Phase, SecretMoon};
pub use types::{Action, Reject};
pub use view::{CardView, DiscardView, PartnerView, PhaseView, SeatOrderView, View};

use takuge_engine::{
    Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, TeamName, Viewer,
};

pub const ID: &str = "secret-moon";

static META: GameMeta = GameMeta {
    id: ID,
    name_en: "Secret Moon",
    name_ja: "シークレットムーン",
    min_players: MIN_PLAYERS,
    max_players: MAX_PLAYERS,
    minutes: (10, 30),
    min_age: 10,
    year: 2015,
    teams: &[
        TeamName {
            en: "Princess team",
            ja: "姫チーム",
        },
        TeamName {
            en: "Minister team",
            ja: "大臣チーム",
        },
        TeamName {
            en: "Thief",
            ja: "盗賊",
        },
    ],
};

impl Game for SecretMoon {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    /// 2: setup draws the removed card with one draw and deals order cards with a partial
    /// shuffle (2026-11-22), so a seed deals differently from version 1.
    /// 3: the order is secret by default (「行動順カードによる順番は公開されません」): the
    /// card being played is not shown and goes face down; the old play is the option
    /// `public_order` (2026-11-27). The same actions replay, but into other views.
    const RULES_VERSION: u32 = 3;

    fn meta() -> &'static GameMeta {
        &META
    }

    /// options.rs: 3–8 players; the thief needs six.
    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        options.validate(players)
    }

    /// rules/setup.rs: the first deal and its order cards.
    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::setup(options, players, seed)
    }

    /// Every match length, with and without the thief, with the order secret and public.
    fn option_sets() -> Vec<Options> {
        Options::all()
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        usize::from(self.deal.players)
    }

    /// state.rs: the actor of the turn, or the questioned player.
    #[inline]
    fn to_move(&self) -> SeatSet {
        self.pending()
    }

    /// legal.rs: THE rules of what may be played.
    #[inline]
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.collect_legal(seat, out);
    }

    /// fast.rs: a uniform draw by counting the legal targets, not listing them.
    #[inline]
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        self.sample(seat, rng, buf)
    }

    /// fast.rs: membership in legal.rs's targets, without listing.
    #[inline]
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.is_legal_fast(seat, action)
    }

    /// rules/turn.rs: the effect of a listed action; checks nothing.
    #[inline]
    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        self.play(seat, *action);
    }

    /// legal.rs: why an unlisted action is refused (decides nothing).
    fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        self.why_not(seat, action)
    }

    /// fast.rs: the sampler and `apply_legal`, the very games of the checked loop.
    #[inline]
    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        self.playout(rng, buf, max_steps)
    }

    /// view.rs: public cards and markers, plus what the viewer knows.
    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    /// rules/round.rs: victory points; a one-game match names the winning team.
    fn outcome(&self) -> Option<Outcome> {
        self.match_outcome()
    }

    /// determinize.rs: unknown cards and order numbers redealt within what the seat
    /// can deduce.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.redeal_hidden(seat, rng)
    }

    /// types.rs: the English line (`Display for Action`).
    fn describe(&self, action: &Action) -> String {
        action.to_string()
    }

    /// Every action is made openly at the table (even an observation is marked with an
    /// eye, and answers are spoken aloud): everyone reads every line.
    fn describe_for(&self, _actor: Seat, action: &Action, _viewer: Viewer) -> Option<String> {
        Some(action.to_string())
    }

    /// Every line shows the whole action, so the action is what everyone observes.
    fn observation_key(&self, _actor: Seat, action: &Action, _viewer: Seat) -> u64 {
        takuge_engine::action_key(action)
    }

    /// log_ja.rs: the Japanese line, the same for every viewer as the English one.
    fn describe_ja(&self, actor: Seat, action: &Action, _viewer: Viewer) -> Option<String> {
        Some(log_ja::describe(actor, action))
    }
}
