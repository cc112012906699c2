//! The components the seed's text does not give, from `data/components.toml`: cheque
//! values, thief numbers, the cage, the track and its castles, the art cards. Parsed once,
//! validated at parse (setup refuses to start on a broken file) and by the tests below.

use crate::cards::{ActionCard, ArtCard, Colour, Kind, ACTION_CARDS, MAX_ART, PLAYERS};
use crate::legal::runs_of_shape;
use crate::types::Run;
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::LazyLock;
use takuge_engine::bits::byte_counts;
use takuge_engine::FixedList;

/// The data file, compiled in.
pub const COMPONENTS_TOML: &str = include_str!("../data/components.toml");

/// Most series of art (letters A, B, ...), and most cards in a series: each series owns
/// one byte of the `u64` art sets.
pub const MAX_SERIES: usize = 8;
pub const MAX_PER_SERIES: usize = 8;

/// The parsed and checked components.
#[derive(Debug, PartialEq, Eq)]
pub struct Components {
    /// Cheque values per colour, in thousands.
    pub money: [[u8; 4]; PLAYERS],
    /// Thief numbers per colour (the higher, the stronger).
    pub thieves: [[u8; 2]; PLAYERS],
    /// Cells of the cage (檻).
    pub cage_cells: u8,
    /// The goal space (ゴール地点); pawns start on 0.
    pub goal: u8,
    /// How far the final exhibit's first and second move.
    pub final_exhibit: [u8; 2],
    /// After this many turns the final exhibit is held (a takuge addition; see the docs).
    pub max_turns: u16,
    /// The castles in track order: (first space, last space, [first place, second place]).
    pub castles: Vec<Castle>,
    /// Every art card, as a set.
    pub all_art: u64,
    /// Per art card id: its series (0 = A), year, and age rank (0 = the oldest card).
    pub art_series: [u8; MAX_ART],
    pub art_year: [u16; MAX_ART],
    pub age_rank: [u8; MAX_ART],
    /// The letter of each series.
    pub series_letters: Vec<char>,
    /// Per series, the art cards in it (0 past the last series).
    pub series_mask: [u64; MAX_SERIES],
    /// Per action card: the cheque value or the thief number (0 for the others).
    pub card_value: [u8; ACTION_CARDS],
    /// Per space `0..=goal`: the numbers of the castle beside it.
    castle_at: Vec<[u8; 2]>,
    /// Per hand shape (see [`Components::runs_of`]): where its runs start in
    /// `shape_runs` (and the next shape's start, where they end).
    shape_run_index: Vec<u32>,
    /// The runs of every hand shape, one after the other, in the order `from` then
    /// `to` ascending.
    shape_runs: Vec<Run>,
    /// Every art card, lowest id first: the unshuffled deck of every setup, listed once.
    deck: FixedList<ArtCard, MAX_ART>,
}

