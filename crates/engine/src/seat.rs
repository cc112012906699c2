//! Seats at the table and who is looking at the game.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The most seats any takuge game has (Secret Moon with the thief: 8).
pub const MAX_SEATS: usize = 16;

/// A place at the table, numbered from 0 in clockwise order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seat(pub u8);

impl Seat {
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Every seat of a table of `players`, in clockwise order.
    pub fn all(players: usize) -> impl Iterator<Item = Seat> + Clone {
        (0..players.min(MAX_SEATS) as u8).map(Seat)
    }

    /// The next seat clockwise at a table of `players`.
    pub const fn next(self, players: usize) -> Seat {
        Seat(((self.0 as usize + 1) % players) as u8)
    }
}

/// "seat 1" for the first seat: people count seats from 1, as the web table, every
/// log line and the terminal do (`Seat(0)` is the index, `{:?}` shows it).
impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", u16::from(self.0) + 1)
    }
}

/// A set of seats, as a bit mask: the seats that must decide now, the seats that
/// saw a card, the winners of a game.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(into = "Vec<Seat>", try_from = "Vec<Seat>")]
pub struct SeatSet(u16);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    pub const fn single(seat: Seat) -> SeatSet {
        SeatSet(bit(seat))
    }

    /// Seats `0..players`.
    pub const fn first(players: usize) -> SeatSet {
        if players >= 16 {
            SeatSet(u16::MAX)
        } else {
            SeatSet((1u16 << players) - 1)
        }
    }

    pub const fn bits(self) -> u16 {
        self.0
    }

    pub const fn from_bits(bits: u16) -> SeatSet {
        SeatSet(bits)
    }

    pub const fn contains(self, seat: Seat) -> bool {
        self.0 & bit(seat) != 0
    }

    pub fn insert(&mut self, seat: Seat) {
        self.0 |= bit(seat);
    }

    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !bit(seat);
    }

    pub const fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | bit(seat))
    }

    pub const fn union(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 | other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline]
    pub const fn len(self) -> usize {
        crate::bits::count16(self.0) as usize
    }

    /// The lowest seat in the set.
    pub const fn first_seat(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(Seat(self.0.trailing_zeros() as u8))
        }
    }

    pub fn iter(self) -> impl Iterator<Item = Seat> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                None
            } else {
                let seat = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                Some(Seat(seat))
            }
        })
    }
}

/// The bit of a seat; seats beyond [`MAX_SEATS`] have none (they are never members).
const fn bit(seat: Seat) -> u16 {
    if seat.0 < 16 {
        1 << seat.0
    } else {
        0
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> Self {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|s| s.0)).finish()
    }
}

impl From<SeatSet> for Vec<Seat> {
    fn from(set: SeatSet) -> Self {
        set.iter().collect()
    }
}

impl TryFrom<Vec<Seat>> for SeatSet {
    type Error = String;
    fn try_from(seats: Vec<Seat>) -> Result<Self, Self::Error> {
        match seats.iter().find(|s| s.index() >= MAX_SEATS) {
            Some(bad) => Err(format!(
                "{bad} is beyond the largest table ({MAX_SEATS} seats)"
            )),
            None => Ok(seats.into_iter().collect()),
        }
    }
}

/// A seat checked against a table of at most `N` seats: the only index a [`SeatMap`]
/// takes. Made only by [`Seated::check`] (or by iterating a table's seats), so a seat
/// number read from input is refused once, where it enters, instead of being clamped
/// into some other seat's slot (`.min(N - 1)`, `% n`) deep in the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Seated<const N: usize>(u8);

impl<const N: usize> Seated<N> {
    /// `seat` if it is at a table of `players` (and `players` fits in `N`).
    #[inline]
    pub const fn check(seat: Seat, players: usize) -> Option<Self> {
        if seat.index() < players && seat.index() < N {
            Some(Seated(seat.0))
        } else {
            None
        }
    }

    /// The first seat (every table has one).
    pub const FIRST: Self = {
        assert!(N > 0, "a table has at least one seat");
        Seated(0)
    };

    #[inline]
    pub const fn seat(self) -> Seat {
        Seat(self.0)
    }

    #[inline]
    pub const fn index(self) -> usize {
        // SAFETY: a `Seated<N>` is below `N` by construction: `check` refuses the rest,
        // `FIRST` is 0 (and asserts `N > 0`), `next`/`after` wrap below `players.min(N)`,
        // `all` counts below `N`, and the field is private. Telling the compiler so lets
        // `SeatMap` indexing skip its bounds check on every playout step.
        unsafe { std::hint::assert_unchecked((self.0 as usize) < N) };
        self.0 as usize
    }

    /// The next seat clockwise at a table of `players`.
    #[inline]
    pub const fn next(self, players: usize) -> Self {
        let n = if players == 0 || players > N {
            N
        } else {
            players
        };
        // A compare, not `%`: a division on every turn of every playout costs.
        let i = self.0 as usize + 1;
        Seated((if i >= n { 0 } else { i }) as u8)
    }

