//! Bitoku's balance figures (issue 15): seat-rotated 4-player games of the five
//! strategy bots from one seed, and what they tell about each strategy and each card.
//!
//! ```sh
//! cargo run --release -p takuge-bitoku --example balance -- \
//!   --games 600 --seed 15 --md docs/games/bitoku-balance.md --svg docs/games/bitoku-scores.svg
//! ```
//!
//! Game `g` seats the strategies as `takuge arena` does (the same game seeds, the same
//! rotation, the same bot RNG), so every strategy plays every seat equally often when
//! the number of games is a multiple of 20. Everything depends on the seed only (the
//! games run on `--threads` threads, each result kept by its game's index).
//!
//! Per strategy: first places (a tie for first shares the win) and the final virtue
//! points. Per card (yokai, Bitoku cards, visions) and tile (buildings, crystals,
//! mitama, dragonflies, Iwakura rocks): the games it was played in, the seat-games it
//! was held in, and its holders' win rate against what their strategies win overall:
//! `Δ = mean over holders of (win − the holder's strategy's win rate)`, in points, with
//! a 95% interval (1.96 standard errors). "Played": a yokai put into a slot, a mitama
//! or dragonfly used, a building built, a crystal set, a Bitoku card taken onto the
//! path, a vision kept, a rock held at the end. "Held": owned at any time of the game
//! (a yokai in hand, deck, discard, slot or retired; a tile on the player board).

use std::fmt::Write as _;
use takuge_bitoku::{bots, components, Action, Bitoku, Count, Options};
use takuge_engine::bot::bot_move;
use takuge_engine::ismcts::Seen;
use takuge_engine::{Bot, Game, GameRng, Seat, Viewer};

const STRATEGIES: [&str; 5] = ["yokai", "builder", "crystals", "kodama", "visions"];
const PLAYERS: usize = 4;

/// The parts of the final score.
const PARTS: [&str; 8] = [
    "in play",
    "B first",
    "C Bitoku kinds",
    "D lake",
    "E Iwakura",
    "F dice+res.",
    "G visions",
    "H destiny",
];

/// What a seat has at the end: the things each strategy goes after.
const COUNTS: [&str; 12] = [
    "buildings",
    "crystals",
    "deck yokai taken",
    "yokai retired",
    "kodama steps",
    "tracks led",
    "lake points",
    "visions",
    "visions met",
    "Bitoku cards",
    "dragonflies",
    "mitama",
];

/// The [`COUNTS`] of `seat` at the end; `taken`: the deck yokai it held in the game.
fn counts(state: &Bitoku, seat: u8, taken: u32) -> [u32; 12] {
    let p = state.player(usize::from(seat));
    [
        state.count(seat, Count::BuildingsBuilt),
        state.count(seat, Count::Crystals),
        taken,
        state.count(seat, Count::YokaiRetired),
        p.kodama.iter().map(|&k| u32::from(k)).sum(),
        state.tracks_led(seat),
        state.awakening(seat).lake.max(0) as u32,
        state.count(seat, Count::Visions),
        state.visions_met(seat),
        state.count(seat, Count::BitokuCards),
        state.count(seat, Count::Dragonflies),
        state.count(seat, Count::Mitama),
    ]
}

/// The kinds of things counted.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    Yokai,
    Bitoku,
    Vision,
    Building,
    Crystal,
    Mitama,
    Dragonfly,
    Iwakura,
}

