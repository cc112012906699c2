//! Ambush: a tiny game of out-of-turn reactions, hidden hands and chance, to check
//! that the engine (and its conformance suite) models them.
//!
//! A shuffled deck of Strikes, Shields and Gems; 2–4 players hold 3 cards each, in
//! secret. A turn begins by drawing a card; the game ends when a turn would begin with
//! an empty deck. On their turn a player either
//! - attacks another seat with a Strike: the target, out of turn, blocks with a Shield
//!   or takes the hit. A target without a Shield is asked all the same, so the timing
//!   of its answer reveals nothing. A hit scores 1 for the attacker, and the target
//!   discards a card chosen at random (from the state's RNG), face up: a Gem lost this
//!   way scores 1 more for the attacker;
//! - cashes a Gem for 1 point; or
//! - rests.

mod common;

use common::{assert_refused, legal, play, quick_config};
use serde::{Deserialize, Serialize};
use takuge_engine::assign::deal_constrained;
use takuge_engine::conformance::assert_conforms;
use takuge_engine::{Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer};

const MAX_PLAYERS: usize = 4;
const HAND: usize = 3;
/// The deck: Strikes, Shields, Gems.
const DECK: [u8; KINDS] = [10, 8, 8];
const KINDS: usize = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Card {
    Strike = 0,
    Shield = 1,
    Gem = 2,
}

const ALL_CARDS: [Card; KINDS] = [Card::Strike, Card::Shield, Card::Gem];

impl Card {
    const fn kind(self) -> usize {
        self as usize
    }
}