/// A castle beside the track (views list them for drawing the track).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Castle {
    pub first_space: u8,
    pub last_space: u8,
    /// How far an exhibit's first and second place move.
    pub numbers: [u8; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    money: PerColour<Vec<u8>>,
    thieves: PerColour<Vec<u8>>,
    cage: RawCage,
    track: RawTrack,
    art: Vec<RawSeries>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PerColour<T> {
    red: T,
    blue: T,
    green: T,
    purple: T,
    white: T,
}

impl<T> PerColour<T> {
    fn by_colour(&self) -> [&T; PLAYERS] {
        [
            &self.red,
            &self.blue,
            &self.green,
            &self.purple,
            &self.white,
        ]
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCage {
    cells: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTrack {
    goal: u8,
    final_exhibit: [u8; 2],
    max_turns: u16,
    castles: Vec<RawCastle>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCastle {
    spaces: [u8; 2],
    numbers: [u8; 2],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSeries {
    series: String,
    years: Vec<u16>,
}

static COMPONENTS: LazyLock<Result<Components, String>> =
    LazyLock::new(|| Components::parse(COMPONENTS_TOML));

/// The default components, or why the data file is unusable.
pub fn components() -> Result<&'static Components, &'static str> {
    match &*COMPONENTS {
        Ok(c) => Ok(c),
        Err(e) => Err(e.as_str()),
    }
}

impl Components {
    /// Parses and validates a components file.
    pub fn parse(text: &str) -> Result<Components, String> {
        let raw: Raw = toml::from_str(text).map_err(|e| format!("components.toml: {e}"))?;

        let mut money = [[0u8; 4]; PLAYERS];
        let mut seen = BTreeSet::new();
        for (c, values) in raw.money.by_colour().into_iter().enumerate() {
            let colour = Colour::from_index(c);
            let values: [u8; 4] = values
                .as_slice()
                .try_into()
                .map_err(|_| format!("{colour} must have exactly 4 cheques"))?;
            for v in values {
                if v == 0 || !seen.insert(v) {
                    return Err(format!(
                        "cheque {v} of {colour}: values must be positive and all different"
                    ));
                }
            }
            money[c] = values;
        }
        let mut thieves = [[0u8; 2]; PLAYERS];
        let mut seen = BTreeSet::new();
        for (c, numbers) in raw.thieves.by_colour().into_iter().enumerate() {
            let colour = Colour::from_index(c);
            let numbers: [u8; 2] = numbers
                .as_slice()
                .try_into()
                .map_err(|_| format!("{colour} must have exactly 2 thieves"))?;
            for n in numbers {
                if n == 0 || !seen.insert(n) {
                    return Err(format!(
                        "thief {n} of {colour}: numbers must be positive and all different"
                    ));
                }
            }
            thieves[c] = numbers;
        }
        if !(1..=10).contains(&raw.cage.cells) {
            return Err("the cage must have 1 to 10 cells".into());
        }
        let track = raw.track;
        if !(1..=200).contains(&track.goal) {
            return Err("the goal must be on space 1 to 200".into());
        }
        if track.max_turns == 0 || track.max_turns > 1000 {
            return Err("max_turns must be 1 to 1000".into());
        }
        let mut castles = Vec::new();
        let mut next = 0u8;
        for c in &track.castles {
            let [from, to] = c.spaces;
            if from != next || to < from {
                return Err(format!(
                    "castle at spaces {from}-{to}: castles must cover the track from space 0 without gaps"
                ));
            }
            if c.numbers[0] < c.numbers[1] {
                return Err(format!(
                    "castle at spaces {from}-{to}: first place must move at least as far as second"
                ));
            }
            castles.push(Castle {
                first_space: from,
                last_space: to,
                numbers: c.numbers,
            });
            next = to.saturating_add(1);
        }
        if castles.is_empty() || next < track.goal {
            return Err("castles must cover every space before the goal".into());
        }
        let castle_at = (0..=track.goal)
            .map(|space| {
                castles
                    .iter()
                    .find(|c| (c.first_space..=c.last_space).contains(&space))
                    .or(castles.last())
                    .map_or([0, 0], |c| c.numbers)
            })
            .collect();

        if raw.art.is_empty() || raw.art.len() > MAX_SERIES {
            return Err(format!("1 to {MAX_SERIES} series of art"));
        }
        let mut series_letters = Vec::new();
        let mut all_art = 0u64;
        let mut art_series = [0u8; MAX_ART];
        let mut art_year = [0u16; MAX_ART];
        let mut series_mask = [0u64; MAX_SERIES];
        for (s, series) in raw.art.iter().enumerate() {
            let expected = char::from(b'A' + s as u8);
            if series.series != expected.to_string() {
                return Err(format!(
                    "series {:?}: series must be lettered A, B, C, ... in order",
                    series.series
                ));
            }
            if series.years.is_empty() || series.years.len() > MAX_PER_SERIES {
                return Err(format!(
                    "series {expected}: 1 to {MAX_PER_SERIES} cards a series"
                ));
            }
            series_letters.push(expected);
            let mut years = series.years.clone();
            years.sort_unstable();
            for (n, &year) in years.iter().enumerate() {
                let id = s * MAX_PER_SERIES + n;
                all_art |= 1 << id;
                art_series[id] = s as u8;
                art_year[id] = year;
                series_mask[s] |= 1 << id;
            }
        }
        let count = all_art.count_ones() as usize;
        let years: BTreeSet<u16> = (0..MAX_ART)
            .filter(|&id| all_art & (1 << id) != 0)
            .map(|id| art_year[id])
            .collect();
        if years.len() != count {
            return Err("every art card needs a different year (ties must break)".into());
        }
        let dealt = 4 * PLAYERS;
        if count < dealt + 2 {
            return Err(format!(
                "{count} art cards: need at least {} (4 a player and two piles)",
                dealt + 2
            ));
        }
        let mut age_rank = [u8::MAX; MAX_ART];
        for id in 0..MAX_ART {
            if all_art & (1 << id) != 0 {
                age_rank[id] = years.iter().position(|&y| y == art_year[id]).unwrap_or(0) as u8;
            }
        }

        let mut card_value = [0u8; ACTION_CARDS];
        for (id, v) in card_value.iter_mut().enumerate() {
            let card = ActionCard(id as u8);
            let c = card.colour().index();
            *v = match card.kind() {
                Kind::Money => money[c][card.slot()],
                Kind::Thief => thieves[c][card.slot() - 4],
                Kind::Detective | Kind::Exhibit => 0,
            };
        }

        let (shape_run_index, shape_runs) = shape_run_table(series_letters.len());
        Ok(Components {
            money,
            thieves,
            cage_cells: raw.cage.cells,
            goal: track.goal,
            final_exhibit: track.final_exhibit,
            max_turns: track.max_turns,
            castles,
            all_art,
            art_series,
            art_year,
            age_rank,
            series_mask,
            card_value,
            castle_at,
            shape_run_index,
            shape_runs,
            series_letters,
            deck: takuge_engine::bits::iter(all_art).map(ArtCard).fold(
                FixedList::new(),
                |mut deck, a| {
                    // At most 64 cards: `all_art` is a 64-bit set.
                    let _ = deck.push(a);
                    deck
                },
            ),
        })
    }

    pub fn art_count(&self) -> usize {
        self.all_art.count_ones() as usize
    }

    /// Every art card, as a set.
    pub fn all_art(&self) -> u64 {
        self.all_art
    }

    /// Every art card, lowest id first (the deck before setup shuffles it).
    pub(crate) fn deck(&self) -> FixedList<ArtCard, MAX_ART> {
        self.deck
    }

    /// The numbers of the castle beside `space` (the last castle past the goal).
    pub fn castle_numbers(&self, space: u8) -> [u8; 2] {
        let i = usize::from(space).min(self.castle_at.len().saturating_sub(1));
        self.castle_at.get(i).copied().unwrap_or([0, 0])
    }

    /// The cheque value (thousands) or thief number of an action card; 0 for the others.
    pub fn value(&self, card: ActionCard) -> u8 {
        self.card_value
            .get(usize::from(card.0))
            .copied()
            .unwrap_or(0)
    }

    pub fn series(&self, art: ArtCard) -> u8 {
        self.art_series
            .get(usize::from(art.0))
            .copied()
            .unwrap_or(0)
    }

    /// 0 for the oldest card of the game.
    pub fn age_rank(&self, art: ArtCard) -> u8 {
        self.age_rank
            .get(usize::from(art.0))
            .copied()
            .unwrap_or(u8::MAX)
    }

    pub fn letter(&self, art: ArtCard) -> char {
        self.series_letters
            .get(usize::from(self.series(art)))
            .copied()
            .unwrap_or('?')
    }

    pub fn year(&self, art: ArtCard) -> u16 {
        self.art_year.get(usize::from(art.0)).copied().unwrap_or(0)
    }

    /// The series present in a set of art cards, one bit per series: whether each byte
    /// of the set is non-zero, gathered into one byte.
    pub fn letters(&self, cards: u64) -> u16 {
        let mut t = cards;
        t |= t >> 4;
        t |= t >> 2;
        t |= t >> 1;
        t &= 0x0101_0101_0101_0101;
        (t.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u16
    }

    /// Every run of `hand` (exhibits of every letter from `from` to `to`, 3 cards or
    /// more: the rule is `legal::runs_of_shape`), `from` then `to` ascending. The runs depend
    /// only on how many cards of each series the hand holds, counted up to 3 (the
    /// hand's shape), so they are looked up: drawing a random exhibit then walks no
    /// letters and counts no runs.
    #[inline]
    pub(crate) fn runs_of(&self, hand: u64) -> &[Run] {
        let counts = byte_counts(hand);
        // Each count capped at 3 (counts are at most 8: 4 or more has bit 2 or 3 set).
        let over = ((counts >> 2) | (counts >> 3)) & 0x0101_0101_0101_0101;
        let capped = (counts | (over * 3)) & 0x0303_0303_0303_0303;
        // The 2-bit counts gathered from one byte each into 16 bits.
        let x = (capped | (capped >> 6)) & 0x000f_000f_000f_000f;
        let x = (x | (x >> 12)) & 0x0000_00ff_0000_00ff;
        let shape = ((x | (x >> 24)) & 0xffff) as usize;
        let (Some(&lo), Some(&hi)) = (
            self.shape_run_index.get(shape),
            self.shape_run_index.get(shape + 1),
        ) else {
            return &[];
        };
        self.shape_runs.get(lo as usize..hi as usize).unwrap_or(&[])
    }

    /// The art cards of series `lo..=hi`.
    pub fn series_range(&self, lo: u32, hi: u32) -> u64 {
        if lo > hi || hi >= MAX_SERIES as u32 {
            return 0;
        }
        let below_hi = u64::MAX >> (8 * (7 - hi));
        let from_lo = u64::MAX << (8 * lo);
        below_hi & from_lo & self.all_art
    }

    /// The series `lo..=hi`, one bit per series.
    pub fn letter_range(lo: u32, hi: u32) -> u16 {
        if lo > hi || lo > 15 {
            return 0;
        }
        let len = (hi.min(15) - lo + 1).min(16);
        ((((1u32 << len) - 1) << lo) & 0xffff) as u16
    }

    /// The art cards of the series in `letters`.
    pub fn cards_of_letters(&self, letters: u16) -> u64 {
        let mut m = 0;
        for (s, &mask) in self.series_mask.iter().enumerate() {
            if letters & (1 << s) != 0 {
                m |= mask;
            }
        }
        m
    }

    /// An exhibit's strength: more cards first, then the oldest card. 0 for no exhibit.
    pub fn strength(&self, exhibit: u64) -> u16 {
        if exhibit == 0 {
            return 0;
        }
        // Within a series ids go from the oldest card, so the oldest card of the exhibit
        // is the lowest card of one of its series: one look per series, not per card.
        let (mut oldest, mut rest) = (u8::MAX, exhibit);
        while rest != 0 {
            let low = rest.trailing_zeros();
            oldest = oldest.min(self.age_rank(ArtCard(low as u8)));
            rest &= !(0xff << (low & !7));
        }
        let count = byte_counts(exhibit).wrapping_mul(0x0101_0101_0101_0101) >> 56;
        count as u16 * 64 + (63u16.saturating_sub(u16::from(oldest)))
    }
}

/// [`Components::runs_of`] for every hand shape of `series` series: the index (one
/// entry per shape, and one past the last) and the runs (`legal::runs_of_shape`).
/// Built once per process.
fn shape_run_table(series: usize) -> (Vec<u32>, Vec<Run>) {
    let n = series.min(MAX_SERIES);
    let shapes = 1usize << (2 * n);
    let mut index = Vec::with_capacity(shapes + 1);
    let mut runs = Vec::new();
    for shape in 0..shapes {
        index.push(runs.len() as u32);
        runs_of_shape(n, |s| (shape >> (2 * s)) & 3, |run| runs.push(run));
    }
    index.push(runs.len() as u32);
    (index, runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_file_parses_and_is_valid() {
        let c = components().expect("components.toml");
        // Published: 4 cheques a player totalling 50,000, no value repeated.
        for row in c.money {
            assert_eq!(row.iter().map(|&v| u32::from(v)).sum::<u32>(), 50);
        }
        // Published: 45 art cards in six series A–F; as many cage cells as players.
        assert_eq!(c.art_count(), 45);
        assert_eq!(c.series_letters, vec!['A', 'B', 'C', 'D', 'E', 'F']);
        assert_eq!(c.cage_cells, 5);
        // A castle covers 2 spaces (3 at corners), first place moves at least as far.
        for castle in &c.castles {
            let width = castle.last_space - castle.first_space + 1;
            assert!((2..=3).contains(&width), "{castle:?}");
            assert!(castle.numbers[0] >= castle.numbers[1] && castle.numbers[1] > 0);
        }
        // Within a series, ids are in age order; age ranks count every card once.
        for s in 0..6 {
            let ids: Vec<u8> = takuge_engine::bits::iter(c.series_mask[s]).collect();
            assert!(ids
                .windows(2)
                .all(|w| c.year(ArtCard(w[0])) < c.year(ArtCard(w[1]))));
            assert!(ids.iter().all(|&a| c.letters(ArtCard(a).bit()) == 1 << s));
        }
        let mut ranks: Vec<u8> = takuge_engine::bits::iter(c.all_art)
            .map(|a| c.age_rank(ArtCard(a)))
            .collect();
        ranks.sort_unstable();
        assert_eq!(ranks, (0..45).collect::<Vec<u8>>());
        assert_eq!(c.series_range(1, 2), c.series_mask[1] | c.series_mask[2]);
        assert_eq!(c.series_range(0, 7), c.all_art);
        assert_eq!(c.castle_numbers(0), [5, 3]);
        assert_eq!(c.castle_numbers(200), c.castle_numbers(c.goal));
    }

    #[test]
    fn broken_files_are_refused_with_a_reason() {
        let dup = COMPONENTS_TOML.replace("blue = [4, 11, 14, 21]", "blue = [3, 11, 14, 21]");
        assert!(Components::parse(&dup)
            .unwrap_err()
            .contains("all different"));
        let gap = COMPONENTS_TOML.replace("spaces = [3, 4]", "spaces = [4, 4]");
        assert!(Components::parse(&gap)
            .unwrap_err()
            .contains("without gaps"));
        let letters = COMPONENTS_TOML.replace("series = \"C\"", "series = \"Q\"");
        assert!(Components::parse(&letters)
            .unwrap_err()
            .contains("lettered"));
        assert!(Components::parse("nonsense = 1").is_err());
    }
}
