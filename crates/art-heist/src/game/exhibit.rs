//! Exhibits (展示): which runs of letters a hand can show, how an exhibit is put
//! together (the letters first, then the cards of each letter in turn), and how
//! exhibits rank.

use super::state::{three_or_more, ArtHeist, Stack, NONE};
use crate::cards::{Letter, PLAYERS};
use crate::components::{byte_counts, Components, MAX_SERIES};
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

/// The series of a letter, if the game has it.
pub(crate) fn series_of_letter(rules: &Components, letter: Letter) -> Option<u32> {
    let s = letter.series();
    (s < rules.series_letters.len() as u32).then_some(s)
}

/// The next letter of an exhibit being put together: the player's cards of that
/// letter (one byte of a hand: `cards << shift`), how many of them must be shown at
/// least (so 3 cards can still be reached), and whether it is the run's last letter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NextLetter {
    cards: u8,
    shift: u32,
    need: u32,
    last: bool,
}

/// Bits set in each byte value (the build targets CPUs without a popcount instruction,
/// and these counts are taken at every exhibit step).
const POPCOUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u8).count_ones() as u8;
        i += 1;
    }
    t
};

/// `BIG_SUBSETS[need - 2][c]`: the numbers `1..2^c` with `need` bits set or more, in
/// increasing order, then zeros (the subsets of `c` cards big enough when 2 or 3 must
/// be shown), listed once here instead of counted out at every draw.
const BIG_SUBSETS: [[[u8; 256]; 9]; 2] = {
    let mut t = [[[0u8; 256]; 9]; 2];
    let mut need = 2;
    while need <= 3 {
        let mut c = 0;
        while c <= 8 {
            let (mut j, mut k) = (1usize, 0);
            while j < 1 << c {
                if (j as u8).count_ones() >= need {
                    t[need as usize - 2][c][k] = j as u8;
                    k += 1;
                }
                j += 1;
            }
            c += 1;
        }
        need += 1;
    }
    t
};

/// The letter an exhibit `sel` of a run from `from` shows next: `from` itself, then the
/// one after the highest card chosen (each letter done has a card).
#[inline]
pub(crate) fn next_letter_of(sel: u64, from: u32) -> u32 {
    if sel == 0 {
        from
    } else {
        (63 - sel.leading_zeros()) / 8 + 1
    }
}

impl NextLetter {
    /// Letter `letter` of an exhibit `sel` of a run ending at `to` from `hand` (`None`
    /// past the run's end).
    #[inline]
    pub(crate) fn at(hand: u64, sel: u64, letter: u32, to: u32) -> Option<NextLetter> {
        if letter > to || to >= MAX_SERIES as u32 {
            return None;
        }
        let shift = 8 * letter;
        let cards = (hand >> shift) as u8;
        // The hand's cards of the letters still to come: none after the last letter (the
        // mask is empty then, and a shift of 64 gives none too). Without branches: in a
        // random game whether more letters follow is a coin flip to the predictor.
        let later = (1u64 << (8 * (to - letter))).wrapping_sub(1);
        let rest = hand & later.checked_shl(shift + 8).unwrap_or(0);
        // Enough cards now that, with every card of the letters to come, 3 are reached:
        // 3 less one for a first card and one for a second (3 or more need just 1).
        let have = sel | rest;
        let need = 3 - u32::from(have != 0) - u32::from(have & have.wrapping_sub(1) != 0);
        Some(NextLetter {
            cards,
            shift,
            need,
            last: letter == to,
        })
    }

    pub(crate) fn is_last(self) -> bool {
        self.last
    }

    fn ok(self, sub: u8) -> bool {
        u32::from(POPCOUNT[usize::from(sub)]) >= self.need
    }

    pub(crate) fn allows(self, set: u64) -> bool {
        let sub = (set >> self.shift) as u8;
        set != 0 && u64::from(sub) << self.shift == set && sub & !self.cards == 0 && self.ok(sub)
    }

    /// Every allowed set, in increasing order of the set's bits (a letter's cards are
    /// at most 8, so at most 255 sets; a hand rarely holds more than 3 of a letter).
    pub(crate) fn each_choice(self, mut f: impl FnMut(u64)) {
        let mut sub = 0u8;
        loop {
            // The next subset of `cards` in increasing order.
            sub = sub.wrapping_sub(self.cards) & self.cards;
            if sub == 0 {
                return;
            }
            if self.ok(sub) {
                f(u64::from(sub) << self.shift);
            }
        }
    }

    /// How many sets [`NextLetter::each_choice`] lists.
    #[inline]
    fn count(self) -> u32 {
        let need = (self.need as usize).min(3);
        CHOICES
            .get(need)
            .map_or(0, |row| u32::from(row[usize::from(self.cards)]))
    }