/// A hand as counts per kind: the order cards were drawn in is nobody's business.
type Counts = [u8; KINDS];

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct Options {}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Action {
    Attack(Seat),
    Cash,
    Rest,
    /// The target's reaction: block with a Shield.
    Block,
    /// The target's reaction: take the hit.
    Take,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
enum Reject {
    NoStrike,
    NoGem,
    NoShield,
    BadTarget(Seat),
    NotNow,
}

impl std::fmt::Display for Reject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Reject::NoStrike => write!(f, "you hold no Strike"),
            Reject::NoGem => write!(f, "you hold no Gem"),
            Reject::NoShield => write!(f, "you hold no Shield"),
            Reject::BadTarget(s) => write!(f, "you cannot attack {s}"),
            Reject::NotNow => write!(f, "that is not a choice you have now"),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// The active seat chooses.
    Turn,
    /// `target` reacts to an attack by the active seat.
    Attacked {
        target: Seat,
    },
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct Ambush {
    players: usize,
    options: Options,
    rng: GameRng,
    /// Undrawn cards, top last.
    deck: Vec<Card>,
    hands: [Counts; MAX_PLAYERS],
    discard: Counts,
    scores: [i64; MAX_PLAYERS],
    active: Seat,
    phase: Phase,
    /// The last card discarded at random, public.
    last_hit_discard: Option<(Seat, Card)>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
struct View {
    hand: Option<Counts>,
    hand_sizes: Vec<u8>,
    deck: usize,
    discard: Counts,
    scores: Vec<i64>,
    active: Seat,
    attacked: Option<Seat>,
    last_hit_discard: Option<(Seat, Card)>,
}

static META: GameMeta = GameMeta {
    id: "ambush",
    name_en: "Ambush",
    name_ja: "待ち伏せ",
    min_players: 2,
    max_players: MAX_PLAYERS,
    minutes: (5, 10),
    min_age: 6,
    year: 2026,
    teams: &[],
};

fn size(counts: &Counts) -> u8 {
    counts.iter().sum()
}

impl Ambush {
    fn hand(&self, seat: Seat) -> Counts {
        self.hands.get(seat.index()).copied().unwrap_or_default()
    }

    fn holds(&self, seat: Seat, card: Card) -> bool {
        self.hand(seat)[card.kind()] > 0
    }

    fn discard_from(&mut self, seat: Seat, card: Card) {
        if let Some(hand) = self.hands.get_mut(seat.index()) {
            hand[card.kind()] = hand[card.kind()].saturating_sub(1);
            self.discard[card.kind()] += 1;
        }
    }

    /// Passes the turn to `seat`, who draws; the game ends on an empty deck.
    fn begin_turn(&mut self, seat: Seat) {
        self.active = seat;
        match self.deck.pop() {
            Some(card) => {
                self.hands[seat.index()][card.kind()] += 1;
                self.phase = Phase::Turn;
            }
            None => self.phase = Phase::Over,
        }
    }

    fn end_turn(&mut self) {
        self.begin_turn(self.active.next(self.players));
    }

    /// The hit lands: the target loses a random card, face up.
    fn hit(&mut self, target: Seat) {
        self.scores[self.active.index()] += 1;
        let hand = self.hand(target);
        let total = u32::from(size(&hand));
        if total == 0 {
            self.last_hit_discard = None;
            return;
        }
        let mut roll = self.rng.below(total) as u8;
        let lost = ALL_CARDS
            .into_iter()
            .find(|c| {
                if roll < hand[c.kind()] {
                    true
                } else {
                    roll -= hand[c.kind()];
                    false
                }
            })
            .unwrap_or(Card::Strike);
        self.discard_from(target, lost);
        if lost == Card::Gem {
            self.scores[self.active.index()] += 1;
        }
        self.last_hit_discard = Some((target, lost));
    }
}

impl Game for Ambush {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(_: &Options, players: usize) -> Result<(), SetupError> {
        if (2..=MAX_PLAYERS).contains(&players) {
            Ok(())
        } else {
            Err(SetupError::PlayerCount {
                game: META.id,
                min: 2,
                max: MAX_PLAYERS,
                got: players,
            })
        }
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        let mut rng = GameRng::from_seed(seed);
        let mut deck: Vec<Card> = ALL_CARDS
            .into_iter()
            .flat_map(|c| std::iter::repeat_n(c, usize::from(DECK[c.kind()])))
            .collect();
        rng.shuffle(&mut deck);
        let mut hands = [[0; KINDS]; MAX_PLAYERS];
        for hand in hands.iter_mut().take(players) {
            for _ in 0..HAND {
                if let Some(card) = deck.pop() {
                    hand[card.kind()] += 1;
                }
            }
        }
        let mut game = Ambush {
            players,
            options: options.clone(),
            rng,
            deck,
            hands,
            discard: [0; KINDS],
            scores: [0; MAX_PLAYERS],
            active: Seat(0),
            phase: Phase::Turn,
            last_hit_discard: None,
        };
        game.begin_turn(Seat(0));
        Ok(game)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players
    }

    fn to_move(&self) -> SeatSet {
        match self.phase {
            Phase::Turn => SeatSet::single(self.active),
            Phase::Attacked { target } => SeatSet::single(target),
            Phase::Over => SeatSet::EMPTY,
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        match self.phase {
            Phase::Turn if seat == self.active => {
                if self.holds(seat, Card::Strike) {
                    out.extend(
                        Seat::all(self.players)
                            .filter(|t| *t != seat)
                            .map(Action::Attack),
                    );
                }
                if self.holds(seat, Card::Gem) {
                    out.push(Action::Cash);
                }
                out.push(Action::Rest);
            }
            // Asked even without a Shield: only `Take` is then legal, but the table
            // waits for the answer either way.
            Phase::Attacked { target } if seat == target => {
                if self.holds(seat, Card::Shield) {
                    out.push(Action::Block);
                }
                out.push(Action::Take);
            }
            _ => {}
        }
    }

    fn apply_legal(&mut self, seat: Seat, action: &Action) {
        match (self.phase, action) {
            (Phase::Turn, Action::Attack(target)) => {
                self.discard_from(seat, Card::Strike);
                self.phase = Phase::Attacked { target: *target };
            }
            (Phase::Turn, Action::Cash) => {
                self.discard_from(seat, Card::Gem);
                self.scores[seat.index()] += 1;
                self.end_turn();
            }
            (Phase::Turn, Action::Rest) => self.end_turn(),
            (Phase::Attacked { .. }, Action::Block) => {
                self.discard_from(seat, Card::Shield);
                self.end_turn();
            }
            (Phase::Attacked { target }, Action::Take) => {
                self.hit(target);
                self.end_turn();
            }
            _ => {}
        }
    }

    fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        match (self.phase, action) {
            (Phase::Turn, Action::Attack(target))
                if *target == seat || target.index() >= self.players =>
            {
                Reject::BadTarget(*target)
            }
            (Phase::Turn, Action::Attack(_)) => Reject::NoStrike,
            (Phase::Turn, Action::Cash) => Reject::NoGem,
            (Phase::Attacked { .. }, Action::Block) => Reject::NoShield,
            _ => Reject::NotNow,
        }
    }

    fn view(&self, viewer: Viewer) -> View {
        View {
            hand: viewer
                .seat()
                .filter(|s| s.index() < self.players)
                .map(|s| self.hand(s)),
            hand_sizes: self.hands[..self.players].iter().map(size).collect(),
            deck: self.deck.len(),
            discard: self.discard,
            scores: self.scores[..self.players].to_vec(),
            active: self.active,
            attacked: match self.phase {
                Phase::Attacked { target } => Some(target),
                _ => None,
            },
            last_hit_discard: self.last_hit_discard,
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        (self.phase == Phase::Over).then(|| {
            Outcome::from_scores(
                self.scores[..self.players].to_vec(),
                vec![None; self.players],
            )
        })
    }

    /// Every card `seat` has not seen — the deck and the other hands — is pooled and
    /// dealt again: other hands keep their sizes, the rest becomes the deck in a new
    /// order. Nothing the seat saw tells these cards apart (a target may take a hit
    /// while holding a Shield, so taking one proves nothing). Future chance is hidden
    /// too, so the world gets a fresh RNG.
    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut world = self.clone();
        let others: Vec<Seat> = Seat::all(self.players).filter(|s| *s != seat).collect();
        let mut unseen: Vec<Card> = world.deck.clone();
        for other in &others {
            for card in ALL_CARDS {
                unseen.extend(std::iter::repeat_n(
                    card,
                    usize::from(self.hand(*other)[card.kind()]),
                ));
            }
        }
        // In an order the seat can see (by kind), not where the cards truly are: the
        // world must depend only on what the seat knows.
        unseen.sort_unstable();
        // Slots: the other hands in seat order, then the deck. No constraint binds
        // them in this game, but the deal goes through the engine's helper that games
        // with partial knowledge use.
        if !deal_constrained(&mut unseen, |_, _| true, rng) {
            return world;
        }
        let mut cards = unseen.into_iter();
        for other in &others {
            let n = size(&self.hand(*other));
            let mut hand = [0; KINDS];
            for card in cards.by_ref().take(usize::from(n)) {
                hand[card.kind()] += 1;
            }
            world.hands[other.index()] = hand;
        }
        world.deck = cards.collect();
        world.rng = rng.fork();
        world
    }

    fn describe(&self, action: &Action) -> String {
        match action {
            Action::Attack(t) => format!("attack {t}"),
            Action::Cash => "cash a Gem".into(),
            Action::Rest => "rest".into(),
            Action::Block => "block with a Shield".into(),
            Action::Take => "take the hit".into(),
        }
    }
}

#[test]
fn ambush_conforms_for_every_player_count() {
    let report = assert_conforms::<Ambush>(&quick_config(500));
    assert_eq!(report.setups, 3);
    assert!(report.determinizations > 0);
}

/// A game at its first turn with the given hands (seat 0 has drawn already).
fn with_hands(players: usize, hands: &[Counts]) -> Ambush {
    let mut game = Ambush::new(&Options::default(), players, 5).unwrap();
    for (i, hand) in hands.iter().enumerate() {
        game.hands[i] = *hand;
    }
    game
}

#[test]
fn the_target_reacts_out_of_turn() {
    let mut game = with_hands(3, &[[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
    play(&mut game, Seat(0), Action::Attack(Seat(1)));
    // The attacker waits; only the target decides.
    assert_eq!(game.to_move(), SeatSet::single(Seat(1)));
    assert!(legal(&game, Seat(0)).is_empty());
    assert_eq!(legal(&game, Seat(1)), vec![Action::Block, Action::Take]);
    assert_refused(&game, Seat(0), Action::Rest);
    assert_refused(&game, Seat(2), Action::Take);
    play(&mut game, Seat(1), Action::Block);
    assert_eq!(game.scores[..3], [0, 0, 0]);
    assert_eq!(game.discard, [1, 1, 0]);
    // The turn passes on to seat 1, who draws.
    assert_eq!(game.to_move(), SeatSet::single(Seat(1)));
    assert_eq!(size(&game.hand(Seat(1))), 1);
}

#[test]
fn a_target_without_a_shield_is_asked_all_the_same() {
    let mut game = with_hands(2, &[[1, 0, 0], [0, 0, 2]]);
    play(&mut game, Seat(0), Action::Attack(Seat(1)));
    assert_eq!(game.to_move(), SeatSet::single(Seat(1)));
    assert_eq!(legal(&game, Seat(1)), vec![Action::Take]);
    assert_refused(&game, Seat(1), Action::Block);
    play(&mut game, Seat(1), Action::Take);
    // A hit is 1 point, and the random discard can only be a Gem here: 1 more.
    assert_eq!(game.scores[..2], [2, 0]);
    assert_eq!(game.last_hit_discard, Some((Seat(1), Card::Gem)));
    assert_eq!(game.view(Viewer::Spectator).discard, [1, 0, 1]);
}

#[test]
fn determinize_keeps_what_the_seat_knows_and_redraws_the_rest() {
    let game = Ambush::new(&Options::default(), 3, 11).unwrap();
    let mut rng = GameRng::from_seed(3);
    let mut changed = false;
    for _ in 0..20 {
        let world = game.determinize(Seat(1), &mut rng);
        assert_eq!(world.hand(Seat(1)), game.hand(Seat(1)));
        assert_eq!(
            world.view(Viewer::Seat(Seat(1))),
            game.view(Viewer::Seat(Seat(1)))
        );
        // The same cards exist in every world.
        let total = |g: &Ambush| {
            let mut t = g.discard;
            for h in &g.hands[..3] {
                for k in 0..KINDS {
                    t[k] += h[k];
                }
            }
            for c in &g.deck {
                t[c.kind()] += 1;
            }
            t
        };
        assert_eq!(total(&world), DECK);
        changed |= world.hands[0] != game.hands[0] || world.deck != game.deck;
    }
    assert!(changed, "determinize never redrew a hidden card");
}

#[test]
fn the_game_ends_when_a_turn_begins_on_an_empty_deck() {
    let mut game = Ambush::new(&Options::default(), 4, 1).unwrap();
    let mut turns = 0;
    while !game.is_over() {
        let seat = game.to_move().first_seat().unwrap();
        play(&mut game, seat, Action::Rest);
        turns += 1;
    }
    // 26 cards, 12 dealt, one drawn at each of 14 turns.
    assert_eq!(turns, 14);
    assert!(game.deck.is_empty());
    assert!(game.outcome().is_some());
    assert_refused(&game, Seat(0), Action::Rest);
}

impl takuge_engine::conformance::Probe for Ambush {
    /// The whole action space, and attacks on seats beyond the table.
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        out.extend([Action::Cash, Action::Rest, Action::Block, Action::Take]);
        out.extend((0..=self.players as u8 + 1).map(|s| Action::Attack(Seat(s))));
    }
}

#[test]
fn ismcts_beats_the_random_bot_at_ambush_with_out_of_turn_reactions_and_hidden_hands() {
    use takuge_engine::ismcts::{Budget, Config};
    use takuge_engine::{Bot, IsmctsBot, RandomBot};
    let mut total = 0.0;
    let games = 40;
    for g in 0..games {
        let search = Box::new(IsmctsBot::<Ambush>::new(
            "ismcts",
            Config {
                budget: Budget::Iterations(300),
                trees: 2,
                ..Config::default()
            },
        )) as Box<dyn Bot<Ambush>>;
        // Seat-rotated: the searcher sits first in even games, second in odd ones.
        let mut bots = vec![search, RandomBot::<Ambush>::boxed()];
        if g % 2 == 1 {
            bots.reverse();
        }
        let rewards = common::play_bots(&Options::default(), &mut bots, 1000 + g);
        total += rewards[(g % 2) as usize];
    }
    let rate = total / games as f64;
    assert!(rate > 0.7, "ISMCTS scored {rate:.2} against random");
}

#[test]
fn an_arena_ranks_the_search_above_the_random_bot_and_rotates_seats() {
    use takuge_engine::arena::{play, standings, Entrant};
    use takuge_engine::ismcts::{Budget, Config};
    use takuge_engine::{Bot, IsmctsBot, RandomBot};
    let search = || -> Box<dyn Bot<Ambush>> {
        Box::new(IsmctsBot::<Ambush>::new(
            "ismcts",
            Config {
                budget: Budget::Iterations(200),
                trees: 1,
                ..Config::default()
            },
        ))
    };
    let random = || RandomBot::<Ambush>::boxed();
    let entrants = [
        Entrant {
            name: "ismcts".into(),
            make: &search,
        },
        Entrant {
            name: "random".into(),
            make: &random,
        },
    ];
    let results = match play::<Ambush>(&Options::default(), 3, &entrants, 24, 5, &|_| {}) {
        Ok(r) => r,
        Err(e) => panic!("{e}"),
    };
    assert_eq!(results.len(), 24);
    // Every entrant sat in every seat.
    for e in 0..2 {
        for seat in 0..3 {
            assert!(
                results.iter().any(|r| r.lineup[seat] == e),
                "entrant {e} never in seat {seat}"
            );
        }
    }
    let again = play::<Ambush>(&Options::default(), 3, &entrants, 24, 5, &|_| {});
    assert_eq!(
        again.as_ref().ok(),
        Some(&results),
        "the same seed plays the same tournament"
    );
    let table = standings(&["ismcts".into(), "random".into()], &results);
    assert!(table[0].elo > table[1].elo, "{table:?}");
    assert!(table[0].win_rate > table[1].win_rate, "{table:?}");
    assert!(table[0].interval.0 <= table[0].win_rate && table[0].win_rate <= table[0].interval.1);
}

/// Plays one Ambush game of `players` seats: an ISMCTS bot (`iterations` a tree, one
/// tree) in seat 0, random bots elsewhere; `report` tells the searcher every move as it
/// saw it. Returns the actions played and the searcher's root visits at each decision.
fn searcher_game(players: usize, seed: u64, report: bool) -> (Vec<Action>, Vec<u32>) {
    use takuge_engine::ismcts::{Budget, Config, Seen};
    use takuge_engine::{bot::bot_move, Bot, IsmctsBot, RandomBot};
    let mut searcher = IsmctsBot::<Ambush>::new(
        "ismcts",
        Config {
            budget: Budget::Iterations(200),
            trees: 1,
            ..Config::default()
        },
    );
    let mut others: Vec<Box<dyn Bot<Ambush>>> =
        (1..players).map(|_| RandomBot::<Ambush>::boxed()).collect();
    let mut state = Ambush::new(&Options::default(), players, seed).unwrap();
    let mut rng = GameRng::from_seed(seed);
    let (mut actions, mut visits) = (Vec::new(), Vec::new());
    while let Some(seat) = state.to_move().first_seat() {
        let action = if seat == Seat(0) {
            let mut choices = Vec::new();
            state.legal_actions(seat, &mut choices);
            let action = bot_move(&mut searcher, &state, seat, &mut rng);
            if choices.len() > 1 {
                visits.push(searcher.root_visits());
            }
            action
        } else {
            bot_move(others[seat.index() - 1].as_mut(), &state, seat, &mut rng)
        };
        let Some(action) = action else {
            panic!("{seat} gave no move");
        };
        if report {
            searcher.seen(&Seen::of(&state, Seat(0), seat, &action));
        }
        play(&mut state, seat, action.clone());
        actions.push(action);
    }
    (actions, visits)
}

#[test]
fn a_search_keeps_its_tree_below_its_own_move_and_the_moves_it_saw() {
    let mut reused = 0;
    for seed in 0..6 {
        let (_, visits) = searcher_game(3, seed, true);
        // A fresh search makes 200 root visits; one that kept its tree starts above.
        assert!(visits.iter().all(|&v| v >= 200), "{visits:?}");
        reused += visits.iter().filter(|&&v| v > 200).count();
        let (_, fresh) = searcher_game(3, seed, false);
        assert!(
            fresh.iter().all(|&v| v == 200),
            "unreported moves: {fresh:?}"
        );
    }
    assert!(reused > 5, "no search kept its tree: {reused}");
}

#[test]
fn a_search_that_keeps_its_tree_plays_the_same_game_for_the_same_seeds() {
    for seed in 0..4 {
        assert_eq!(searcher_game(4, seed, true), searcher_game(4, seed, true));
    }
}

#[test]
fn a_cancelled_search_stops_and_still_answers_with_a_legal_move() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    use takuge_engine::ismcts::{search, Budget, Config};
    use takuge_engine::Determinized;
    let state = Ambush::new(&Options::default(), 3, 1).unwrap();
    let seat = state.to_move().first_seat().unwrap();
    let world = Determinized::sample(&state, seat, &mut GameRng::from_seed(1));
    // Cancelled before it starts: no iteration at all.
    let cancel = Arc::new(AtomicBool::new(true));
    let config = Config {
        budget: Budget::Iterations(u32::MAX),
        trees: 2,
        ask: takuge_engine::Ask {
            cancel: Some(cancel.clone()),
            ..Default::default()
        },
        ..Config::default()
    };
    let Some((action, visits)) = search(&world, &config, 3) else {
        panic!("no move");
    };
    assert!(legal(&state, seat).contains(&action));
    assert_eq!(visits.iter().map(|v| v.1).sum::<u32>(), 0);
    // Cancelled while it runs (an endless budget): it returns once the flag is set.
    cancel.store(false, Ordering::Relaxed);
    let result = std::thread::scope(|scope| {
        let running = scope.spawn(|| search(&world, &config, 3));
        // Let it run a little (no timing is asserted: the test ends only if it stops).
        std::thread::sleep(std::time::Duration::from_millis(20));
        cancel.store(true, Ordering::Relaxed);
        running.join()
    });
    let Ok(Some((action, _))) = result else {
        panic!("the search failed");
    };
    assert!(legal(&state, seat).contains(&action));
}

/// The last legal action: a "rule bot" whose moves are told apart from a search's.
struct LastLegal;

impl takuge_engine::Bot<Ambush> for LastLegal {
    fn name(&self) -> &'static str {
        "last-legal"
    }

    fn choose(
        &mut self,
        world: &takuge_engine::Determinized<Ambush>,
        _rng: &mut GameRng,
    ) -> Option<Action> {
        legal(world.state(), world.seat()).pop()
    }
}

fn last_legal() -> Box<dyn takuge_engine::Bot<Ambush>> {
    Box::new(LastLegal)
}

/// A seat of Ambush at its first decision between several actions, and a world of it.
fn first_choice() -> (Ambush, Seat) {
    let state = Ambush::new(&Options::default(), 3, 1).unwrap();
    let seat = state.to_move().first_seat().unwrap();
    assert!(legal(&state, seat).len() >= 2);
    (state, seat)
}

/// "A time budget counts from when the host asked": a move that waited in a busy
/// server's queue longer than its budget is answered at once by the game's rule bot
/// (the fallback), and the bot says so (`rushed`) for the server's metrics.
#[test]
fn a_move_that_waited_out_its_time_budget_is_answered_by_the_rule_bot() {
    use std::time::{Duration, Instant};
    use takuge_engine::ismcts::{Budget, Config};
    use takuge_engine::{Ask, Bot, Determinized, IsmctsBot};
    let (state, seat) = first_choice();
    let world = Determinized::sample(&state, seat, &mut GameRng::from_seed(1));
    let mut bot = IsmctsBot::new(
        "ismcts-normal",
        Config {
            budget: Budget::Time(Duration::from_millis(200)),
            fallback: Some(last_legal),
            ..Config::default()
        },
    );
    let Some(waited) = Instant::now().checked_sub(Duration::from_secs(10)) else {
        return; // (a machine up for less than 10 s)
    };
    bot.asked(&Ask {
        at: Some(waited),
        ..Ask::default()
    });
    let action = bot.choose(&world, &mut GameRng::from_seed(2));
    assert_eq!(action, legal(&state, seat).pop());
    assert!(bot.rushed());
    assert_eq!(bot.root_visits(), 0, "no search ran");

    // Asked just now, the same bot searches (its budget is whole) and is not rushed.
    bot.asked(&Ask {
        at: Some(Instant::now()),
        ..Ask::default()
    });
    let Some(_) = bot.choose(&world, &mut GameRng::from_seed(2)) else {
        panic!("no move");
    };
    assert!(!bot.rushed());
    assert!(bot.root_visits() > 0, "it searched");

    // Asked just now but with ten moves queued behind it: its share of the budget
    // (a tenth or less) is too little to search.
    bot.asked(&Ask {
        at: Some(Instant::now()),
        queued: 10,
        ..Ask::default()
    });
    let action = bot.choose(&world, &mut GameRng::from_seed(2));
    assert_eq!(action, legal(&state, seat).pop());
    assert!(bot.rushed());
}

/// Without a fallback, a move asked too late still searches 16 iterations a tree (a
/// search of none would just pick the first legal action), and no more: its budget
/// was spent in the queue.
#[test]
fn a_late_move_without_a_fallback_searches_sixteen_iterations_a_tree() {
    use std::time::{Duration, Instant};
    use takuge_engine::ismcts::{Budget, Config};
    use takuge_engine::{Ask, Bot, Determinized, IsmctsBot};
    let (state, seat) = first_choice();
    let world = Determinized::sample(&state, seat, &mut GameRng::from_seed(1));
    let mut bot = IsmctsBot::new(
        "ismcts-normal",
        Config {
            budget: Budget::Time(Duration::from_millis(200)),
            trees: 3,
            ..Config::default()
        },
    );
    let Some(waited) = Instant::now().checked_sub(Duration::from_secs(10)) else {
        return;
    };
    bot.asked(&Ask {
        at: Some(waited),
        ..Ask::default()
    });
    let Some(_) = bot.choose(&world, &mut GameRng::from_seed(2)) else {
        panic!("no move");
    };
    assert!(!bot.rushed());
    assert_eq!(bot.root_visits(), 3 * 16);
}

/// "Between moves only the part below its own chosen move is kept": a server keeps a
/// searching bot per seat for a whole game, and holding each one's whole last search
/// cost megabytes a table. Every node below the chosen move was made by an iteration
/// through it, so at most its visits (and the node itself) remain; the branches of the
/// other candidates are gone.
#[test]
fn between_moves_a_search_keeps_only_the_tree_below_its_own_move() {
    use takuge_engine::ismcts::{search_in, Budget, Config, Forest};
    use takuge_engine::Determinized;
    let (state, seat) = first_choice();
    let world = Determinized::sample(&state, seat, &mut GameRng::from_seed(1));
    let config = Config {
        budget: Budget::Iterations(2_000),
        trees: 1,
        ..Config::default()
    };
    let mut forest = Forest::default();
    let Some((best, visits)) = search_in(&world, &config, 5, &mut forest) else {
        panic!("no move");
    };
    let chosen: u32 = visits.iter().filter(|v| v.0 == best).map(|v| v.1).sum();
    let others: u32 = visits.iter().filter(|v| v.0 != best).map(|v| v.1).sum();
    assert!(
        others > 0,
        "the other candidates were searched too: {visits:?}"
    );
    let kept = forest.kept_nodes();
    assert!(kept >= 1);
    assert!(
        kept <= chosen as usize + 1,
        "kept {kept} nodes, more than the {chosen} iterations through the chosen move"
    );
}
