//! Information-set Monte Carlo tree search, generic over every [`Game`].
//!
//! The searching seat ("me") never sees the real state: each iteration starts from a
//! fresh world determinized from what it knows ([`Determinized::resample`]), walks a
//! tree of *my* information sets, and plays the rest at random with the game's fast
//! `random_playout` (or a rule bot as the policy). This is SO-ISMCTS with partially
//! observable moves (Cowling, Powley & Whitehouse, 2012):
//!
//! - **Multi-player**: every edge carries the reward of the seat that chose it
//!   ([`Outcome::reward`]: 1 for a sole win, shared by ties), so 1–8 seat games work and
//!   each seat maximises its own result.
//! - **Availability**: an action legal in some worlds and not others is scored by UCB
//!   over the iterations in which it was available, not all of them.
//! - **What I cannot see stays unseen**: a node's children are keyed by what *I*
//!   observe of the move — the line the game's log shows me
//!   ([`Game::describe_for`] for my seat). A move hidden from me (a secret card, a
//!   simultaneous choice) leads to one child whatever was chosen, so my later decisions
//!   never depend on it; the mover's own statistics still tell its actions apart
//!   (decoupled selection at simultaneous and out-of-turn decisions).
//! - **Chance** is inside `apply` and the world's RNG: each iteration's world has its
//!   own stream.
//! - **Budget** in iterations (reproducible: the same seed and budget give the same
//!   move) or wall time; **root-parallel** over a fixed number of independent trees
//!   (the same trees on any machine, run on as many threads as it has), their root
//!   statistics summed.

use crate::bot::{Bot, BotFactory, Determinized};
use crate::game::{Game, Lang};
use crate::golden::fnv1a;
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};
use std::time::{Duration, Instant};

/// How long to think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Iterations per tree: reproducible.
    Iterations(u32),
    /// Wall time: not reproducible, but bounded.
    Time(Duration),
}

/// How iterations are played out below the tree.
pub enum Rollout<G: Game> {
    /// The game's `random_playout` (its fast path).
    Random,
    /// A bot (a game's rule bot) plays every seat, each move from a world
    /// determinized for the seat to move: slower, and closer to real play.
    Policy(BotFactory<G>),
}

impl<G: Game> Clone for Rollout<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: Game> Copy for Rollout<G> {}

impl<G: Game> std::fmt::Debug for Rollout<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Rollout::Random => "Random",
            Rollout::Policy(_) => "Policy",
        })
    }
}

#[derive(Clone, Debug)]
pub struct Config<G: Game> {
    pub budget: Budget,
    /// Independent trees whose root statistics are summed (root parallelism). The
    /// result depends on this number, never on the machine's cores.
    pub trees: u32,
    /// UCB's exploration constant.
    pub exploration: f64,
    pub rollout: Rollout<G>,
    /// A playout that has not ended after this many actions scores 0.5 for everyone.
    pub max_playout: usize,
}

impl<G: Game> Default for Config<G> {
    fn default() -> Self {
        Config {
            budget: Budget::Iterations(1_000),
            trees: 4,
            exploration: 0.7,
            rollout: Rollout::Random,
            max_playout: 10_000,
        }
    }
}

/// A node's statistics of one seat's action.
#[derive(Clone, Debug)]
struct MoveStat<A> {
    seat: Seat,
    action: A,
    visits: u32,
    /// Iterations in which the action was legal here.
    available: u32,
    reward: f64,
}

#[derive(Clone, Debug)]
struct Node<A> {
    moves: Vec<MoveStat<A>>,
    /// (mover, what I observe of the move) → child node.
    children: Vec<(Seat, u64, usize)>,
}

impl<A> Default for Node<A> {
    fn default() -> Self {
        Node {
            moves: Vec::new(),
            children: Vec::new(),
        }
    }
}

/// One search tree for one decision of `me`.
struct Tree<G: Game> {
    me: Seat,
    nodes: Vec<Node<G::Action>>,
    exploration: f64,
}

/// What I observe of `actor` playing `action`: my own moves fully, others' as the log
/// shows them to me (nothing more, and the same line in every world I believe in: the
/// conformance suite checks it).
fn observation<G: Game>(state: &G, me: Seat, actor: Seat, action: &G::Action) -> u64 {
    match state.describe_for_in(actor, action, Viewer::Seat(me), Lang::En) {
        Some(line) => fnv1a(line.as_bytes()),
        None => 0,
    }
}

impl<G: Game> Tree<G> {
    fn new(me: Seat, exploration: f64) -> Self {
        Tree {
            me,
            nodes: vec![Node::default()],
            exploration,
        }
    }