    /// The `k`-th set of [`NextLetter::each_choice`], without listing: the subsets of
    /// the cards in increasing order are the numbers 1, 2, 3, ... spread over the
    /// cards' bits (keeping their count of bits).
    fn nth_choice(self, k: u32) -> Option<u64> {
        let c = u32::from(POPCOUNT[usize::from(self.cards)]);
        let j = match self.need {
            0 | 1 => k + 1,
            need => {
                let row = BIG_SUBSETS.get(need as usize - 2)?.get(c as usize)?;
                u32::from(*row.get(k as usize)?)
            }
        };
        let placed = DEPOSIT[usize::from(self.cards)][(j & 0xff) as usize];
        (j != 0 && j < 1 << c).then(|| u64::from(placed) << self.shift)
    }

    /// A uniformly drawn allowed set (the same draw as picking from the listed sets).
    #[inline]
    pub(crate) fn random_choice(self, rng: &mut GameRng) -> Option<u64> {
        let n = self.count();
        if n == 0 {
            return None;
        }
        self.nth_choice(rng.below(n))
    }
}

/// How many subsets of `c` cards are too small to show when `need` must be: those of
/// 1 card, and of 2 when 3 are needed.
const fn too_small(c: u32, need: u32) -> u32 {
    match need {
        0 | 1 => 0,
        2 => c,
        _ => c + c * c.saturating_sub(1) / 2,
    }
}

/// `CHOICES[need][cards]`: how many sets of `cards` (a letter's cards in hand) have
/// `need` cards or more — the sets an exhibit step may show. Looked up, not counted: an
/// exhibit step of every playout asks.
const CHOICES: [[u8; 256]; 4] = {
    let mut t = [[0u8; 256]; 4];
    let mut need = 0;
    while need < 4 {
        let mut cards = 0;
        while cards < 256 {
            let c = (cards as u8).count_ones();
            t[need][cards] = ((1u32 << c) - 1 - too_small(c, need as u32)) as u8;
            cards += 1;
        }
        need += 1;
    }
    t
};

/// `DEPOSIT[mask][value]`: [`deposit`] for every `value` below `2^(bits of mask)` (the
/// others are never asked), looked up instead of placed bit by bit at every step.
static DEPOSIT: [[u8; 256]; 256] = {
    let mut t = [[0u8; 256]; 256];
    let mut mask = 0;
    while mask < 256 {
        let mut value = 0;
        while value < 1 << (mask as u8).count_ones() {
            t[mask][value] = deposit(value as u8, mask as u8);
            value += 1;
        }
        mask += 1;
    }
    t
};

/// The low bits of `value` placed, in order, on the set bits of `mask`.
const fn deposit(value: u8, mask: u8) -> u8 {
    let (mut out, mut m, mut v) = (0u8, mask, value);
    while m != 0 && v != 0 {
        if v & 1 != 0 {
            out |= m & m.wrapping_neg();
        }
        v >>= 1;
        m &= m - 1;
    }
    out
}

impl ArtHeist {
    /// Every run of letters `hand` can exhibit, `from` then `to` ascending: each letter
    /// from `from` to `to` is in the hand, and the hand holds 3 cards or more of them.
    pub(crate) fn runs(&self, hand: u64) -> Stack<MAX_RUNS> {
        let mut out = Stack::new();
        self.each_run(hand, |run| out.push(run));
        out
    }

    /// A uniformly drawn run of `hand`, or `None` with chance 1/(runs + 1): the same
    /// draw as picking from `show_nothing` followed by [`ArtHeist::runs`], without
    /// listing them.
    #[inline]
    pub(crate) fn draw_run(&self, hand: u64, rng: &mut GameRng) -> Option<u8> {
        let runs = self.rules().runs_of(hand);
        let k = rng.below(runs.len() as u32 + 1).checked_sub(1)?;
        runs.get(k as usize).copied()
    }

    /// Calls `f` with every run of `hand`, in order. Runs of a hand are few (a dealt
    /// hand has 4 cards), and the loops stop at the first missing letter.
    #[inline]
    fn each_run(&self, hand: u64, mut f: impl FnMut(u8)) {
        let n = self.rules().series_letters.len().min(MAX_SERIES) as u32;
        let counts = byte_counts(hand);
        let mut present = u32::from(self.rules().letters(hand));
        while present != 0 {
            let from = present.trailing_zeros();
            if from >= n {
                break;
            }
            // Runs starting here end within the stretch of letters present from `from`.
            let stretch = (present >> from).trailing_ones();
            let mut total = 0;
            for to in from..from + stretch {
                total += (counts >> (8 * to)) & 0xff;
                if total >= 3 {
                    f(pack_run(from, to));
                }
            }
            present &= present - 1;
        }
    }

    /// The cards of `hand` an exhibit of the letters `from..=to` starts with, if that is
    /// a valid exhibit (every letter present, 3 cards or more).
    pub(crate) fn run_cards(&self, hand: u64, from: u32, to: u32) -> Option<u64> {
        let rules = self.rules();
        let wanted = Components::letter_range(from, to);
        let cards = hand & rules.series_range(from, to);
        (wanted != 0 && rules.letters(cards) == wanted && three_or_more(cards)).then_some(cards)
    }