const KINDS: [Kind; 8] = [
    Kind::Yokai,
    Kind::Bitoku,
    Kind::Vision,
    Kind::Building,
    Kind::Crystal,
    Kind::Mitama,
    Kind::Dragonfly,
    Kind::Iwakura,
];

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Yokai => "yokai",
            Kind::Bitoku => "Bitoku card",
            Kind::Vision => "vision",
            Kind::Building => "building",
            Kind::Crystal => "crystal",
            Kind::Mitama => "mitama",
            Kind::Dragonfly => "dragonfly",
            Kind::Iwakura => "Iwakura rock",
        }
    }

    fn count(self) -> usize {
        let c = components().expect("the component set loads");
        match self {
            Kind::Yokai => c.cards.yokai.len(),
            Kind::Bitoku => c.cards.bitoku.len(),
            Kind::Vision => c.cards.vision.len(),
            Kind::Building => c.tiles.building.len(),
            Kind::Crystal => c.tiles.crystal.len(),
            Kind::Mitama => c.tiles.mitama.len(),
            Kind::Dragonfly => c.tiles.dragonfly.len(),
            Kind::Iwakura => c.tiles.iwakura.len(),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A short name for a card or tile: its data file's words.
fn label(kind: Kind, id: usize) -> String {
    let c = components().expect("the component set loads");
    let json = |v: &dyn erased::Json| v.json();
    match kind {
        Kind::Yokai => c.cards.yokai.get(id).map_or(String::new(), |y| {
            format!(
                "{} {}{} (virtue {}): {}",
                y.name_en,
                y.name_ja,
                if y.start { ", starting" } else { "" },
                y.virtue,
                json(&y.effect)
            )
        }),
        Kind::Bitoku => c.cards.bitoku.get(id).map_or(String::new(), |b| {
            let ja = c
                .cards
                .bitoku_kind
                .iter()
                .find(|k| k.id == b.kind)
                .map_or("", |k| k.name_ja.as_str());
            format!("#{id} {ja} {}: {}", b.kind, json(&b.effect))
        }),
        Kind::Vision => c.cards.vision.get(id).map_or(String::new(), |v| {
            format!(
                "#{id} {:?} ≥ {}: +{} / −{}",
                v.count, v.need, v.gain, v.loss
            )
        }),
        Kind::Building => c.tiles.building.get(id).map_or(String::new(), |b| {
            format!(
                "#{id} {:?} {}, cost {}: {} (bonus {})",
                b.kind,
                b.value,
                json(&b.cost),
                json(&b.action),
                json(&b.bonus)
            )
        }),
        Kind::Crystal => c.tiles.crystal.get(id).map_or(String::new(), |x| {
            format!(
                "#{id} {:?}, cost {}, {} pts: {}",
                x.colour,
                json(&x.cost),
                x.points,
                json(&x.effect)
            )
        }),
        Kind::Mitama => c.tiles.mitama.get(id).map_or(String::new(), |m| {
            format!("#{id} {:?}: {}", m.kind, json(&m.effect))
        }),
        Kind::Dragonfly => c
            .tiles
            .dragonfly
            .get(id)
            .map_or(String::new(), |d| format!("#{id}: {}", json(&d.effect))),
        Kind::Iwakura => c
            .tiles
            .iwakura
            .get(id)
            .map_or(String::new(), |r| format!("#{id} {:?}", r.symbol)),
    }
}

mod erased {
    /// The data's words, as compact JSON without quotes.
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self)
                .unwrap_or_default()
                .replace('"', "")
        }
    }
}

/// One seat's game: its strategy, its points, its share of first place, what it held
/// and played (a bit per card or tile, by kind).
#[derive(Clone, Debug, Default)]
struct SeatGame {
    strategy: usize,
    score: i64,
    win: f64,
    held: [u64; 8],
    played: [u64; 8],
    /// The points: during play, then the Awakening's B–H.
    parts: [i32; 8],
    /// What the seat had at the end ([`COUNTS`]).
    counts: [u32; 12],
    /// Held when the game began (dealt at random: a vision, a dragonfly, a rock).
    dealt: [u64; 8],
}

fn set(bits: &mut [u64; 8], kind: Kind, id: u8) {
    if let Some(b) = bits.get_mut(kind.index()) {
        *b |= 1u64 << (id & 63);
    }
}

/// What every seat holds now.
fn note_held(g: &Bitoku, seats: &mut [SeatGame]) {
    for (s, sg) in seats.iter_mut().enumerate() {
        let p = g.player(s);
        for &y in p
            .hand
            .iter()
            .chain(p.deck.iter())
            .chain(p.discard.iter())
            .chain(p.retired.iter())
            .chain(p.slots.iter().flatten())
        {
            set(&mut sg.held, Kind::Yokai, y);
        }
        for &b in p.bitoku.iter() {
            set(&mut sg.held, Kind::Bitoku, b);
            set(&mut sg.played, Kind::Bitoku, b);
        }
        for &v in p.visions.iter() {
            set(&mut sg.held, Kind::Vision, v);
            set(&mut sg.played, Kind::Vision, v);
        }
        for &x in p.crystals.iter().flatten() {
            set(&mut sg.held, Kind::Crystal, x);
            set(&mut sg.played, Kind::Crystal, x);
        }
        for &m in p.mitama.iter() {
            set(&mut sg.held, Kind::Mitama, m);
        }
        for &d in p.dragonflies.iter() {
            set(&mut sg.held, Kind::Dragonfly, d);
        }
        set(&mut sg.held, Kind::Iwakura, p.rock);
    }
}