    /// One iteration in `world`: select and expand down the tree, play out, back up.
    fn iterate(
        &mut self,
        mut world: G,
        rng: &mut GameRng,
        config: &Config<G>,
        legal: &mut Vec<G::Action>,
        buf: &mut Vec<G::Action>,
    ) {
        let mut path: Vec<(usize, usize)> = Vec::new();
        let mut node = 0;
        let mut expanded = false;
        loop {
            // I decide first among seats deciding at once, so none of my decisions
            // sits below another's hidden choice of the same moment.
            let pending = world.to_move();
            let Some(seat) = (if pending.contains(self.me) {
                Some(self.me)
            } else {
                pending.first_seat()
            }) else {
                break;
            };
            world.legal_actions(seat, legal);
            if legal.is_empty() {
                break;
            }
            let Some(pick) = self.select(node, seat, legal, rng, &mut expanded) else {
                break;
            };
            let Some(action) = self
                .nodes
                .get(node)
                .and_then(|n| n.moves.get(pick))
                .map(|m| m.action.clone())
            else {
                break;
            };
            let key = observation(&world, self.me, seat, &action);
            if world.apply(seat, &action).is_err() {
                break;
            }
            path.push((node, pick));
            let next = self
                .nodes
                .get(node)
                .and_then(|n| n.children.iter().find(|(s, k, _)| *s == seat && *k == key))
                .map(|c| c.2);
            node = match next {
                Some(child) => child,
                None => {
                    let child = self.nodes.len();
                    self.nodes.push(Node::default());
                    if let Some(n) = self.nodes.get_mut(node) {
                        n.children.push((seat, key, child));
                    }
                    if expanded {
                        // The first new node of this iteration: play out from here.
                        break;
                    }
                    child
                }
            };
            if expanded {
                break;
            }
        }
        match config.rollout {
            Rollout::Random => {
                world.random_playout(rng, buf, config.max_playout);
            }
            Rollout::Policy(make) => {
                let mut bot = make();
                let mut steps = 0;
                while steps < config.max_playout {
                    let Some(seat) = world.to_move().first_seat() else {
                        break;
                    };
                    let seen = Determinized::sample(&world, seat, rng);
                    let Some(action) = bot.choose(&seen, rng) else {
                        break;
                    };
                    if world.apply(seat, &action).is_err() {
                        break;
                    }
                    steps += 1;
                }
            }
        }
        let outcome = world.outcome();
        for (node, pick) in path {
            if let Some(m) = self.nodes.get_mut(node).and_then(|n| n.moves.get_mut(pick)) {
                m.visits += 1;
                m.reward += outcome.as_ref().map_or(0.5, |o| o.reward(m.seat));
            }
        }
    }

