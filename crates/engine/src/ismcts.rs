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
//!   observe of the move — my own moves whole, the others' by
//!   [`Game::observation_key`] (checked by the conformance suite to tell apart no more
//!   than the log line the game shows me). A move hidden from me (a secret card, a
//!   simultaneous choice) leads to one child whatever was chosen, so my later decisions
//!   never depend on it; the mover's own statistics still tell its actions apart
//!   (decoupled selection at simultaneous and out-of-turn decisions).
//! - **Chance** is inside `apply` and the world's RNG: each iteration's world has its
//!   own stream.
//! - **Budget** in iterations (reproducible: the same seed and budget give the same
//!   move) or wall time; **root-parallel** over a fixed number of independent trees
//!   (the same trees on any machine, run on as many threads as it has), their root
//!   statistics summed; **tree reuse** ([`Forest`]) when the host reports every move;
//!   a **cancellation** flag ([`Config::ask`]).

use crate::bot::{Ask, Bot, BotFactory, Determinized};
use crate::game::Game;
use crate::rng::GameRng;
use crate::seat::Seat;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
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
    /// How the host asked for this move ([`Ask`]): its cancel flag is checked every
    /// 16 iterations (the best move so far is then returned); a time budget ends that
    /// long after `at` (the wait in a server's queue is part of it) and is shared with
    /// the `queued` moves behind it. The default: no flag, the budget starts with the
    /// search and is this move's alone.
    pub ask: Ask,
    /// Who answers a move left with less than a tenth of its time budget, because it
    /// waited in the host's queue or shares it with the moves waiting behind it (an
    /// overloaded server): the game's rule bot,
    /// in microseconds, instead of a search of a few iterations. Every move is then
    /// answered within about its budget of being asked, however long the queue (each
    /// search ends by its own deadline, and every one queued before it ends earlier).
    /// `None`: such a move still searches 16 iterations.
    pub fallback: Option<BotFactory<G>>,
}

impl<G: Game> Default for Config<G> {
    fn default() -> Self {
        Config {
            budget: Budget::Iterations(1_000),
            trees: 4,
            exploration: 0.7,
            rollout: Rollout::Random,
            max_playout: 10_000,
            ask: Ask::default(),
            fallback: None,
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
    children: Vec<(Seat, u64, u32)>,
}

impl<A> Default for Node<A> {
    fn default() -> Self {
        Node {
            moves: Vec::new(),
            children: Vec::new(),
        }
    }
}

/// The key of the child my own move leads to: the move's index among the node's
/// statistics (I know my own moves whole; a node's statistics only ever grow).
const OWN_MOVE: u64 = 1 << 63;

/// What a seat learns of a move as it is played: its own moves whole, another seat's
/// as its [`Game::observation_key`] (made from the state before the move, so it holds
/// nothing the seat may not know). A host that keeps a searching bot across moves
/// tells it every move this way ([`crate::Bot::seen`]) so it can keep its tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Seen<A> {
    Own(A),
    Other { actor: Seat, key: u64 },
}

impl<A: Clone> Seen<A> {
    /// What `seat` learns of `actor` playing `action` in `state` (before it is applied).
    pub fn of<G: Game<Action = A>>(state: &G, seat: Seat, actor: Seat, action: &A) -> Self {
        if actor == seat {
            Seen::Own(action.clone())
        } else {
            Seen::Other {
                actor,
                key: state.observation_key(actor, action, seat),
            }
        }
    }
}

/// Buffers one tree's iterations reuse: no allocation per iteration once grown.
struct Scratch<A> {
    legal: Vec<A>,
    buf: Vec<A>,
    /// The node's statistic of each legal action, in the legal list's order.
    slots: Vec<u32>,
    path: Vec<(u32, u32)>,
}

impl<A> Scratch<A> {
    fn new() -> Self {
        Scratch {
            legal: Vec::new(),
            buf: Vec::new(),
            slots: Vec::new(),
            path: Vec::new(),
        }
    }
}

/// One search tree of `me`'s information sets; node 0 is the root.
#[derive(Clone, Debug)]
struct Tree<G: Game> {
    me: Seat,
    nodes: Vec<Node<G::Action>>,
}

impl<G: Game> Tree<G> {
    fn new(me: Seat) -> Self {
        Tree {
            me,
            nodes: vec![Node::default()],
        }
    }

    /// The child `seat`'s move keyed `key` leads to from `node`, if explored.
    fn child(&self, node: u32, seat: Seat, key: u64) -> Option<u32> {
        self.nodes
            .get(node as usize)?
            .children
            .iter()
            .find(|(s, k, _)| *s == seat && *k == key)
            .map(|c| c.2)
    }

