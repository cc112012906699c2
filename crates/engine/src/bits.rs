//! Bit sets: the hands, decks, seat sets and target masks of every game.
//!
//! Two operations sit on every playout's hot path: counting a set and taking its
//! `k`-th member (a uniformly drawn card is `nth(rng.below(len))`). The default
//! x86-64 target has no popcount instruction and its software fallback costs several
//! times a table lookup (docs/PERFORMANCE.md measured it), so counting goes through a
//! byte table for words up to 16 bits and SWAR arithmetic above; `nth` is loop-free
//! (running byte counts, then a byte table), because stepping over `k` bits ends after
//! a random number of rounds, a mispredicted jump at almost every card drawn.
//!
//! [`Bits<W>`] is the typed set over a word `W` (`u8`..`u64`); the free functions
//! work on raw masks for code that keeps its own encodings.

use crate::rng::GameRng;
use std::fmt;

/// Bits set in each byte value.
pub const BYTE_ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 1;
    while i < 256 {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
};

const NONE: u8 = 0xff;

/// `SELECT[byte][k]`: the `k`-th set bit of `byte`, lowest first (`NONE` past the last).
static SELECT: [[u8; 8]; 256] = {
    let mut t = [[NONE; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                t[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    t
};

/// Per byte of `mask`, the number of its set bits (SWAR).
#[inline]
pub const fn byte_counts(mask: u64) -> u64 {
    let x = mask - ((mask >> 1) & 0x5555_5555_5555_5555);
    let x = (x & 0x3333_3333_3333_3333) + ((x >> 2) & 0x3333_3333_3333_3333);
    (x + (x >> 4)) & 0x0f0f_0f0f_0f0f_0f0f
}

/// The number of set bits of a mask of at most 16 bits (two table lookups).
#[inline]
pub const fn count16(mask: u16) -> u32 {
    BYTE_ONES[(mask & 0xff) as usize] as u32 + BYTE_ONES[(mask >> 8) as usize] as u32
}

/// The number of set bits of any mask.
#[inline]
pub fn count(mask: u64) -> u32 {
    if mask >> 16 == 0 {
        count16(mask as u16)
    } else {
        (byte_counts(mask).wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }
}

/// The `k`-th set bit of `mask` (from 0, lowest first), or `None` if it has `k` or
/// fewer bits.
#[inline]
pub fn nth(mask: u64, k: u32) -> Option<u8> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    if mask >> 8 == 0 {
        let at = *SELECT[mask as usize].get(k as usize)?;
        return (at != NONE).then_some(at);
    }
    // Byte `i` holds the number of bits in bytes `0..=i` (at most 64: no carries).
    let running = byte_counts(mask).wrapping_mul(ONES);
    if k >= (running >> 56) as u32 {
        return None;
    }
    // The bytes whose running count is at most `k` lie wholly before the bit (each byte
    // compared at once: `k + 128 - count` keeps its top bit exactly when `count <= k`).
    let k_in_bytes = u64::from(k & 0x7f).wrapping_mul(ONES);
    let before = ((k_in_bytes | (ONES << 7)).wrapping_sub(running) >> 7) & ONES;
    let byte = (before.wrapping_mul(ONES) >> 56) as u32;
    let shift = 8 * byte.min(7);
    let earlier = ((running << 8) >> shift) as u32 & 0xff;
    let bits = ((mask >> shift) & 0xff) as usize;
    let at = SELECT[bits][(k.wrapping_sub(earlier) & 7) as usize];
    (at != NONE).then(|| at + shift as u8)
}

/// A uniformly drawn set bit of `mask` (`None` when it is empty): one draw from `rng`,
/// `below(count)`, the same stream every game's samplers used before this module.
#[inline]
pub fn pick(mask: u64, rng: &mut GameRng) -> Option<u8> {
    if mask == 0 {
        return None;
    }
    nth(mask, rng.below(count(mask)))
}

/// The set bits of `mask`, lowest first.
#[inline]
pub fn iter(mut mask: u64) -> impl Iterator<Item = u8> + Clone {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros() as u8;
            mask &= mask - 1;
            b
        })
    })
}

/// A machine word a [`Bits`] can be stored in.
pub trait Word:
    Copy + Default + Eq + std::hash::Hash + Ord + fmt::Debug + Send + Sync + 'static
{
    const BITS: u32;
    fn to_u64(self) -> u64;
    /// The low `Self::BITS` bits of `mask`.
    fn from_u64(mask: u64) -> Self;
}

macro_rules! word {
    ($($t:ty),*) => {$(
        impl Word for $t {
            const BITS: u32 = <$t>::BITS;
            #[inline]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn from_u64(mask: u64) -> Self {
                mask as $t
            }
        }
    )*};
}
word!(u8, u16, u32, u64);

/// A set of small numbers (`0..W::BITS`): cards, slots, values, targets. Members
/// beyond the word are never in it (inserting one does nothing, asking is `false`),
/// so a bad index read from input cannot alias another member.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bits<W: Word>(pub W);

