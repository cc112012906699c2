//! The second copies, clearly second: what must be fast in random playouts, built from
//! the predicates of `legal.rs` where possible and checked against it by the
//! conformance suite (sampling uniform over the list, `is_legal` = membership, the
//! playout = the engine's checked loop) and by the tests at the end of this file.
//!
//! - [`ArtHeist::sample`] (`Game::sample_action`): draws the `k`-th action of the list
//!   `legal_actions` would write, without writing it (same order, same draw);
//! - [`ArtHeist::is_legal_fast`] (`Game::is_legal`): the list's membership, decided
//!   without listing;
//! - [`ArtHeist::playout_in_place`] (`Game::random_playout`, in `fast/playout.rs`): the
//!   same draws in the same order as the checked loop, played in place;
//! - [`HandList`]: a second copy of each hand of action cards (`cards`), listed, so a
//!   drawn card is read rather than searched for;
//! - the exhibit samplers ([`NextLetter::random_choice`], [`ArtHeist::draw_run`]) over
//!   tables of the sets `NextLetter::each_choice` lists and the runs
//!   `Components::runs_of` holds.
//!
//! The game is performance-tuned (docs/PERFORMANCE.md): the comments below say what
//! each trick saves.

mod playout;

use crate::cards::{ActionCard, ArtCard, Pile, Place};
use crate::legal::NextLetter;
use crate::state::{ArtHeist, Phase};
use crate::types::{Action, Run, SeatId};
use takuge_engine::bits::{self, BYTE_ONES};
use takuge_engine::{GameRng, Seat};

impl ArtHeist {
    /// `Game::sample_action`: the `k`-th action of the list `legal_actions` would write,
    /// for the same `k` (`rng.below(len)`), without writing it.
    #[inline]
    pub(crate) fn sample(&self, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        let p = self.pending_seat(seat)?;
        // The two steps of every turn, place and action card, are most of a game's
        // decisions: they are drawn first; the rest in `sample_rare`.
        match self.phase {
            Phase::Location => Some(Action::Go(if rng.below(2) == 0 {
                Place::AuctionHouse
            } else {
                Place::Castle
            })),
            Phase::AuctionCards | Phase::CastleCards => {
                bits::pick(self.cards[p], rng).map(|c| Action::Play(ActionCard(c)))
            }
            _ => self.sample_rare(p, rng),
        }
    }

    /// `sample` for the steps other than place and action card.
    #[inline]
    fn sample_rare(&self, p: SeatId, rng: &mut GameRng) -> Option<Action> {
        match self.phase {
            Phase::AuctionPile { .. } => {
                let [left, right] = self.piles.each_ref().map(|pile| !pile.is_empty());
                let pile = match (left, right) {
                    (true, true) if rng.below(2) == 0 => Pile::Left,
                    (true, true) | (false, true) => Pile::Right,
                    (true, false) => Pile::Left,
                    (false, false) => return None,
                };
                Some(Action::Take(pile))
            }
            Phase::Exhibiting | Phase::FinalExhibit => match self.next_letter(p) {
                None => Some(
                    self.draw_run(self.art[p], rng)
                        .map_or(Action::ShowNothing, Run::action),
                ),
                Some(next) => next
                    .random_choice(rng)
                    .map(|set| Action::Cards(crate::cards::ArtSet::of(set))),
            },
            Phase::Stealing => {
                let e = self.robbed()?;
                bits::pick(self.exhibit[e], rng).map(|a| Action::Steal(ArtCard(a)))
            }
            Phase::Location | Phase::AuctionCards | Phase::CastleCards | Phase::Over => None,
        }
    }