/// What `action` plays (before it is applied).
fn note_played(g: &Bitoku, seat: usize, action: &Action, sg: &mut SeatGame) {
    let p = g.player(seat);
    match *action {
        Action::Play { yokai, .. } => set(&mut sg.played, Kind::Yokai, yokai),
        Action::Mitama { index } => {
            if let Some(&m) = p.mitama.get(usize::from(index)) {
                set(&mut sg.played, Kind::Mitama, m);
            }
        }
        Action::Dragonfly { index } => {
            if let Some(&d) = p.dragonflies.get(usize::from(index)) {
                set(&mut sg.played, Kind::Dragonfly, d);
            }
        }
        _ => {}
    }
}

/// One game's seats, or why it could not be played.
type GameResult = Result<Vec<SeatGame>, String>;

/// Which cards a flag list holds.
type Flag = fn(&CardRow) -> bool;

fn play_one(g: usize, seed: u64) -> Result<Vec<SeatGame>, String> {
    // As `takuge_engine::arena::play` seats and seeds game `g`.
    let game_seed =
        GameRng::from_seed(seed ^ (g as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)).next_u64();
    let k = STRATEGIES.len();
    let shift = g / k;
    let lineup: Vec<usize> = (0..PLAYERS).map(|s| (g + s + shift) % k).collect();
    let catalog = bots();
    let mut players: Vec<Box<dyn Bot<Bitoku>>> = lineup
        .iter()
        .map(|&i| {
            catalog
                .iter()
                .find(|(n, _)| Some(n) == STRATEGIES.get(i))
                .map(|(_, make)| make())
        })
        .collect::<Option<_>>()
        .ok_or("a strategy bot is missing")?;
    let mut state =
        Bitoku::new(&Options::default(), PLAYERS, game_seed).map_err(|e| e.to_string())?;
    let mut rng = GameRng::from_seed(game_seed ^ 0xa7e4a);
    let mut seats: Vec<SeatGame> = lineup
        .iter()
        .map(|&strategy| SeatGame {
            strategy,
            ..SeatGame::default()
        })
        .collect();
    note_held(&state, &mut seats);
    for sg in seats.iter_mut() {
        sg.dealt = sg.held;
        // The starting yokai are everyone's: not a deal.
        if let Some(y) = sg.dealt.get_mut(Kind::Yokai.index()) {
            *y = 0;
        }
    }
    let mut steps = 0usize;
    while let Some(seat) = state.to_move().first_seat() {
        let bot = players
            .get_mut(seat.index())
            .ok_or("a seat without a bot")?;
        let action = bot_move(bot.as_mut(), &state, seat, &mut rng)
            .ok_or_else(|| format!("{} gave no move", bot.name()))?;
        let seen: Vec<Seen<Action>> = Seat::all(PLAYERS)
            .map(|s| Seen::of(&state, s, seat, &action))
            .collect();
        if let Some(sg) = seats.get_mut(seat.index()) {
            note_played(&state, seat.index(), &action, sg);
        }
        state
            .apply(seat, &action)
            .map_err(|e| format!("illegal move: {e}"))?;
        for (bot, seen) in players.iter_mut().zip(&seen) {
            bot.seen(seen);
        }
        note_held(&state, &mut seats);
        steps += 1;
        if steps > 1_000_000 {
            return Err("a game did not end".into());
        }
    }
    let outcome = state.outcome().ok_or("no outcome")?;
    let firsts = outcome.ranks.iter().filter(|&&r| r == 1).count().max(1) as f64;
    let view = state.view(Viewer::Spectator);
    for region in &view.settlements {
        for (owner, tile) in region.iter().flatten() {
            if let Some(sg) = owner.and_then(|o| seats.get_mut(usize::from(o))) {
                set(&mut sg.held, Kind::Building, *tile);
                set(&mut sg.played, Kind::Building, *tile);
            }
        }
    }
    for (s, sg) in seats.iter_mut().enumerate() {
        sg.score = outcome.scores.get(s).copied().unwrap_or(0);
        sg.win = if outcome.ranks.get(s) == Some(&1) {
            1.0 / firsts
        } else {
            0.0
        };
        let a = state.awakening(s as u8);
        let play = state.player(s).virtue - a.total();
        sg.parts = [
            play,
            a.first,
            a.bitoku,
            a.lake,
            a.iwakura,
            a.guardians,
            a.visions,
            a.destiny,
        ];
        let taken = (sg.held[Kind::Yokai.index()] & kind_mask(Kind::Yokai)).count_ones();
        sg.counts = counts(&state, s as u8, taken);
        let rock = state.player(s).rock;
        set(&mut sg.played, Kind::Iwakura, rock);
    }
    Ok(seats)
}