    /// The seat `steps` places clockwise at a table of `players`.
    #[inline]
    pub const fn after(self, steps: usize, players: usize) -> Self {
        let n = if players == 0 || players > N {
            N
        } else {
            players
        };
        let steps = if steps >= n { steps % n } else { steps };
        let i = self.0 as usize + steps;
        Seated((if i >= n { i - n } else { i }) as u8)
    }

    /// Every seat of a table of `players`, clockwise from seat 0.
    pub fn all(players: usize) -> impl Iterator<Item = Self> + Clone {
        (0..players.min(N) as u8).map(Seated)
    }
}

/// The first seat: a filler for unused places of fixed lists (every table has seat 0).
impl<const N: usize> Default for Seated<N> {
    fn default() -> Self {
        Seated::FIRST
    }
}

impl<const N: usize> From<Seated<N>> for Seat {
    fn from(s: Seated<N>) -> Seat {
        s.seat()
    }
}

impl<const N: usize> fmt::Display for Seated<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.seat().fmt(f)
    }
}

/// One `T` per seat of a table of at most `N`, indexed only by a [`Seated<N>`] (never
/// out of bounds, never clamped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SeatMap<T, const N: usize>([T; N]);

impl<T: Copy + Default, const N: usize> Default for SeatMap<T, N> {
    fn default() -> Self {
        SeatMap([T::default(); N])
    }
}

impl<T, const N: usize> SeatMap<T, N> {
    pub const fn new(items: [T; N]) -> Self {
        SeatMap(items)
    }

    /// The entry of a raw seat, if it is one of the first `N` (for views and other
    /// read-only callers that hold a plain [`Seat`]).
    #[inline]
    pub fn get(&self, seat: Seat) -> Option<&T> {
        self.0.get(seat.index())
    }

    /// The entries of the first `players` seats.
    #[inline]
    pub fn first(&self, players: usize) -> &[T] {
        &self.0[..players.min(N)]
    }

    #[inline]
    pub fn first_mut(&mut self, players: usize) -> &mut [T] {
        &mut self.0[..players.min(N)]
    }

    /// Every entry, with its seat.
    pub fn iter(&self, players: usize) -> impl Iterator<Item = (Seated<N>, &T)> {
        Seated::all(players).zip(self.0.iter())
    }
}

impl<T, const N: usize> std::ops::Index<Seated<N>> for SeatMap<T, N> {
    type Output = T;
    #[inline]
    fn index(&self, seat: Seated<N>) -> &T {
        // In bounds: a `Seated<N>` is below `N` by construction.
        &self.0[seat.index()]
    }
}

impl<T, const N: usize> std::ops::IndexMut<Seated<N>> for SeatMap<T, N> {
    #[inline]
    fn index_mut(&mut self, seat: Seated<N>) -> &mut T {
        &mut self.0[seat.index()]
    }
}

/// Who a view is drawn for: a seated player, or a spectator who sees only what is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    Seat(Seat),
    Spectator,
}

impl Viewer {
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_set_len_counts_every_member() {
        for bits in [0u16, 1, 0b1011, 0x8001, 0x00ff, 0xff00, u16::MAX] {
            assert_eq!(SeatSet::from_bits(bits).len(), bits.count_ones() as usize);
        }
    }

    #[test]
    fn seat_set_iterates_in_seat_order() {
        let set: SeatSet = [Seat(4), Seat(0), Seat(2)].into_iter().collect();
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![Seat(0), Seat(2), Seat(4)]
        );
        assert_eq!(set.len(), 3);
        assert_eq!(set.first_seat(), Some(Seat(0)));
        assert!(set.contains(Seat(2)) && !set.contains(Seat(3)));
    }

    #[test]
    fn a_seat_beyond_the_table_is_refused_not_clamped() {
        assert_eq!(Seated::<5>::check(Seat(3), 4).map(Seated::index), Some(3));
        assert_eq!(Seated::<5>::check(Seat(4), 4), None);
        assert_eq!(Seated::<5>::check(Seat(5), 9), None);
        let last = Seated::<5>::check(Seat(3), 4).unwrap_or(Seated::FIRST);
        assert_eq!(last.next(4), Seated::FIRST);
        assert_eq!(last.after(6, 4).index(), 1);
        let mut map = SeatMap::<u8, 5>::default();
        map[last] = 7;
        assert_eq!(map.get(Seat(3)), Some(&7));
        assert_eq!(map.first(4), &[0, 0, 0, 7]);
        assert_eq!(map.get(Seat(9)), None);
    }

    #[test]
    fn seat_set_json_is_a_list_and_rejects_seats_beyond_the_table() {
        let set = SeatSet::first(3);
        assert_eq!(serde_json::to_string(&set).unwrap(), "[0,1,2]");
        assert!(serde_json::from_str::<SeatSet>("[1,40]").is_err());
    }
}
