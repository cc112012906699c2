//! The components the seed's text does not give, from `data/components.toml`: cheque
//! values, thief numbers, the cage, the track and its castles, the art cards. Parsed once,
//! validated at parse (setup refuses to start on a broken file) and by the tests below.

use crate::cards::{ActionCard, ArtCard, Colour, Kind, ACTION_CARDS, MAX_ART, PLAYERS};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::sync::LazyLock;

/// The data file, compiled in.
pub const COMPONENTS_TOML: &str = include_str!("../data/components.toml");

/// Most series of art (letters A, B, ...) the state supports.
pub const MAX_SERIES: usize = 16;

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
    /// Per art card (id = age order): its series (0 = A) and year.
    pub art_series: Vec<u8>,
    pub art_year: Vec<u16>,
    /// The letter of each series.
    pub series_letters: Vec<char>,
    /// Per series, the art cards in it (0 past the last series).
    pub series_mask: [u64; MAX_SERIES],
    /// Per `lo * MAX_SERIES + hi`: the art cards of series `lo..=hi`.
    range: Vec<u64>,
    /// Per action card: the cheque value or the thief number (0 for the others).
    pub card_value: [u8; ACTION_CARDS],
    /// Per space `0..=goal`: the numbers of the castle beside it.
    castle_at: Vec<[u8; 2]>,
}

/// A castle beside the track.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
        [&self.red, &self.blue, &self.green, &self.purple, &self.white]
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
        let mut cards: Vec<(u16, u8)> = Vec::new();
        let mut series_letters = Vec::new();
        for (s, series) in raw.art.iter().enumerate() {
            let expected = char::from(b'A' + s as u8);
            if series.series != expected.to_string() {
                return Err(format!(
                    "series {:?}: series must be lettered A, B, C, ... in order",
                    series.series
                ));
            }
            series_letters.push(expected);
            cards.extend(series.years.iter().map(|&y| (y, s as u8)));
        }
        let years: BTreeSet<u16> = cards.iter().map(|c| c.0).collect();
        if years.len() != cards.len() {
            return Err("every art card needs a different year (ties must break)".into());
        }
        let dealt = 4 * PLAYERS;
        if cards.len() < dealt + 2 || cards.len() > MAX_ART {
            return Err(format!(
                "{} art cards: need {} to {MAX_ART} (4 a player and two piles)",
                cards.len(),
                dealt + 2
            ));
        }
        // Ids in age order: the oldest card of a set is its lowest bit.
        cards.sort_unstable();
        let art_year = cards.iter().map(|c| c.0).collect();
        let art_series: Vec<u8> = cards.iter().map(|c| c.1).collect();
        let mut series_mask = [0u64; MAX_SERIES];
        for (id, &s) in art_series.iter().enumerate() {
            if let Some(m) = series_mask.get_mut(usize::from(s)) {
                *m |= ArtCard(id as u8).bit();
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

        Ok(Components {
            money,
            thieves,
            cage_cells: raw.cage.cells,
            goal: track.goal,
            final_exhibit: track.final_exhibit,
            max_turns: track.max_turns,
            castles,
            art_series,
            art_year,
            series_letters,
            series_mask,
            range: (0..MAX_SERIES * MAX_SERIES)
                .map(|i| {
                    let (lo, hi) = (i / MAX_SERIES, i % MAX_SERIES);
                    series_mask
                        .iter()
                        .enumerate()
                        .filter(|&(s, _)| lo <= s && s <= hi)
                        .fold(0, |m, (_, &c)| m | c)
                })
                .collect(),
            card_value,
            castle_at,
        })
    }

    pub fn art_count(&self) -> usize {
        self.art_series.len()
    }

    /// Every art card, as a mask.
    pub fn all_art(&self) -> u64 {
        match self.art_count() {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
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
        self.art_series.get(usize::from(art.0)).copied().unwrap_or(0)
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

    /// The series present in a set of art cards, one bit per series.
    pub fn letters(&self, cards: u64) -> u16 {
        let mut letters = 0u16;
        let used = self.series_mask.get(..self.series_letters.len()).unwrap_or(&[]);
        for (s, &m) in used.iter().enumerate() {
            letters |= u16::from(cards & m != 0) << s;
        }
        letters
    }

    /// The art cards of series `lo..=hi`.
    pub fn series_range(&self, lo: u32, hi: u32) -> u64 {
        if lo >= MAX_SERIES as u32 || hi >= MAX_SERIES as u32 {
            return 0;
        }
        self.range
            .get(lo as usize * MAX_SERIES + hi as usize)
            .copied()
            .unwrap_or(0)
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
        // Ids are in age order: older first.
        assert!(c.art_year.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(c.castle_numbers(0), [5, 3]);
        assert_eq!(c.castle_numbers(200), c.castle_numbers(c.goal));
    }

    #[test]
    fn broken_files_are_refused_with_a_reason() {
        let dup = COMPONENTS_TOML.replace("blue = [4, 11, 14, 21]", "blue = [3, 11, 14, 21]");
        assert!(Components::parse(&dup).unwrap_err().contains("all different"));
        let gap = COMPONENTS_TOML.replace("spaces = [3, 4]", "spaces = [4, 4]");
        assert!(Components::parse(&gap).unwrap_err().contains("without gaps"));
        let letters = COMPONENTS_TOML.replace("series = \"C\"", "series = \"Q\"");
        assert!(Components::parse(&letters).unwrap_err().contains("lettered"));
        assert!(Components::parse("nonsense = 1").is_err());
    }
}
