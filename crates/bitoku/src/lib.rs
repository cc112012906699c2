//! Bitoku (美徳), the heavy euro of seed 003, for 1–4 players, on takuge's own
//! component set: the rules text gives the round structure and the scoring, but no
//! card's or tile's contents are public, so every effect, cost and value is authored
//! by the project as data (`data/*.toml`) in a small effect language ([`Step`]) that
//! the rules interpret.
//!
//! docs/games/bitoku.md holds the rules, every decision with the Japanese it
//! resolves, the component set explained, and a "Code" section mapping each rule to
//! the file here that holds it. This file is the `Game` impl and nothing else.
//!
//! - `types.rs`, `data.rs`: the vocabulary, the effect language, the component set;
//! - `state.rs`, `setup.rs`: the state and the deal; `rules/`: the year's flow
//!   (`mod.rs`), the effect interpreter (`effects.rs`), summer (`summer.rs`), autumn
//!   and winter (`seasons.rs`), the Awakening (`awakening.rs`);
//! - `legal.rs`: what may be played (the one source) and why not; `fast.rs`: the
//!   playout;
//! - `view.rs`, `log_ja.rs`: what each viewer sees and reads; `determinize.rs`,
//!   `bot.rs`: for the bots.

mod bot;
mod data;
mod determinize;
mod fast;
mod legal;
mod log_ja;
mod rules;
mod setup;
mod state;
#[doc(hidden)]
pub mod testing;
mod types;
mod view;

pub use bot::{bots, Leaning, RuleBot, Strategy};
pub use data::{components, Components, DataError, BOARD_TOML, CARDS_TOML, TILES_TOML};
pub use rules::awakening::Awakening;
pub use setup::MIN_PLAYERS;
pub use state::{Bitoku, Die, DieAt, Options, Phase, Player, MAX_PLAYERS};
pub use types::*;
pub use view::{BuyView, Decision, TaskView, View};

use takuge_engine::{Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer};

pub const ID: &str = "bitoku";

static META: GameMeta = GameMeta {
    id: ID,
    name_en: "Bitoku (takuge's component set)",
    name_ja: "美徳（takuge独自のコンポーネント）",
    min_players: MIN_PLAYERS,
    max_players: MAX_PLAYERS,
    minutes: (60, 120),
    min_age: 12,
    year: 2021,
    teams: &[],
};

impl Game for Bitoku {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    /// 2: the balance pass of issue 15 changed the component data (docs/games/bitoku.md,
    /// "Balance"): the same seed and moves no longer play the same game. 3: the second
    /// pass, with strategy bots that play different games, changed it again (the
    /// amulet dragonflies, Mokumokuren, a Bitoku-card vision).
    const RULES_VERSION: u32 = 3;

    fn meta() -> &'static GameMeta {
        &META
    }

    /// setup.rs: 1–4 players, and the component set must load.
    fn validate(_options: &Options, players: usize) -> Result<(), SetupError> {
        Self::validate_setup(players)
    }

    /// setup.rs: 3-1 and 3-2 of the seed.
    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::setup(options, players, seed)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players_usize()
    }

    /// rules/mod.rs: one seat decides at a time.
    fn to_move(&self) -> SeatSet {
        self.pending_seat()
            .map_or(SeatSet::EMPTY, |s| SeatSet::single(Seat(s)))
    }

    /// legal.rs: THE rules of what may be played.
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.collect_legal(seat, out);
    }

    /// rules/: the effect of a listed action; checks nothing.
    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        self.play(seat, *action);
    }

    /// legal.rs: why an unlisted action is refused (decides nothing).
    fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        self.why_not(seat, action)
    }

    /// fast.rs: the sampler's actions played with `apply_legal`.
    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        self.playout(rng, buf, max_steps)
    }

    /// view.rs: the board, and what the viewer knows.
    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    /// Most virtue points; ties broken by resources left; then shared.
    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| {
            let n = self.players_usize();
            let scores: Vec<i64> = (0..n).map(|s| i64::from(self.player(s).virtue)).collect();
            let keys: Vec<(i64, u32)> = (0..n)
                .map(|s| (i64::from(self.player(s).virtue), self.player(s).resources()))
                .collect();
            Outcome::from_keys(scores, &keys, vec![None; n])
        })
    }

    /// Solo, the score attack: the virtue points over the data's `solo_search_scale`.
    fn search_reward(&self, outcome: &Outcome, seat: Seat) -> f64 {
        if self.players_usize() > 1 {
            return outcome.reward(seat);
        }
        let score = outcome.scores.get(seat.index()).copied().unwrap_or(0) as f64;
        let scale = f64::from(state::c().board.solo_search_scale.max(1));
        (score / scale).clamp(0.0, 1.0)
    }

    /// determinize.rs: other hands and secret rocks, every deck's order.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.redeal_hidden(seat, rng)
    }

    fn describe(&self, action: &Action) -> String {
        self.describe_en(action)
    }

    /// Every action is made openly at the table (discards, visions and a swapped rock
    /// are face up): everyone reads every line.
    fn describe_for(&self, _actor: Seat, action: &Action, _viewer: Viewer) -> Option<String> {
        Some(self.describe_en(action))
    }

    /// log_ja.rs: the same line in Japanese.
    fn describe_ja(&self, _actor: Seat, action: &Action, _viewer: Viewer) -> Option<String> {
        Some(self.describe_ja_line(action))
    }
}