    /// One iteration in `world`: select and expand down the tree, play out, back up.
    fn iterate(
        &mut self,
        mut world: G,
        rng: &mut GameRng,
        config: &Config<G>,
        scratch: &mut Scratch<G::Action>,
    ) {
        scratch.path.clear();
        let mut node = 0u32;
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
            world.legal_actions(seat, &mut scratch.legal);
            if scratch.legal.is_empty() {
                break;
            }
            let Some(pick) = self.select(
                node,
                seat,
                &scratch.legal,
                &mut scratch.slots,
                rng,
                config.exploration,
                &mut expanded,
            ) else {
                break;
            };
            let Some(action) = self
                .nodes
                .get(node as usize)
                .and_then(|n| n.moves.get(pick as usize))
                .map(|m| m.action.clone())
            else {
                break;
            };
            let key = if seat == self.me {
                OWN_MOVE | u64::from(pick)
            } else {
                world.observation_key(seat, &action, self.me)
            };
            // Legal by construction: the node's statistic of a listed action.
            world.apply_legal(seat, &action);
            scratch.path.push((node, pick));
            node = match self.child(node, seat, key) {
                Some(child) => child,
                None => {
                    let child = self.nodes.len() as u32;
                    self.nodes.push(Node::default());
                    if let Some(n) = self.nodes.get_mut(node as usize) {
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
                world.random_playout(rng, &mut scratch.buf, config.max_playout);
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
        for &(node, pick) in &scratch.path {
            if let Some(m) = self
                .nodes
                .get_mut(node as usize)
                .and_then(|n| n.moves.get_mut(pick as usize))
            {
                m.visits += 1;
                m.reward += outcome
                    .as_ref()
                    .map_or(0.5, |o| world.search_reward(o, m.seat));
            }
        }
    }

    /// The statistic `seat` plays at `node` among `legal`: an untried one at random if
    /// any (expansion), else the best by availability-aware UCB.
    #[allow(clippy::too_many_arguments)]
    fn select(
        &mut self,
        node: u32,
        seat: Seat,
        legal: &[G::Action],
        slots: &mut Vec<u32>,
        rng: &mut GameRng,
        exploration: f64,
        expanded: &mut bool,
    ) -> Option<u32> {
        let n = self.nodes.get_mut(node as usize)?;
        slots.clear();
        let mut untried = 0u32;
        // Lists come in the same order in most worlds: look where the last match left
        // off first, so matching a list costs one comparison an action.
        let mut cursor = 0usize;
        for action in legal {
            let same = |m: &MoveStat<G::Action>| m.seat == seat && m.action == *action;
            let found = match n.moves.get(cursor) {
                Some(m) if same(m) => Some(cursor),
                _ => n.moves.iter().position(same),
            };
            let index = match found {
                Some(i) => i,
                None => {
                    n.moves.push(MoveStat {
                        seat,
                        action: action.clone(),
                        visits: 0,
                        available: 0,
                        reward: 0.0,
                    });
                    n.moves.len() - 1
                }
            };
            cursor = index + 1;
            if let Some(m) = n.moves.get_mut(index) {
                m.available += 1;
                if m.visits == 0 {
                    untried += 1;
                }
            }
            slots.push(index as u32);
        }
        if untried > 0 {
            *expanded = true;
            let k = rng.below(untried);
            return slots
                .iter()
                .copied()
                .filter(|&i| n.moves.get(i as usize).is_some_and(|m| m.visits == 0))
                .nth(k as usize);
        }
        let mut best = None;
        let mut best_ucb = f64::NEG_INFINITY;
        for &i in slots.iter() {
            let Some(m) = n.moves.get(i as usize) else {
                continue;
            };
            let visits = f64::from(m.visits.max(1));
            let ucb = m.reward / visits
                + exploration * (f64::from(m.available.max(1)).ln() / visits).sqrt();
            if ucb > best_ucb {
                best_ucb = ucb;
                best = Some(i);
            }
        }
        best
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

    /// The tree below what happened since its root (`since`, in order), with that
    /// node as its root; `None` if the tree never went that way.
    fn follow(mut self, since: &[Seen<G::Action>]) -> Option<Self> {
        let mut node = 0u32;
        for seen in since {
            node = match seen {
                Seen::Own(action) => {
                    let pick = self
                        .nodes
                        .get(node as usize)?
                        .moves
                        .iter()
                        .position(|m| m.seat == self.me && m.action == *action)?;
                    self.child(node, self.me, OWN_MOVE | pick as u64)?
                }
                Seen::Other { actor, key } => self.child(node, *actor, *key)?,
            };
        }
        // Copy the subtree out, renumbered from its new root.
        let mut old = std::mem::take(&mut self.nodes);
        let mut order = vec![node];
        let mut renumber = std::collections::HashMap::new();
        renumber.insert(node, 0u32);
        let mut i = 0;
        while let Some(&n) = order.get(i) {
            for &(_, _, c) in old.get(n as usize).map_or(&[][..], |n| &n.children) {
                renumber.insert(c, order.len() as u32);
                order.push(c);
            }
            i += 1;
        }
        for &n in &order {
            let mut moved = old.get_mut(n as usize).map(std::mem::take)?;
            for child in &mut moved.children {
                child.2 = *renumber.get(&child.2)?;
            }
            self.nodes.push(moved);
        }
        Some(self)
    }

    /// Visits at the root so far (reused from earlier searches, or this one's).
    fn root_visits(&self) -> u32 {
        self.root().map(|(_, v)| v).sum()
    }
}

/// The chosen action, and every root action's visits over all trees.
pub type Searched<A> = (A, Vec<(A, u32)>);

/// A searching seat's trees kept between its decisions (tree reuse): after its own
/// move and the moves it observed of the others, the subtree of where it now stands
/// becomes the next search's starting tree. Reproducible: the same searches with the
/// same seeds and the same moves seen give the same trees.
///
/// Between moves only the part below its own chosen move is kept: the rest can never
/// be reached again, and a host that keeps a bot per seat (a server with a thousand
/// tables) would otherwise hold every seat's whole last search — megabytes a table.
pub struct Forest<G: Game> {
    trees: Vec<Tree<G>>,
    since: Vec<Seen<G::Action>>,
    /// The own move the trees were already moved below, waiting for the host to report
    /// it: the first move reported must be it (or the trees are stale).
    after_own: Option<G::Action>,
    /// Root visits the trees of the last search started with (reused ones' only).
    reused: u32,
    /// Root visits of the last search, before its trees were cut below its move.
    searched: u32,
}

impl<G: Game> Default for Forest<G> {
    fn default() -> Self {
        Forest {
            trees: Vec::new(),
            since: Vec::new(),
            after_own: None,
            reused: 0,
            searched: 0,
        }
    }
}

impl<G: Game> Forest<G> {
    /// A move played at the table, as the seat saw it (every move, in order).
    pub fn seen(&mut self, seen: Seen<G::Action>) {
        if self.trees.is_empty() {
            return;
        }
        match self.after_own.take() {
            // The trees already stand below this move.
            Some(own) if matches!(&seen, Seen::Own(a) if *a == own) => {}
            // Another move came first (a simultaneous decision committed before
            // mine): the trees went down the wrong branch.
            Some(_) => self.clear(),
            None => self.since.push(seen),
        }
    }

    /// Forgets the trees (a new game, or moves that were not all reported).
    pub fn clear(&mut self) {
        self.trees.clear();
        self.since.clear();
        self.after_own = None;
    }

    /// After a search that chose `own`: keeps only each tree's part below it. A tree
    /// that cannot follow it (its move never expanded there) is dropped, and with it
    /// the others, as `take` reuses trees only all together.
    fn keep_below(&mut self, own: &G::Action) {
        let step = [Seen::Own(own.clone())];
        let trees = std::mem::take(&mut self.trees);
        let count = trees.len();
        let kept: Vec<Tree<G>> = trees.into_iter().filter_map(|t| t.follow(&step)).collect();
        if kept.len() == count {
            self.trees = kept;
            self.after_own = Some(own.clone());
        } else {
            self.clear();
        }
    }

    /// Nodes held between moves, over all trees (for tests and hosts' memory figures).
    pub fn kept_nodes(&self) -> usize {
        self.trees.iter().map(|t| t.nodes.len()).sum()
    }

    /// The trees to start a search of `me`'s from, `count` of them: the kept ones
    /// moved down to where `me` now stands, fresh ones where that is not possible.
    fn take(&mut self, me: Seat, count: usize, legal: &[G::Action]) -> Vec<Tree<G>> {
        let since = std::mem::take(&mut self.since);
        let kept = std::mem::take(&mut self.trees);
        // Between two searches of mine at least my own move was played; no report of
        // it means the host does not report moves, and the old root is stale.
        let reported = self.after_own.take().is_none();
        let reusable = reported && kept.len() == count;
        let mut trees: Vec<Tree<G>> = Vec::with_capacity(count);
        if reusable {
            for tree in kept {
                // My legal actions are the same in every world I believe in, so a
                // root where I decided lists them all; a root where I never decided
                // is a fresh start with the others' statistics kept.
                let fits = |t: &Tree<G>| {
                    t.me == me
                        && (t.root().next().is_none()
                            || legal.iter().all(|a| t.root().any(|(b, _)| b == a)))
                };
                match tree.follow(&since) {
                    Some(t) if fits(&t) => trees.push(t),
                    _ => trees.push(Tree::new(me)),
                }
            }
        }
        self.reused = trees.iter().map(Tree::root_visits).sum();
        trees.resize_with(count, || Tree::new(me));
        trees
    }

    /// Root visits of the trees of the last search (reused and new): for tests.
    pub fn root_visits(&self) -> u32 {
        self.searched
    }

    /// Root visits the last search's trees started with, before it searched: more
    /// than 0 when it reused a kept tree.
    pub fn reused_visits(&self) -> u32 {
        self.reused
    }
}

/// What is left of a time budget `t` for this move: from when it was asked, and at
/// most its share with the moves queued behind it.
fn time_left<G: Game>(config: &Config<G>, t: Duration) -> Duration {
    let since_asked = config.ask.at.map_or(Duration::ZERO, |at| at.elapsed());
    let share = t / config.ask.queued.saturating_add(1);
    t.saturating_sub(since_asked).min(share)
}

/// Whether the search was asked to stop (a table abandoned mid-search).
fn cancelled(cancel: &Option<Arc<AtomicBool>>) -> bool {
    cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed))
}

/// Searches from `world` (a world `world.seat()` believes in) and returns its most
/// visited action, with every candidate's visits summed over the trees.
pub fn search<G: Game>(
    world: &Determinized<G>,
    config: &Config<G>,
    seed: u64,
) -> Option<Searched<G::Action>> {
    search_in(world, config, seed, &mut Forest::default())
}

/// [`search`] starting from the trees `forest` kept, which it keeps for the next one.
/// The budget is the new iterations per tree, on top of those reused.
pub fn search_in<G: Game>(
    world: &Determinized<G>,
    config: &Config<G>,
    seed: u64,
    forest: &mut Forest<G>,
) -> Option<Searched<G::Action>> {
    let me = world.seat();
    let mut legal = Vec::new();
    world.state().legal_actions(me, &mut legal);
    if legal.len() <= 1 {
        // No search: nothing reused either (the kept trees wait for the next one).
        forest.reused = 0;
        return legal.first().cloned().map(|a| (a.clone(), vec![(a, 0)]));
    }
    let count = config.trees.max(1) as usize;
    let mut trees = forest.take(me, count, &legal);
    let deadline = match config.budget {
        Budget::Time(t) => Some(Instant::now() + time_left(config, t)),
        Budget::Iterations(_) => None,
    };
    let run = |index: usize, tree: &mut Tree<G>| {
        let mut rng = GameRng::from_seed(seed ^ (index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let mut scratch = Scratch::new();
        let mut done = 0u32;
        loop {
            match (config.budget, deadline) {
                (Budget::Iterations(n), _) if done >= n => break,
                // At least 16 iterations, however late: a search of none would pick
                // the first legal action.
                (_, Some(d)) if done > 0 && done.is_multiple_of(16) && Instant::now() >= d => break,
                _ => {}
            }
            if done.is_multiple_of(16) && cancelled(&config.ask.cancel) {
                break;
            }
            let sample = world.resample(&mut rng);
            tree.iterate(sample.into_state(), &mut rng, config, &mut scratch);
            done += 1;
        }
    };
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(count)
        .max(1);
    if threads == 1 {
        for (index, tree) in trees.iter_mut().enumerate() {
            run(index, tree);
        }
    } else {
        let per = count.div_ceil(threads);
        std::thread::scope(|scope| {
            for (chunk_index, chunk) in trees.chunks_mut(per).enumerate() {
                let run = &run;
                scope.spawn(move || {
                    for (i, tree) in chunk.iter_mut().enumerate() {
                        run(chunk_index * per + i, tree);
                    }
                });
            }
        });
    }
    let mut totals: Vec<(G::Action, u32)> = legal.iter().map(|a| (a.clone(), 0)).collect();
    for tree in &trees {
        for (action, visits) in tree.root() {
            if let Some(t) = totals.iter_mut().find(|t| t.0 == *action) {
                t.1 += visits;
            }
        }
    }
    forest.searched = trees.iter().map(Tree::root_visits).sum();
    forest.trees = trees;
    forest.since.clear();
    // Most visits; ties to the earliest listed action (deterministic).
    let best = totals
        .iter()
        .enumerate()
        .max_by(|a, b| a.1 .1.cmp(&b.1 .1).then(b.0.cmp(&a.0)))
        .map(|(_, t)| t.0.clone())?;
    forest.keep_below(&best);
    Some((best, totals))
}

/// The ISMCTS bot.
pub struct IsmctsBot<G: Game> {
    name: &'static str,
    pub config: Config<G>,
    /// Its trees between moves, when the host reports the moves ([`Bot::seen`]).
    forest: Forest<G>,
    /// Its last move came from [`Config::fallback`]: asked too late to search.
    rushed: bool,
}

impl<G: Game> IsmctsBot<G> {
    pub fn new(name: &'static str, config: Config<G>) -> Self {
        IsmctsBot {
            name,
            config,
            forest: Forest::default(),
            rushed: false,
        }
    }

    /// Whether the move has less than a tenth of its time budget left ([`time_left`]):
    /// too little to search.
    fn too_late(&self) -> bool {
        match self.config.budget {
            Budget::Time(t) => time_left(&self.config, t) < t / 10,
            Budget::Iterations(_) => false,
        }
    }

    /// Root visits of its last search's trees, reused ones included: for tests.
    pub fn root_visits(&self) -> u32 {
        self.forest.root_visits()
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

    /// "normal" whose moves asked too late to search come from `rule_bot`
    /// ([`Config::fallback`]).
    pub fn normal_with(rule_bot: BotFactory<G>) -> Box<dyn Bot<G>> {
        Box::new(Self::new(
            "ismcts-normal",
            Config {
                budget: Budget::Time(Duration::from_millis(200)),
                fallback: Some(rule_bot),
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

    /// "strong" with a game's rule bot playing the rollouts (and answering the moves
    /// asked too late to search, [`Config::fallback`]).
    pub fn strong_with(policy: BotFactory<G>) -> Box<dyn Bot<G>> {
        Box::new(Self::new(
            "ismcts-strong",
            Config {
                budget: Budget::Time(Duration::from_secs(1)),
                rollout: Rollout::Policy(policy),
                fallback: Some(policy),
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
        self.rushed = false;
        if let Some(fallback) = self.config.fallback.filter(|_| self.too_late()) {
            // The kept trees wait: the moves since their last search stay queued
            // ([`Forest::seen`]), this one included once the host reports it.
            self.rushed = true;
            return fallback().choose(world, rng);
        }
        search_in(world, &self.config, rng.next_u64(), &mut self.forest).map(|(a, _)| a)
    }

    fn reused_visits(&self) -> u32 {
        self.forest.reused_visits()
    }

    fn rushed(&self) -> bool {
        self.rushed
    }

    fn seen(&mut self, seen: &Seen<G::Action>) {
        self.forest.seen(seen.clone());
    }

    fn asked(&mut self, ask: &Ask) {
        self.config.ask = ask.clone();
    }
}

/// What every game's ISMCTS benchmark times (criterion lives in the game crates, not
/// here): searches of a fixed number of iterations, one tree, random rollouts, from
/// worlds determinized for the seat at the first decision with a real choice (a forced
/// move is answered without a search).
pub struct SearchBench<G: Game> {
    game: G,
    seat: Seat,
    config: Config<G>,
    rng: GameRng,
}

impl<G: Game> SearchBench<G> {
    /// `game` played on by random moves to a decision between two or more actions.
    pub fn new(mut game: G, iterations: u32, seed: u64) -> SearchBench<G> {
        let mut rng = GameRng::from_seed(seed);
        let mut legal = Vec::new();
        let mut buf = Vec::new();
        while let Some(seat) = game.to_move().first_seat() {
            game.legal_actions(seat, &mut legal);
            if legal.len() >= 2 {
                break;
            }
            crate::bot::random_playout(&mut game, &mut rng, &mut buf, 1);
        }
        let seat = game.to_move().first_seat().unwrap_or(Seat(0));
        let config = Config {
            budget: Budget::Iterations(iterations),
            trees: 1,
            ..Config::default()
        };
        SearchBench {
            game,
            seat,
            config,
            rng,
        }
    }

    /// One search from a freshly determinized world.
    pub fn search(&mut self) -> Option<Searched<G::Action>> {
        let world = Determinized::sample(&self.game, self.seat, &mut self.rng);
        let seed = self.rng.next_u64();
        search(&world, &self.config, seed)
    }
}