/// Mean and the half-width of its 95% interval.
fn mean_half(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, f64::INFINITY);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::INFINITY);
    }
    let var = xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0);
    (mean, 1.96 * (var / n).sqrt())
}

fn quantile(sorted: &[i64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let pos = q * (sorted.len() - 1) as f64;
    let lo = pos.floor() as usize;
    let hi = pos.ceil() as usize;
    let a = sorted.get(lo).copied().unwrap_or(0) as f64;
    let b = sorted.get(hi).copied().unwrap_or(0) as f64;
    a + (b - a) * (pos - lo as f64)
}

struct Args {
    games: usize,
    seed: u64,
    threads: usize,
    md: Option<String>,
    svg: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        games: 100,
        seed: 15,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        md: None,
        svg: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => a.games = value()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seed" => a.seed = value()?.parse().map_err(|e| format!("--seed: {e}"))?,
            "--threads" => a.threads = value()?.parse().map_err(|e| format!("--threads: {e}"))?,
            "--md" => a.md = Some(value()?),
            "--svg" => a.svg = Some(value()?),
            _ => {
                return Err(format!(
                    "unknown argument {flag}; use --games N --seed S [--threads T] [--md FILE] [--svg FILE]"
                ))
            }
        }
    }
    Ok(a)
}

