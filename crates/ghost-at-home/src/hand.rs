//! A hand (手札) of at most three cards packed in one number, and [`Cards`], a set of
//! one to three cards chosen from it (the cards of a room play, a light, a discard).

use crate::cards::Card;
use crate::types::HAND_SIZE;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A hand of at most three cards in one number: a count per face packed two bits a
/// face (a face is at most 3 times in a hand of 3) in bits 0–39, the number of cards
/// in bits 48–50 and the light-bulb icons of the room cards in bits 56–59. Every part
/// is a sum over the cards, so adding or taking a card (or a set of cards) is one
/// addition or subtraction, and equal hands are equal numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Hand(pub(crate) u64);

/// Where the number of cards starts in a [`Hand`].
pub(crate) const LEN_SHIFT: u32 = 48;
/// Where the light-bulb icons start in a [`Hand`].
pub(crate) const BULBS_SHIFT: u32 = 56;

/// The low bit of every face's two-bit count.
pub(crate) const LOW_BITS: u64 = 0x0000_0055_5555_5555;
/// Every face's two-bit count.
pub(crate) const FACE_BITS: u64 = 0x0000_00FF_FFFF_FFFF;
/// The counts of the printed room cards (the first 12 faces).
pub(crate) const PRINTED_BITS: u64 = 0x00FF_FFFF;
/// The counts of the printed room cards and the wild room.
pub(crate) const ROOM_BITS: u64 = PRINTED_BITS | (3 << Hand::shift(Card::WildRoom));
/// The counts of the room cards with no light-bulb icon, one icon and two icons.
pub(crate) const BULBS0_BITS: u64 = 0x03_0303;
pub(crate) const BULBS1_BITS: u64 = 0x0C_0C0C;
pub(crate) const BULBS2_BITS: u64 = 0x30_3030;
/// The counts of the special cards played on their own (all but the wild room).
pub(crate) const SPECIAL_ACTION_BITS: u64 = 0x3FF << Hand::shift(Card::SpaceTimeHole);

/// What unused card slots hold, so that equal arrays mean equal contents.
pub(crate) const FILLER: Card = Card::Floor1Bulbs0;

/// Up to three cards, by value, in face order. Not a `FixedList`: the unused slots
/// hold [`FILLER`] and are read on purpose, so that [`Hand::parts`] and the samplers
/// work on all three slots without a branch on the length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CardList {
    pub(crate) cards: [Card; HAND_SIZE],
    pub(crate) len: usize,
}

impl CardList {
    pub(crate) fn as_slice(&self) -> &[Card] {
        self.cards.get(..self.len).unwrap_or(&self.cards)
    }
}

/// One to three cards of a hand, chosen together (a multiset: which copy of a face it
/// is does not matter). In JSON a list of 1 to 3 cards in any order, e.g.
/// `["ghost", "floor1_bulbs2"]`; it is kept in face order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cards(pub(crate) Hand);

impl Cards {
    /// One to three cards; `None` for none or more than three.
    pub fn new(cards: &[Card]) -> Option<Cards> {
        if cards.is_empty() || cards.len() > HAND_SIZE {
            return None;
        }
        let mut hand = Hand::default();
        for &card in cards {
            hand.insert(card);
        }
        Some(Cards(hand))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true for a value made by `new` or deserialized.
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// How many copies of `card`.
    pub fn count(&self, card: Card) -> u8 {
        self.0.count(card)
    }

    /// The cards, in face order.
    pub fn to_vec(&self) -> Vec<Card> {
        self.0.list().as_slice().to_vec()
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = self.0.list();
        let cards = list.as_slice();
        for (i, card) in cards.iter().enumerate() {
            let sep = match (i, cards.len() - i) {
                (0, _) => "",
                (_, 1) => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{card}")?;
        }
        Ok(())
    }
}

impl Serialize for Cards {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.list().as_slice())
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        Cards::new(&cards)
            .ok_or_else(|| serde::de::Error::invalid_length(cards.len(), &"a list of 1 to 3 cards"))
    }
}

impl Hand {
    pub(crate) const fn shift(card: Card) -> u32 {
        2 * card.index() as u32
    }

    /// What one copy of `card` adds to a hand.
    pub(crate) const fn unit(card: Card) -> u64 {
        (1 << Self::shift(card)) | (1 << LEN_SHIFT) | ((card.bulbs() as u64) << BULBS_SHIFT)
    }

    pub(crate) fn count(self, card: Card) -> u8 {
        ((self.0 >> Self::shift(card)) & 3) as u8
    }

    pub(crate) fn len(self) -> usize {
        ((self.0 >> LEN_SHIFT) & 7) as usize
    }

    /// Light-bulb icons on the room cards held.
    pub(crate) fn bulbs(self) -> u8 {
        ((self.0 >> BULBS_SHIFT) & 15) as u8
    }