    /// `Game::is_legal`: whether `legal_actions(seat)` lists `action`, without listing
    /// (the engine's `apply` asks at every action a client sends).
    #[inline]
    pub(crate) fn is_legal_fast(&self, seat: Seat, action: &Action) -> bool {
        let Some(p) = self.pending_seat(seat) else {
            return false;
        };
        match (self.phase, *action) {
            (Phase::Location, Action::Go(_)) => true,
            // `bit` is 0 for an id that is no card.
            (Phase::AuctionCards | Phase::CastleCards, Action::Play(card)) => {
                self.cards[p] & card.bit() != 0
            }
            (Phase::AuctionPile { .. }, Action::Take(pile)) => !self.piles[pile.index()].is_empty(),
            (Phase::Exhibiting | Phase::FinalExhibit, Action::ShowNothing) => self.run[p].is_none(),
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Exhibit { from, to }) => {
                self.run[p].is_none()
                    && Run::of(from, to)
                        .is_some_and(|run| self.rules().runs_of(self.art[p]).contains(&run))
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Cards(set)) => self
                .next_letter(p)
                .is_some_and(|next| next.allows(set.mask())),
            (Phase::Stealing, Action::Steal(a)) => self
                .robbed()
                .is_some_and(|e| self.exhibit[e] & a.bit() != 0),
            _ => false,
        }
    }

    /// A uniformly drawn run of `hand`, or `None` with chance 1/(runs + 1): the same
    /// draw as picking from `ShowNothing` followed by the runs `legal_actions` lists.
    #[inline]
    pub(crate) fn draw_run(&self, hand: u64, rng: &mut GameRng) -> Option<Run> {
        let runs = self.rules().runs_of(hand);
        let k = rng.below(runs.len() as u32 + 1).checked_sub(1)?;
        runs.get(k as usize).copied()
    }
}