fn main() -> Result<(), String> {
    let a = args()?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let slots: Vec<std::sync::Mutex<Option<GameResult>>> =
        (0..a.games).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..a.threads.clamp(1, a.games.max(1)) {
            scope.spawn(|| loop {
                let g = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                if g >= a.games {
                    break;
                }
                let r = play_one(g, a.seed);
                if let Some(Ok(mut slot)) = slots.get(g).map(|s| s.lock()) {
                    *slot = Some(r);
                }
            });
        }
    });
    let mut games = Vec::with_capacity(a.games);
    for slot in slots {
        let r = slot
            .into_inner()
            .map_err(|_| "a game thread panicked".to_string())?
            .ok_or("a game was not played")?;
        games.push(r?);
    }
    let md = report(&a, &games);
    match &a.md {
        Some(path) => std::fs::write(path, &md).map_err(|e| format!("{path}: {e}"))?,
        None => print!("{md}"),
    }
    if let Some(path) = &a.svg {
        std::fs::write(path, svg(&games)).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

/// Per strategy: its win rate over all its seat-games.
fn base_rates(games: &[Vec<SeatGame>]) -> Vec<f64> {
    (0..STRATEGIES.len())
        .map(|i| {
            let xs: Vec<f64> = games
                .iter()
                .flatten()
                .filter(|s| s.strategy == i)
                .map(|s| s.win)
                .collect();
            mean_half(&xs).0
        })
        .collect()
}

struct CardRow {
    kind: Kind,
    id: usize,
    played_games: usize,
    held: usize,
    win: f64,
    delta: f64,
    half: f64,
    /// Δ against the seat-games that held as many things of its kind.
    vs_kind: f64,
    vs_kind_half: f64,
    /// Δ over the seat-games that were dealt it (at random: causal).
    dealt: usize,
    dealt_delta: f64,
    dealt_half: f64,
}

/// The things of a kind that count as taken (the starting yokai are everyone's).
fn kind_mask(kind: Kind) -> u64 {
    match kind {
        Kind::Yokai => components()
            .map(|c| {
                c.cards
                    .yokai
                    .iter()
                    .enumerate()
                    .filter(|(_, y)| !y.start)
                    .fold(0u64, |m, (i, _)| m | 1u64 << (i & 63))
            })
            .unwrap_or(u64::MAX),
        _ => u64::MAX,
    }
}

fn card_rows(games: &[Vec<SeatGame>]) -> Vec<CardRow> {
    let base = base_rates(games);
    let excess = |s: &SeatGame| s.win - base.get(s.strategy).copied().unwrap_or(0.25);
    let mut rows = Vec::new();
    for kind in KINDS {
        let mask = kind_mask(kind);
        let of_kind = |bits: &[u64; 8]| bits.get(kind.index()).copied().unwrap_or(0) & mask;
        // The mean excess win of the seat-games holding n things of the kind.
        let by_count: Vec<f64> = (0..=64)
            .map(|n| {
                let xs: Vec<f64> = games
                    .iter()
                    .flatten()
                    .filter(|s| of_kind(&s.held).count_ones() as usize == n)
                    .map(excess)
                    .collect();
                mean_half(&xs).0
            })
            .collect();
        for id in 0..kind.count() {
            let bit = 1u64 << (id & 63);
            let has = |bits: &[u64; 8]| bits.get(kind.index()).is_some_and(|b| b & bit != 0);
            let played_games = games
                .iter()
                .filter(|g| g.iter().any(|s| has(&s.played)))
                .count();
            let holders: Vec<&SeatGame> = games.iter().flatten().filter(|s| has(&s.held)).collect();
            let wins: Vec<f64> = holders.iter().map(|s| s.win).collect();
            let deltas: Vec<f64> = holders.iter().map(|s| excess(s)).collect();
            let (delta, half) = mean_half(&deltas);
            // Against the seat-games that held as many things of the kind.
            let resid: Vec<f64> = holders
                .iter()
                .map(|s| {
                    let n = of_kind(&s.held).count_ones() as usize;
                    excess(s) - by_count.get(n).copied().unwrap_or(0.0)
                })
                .collect();
            let (vs_kind, vs_kind_half) = mean_half(&resid);
            let dealt: Vec<f64> = games
                .iter()
                .flatten()
                .filter(|s| has(&s.dealt))
                .map(excess)
                .collect();
            let (dealt_delta, dealt_half) = mean_half(&dealt);
            rows.push(CardRow {
                kind,
                id,
                played_games,
                held: holders.len(),
                win: mean_half(&wins).0,
                delta,
                half,
                vs_kind,
                vs_kind_half,
                dealt: dealt.len(),
                dealt_delta,
                dealt_half,
            });
        }
    }
    rows
}

fn pts(x: f64) -> String {
    format!("{:+.1}", 100.0 * x)
}

fn interval(d: f64, half: f64) -> String {
    if half.is_finite() {
        format!("{} … {}", pts(d - half), pts(d + half))
    } else {
        "—".into()
    }
}

/// Fewer seat-games than this are too few to judge: no flag.
const FEW: usize = 30;

/// Whether the interval lies wholly beyond ±10 points.
fn beyond(d: f64, half: f64) -> bool {
    d - half > 0.10 || d + half < -0.10
}

fn report(a: &Args, games: &[Vec<SeatGame>]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<!-- Written by `cargo run --release -p takuge-bitoku --example balance -- --games {} --seed {}`; do not edit by hand. -->\n",
        a.games, a.seed
    );
    let _ = writeln!(
        out,
        "# Bitoku balance figures: {} seat-rotated 4-player games, seed {}\n",
        a.games, a.seed
    );
    let _ = writeln!(out, "## Strategies\n");
    let _ = writeln!(
        out,
        "| bot | seat-games | first place (95 % interval) | mean points | min | 25 % | median | 75 % | max |"
    );
    let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|");
    for (i, name) in STRATEGIES.iter().enumerate() {
        let mine: Vec<&SeatGame> = games.iter().flatten().filter(|s| s.strategy == i).collect();
        let wins: Vec<f64> = mine.iter().map(|s| s.win).collect();
        let (w, h) = mean_half(&wins);
        let mut scores: Vec<i64> = mine.iter().map(|s| s.score).collect();
        scores.sort_unstable();
        let mean = scores.iter().sum::<i64>() as f64 / scores.len().max(1) as f64;
        let _ = writeln!(
            out,
            "| {name} | {} | {:.1} % ({:.1}–{:.1}) | {mean:.1} | {} | {:.0} | {:.0} | {:.0} | {} |",
            mine.len(),
            100.0 * w,
            100.0 * (w - h).max(0.0),
            100.0 * (w + h).min(1.0),
            scores.first().copied().unwrap_or(0),
            quantile(&scores, 0.25),
            quantile(&scores, 0.5),
            quantile(&scores, 0.75),
            scores.last().copied().unwrap_or(0),
        );
    }
    let mean_of = |i: usize, f: &dyn Fn(&SeatGame) -> f64| {
        let xs: Vec<f64> = games
            .iter()
            .flatten()
            .filter(|s| s.strategy == i)
            .map(f)
            .collect();
        mean_half(&xs).0
    };
    let _ = writeln!(
        out,
        "\n### Where the points come from (mean per seat-game)\n\n| bot | {} |\n|---|{}",
        PARTS.join(" | "),
        "---|".repeat(PARTS.len())
    );
    for (i, name) in STRATEGIES.iter().enumerate() {
        let cells: Vec<String> = (0..PARTS.len())
            .map(|k| {
                format!(
                    "{:.1}",
                    mean_of(i, &|s| f64::from(s.parts.get(k).copied().unwrap_or(0)))
                )
            })
            .collect();
        let _ = writeln!(out, "| {name} | {} |", cells.join(" | "));
    }
    let _ = writeln!(
        out,
        "\n### What a seat has at the end (mean per seat-game)\n\n| bot | {} |\n|---|{}",
        COUNTS.join(" | "),
        "---|".repeat(COUNTS.len())
    );
    for (i, name) in STRATEGIES.iter().enumerate() {
        let cells: Vec<String> = (0..COUNTS.len())
            .map(|k| {
                format!(
                    "{:.2}",
                    mean_of(i, &|s| f64::from(s.counts.get(k).copied().unwrap_or(0)))
                )
            })
            .collect();
        let _ = writeln!(out, "| {name} | {} |", cells.join(" | "));
    }
    let rows = card_rows(games);
    let _ = writeln!(
        out,
        "\n## Cards and tiles\n\n\
         - **Δ**: the holders' win rate minus what their strategies win overall, in points, with its 95 % interval \
         (the issue's measure; for anything taken during play it also measures *taking things at all*).\n\
         - **vs same count**: the holders' win rate against the seat-games that held as many things of the kind \
         (deck yokai, Bitoku cards, visions…) — what this card does beyond *how many* of its kind its holder took.\n\
         - **dealt**: the seat-games that were dealt it at setup, at random (a vision, a dragonfly, a rock), and their Δ: \
         the one causal figure.\n\
         - **Flagged**: an interval lying wholly beyond ±10 points, over at least {FEW} seat-games (fewer are too few \
         to judge: a handful of games gives a normal interval that means nothing).\n"
    );
    let _ = writeln!(
        out,
        "### Win rate by how many of a kind a seat held (seat-games; first-place share)\n\n\
         | kind | 0 | 1 | 2 | 3 | 4 | 5+ |\n|---|---|---|---|---|---|---|"
    );
    for kind in KINDS {
        let mask = kind_mask(kind);
        let cells: Vec<String> = (0..6u32)
            .map(|n| {
                let xs: Vec<f64> = games
                    .iter()
                    .flatten()
                    .filter(|s| {
                        let c =
                            (s.held.get(kind.index()).copied().unwrap_or(0) & mask).count_ones();
                        if n == 5 {
                            c >= 5
                        } else {
                            c == n
                        }
                    })
                    .map(|s| s.win)
                    .collect();
                if xs.is_empty() {
                    "—".into()
                } else {
                    format!("{:.0} % ({})", 100.0 * mean_half(&xs).0, xs.len())
                }
            })
            .collect();
        let what = if kind == Kind::Yokai {
            "deck yokai"
        } else {
            kind.name()
        };
        let _ = writeln!(out, "| {what} | {} |", cells.join(" | "));
    }
    let _ = writeln!(out);
    let never: Vec<&CardRow> = rows.iter().filter(|r| r.played_games == 0).collect();
    let _ = writeln!(out, "### Never played\n");
    if never.is_empty() {
        let _ = writeln!(out, "None: every card and tile was played in some game.\n");
    } else {
        for r in &never {
            let _ = writeln!(out, "- {}: {}", r.kind.name(), label(r.kind, r.id));
        }
        let _ = writeln!(out);
    }
    let flags: [(&str, Flag); 3] = [
        ("dealt at random: Δ", |r| {
            r.dealt >= FEW && beyond(r.dealt_delta, r.dealt_half)
        }),
        ("vs same count", |r| {
            r.held >= FEW && beyond(r.vs_kind, r.vs_kind_half)
        }),
        ("held: Δ", |r| r.held >= FEW && beyond(r.delta, r.half)),
    ];
    for (what, flagged) in flags {
        let hits: Vec<&CardRow> = rows.iter().filter(|r| flagged(r)).collect();
        let _ = writeln!(out, "### Flagged, {what} ({} cards)\n", hits.len());
        if hits.is_empty() {
            let _ = writeln!(out, "None.\n");
            continue;
        }
        table_head(&mut out, true);
        for r in hits {
            row_line(&mut out, r, true);
        }
        let _ = writeln!(out);
    }
    for kind in KINDS {
        let _ = writeln!(out, "### {}\n", kind.name());
        table_head(&mut out, false);
        for r in rows.iter().filter(|r| r.kind == kind) {
            row_line(&mut out, r, false);
        }
        let _ = writeln!(out);
    }
    out
}

