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

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "seat {}", self.0)
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
        (BYTE_ONES[(self.0 & 0xff) as usize] + BYTE_ONES[(self.0 >> 8) as usize]) as usize
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

/// Set bits per byte value. The default x86-64 target has no popcount instruction,
/// and its software fallback costs several times this lookup (setups and playouts
/// count seats at every deal).
const BYTE_ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 1;
    while i < 256 {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
};

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
    fn seat_set_json_is_a_list_and_rejects_seats_beyond_the_table() {
        let set = SeatSet::first(3);
        assert_eq!(serde_json::to_string(&set).unwrap(), "[0,1,2]");
        assert!(serde_json::from_str::<SeatSet>("[1,40]").is_err());
    }
}
