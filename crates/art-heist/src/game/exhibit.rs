//! Exhibits (展示): which runs of letters a hand can show, how an exhibit is put
//! together (the letters first, then cards withheld one by one), and how exhibits rank.

use super::state::{three_or_more, ArtHeist, Stack};
use crate::cards::{bits, ArtCard, PLAYERS};
use crate::components::{Components, MAX_SERIES};
use takuge_engine::GameRng;

/// The most runs a hand can offer: every `from..=to` of up to 8 series.
pub(crate) const MAX_RUNS: usize = MAX_SERIES * (MAX_SERIES + 1) / 2;

/// A run of series `from..=to`, packed as `from * 8 + to` (so a list of runs is a
/// small fixed array).
pub(crate) const fn pack_run(from: u32, to: u32) -> u8 {
    (from * 8 + to) as u8
}

pub(crate) const fn unpack_run(run: u8) -> (u32, u32) {
    ((run / 8) as u32, (run % 8) as u32)
}

/// The series of a letter (`'A'` is 0), if the game has it.
pub(crate) fn series_of_letter(rules: &Components, letter: char) -> Option<u32> {
    let s = u32::from(letter).wrapping_sub(u32::from('A'));
    (s < rules.series_letters.len() as u32).then_some(s)
}

pub(crate) fn letter_of_series(rules: &Components, series: u32) -> char {
    rules
        .series_letters
        .get(series as usize)
        .copied()
        .unwrap_or('?')
}

/// Whether a set has at least 4 cards.
#[inline]
const fn four_or_more(cards: u64) -> bool {
    let one_fewer = cards & cards.wrapping_sub(1);
    three_or_more(one_fewer)
}

impl ArtHeist {
    /// Every run of letters `hand` can exhibit, `from` then `to` ascending: each letter
    /// from `from` to `to` is in the hand, and the hand holds 3 cards or more of them.
    pub(crate) fn runs(&self, hand: u64) -> Stack<MAX_RUNS> {
        let n = self.rules().series_letters.len().min(MAX_SERIES) as u32;
        let mut counts = [0u32; MAX_SERIES];
        for (s, c) in counts.iter_mut().enumerate().take(n as usize) {
            *c = ((hand >> (8 * s)) & 0xff).count_ones();
        }
        let mut out = Stack::new();
        for from in 0..n {
            let mut total = 0;
            for to in from..n {
                let c = counts[to as usize];
                if c == 0 {
                    break;
                }
                total += c;
                if total >= 3 {
                    out.push(pack_run(from, to));
                }
            }
        }
        out
    }

    /// The cards of `hand` an exhibit of the letters `from..=to` starts with, if that is
    /// a valid exhibit (every letter present, 3 cards or more).
    pub(crate) fn run_cards(&self, hand: u64, from: u32, to: u32) -> Option<u64> {
        let rules = self.rules();
        let wanted = Components::letter_range(from, to);
        let cards = hand & rules.series_range(from, to);
        (wanted != 0 && rules.letters(cards) == wanted && three_or_more(cards)).then_some(cards)
    }

    /// The cards that can be withheld from the exhibit `sel`: what is left keeps 3
    /// cards or more and a card of every letter, so every step leaves a valid exhibit
    /// (and every valid exhibit is reached from its letters by withholding).
    pub(crate) fn withholdable(sel: u64) -> u64 {
        if !four_or_more(sel) {
            return 0;
        }
        let mut out = 0;
        for s in 0..MAX_SERIES {
            let series = sel & (0xff << (8 * s));
            if series & series.wrapping_sub(1) != 0 {
                out |= series;
            }
        }
        out
    }

    /// A random valid exhibit from `hand`, put together the way a player does (0 if
    /// the hand has none).
    pub(crate) fn random_exhibit(&self, hand: u64, rng: &mut GameRng) -> u64 {
        let runs = self.runs(hand);
        let Some(run) = rng.pick(runs.as_slice()).copied() else {
            return 0;
        };
        let (from, to) = unpack_run(run);
        let mut sel = self.run_cards(hand, from, to).unwrap_or(0);
        loop {
            let out = Self::withholdable(sel);
            let k = rng.below(out.count_ones() + 1);
            match bits(out).nth(k as usize) {
                Some(a) => sel &= !ArtCard(a).bit(),
                None => return sel,
            }
        }
    }

    /// Exhibitors in rank order, strongest exhibit first; those who showed nothing are
    /// left out.
    pub(crate) fn exhibit_order(&self) -> Stack<PLAYERS> {
        let rules = self.rules();
        let mut order = Stack::<PLAYERS>::new();
        let mut strength = [0u16; PLAYERS];
        for (p, s) in strength.iter_mut().enumerate() {
            if self.exhibitors & super::state::seat_bit(p) != 0 && self.exhibit[p] != 0 {
                *s = rules.strength(self.exhibit[p]);
                order.push(p as u8);
            }
        }
        order
            .as_mut_slice()
            .sort_unstable_by_key(|&p| std::cmp::Reverse(strength[usize::from(p)]));
        order
    }
}