    /// The next letter of the exhibit seat `p` is putting together, once its letters
    /// are chosen (`None` before, and once every letter has its cards).
    #[inline]
    pub(crate) fn next_letter(&self, p: usize) -> Option<NextLetter> {
        let run = *self.run.get(p)?;
        if run == NONE {
            return None;
        }
        let (from, to) = unpack_run(run);
        self.next_of(self.art[p], self.exhibit[p], from, to)
    }

    /// The next letter of the exhibit `sel` of letters `from..=to` from `hand`.
    pub(super) fn next_of(&self, hand: u64, sel: u64, from: u32, to: u32) -> Option<NextLetter> {
        NextLetter::at(hand, sel, next_letter_of(sel, from), to)
    }

    /// A random valid exhibit from `hand`, put together the way a player does (0 if
    /// the hand has none).
    pub(crate) fn random_exhibit(&self, hand: u64, rng: &mut GameRng) -> u64 {
        let runs = self.runs(hand);
        let Some(run) = rng.pick(runs.as_slice()).copied() else {
            return 0;
        };
        let (from, to) = unpack_run(run);
        let mut sel = 0;
        while let Some(next) = self.next_of(hand, sel, from, to) {
            match next.random_choice(rng) {
                Some(set) => sel |= set,
                None => return 0,
            }
        }
        sel
    }

    /// Exhibitors in rank order, strongest exhibit first; those who showed nothing are
    /// left out.
    pub(crate) fn exhibit_order(&self) -> Stack<PLAYERS> {
        self.order_of(self.shown())
    }

    /// The exhibitors who showed an exhibit (without a branch per seat: who showed one
    /// is a coin flip to the branch predictor).
    pub(crate) fn shown(&self) -> u8 {
        let mut shown = 0u8;
        for (p, &exhibit) in self.exhibit.iter().enumerate() {
            shown |= u8::from(exhibit != 0) << p;
        }
        shown & self.exhibitors
    }

    /// The seats of `shown` in rank order, strongest exhibit first.
    pub(crate) fn order_of(&self, shown: u8) -> Stack<PLAYERS> {
        if shown & shown.wrapping_sub(1) == 0 {
            // One exhibit (or none) needs no strengths.
            let p = shown.trailing_zeros() as u8 & 7;
            return Stack::from_parts([p, 0, 0, 0, 0], usize::from(shown != 0));
        }
        // No two exhibits tie (no two share their oldest card), so any sort gives this
        // one order.
        let mut order = Stack::from_bits(u64::from(shown));
        let rules = self.rules();
        sort_descending(order.as_mut_slice(), |p| {
            rules.strength(self.exhibit[usize::from(p) % PLAYERS])
        });
        order
    }
}

/// Sorts a few seats by a key, highest first (insertion sort: at most 5 items, and the
/// keys differ, so the order is the one any sort gives).
#[inline]
pub(crate) fn sort_descending(items: &mut [u8], key: impl Fn(u8) -> u16) {
    let mut keys = [0u16; PLAYERS];
    for (k, &item) in keys.iter_mut().zip(items.iter()) {
        *k = key(item);
    }
    let n = items.len().min(PLAYERS);
    for i in 1..n {
        let (item, k) = (items[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            items[j] = items[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        items[j] = item;
        keys[j] = k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Options;
    use takuge_engine::Game;

    #[test]
    fn drawing_a_run_by_the_hand_shape_matches_the_listed_runs() {
        let g = ArtHeist::new(&Options::default(), PLAYERS, 1).expect("setup");
        let rules = g.rules();
        let n = rules.series_letters.len();
        for shape in 0..1u32 << (2 * n) {
            for extra in [false, true] {
                // `c` cards of each series (one more than 3 with `extra`, to see that
                // counts past 3 are capped).
                let mut hand = 0u64;
                for (s, &mask) in rules.series_mask.iter().enumerate().take(n) {
                    let mut c = (shape >> (2 * s)) & 3;
                    if extra && c == 3 {
                        c += 1;
                    }
                    let mut rest = mask;
                    for _ in 0..c {
                        hand |= rest & rest.wrapping_neg();
                        rest &= rest - 1;
                    }
                }
                let mut choices = vec![None];
                choices.extend(g.runs(hand).as_slice().iter().map(|&r| Some(r)));
                for seed in 0..6 {
                    let mut a = GameRng::from_seed(seed);
                    let mut b = GameRng::from_seed(seed);
                    assert_eq!(
                        g.draw_run(hand, &mut a),
                        b.pick(&choices).copied().flatten(),
                        "{hand:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn drawing_a_set_of_cards_matches_the_listed_sets() {
        for cards in 0..=255u8 {
            for need in 1..=3 {
                for shift in [0, 40] {
                    let next = NextLetter {
                        cards,
                        shift,
                        need,
                        last: false,
                    };
                    let mut listed = Vec::new();
                    next.each_choice(|set| listed.push(set));
                    let drawn: Vec<u64> = (0..next.count())
                        .filter_map(|k| next.nth_choice(k))
                        .collect();
                    assert_eq!(drawn, listed, "{cards:08b} need {need}");
                    assert!(listed.iter().all(|&set| next.allows(set)));
                }
            }
        }
    }
}