    /// The action `seat` takes at `node` among `legal`: an untried one at random if
    /// any (expansion), else the best by availability-aware UCB.
    fn select(
        &mut self,
        node: usize,
        seat: Seat,
        legal: &[G::Action],
        rng: &mut GameRng,
        expanded: &mut bool,
    ) -> Option<usize> {
        let n = self.nodes.get_mut(node)?;
        let mut untried = 0u32;
        for action in legal {
            match n
                .moves
                .iter_mut()
                .find(|m| m.seat == seat && m.action == *action)
            {
                Some(m) => {
                    m.available += 1;
                    if m.visits == 0 {
                        untried += 1;
                    }
                }
                None => {
                    n.moves.push(MoveStat {
                        seat,
                        action: action.clone(),
                        visits: 0,
                        available: 1,
                        reward: 0.0,
                    });
                    untried += 1;
                }
            }
        }
        let is_legal = |m: &MoveStat<G::Action>| m.seat == seat && legal.contains(&m.action);
        if untried > 0 {
            *expanded = true;
            let k = rng.below(untried);
            return n
                .moves
                .iter()
                .enumerate()
                .filter(|(_, m)| is_legal(m) && m.visits == 0)
                .nth(k as usize)
                .map(|(i, _)| i);
        }
        let c = self.exploration;
        n.moves
            .iter()
            .enumerate()
            .filter(|(_, m)| is_legal(m))
            .map(|(i, m)| {
                let visits = f64::from(m.visits.max(1));
                let ucb =
                    m.reward / visits + c * (f64::from(m.available.max(1)).ln() / visits).sqrt();
                (i, ucb)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i)
    }

    /// My root actions with their visits.
    fn root(&self) -> impl Iterator<Item = (&G::Action, u32)> {
        let me = self.me;
        self.nodes
            .first()
            .into_iter()
            .flat_map(|n| n.moves.iter())
            .filter(move |m| m.seat == me)
            .map(|m| (&m.action, m.visits))
    }
}

/// The chosen action, and every root action's visits over all trees.
pub type Searched<A> = (A, Vec<(A, u32)>);

/// Searches from `world` (a world `world.seat()` believes in) and returns its most
/// visited action, with every candidate's visits summed over the trees.
pub fn search<G: Game>(
    world: &Determinized<G>,
    config: &Config<G>,
    seed: u64,
) -> Option<Searched<G::Action>> {
    let me = world.seat();
    let mut legal = Vec::new();
    world.state().legal_actions(me, &mut legal);
    if legal.len() <= 1 {
        return legal.first().cloned().map(|a| (a.clone(), vec![(a, 0)]));
    }
    let trees = config.trees.max(1);
    let deadline = match config.budget {
        Budget::Time(t) => Some(Instant::now() + t),
        Budget::Iterations(_) => None,
    };
    let run = |index: u32| -> Vec<(G::Action, u32)> {
        let mut rng =
            GameRng::from_seed(seed ^ u64::from(index).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut tree = Tree::<G>::new(me, config.exploration);
        let (mut legal, mut buf) = (Vec::new(), Vec::new());
        let mut done = 0u32;
        loop {
            match (config.budget, deadline) {
                (Budget::Iterations(n), _) if done >= n => break,
                (_, Some(d)) if done.is_multiple_of(16) && Instant::now() >= d => break,
                _ => {}
            }
            let sample = world.resample(&mut rng);
            tree.iterate(
                sample.state().clone(),
                &mut rng,
                config,
                &mut legal,
                &mut buf,
            );
            done += 1;
        }
        tree.root().map(|(a, v)| (a.clone(), v)).collect()
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(trees as usize)
        .max(1);
    let mut results: Vec<Vec<(G::Action, u32)>> = vec![Vec::new(); trees as usize];
    std::thread::scope(|scope| {
        for (chunk_index, chunk) in results
            .chunks_mut(trees.div_ceil(threads as u32) as usize)
            .enumerate()
        {
            let run = &run;
            let per = trees.div_ceil(threads as u32);
            scope.spawn(move || {
                for (i, slot) in chunk.iter_mut().enumerate() {
                    *slot = run(chunk_index as u32 * per + i as u32);
                }
            });
        }
    });
    let mut totals: Vec<(G::Action, u32)> = legal.iter().map(|a| (a.clone(), 0)).collect();
    for tree in results {
        for (action, visits) in tree {
            if let Some(t) = totals.iter_mut().find(|t| t.0 == action) {
                t.1 += visits;
            }
        }
    }
    // Most visits; ties to the earliest listed action (deterministic).
    let best = totals
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.cmp(&b.1 .1).then(b.0.cmp(&a.0)))
        .map(|(_, t)| t.0.clone())?;
    Some((best, totals))
}

/// The ISMCTS bot.
pub struct IsmctsBot<G: Game> {
    name: &'static str,
    pub config: Config<G>,
    _game: std::marker::PhantomData<fn() -> G>,
}

impl<G: Game> IsmctsBot<G> {
    pub fn new(name: &'static str, config: Config<G>) -> Self {
        IsmctsBot {
            name,
            config,
            _game: std::marker::PhantomData,
        }
    }

    /// "normal": about 0.2 s a move.
    pub fn normal() -> Box<dyn Bot<G>> {
        Box::new(Self::new(
            "ismcts-normal",
            Config {
                budget: Budget::Time(Duration::from_millis(200)),
                ..Config::default()
            },
        ))
    }

    /// "strong": about 1 s a move, random rollouts.
    pub fn strong() -> Box<dyn Bot<G>> {
        Box::new(Self::new(
            "ismcts-strong",
            Config {
                budget: Budget::Time(Duration::from_secs(1)),
                ..Config::default()
            },
        ))
    }

    /// "strong" with a game's rule bot playing the rollouts.
    pub fn strong_with(policy: BotFactory<G>) -> Box<dyn Bot<G>> {
        Box::new(Self::new(
            "ismcts-strong",
            Config {
                budget: Budget::Time(Duration::from_secs(1)),
                rollout: Rollout::Policy(policy),
                ..Config::default()
            },
        ))
    }
}

impl<G: Game> Bot<G> for IsmctsBot<G> {
    fn name(&self) -> &'static str {
        self.name
    }

    fn searches(&self) -> bool {
        true
    }

    fn choose(&mut self, world: &Determinized<G>, rng: &mut GameRng) -> Option<G::Action> {
        search(world, &self.config, rng.next_u64()).map(|(a, _)| a)
    }
}