impl<W: Word> Bits<W> {
    pub const fn from_word(word: W) -> Self {
        Bits(word)
    }

    #[inline]
    pub fn word(self) -> W {
        self.0
    }

    #[inline]
    fn raw(self) -> u64 {
        self.0.to_u64()
    }

    /// `0..n` (all of the word if `n` is larger).
    #[inline]
    pub fn below(n: u32) -> Self {
        if n >= W::BITS {
            Bits(W::from_u64(u64::MAX))
        } else {
            Bits(W::from_u64((1u64 << n) - 1))
        }
    }

    #[inline]
    pub fn single(member: u32) -> Self {
        let mut set = Self::default();
        set.insert(member);
        set
    }

    #[inline]
    pub fn is_empty(self) -> bool {
        self.raw() == 0
    }

    #[inline]
    pub fn len(self) -> u32 {
        if W::BITS <= 16 {
            count16(self.raw() as u16)
        } else {
            count(self.raw())
        }
    }

    #[inline]
    pub fn contains(self, member: u32) -> bool {
        member < W::BITS && self.raw() >> member & 1 != 0
    }

    #[inline]
    pub fn insert(&mut self, member: u32) {
        if member < W::BITS {
            self.0 = W::from_u64(self.raw() | 1 << member);
        }
    }

    #[inline]
    pub fn remove(&mut self, member: u32) {
        if member < W::BITS {
            self.0 = W::from_u64(self.raw() & !(1 << member));
        }
    }

    #[inline]
    pub fn with(mut self, member: u32) -> Self {
        self.insert(member);
        self
    }

    #[inline]
    pub fn without(mut self, member: u32) -> Self {
        self.remove(member);
        self
    }

    #[inline]
    pub fn union(self, other: Self) -> Self {
        Bits(W::from_u64(self.raw() | other.raw()))
    }

    #[inline]
    pub fn intersection(self, other: Self) -> Self {
        Bits(W::from_u64(self.raw() & other.raw()))
    }

    #[inline]
    pub fn difference(self, other: Self) -> Self {
        Bits(W::from_u64(self.raw() & !other.raw()))
    }

    /// The lowest member.
    #[inline]
    pub fn first(self) -> Option<u32> {
        (!self.is_empty()).then(|| self.raw().trailing_zeros())
    }

    /// The `k`-th member, lowest first.
    #[inline]
    pub fn nth(self, k: u32) -> Option<u32> {
        nth(self.raw(), k).map(u32::from)
    }

    /// A uniformly drawn member (one `below(len)` draw).
    #[inline]
    pub fn pick(self, rng: &mut GameRng) -> Option<u32> {
        if self.is_empty() {
            return None;
        }
        self.nth(rng.below(self.len()))
    }

    #[inline]
    pub fn iter(self) -> impl Iterator<Item = u32> + Clone {
        iter(self.raw()).map(u32::from)
    }
}

impl<W: Word> fmt::Debug for Bits<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<W: Word> FromIterator<u32> for Bits<W> {
    fn from_iter<I: IntoIterator<Item = u32>>(iter: I) -> Self {
        let mut set = Self::default();
        for m in iter {
            set.insert(m);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn count_and_nth_agree_with_the_obvious_loop(mask in any::<u64>(), k in 0u32..70) {
            prop_assert_eq!(count(mask), mask.count_ones());
            let mut m = mask;
            for _ in 0..k {
                m &= m.wrapping_sub(1);
            }
            let want = (m != 0).then(|| m.trailing_zeros() as u8);
            prop_assert_eq!(nth(mask, k), want);
            prop_assert_eq!(nth(mask & 0xff, k), (k < (mask & 0xff).count_ones()).then(|| iter(mask & 0xff).nth(k as usize)).flatten());
        }

        #[test]
        fn a_set_over_a_small_word_never_holds_members_beyond_it(members in proptest::collection::vec(0u32..40, 0..20)) {
            let set: Bits<u16> = members.iter().copied().collect();
            let want: std::collections::BTreeSet<u32> = members.iter().copied().filter(|m| *m < 16).collect();
            prop_assert_eq!(set.iter().collect::<Vec<_>>(), want.iter().copied().collect::<Vec<_>>());
            prop_assert_eq!(set.len() as usize, want.len());
            prop_assert!(!set.contains(20));
        }
    }

    #[test]
    fn pick_draws_every_member_from_the_same_stream_as_below() {
        let set: Bits<u32> = [1, 5, 9, 30].into_iter().collect();
        let mut a = GameRng::from_seed(9);
        let mut b = GameRng::from_seed(9);
        let mut seen = Bits::<u32>::default();
        for _ in 0..200 {
            let got = set.pick(&mut a);
            let want = set.nth(b.below(4));
            assert_eq!(got, want);
            seen.insert(got.unwrap_or(0));
        }
        assert_eq!(seen, set);
        assert_eq!(Bits::<u8>::default().pick(&mut a), None);
    }
}
