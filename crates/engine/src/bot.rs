//! Bots, and the rule that keeps them honest: a bot never sees the real state, only
//! a [`Determinized`] world drawn from what its seat knows.

use crate::game::Game;
use crate::ismcts::Seen;
use crate::rng::GameRng;
use crate::seat::Seat;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// How a host asks a bot for one move, beyond the world: when it asked, how many
/// moves wait behind it, and a flag that stops the search. A server queues searches
/// on a few threads, so a move may wait before any thinking starts: a time budget
/// counts from `at`, not from the start of the search; a search shares its budget
/// with the `queued` moves behind it; and a move left with too little time is
/// answered at once ([`Bot::rushed`]). Without `at`, the budget starts with the
/// search.
#[derive(Clone, Debug, Default)]
pub struct Ask {
    pub at: Option<Instant>,
    /// Moves waiting behind this one for the same thread: with `n` of them, a search
    /// takes at most 1/(n+1) of its time budget, so a busy host's queue moves on.
    pub queued: u32,
    /// Set by the host to stop a search in progress (a table abandoned mid-search):
    /// the best move so far is returned.
    pub cancel: Option<Arc<AtomicBool>>,
}

/// A world as a seat may believe it to be: the real state with everything hidden
/// from that seat redrawn. The only way to make one is [`Determinized::sample`].
#[derive(Clone, Debug)]
pub struct Determinized<G: Game> {
    state: G,
    seat: Seat,
}

impl<G: Game> Determinized<G> {
    pub fn sample(real: &G, seat: Seat, rng: &mut GameRng) -> Self {
        Determinized {
            state: real.determinize(seat, rng),
            seat,
        }
    }

    /// Another world consistent with the same knowledge.
    pub fn resample(&self, rng: &mut GameRng) -> Self {
        Self::sample(&self.state, self.seat, rng)
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    /// The world itself, to play on (it is only ever a determinized world).
    pub fn into_state(self) -> G {
        self.state
    }

    pub fn seat(&self) -> Seat {
        self.seat
    }
}

/// A player program for game `G`.
pub trait Bot<G: Game>: Send {
    fn name(&self) -> &'static str;

    /// One legal action for `world.seat()`, or `None` if it has nothing to decide.
    fn choose(&mut self, world: &Determinized<G>, rng: &mut GameRng) -> Option<G::Action>;

    /// Whether it searches (plays games out in its head), taking milliseconds or more a
    /// move; a server runs such bots off its event loop, and the others inline.
    fn searches(&self) -> bool {
        false
    }

    /// A move just played at the table, as this bot's seat saw it ([`Seen::of`], from
    /// the state before the move). A host that keeps a bot for a whole game reports
    /// every move, in order, so a search can keep its tree; the default ignores it.
    fn seen(&mut self, seen: &Seen<G::Action>) {
        let _ = seen;
    }

    /// The root visits its last search started with, kept from earlier searches
    /// (tree reuse); 0 for a fresh tree or a bot that keeps none. For hosts' metrics
    /// and tests: a kept bot that is told every move reuses its tree.
    fn reused_visits(&self) -> u32 {
        0
    }

    /// How the host asks for the next move ([`Ask`]): when it asked, and a flag to
    /// stop the search. The default ignores it.
    fn asked(&mut self, ask: &Ask) {
        let _ = ask;
    }

    /// Whether its last move was answered without its search because the move had
    /// already waited its whole time budget in the host's queue (an overloaded server):
    /// for hosts' metrics. A bot without a time budget is never rushed.
    fn rushed(&self) -> bool {
        false
    }
}

/// A bot factory, as registered in the catalog.
pub type BotFactory<G> = fn() -> Box<dyn Bot<G>>;

/// Asks `bot` to move for `seat` in the real state, without showing it anything hidden.
pub fn bot_move<G: Game>(
    bot: &mut dyn Bot<G>,
    real: &G,
    seat: Seat,
    rng: &mut GameRng,
) -> Option<G::Action> {
    let world = Determinized::sample(real, seat, rng);
    bot.choose(&world, rng)
}

/// Chooses uniformly among the legal actions.
#[derive(Default)]
pub struct RandomBot<G: Game> {
    buf: Vec<G::Action>,
}

impl<G: Game> RandomBot<G> {
    pub fn boxed() -> Box<dyn Bot<G>> {
        Box::new(RandomBot::<G> { buf: Vec::new() })
    }
}

impl<G: Game> Bot<G> for RandomBot<G> {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, world: &Determinized<G>, rng: &mut GameRng) -> Option<G::Action> {
        world.state().legal_actions(world.seat(), &mut self.buf);
        rng.pick(&self.buf).cloned()
    }
}

/// Plays uniformly random actions from `state` until the game ends or `max_steps`
/// actions were played; returns the number of actions played. Allocation-free once
/// `buf` has grown. Runs the game's [`Game::random_playout`].
pub fn random_playout<G: Game>(
    state: &mut G,
    rng: &mut GameRng,
    buf: &mut Vec<G::Action>,
    max_steps: usize,
) -> usize {
    state.random_playout(rng, buf, max_steps)
}