fn table_head(out: &mut String, kind: bool) {
    let _ = writeln!(
        out,
        "| {}card | played in games | held (seat-games) | holders' win rate | Δ (95 % interval) | vs same count (95 % interval) | dealt | Δ dealt (95 % interval) |\n|{}---|---|---|---|---|---|---|---|",
        if kind { "kind | " } else { "" },
        if kind { "---|" } else { "" }
    );
}

fn row_line(out: &mut String, r: &CardRow, kind: bool) {
    let dealt = if r.dealt == 0 {
        "— | —".to_string()
    } else {
        format!(
            "{} | {} ({})",
            r.dealt,
            pts(r.dealt_delta),
            interval(r.dealt_delta, r.dealt_half)
        )
    };
    let _ = writeln!(
        out,
        "| {}{} | {} | {} | {:.1} % | {} ({}) | {} ({}) | {dealt} |",
        if kind {
            format!("{} | ", r.kind.name())
        } else {
            String::new()
        },
        label(r.kind, r.id),
        r.played_games,
        r.held,
        100.0 * r.win,
        pts(r.delta),
        interval(r.delta, r.half),
        pts(r.vs_kind),
        interval(r.vs_kind, r.vs_kind_half),
    );
}

/// Histograms of the final points per strategy (bins of 5), one row each, with the
/// quartiles drawn as a box under each and the mean as a dot.
fn svg(games: &[Vec<SeatGame>]) -> String {
    let all: Vec<i64> = games.iter().flatten().map(|s| s.score).collect();
    let lo = (all.iter().copied().min().unwrap_or(0).div_euclid(5)) * 5;
    let hi = (all.iter().copied().max().unwrap_or(0).div_euclid(5) + 1) * 5;
    let bins = ((hi - lo) / 5).max(1) as usize;
    let (left, width, row_h, top) = (110.0, 600.0, 110.0, 50.0);
    let x = |v: f64| left + width * (v - lo as f64) / (hi - lo) as f64;
    let colours = ["#b5452c", "#4a7a3a", "#7d4bb0", "#2f6f8f", "#c08a1e"];
    let hists: Vec<Vec<usize>> = (0..STRATEGIES.len())
        .map(|i| {
            let mut h = vec![0usize; bins];
            for s in games.iter().flatten().filter(|s| s.strategy == i) {
                let b = ((s.score - lo) / 5) as usize;
                if let Some(c) = h.get_mut(b.min(bins - 1)) {
                    *c += 1;
                }
            }
            h
        })
        .collect();
    let peak = hists.iter().flatten().copied().max().unwrap_or(1).max(1) as f64;
    let height = top + row_h * STRATEGIES.len() as f64 + 40.0;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{height}" viewBox="0 0 {w} {height}" font-family="sans-serif" font-size="12">"#,
        w = left + width + 30.0
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#fff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{0}" y="20" font-size="14" text-anchor="middle">Bitoku: final virtue points per strategy, {1} seat-rotated 4-player games</text><text x="{0}" y="36" text-anchor="middle" fill="#555">bars: seat-games in bins of 5 points; below: min–max, box 25–75 %, bar median, dot mean</text>"##,
        (left + width + 30.0) / 2.0,
        games.len()
    );
    for (i, name) in STRATEGIES.iter().enumerate() {
        let base = top + row_h * (i as f64 + 1.0) - 30.0;
        let colour = colours.get(i).copied().unwrap_or("#555");
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{name}</text>"#,
            left - 10.0,
            base - 20.0
        );
        let _ = writeln!(
            s,
            r##"<line x1="{left}" y1="{base}" x2="{}" y2="{base}" stroke="#999"/>"##,
            left + width
        );
        if let Some(h) = hists.get(i) {
            for (b, &c) in h.iter().enumerate() {
                if c == 0 {
                    continue;
                }
                let bh = (row_h - 45.0) * c as f64 / peak;
                let x0 = x((lo + 5 * b as i64) as f64);
                let _ = writeln!(
                    s,
                    r#"<rect x="{x0:.1}" y="{:.1}" width="{:.1}" height="{bh:.1}" fill="{colour}" fill-opacity="0.7"><title>{name}: {}–{} points, {c} seat-games</title></rect>"#,
                    base - bh,
                    width * 5.0 / (hi - lo) as f64 - 1.0,
                    lo + 5 * b as i64,
                    lo + 5 * b as i64 + 4
                );
            }
        }
        let mut sc: Vec<i64> = games
            .iter()
            .flatten()
            .filter(|s| s.strategy == i)
            .map(|s| s.score)
            .collect();
        sc.sort_unstable();
        let (q1, q2, q3) = (quantile(&sc, 0.25), quantile(&sc, 0.5), quantile(&sc, 0.75));
        let (mn, mx) = (
            sc.first().copied().unwrap_or(0) as f64,
            sc.last().copied().unwrap_or(0) as f64,
        );
        let mean = sc.iter().sum::<i64>() as f64 / sc.len().max(1) as f64;
        let by = base + 10.0;
        let _ = writeln!(
            s,
            r#"<line x1="{:.1}" y1="{by}" x2="{:.1}" y2="{by}" stroke="{colour}"/>"#,
            x(mn),
            x(mx)
        );
        let _ = writeln!(
            s,
            r##"<rect x="{:.1}" y="{}" width="{:.1}" height="10" fill="#fff" stroke="{colour}"/>"##,
            x(q1),
            by - 5.0,
            x(q3) - x(q1)
        );
        let _ = writeln!(
            s,
            r#"<line x1="{0:.1}" y1="{1}" x2="{0:.1}" y2="{2}" stroke="{colour}" stroke-width="2"/>"#,
            x(q2),
            by - 5.0,
            by + 5.0
        );
        let _ = writeln!(
            s,
            r#"<circle cx="{:.1}" cy="{by}" r="2.5" fill="{colour}"><title>{name}: mean {mean:.1}, median {q2:.0}, quartiles {q1:.0}–{q3:.0}, range {mn:.0}–{mx:.0}</title></circle>"#,
            x(mean)
        );
    }
    let axis = top + row_h * STRATEGIES.len() as f64 - 5.0;
    let _ = writeln!(
        s,
        r##"<line x1="{left}" y1="{axis}" x2="{}" y2="{axis}" stroke="#333"/>"##,
        left + width
    );
    let mut v = lo;
    while v <= hi {
        if v % 10 == 0 {
            let _ = writeln!(
                s,
                r##"<line x1="{0:.1}" y1="{axis}" x2="{0:.1}" y2="{1}" stroke="#333"/><text x="{0:.1}" y="{2}" text-anchor="middle">{v}</text>"##,
                x(v as f64),
                axis + 5.0,
                axis + 18.0
            );
        }
        v += 5;
    }
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" text-anchor="middle">virtue points (美徳点)</text>"#,
        left + width / 2.0,
        axis + 33.0
    );
    let _ = writeln!(s, "</svg>");
    s
}