    pub(crate) fn contains(self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// Adds a card; false if the hand is full.
    pub(crate) fn insert(&mut self, card: Card) -> bool {
        if self.len() >= HAND_SIZE {
            return false;
        }
        self.0 += Self::unit(card);
        true
    }

    pub(crate) fn remove(&mut self, card: Card) -> bool {
        if !self.contains(card) {
            return false;
        }
        self.0 -= Self::unit(card);
        true
    }

    /// One bit (the low bit of its two-bit count) per face held.
    pub(crate) fn face_bits(self) -> u64 {
        (self.0 | (self.0 >> 1)) & LOW_BITS
    }

    /// Each face once, in face order.
    pub(crate) fn distinct(self) -> impl Iterator<Item = Card> {
        let mut faces = self.face_bits();
        std::iter::from_fn(move || {
            if faces == 0 {
                return None;
            }
            let bit = faces.trailing_zeros() as usize;
            faces &= faces - 1;
            Card::from_index(bit / 2)
        })
    }

    /// The cards, in face order (unused slots hold [`FILLER`]). Straight-line: a hand
    /// holds at most three faces.
    #[inline]
    pub(crate) fn list(self) -> CardList {
        let face = |shift: u32| Card::ALL.get(shift as usize / 2).copied().unwrap_or(FILLER);
        let copies = |shift: u32| self.0.checked_shr(shift).map_or(0, |bits| bits & 3);
        let f0 = self.face_bits();
        let f1 = f0 & f0.wrapping_sub(1);
        let f2 = f1 & f1.wrapping_sub(1);
        let (s0, s1, s2) = (
            f0.trailing_zeros(),
            f1.trailing_zeros(),
            f2.trailing_zeros(),
        );
        let (x0, x1, x2) = (face(s0), face(s1), face(s2));
        let cards = match copies(s0) {
            3 => [x0, x0, x0],
            2 => [x0, x0, x1],
            _ if copies(s1) == 2 => [x0, x1, x1],
            _ => [x0, x1, x2],
        };
        CardList {
            cards,
            len: self.len().min(HAND_SIZE),
        }
    }

    /// Every copy in `part` is in this hand too.
    pub(crate) fn contains_all(self, part: Hand) -> bool {
        let mut faces = part.face_bits();
        while faces != 0 {
            let shift = faces.trailing_zeros();
            faces &= faces - 1;
            if (self.0 >> shift) & 3 < (part.0 >> shift) & 3 {
                return false;
            }
        }
        true
    }

    /// Takes out every copy in `part`; false (and no change) unless all are held.
    pub(crate) fn remove_all(&mut self, part: Hand) -> bool {
        if !self.contains_all(part) {
            return false;
        }
        self.0 -= part.0;
        true
    }

    /// Only printed room cards (the wild room is a special card).
    pub(crate) fn all_printed_rooms(self) -> bool {
        self.0 & FACE_BITS & !PRINTED_BITS == 0
    }

    /// The printed room cards of each floor, one byte per floor (floor 1 lowest).
    pub(crate) fn rooms_per_floor(self) -> u32 {
        let x = (self.0 & PRINTED_BITS) as u32;
        let pairs = (x & 0x33_3333) + ((x >> 2) & 0x33_3333);
        (pairs & 0x0F_0F0F) + ((pairs >> 4) & 0x0F_0F0F)
    }

    /// The parts of the hand whose cards are `list` = [a, b, c], by positions taken:
    /// `parts[m - 1]` takes the cards of the bits of `m` (a = 1, b = 2, c = 4), and bit
    /// `m - 1` of the mask is set for each distinct multiset (at most 7, fewer when a
    /// face is held twice).
    #[inline]
    pub(crate) fn parts(list: &CardList) -> ([Hand; 7], u32) {
        let [a, b, c] = list.cards;
        let (ua, ub, uc) = (Self::unit(a), Self::unit(b), Self::unit(c));
        let parts = [
            Hand(ua),
            Hand(ub),
            Hand(ua + ub),
            Hand(uc),
            Hand(ua + uc),
            Hand(ub + uc),
            Hand(ua + ub + uc),
        ];
        let mask = Self::part_mask(list);
        (parts, mask)
    }

    /// Bit `i` set for each part `i` of [`Hand::parts`] that is a distinct multiset.
    #[inline]
    pub(crate) fn part_mask(list: &CardList) -> u32 {
        let [a, b, c] = list.cards;
        // Of a run of equal cards (adjacent in face order) only a leading part is
        // taken, so each multiset comes once: with a = b, b alone is a alone and b + c
        // is a + c; with b = c, c alone is b alone and a + c is a + b.
        let mut mask = match list.len {
            0 => 0,
            1 => 0b000_0001,
            2 => 0b000_0111,
            _ => 0b111_1111,
        };
        if a == b {
            mask &= !0b010_0010;
        }
        if b == c {
            mask &= !0b001_1000;
        }
        mask
    }

    /// Part `i` of [`Hand::parts`]: the cards of `list` at the bits of `i + 1`.
    #[inline]
    pub(crate) fn part(list: &CardList, i: u32) -> Hand {
        let [a, b, c] = list.cards;
        let taken = i + 1;
        let pick = |bit: u32, card: Card| {
            if taken >> bit & 1 == 1 {
                Self::unit(card)
            } else {
                0
            }
        };
        Hand(pick(0, a) + pick(1, b) + pick(2, c))
    }

    /// Calls `f` with every distinct non-empty part of the hand whose cards are `list`.
    #[inline]
    pub(crate) fn for_each_part(list: &CardList, mut f: impl FnMut(Hand)) {
        let (parts, mask) = Self::parts(list);
        for (i, &part) in parts.iter().enumerate() {
            if mask >> i & 1 == 1 {
                f(part);
            }
        }
    }

    pub(crate) fn from_cards(cards: &[Card]) -> Hand {
        let mut hand = Hand::default();
        for &c in cards {
            hand.insert(c);
        }
        hand
    }
}