impl NextLetter {
    /// Whether `legal_actions` lists the cards `set` for this letter (each_choice's
    /// membership, without listing).
    #[inline]
    pub(crate) fn allows(self, set: u64) -> bool {
        let sub = (set >> self.shift) as u8;
        u64::from(sub) << self.shift == set && sub & !self.cards == 0 && self.ok(sub)
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
        let c = u32::from(BYTE_ONES[usize::from(self.cards)]);
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

/// Slots of a listed hand: a hand holds at most its own 8 cards and the other colours'
/// 16 cheques; 32 so that an index masked with 31 needs no bounds check.
const HAND_SLOTS: usize = 32;

/// An empty slot of a [`HandList`] (after its last card): above every card id, which
/// the list's merges rely on.
const EMPTY: u8 = u8::MAX;

/// A hand's action cards listed lowest first (the second copy of `ArtHeist::cards`,
/// for the playout: the `k`-th card drawn is read here instead of searched for among
/// the bits, ≈ 45 instructions a draw without popcount; hands change about 60 times a
/// game, cards are drawn from them about 260 times). Between two fixed guards: byte 0
/// is 0, bytes `1..=32` the cards then `EMPTY`s, byte 33 `EMPTY`. With the guards a
/// card is put in or taken out by comparing every slot with its neighbour at once
/// (whole vectors, no loop over the cards, no search for the card's place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HandList([u8; HAND_SLOTS + 2]);

impl Default for HandList {
    fn default() -> Self {
        HandList::of(0)
    }
}

impl HandList {
    /// The cards of `cards`, listed.
    pub(crate) fn of(cards: u64) -> HandList {
        let mut list = [EMPTY; HAND_SLOTS + 2];
        list[0] = 0;
        for (slot, c) in list[1..=HAND_SLOTS].iter_mut().zip(bits::iter(cards)) {
            *slot = c;
        }
        HandList(list)
    }

    /// The `n` cards from `first` on (a colour's cards at setup), listed without
    /// walking bits.
    #[inline]
    pub(crate) fn consecutive(first: u8, n: usize) -> HandList {
        let mut list = [EMPTY; HAND_SLOTS + 2];
        list[0] = 0;
        for (i, slot) in list[1..=HAND_SLOTS].iter_mut().enumerate() {
            *slot = if i < n {
                first.wrapping_add(i as u8)
            } else {
                EMPTY
            };
        }
        HandList(list)
    }

    /// The `k`-th card (lowest first) for `k` below the hand's size; `None` past it.
    #[inline]
    pub(crate) fn card(&self, k: u32) -> Option<ActionCard> {
        let c = self.0[1 + (k as usize & (HAND_SLOTS - 1))];
        (c != EMPTY).then_some(ActionCard(c))
    }

    /// Takes out card `c` (in the list): each slot keeps its card if below `c`, else
    /// takes the next one.
    #[inline]
    pub(crate) fn remove(&mut self, c: u8) {
        // Two halves of 16 slots: each one vector compare and select (written as one
        // loop over 32 slots, it compiled to pieces of 16, 8, 4 and single slots).
        let (lo, hi) = (self.half(1), self.half(17));
        let (next_lo, next_hi) = (self.half(2), self.half(18));
        let pick = |l: [u8; 16], next: [u8; 16]| {
            std::array::from_fn::<u8, 16, _>(|j| if l[j] < c { l[j] } else { next[j] })
        };
        self.set_halves(pick(lo, next_lo), pick(hi, next_hi));
    }

    /// Puts in card `c` (not in the list): below `c`'s place a slot keeps its card, at
    /// it gets `c`, after it takes the previous card — `max(min(card, c), previous)`.
    #[inline]
    pub(crate) fn insert(&mut self, c: u8) {
        let (lo, hi) = (self.half(1), self.half(17));
        let (prev_lo, prev_hi) = (self.half(0), self.half(16));
        let put = |l: [u8; 16], prev: [u8; 16]| {
            std::array::from_fn::<u8, 16, _>(|j| l[j].min(c).max(prev[j]))
        };
        self.set_halves(put(lo, prev_lo), put(hi, prev_hi));
    }

    /// The 16 bytes from `at` (at most 18).
    #[inline]
    fn half(&self, at: usize) -> [u8; 16] {
        let mut h = [EMPTY; 16];
        if let Some(bytes) = self.0.get(at..at + 16) {
            h.copy_from_slice(bytes);
        }
        h
    }

    #[inline]
    fn set_halves(&mut self, lo: [u8; 16], hi: [u8; 16]) {
        self.0[1..17].copy_from_slice(&lo);
        self.0[17..33].copy_from_slice(&hi);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::PLAYERS;
    use crate::legal::runs_of_shape;
    use crate::types::Options;
    use takuge_engine::Game;

    #[test]
    fn a_listed_hand_takes_and_gives_cards_in_bit_order() {
        let mut rng = GameRng::from_seed(11);
        for _ in 0..3000 {
            // Up to 32 of 40 cards (a list holds 32).
            let mut cards = rng.next_u64() & rng.next_u64() & 0xff_ffff_ffff;
            while cards.count_ones() > 31 {
                cards &= cards - 1;
            }
            let mut list = HandList::of(cards);
            if cards.count_ones() == 8 && cards == 0xff << cards.trailing_zeros() {
                assert_eq!(list, HandList::consecutive(cards.trailing_zeros() as u8, 8));
            }
            for (k, c) in bits::iter(cards).enumerate() {
                assert_eq!(list.card(k as u32), Some(ActionCard(c)));
            }
            assert_eq!(list.card(cards.count_ones()), None);
            let c = rng.below(40) as u8;
            let bit = 1u64 << c;
            if cards & bit != 0 {
                list.remove(c);
                assert_eq!(list, HandList::of(cards & !bit));
            } else {
                list.insert(c);
                assert_eq!(list, HandList::of(cards | bit));
            }
        }
    }

    /// The runs table (`Components::runs_of`, by hand shape with counts capped at 3)
    /// holds exactly the runs the rule gives for the hand's real counts, and
    /// `draw_run` draws from "nothing, then those runs" as a pick from the list would.
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
                let mut listed = Vec::new();
                runs_of_shape(
                    n,
                    |s| bits::count(hand & rules.series_mask[s]) as usize,
                    |r| listed.push(r),
                );
                assert_eq!(rules.runs_of(hand), &listed[..], "{hand:x}");
                let mut choices = vec![None];
                choices.extend(listed.iter().map(|&r| Some(r)));
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
                    let allowed = (0..=255u64)
                        .map(|sub| sub << shift)
                        .filter(|&set| next.allows(set))
                        .count();
                    assert_eq!(allowed, listed.len(), "{cards:08b} need {need}");
                }
            }
        }
    }
}