/// The default [`Game::random_playout`]: each drawn action goes through `apply`.
/// Games that override the playout test theirs against this one (same state and RNG,
/// same final state).
pub fn checked_random_playout<G: Game>(
    state: &mut G,
    rng: &mut GameRng,
    buf: &mut Vec<G::Action>,
    max_steps: usize,
) -> usize {
    playout_with(state, rng, buf, max_steps, |s, seat, a| {
        s.apply(seat, a).is_ok()
    })
}

/// Draws with `sample_action` for the first pending seat and plays with `play` (false:
/// stop) until the game ends or `max_steps` actions were played.
#[inline]
fn playout_with<G: Game>(
    state: &mut G,
    rng: &mut GameRng,
    buf: &mut Vec<G::Action>,
    max_steps: usize,
    mut play: impl FnMut(&mut G, Seat, &G::Action) -> bool,
) -> usize {
    let mut steps = 0;
    while steps < max_steps {
        let Some(seat) = state.to_move().first_seat() else {
            break;
        };
        let Some(action) = state.sample_action(seat, rng, buf) else {
            break;
        };
        if !play(state, seat, &action) {
            break;
        }
        steps += 1;
    }
    steps
}

/// The checked loop without the check: `sample_action`, then `apply_legal` (the
/// sampler's actions are legal by construction). A game's `fast.rs` overrides
/// `random_playout` with this when its sampler is fast and its `is_legal` is not free;
/// it plays exactly the games [`checked_random_playout`] plays (the conformance suite
/// checks it).
#[inline]
pub fn sampled_random_playout<G: Game>(
    state: &mut G,
    rng: &mut GameRng,
    buf: &mut Vec<G::Action>,
    max_steps: usize,
) -> usize {
    playout_with(state, rng, buf, max_steps, |s, seat, a| {
        s.apply_legal(seat, a);
        true
    })
}

/// Sets up a game from a seed drawn from `rng` and plays it out at random: the
/// workload of every "random complete games per second" benchmark. Returns the number
/// of actions played, or `None` if the setup is invalid.
pub fn random_game<G: Game>(
    options: &G::Options,
    players: usize,
    rng: &mut GameRng,
    buf: &mut Vec<G::Action>,
    max_steps: usize,
) -> Option<usize> {
    // Played where `new` left it: moving a state out of the `Result` copies it whole
    // (hundreds of bytes with its RNG buffer), a noticeable share of a short game.
    let mut setup = G::new(options, players, rng.next_u64());
    match &mut setup {
        Ok(game) => Some(random_playout(game, rng, buf, max_steps)),
        Err(_) => None,
    }
}

/// Perfect-information Monte Carlo over determinizations: for each candidate action,
/// the average result of random playouts in freshly sampled worlds. Strong enough to
/// be a real opponent in short hidden-information games, and the generic bot every
/// game gets for free.
pub struct MonteCarloBot<G: Game> {
    pub iterations: usize,
    pub max_playout: usize,
    candidates: Vec<G::Action>,
    buf: Vec<G::Action>,
    totals: Vec<(f64, u32)>,
}

impl<G: Game> MonteCarloBot<G> {
    pub fn new(iterations: usize) -> Self {
        MonteCarloBot {
            iterations,
            max_playout: 10_000,
            candidates: Vec::new(),
            buf: Vec::new(),
            totals: Vec::new(),
        }
    }

    pub fn boxed() -> Box<dyn Bot<G>> {
        Box::new(Self::new(200))
    }
}

impl<G: Game> Bot<G> for MonteCarloBot<G> {
    fn name(&self) -> &'static str {
        "monte-carlo"
    }

    fn searches(&self) -> bool {
        true
    }

    fn choose(&mut self, world: &Determinized<G>, rng: &mut GameRng) -> Option<G::Action> {
        let seat = world.seat();
        world.state().legal_actions(seat, &mut self.candidates);
        if self.candidates.len() <= 1 {
            return self.candidates.first().cloned();
        }
        self.totals.clear();
        self.totals.resize(self.candidates.len(), (0.0, 0));
        for i in 0..self.iterations.max(self.candidates.len()) {
            let k = i % self.candidates.len();
            let mut sim = world.resample(rng).state;
            if sim.apply(seat, &self.candidates[k]).is_err() {
                continue;
            }
            random_playout(&mut sim, rng, &mut self.buf, self.max_playout);
            if let Some(outcome) = sim.outcome() {
                self.totals[k].0 += sim.search_reward(&outcome, seat);
                self.totals[k].1 += 1;
            }
        }
        let best = self
            .totals
            .iter()
            .enumerate()
            .max_by(|a, b| {
                let mean = |t: &(f64, u32)| if t.1 == 0 { -1.0 } else { t.0 / t.1 as f64 };
                mean(a.1).total_cmp(&mean(b.1))
            })
            .map(|(i, _)| i)
            .unwrap_or(0);
        self.candidates.get(best).cloned()
    }
}
