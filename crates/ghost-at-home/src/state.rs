//! The state of a game of Ghost at Home: what is where (houses, hands, deck, discard
//! pile) and whose decision it is. The rules that change it are in `rules/`, those
//! that say what may be played in `legal.rs`.

use crate::cards::{Card, Counts, Floor};
use crate::hand::Hand;
use crate::types::{Next, Options, Owner, PerSeat, Seated, MAX_CARDS, MAX_PLAYERS};
use takuge_engine::{FixedList, GameRng};

/// One floor of a house: two room spaces (left, right), the cats on its
/// rooms, the ghost on it and its light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FloorState {
    /// The room cards, filled from the left: the two spaces are interchangeable, so the
    /// game does not ask which one (see the rules doc).
    pub rooms: [Option<Card>; 2],
    /// Cats on the rooms (one per room at most: 他の猫の上に置いてはいけません).
    pub cats: u8,
    /// A ghost staying on this floor (only ever on a lit floor between actions).
    pub ghost: bool,
    /// The light is on (the floor card is turned to its bright side).
    pub lit: bool,
}

impl FloorState {
    pub fn room_count(&self) -> u8 {
        u8::from(self.rooms[0].is_some()) + u8::from(self.rooms[1].is_some())
    }

    pub fn is_full(&self) -> bool {
        self.rooms[0].is_some() & self.rooms[1].is_some()
    }

    fn has_room(&self) -> bool {
        self.rooms[0].is_some() | self.rooms[1].is_some()
    }
}

/// A haunted house: three floors under a roof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct House {
    pub(crate) floors: [FloorState; 3],
    /// Bit `i` set when floor `i` is full; kept in step with `floors` by `sync`.
    full: u8,
    /// Bit `i` set when floor `i` has a room card; kept in step by `sync`.
    explored: u8,
}

impl House {
    pub(crate) fn floor(&self, f: Floor) -> &FloorState {
        &self.floors[f.index()]
    }

    pub(crate) fn floor_mut(&mut self, f: Floor) -> &mut FloorState {
        &mut self.floors[f.index()]
    }

    /// Every room explored (探索し尽くされた).
    pub(crate) fn is_full(&self) -> bool {
        self.full_mask() == 0b111
    }

    /// Bit `i` set when floor `i` is full.
    pub(crate) fn full_mask(&self) -> u8 {
        self.full
    }

    /// Recomputes the summary bits after the rooms of a floor changed.
    pub(crate) fn sync(&mut self) {
        let mut full = 0;
        let mut explored = 0;
        for (i, floor) in self.floors.iter().enumerate() {
            full |= u8::from(floor.is_full()) << i;
            explored |= u8::from(floor.has_room()) << i;
        }
        self.full = full;
        self.explored = explored;
    }

    /// The floor where the next room goes: the lowest one not full (a room may only go
    /// on a floor whose lower floors are full).
    pub(crate) fn open_floor(&self) -> Option<Floor> {
        Floor::from_index(self.full.trailing_ones() as usize)
    }
    /// The highest floor with a room card (相手の部屋カードがある最上階).
    pub(crate) fn top_room_floor(&self) -> Option<Floor> {
        match self.explored {
            0 => None,
            bits => Floor::from_index(7 - bits.leading_zeros() as usize),
        }
    }

    /// Bit `i` set when floor `i` has a room card.
    pub(crate) fn explored_mask(&self) -> u8 {
        self.explored
    }
}

/// The draw pile (山札): a multiset, drawn from at random (so its order is never
/// looked at, only kept: a determinization redraws it in place).
pub(crate) type Deck = FixedList<Card, MAX_CARDS>;

/// A card of the discard pile and who may know it ([`Discarded::owner`]). The owner
/// is kept as one plain byte, the discarding seat or [`Discarded::PUBLIC`]: with an
/// [`Owner`] field (whose seat byte is undefined when public) a new empty pile, at
/// every reshuffle, was written entry by entry (~110 stores); now it is zeroed memory.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Discarded {
    pub(crate) card: Card,
    owner: u8,
}

impl Discarded {
    /// The owner byte of a card discarded face up (no seat: seats are below
    /// `MAX_PLAYERS`).
    const PUBLIC: u8 = u8::MAX;

    pub(crate) fn new(card: Card, owner: Owner) -> Self {
        let owner = match owner {
            Owner::Public => Self::PUBLIC,
            Owner::Secret(seat) => seat.index() as u8,
        };
        Discarded { card, owner }
    }

    /// Who may know the card.
    #[inline]
    pub(crate) fn owner(self) -> Owner {
        match Seated::check(takuge_engine::Seat(self.owner), MAX_PLAYERS) {
            Some(seat) => Owner::Secret(seat),
            None => Owner::Public,
        }
    }
}

/// The discard pile (捨て札). Cards discarded face up are public; the cards a player
/// discards with the "discard and draw" action are known to that player only
/// (捨て札がなんだったかは他のプレイヤーには秘密です). Kept in the order discarded, which is
/// the order a reshuffle starts from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pile(pub(crate) FixedList<Discarded, MAX_CARDS>);

impl Pile {
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Adds a card on top (the pile holds every card of the game at most: never full).
    pub(crate) fn push(&mut self, card: Card, owner: Owner) {
        let _ = self.0.push(Discarded::new(card, owner));
    }

    /// (card, owner) in the order discarded.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Card, Owner)> + '_ {
        self.0.iter().map(|d| (d.card, d.owner()))
    }

    /// The cards discarded face up.
    pub(crate) fn public(&self) -> Counts {
        let mut counts = Counts::EMPTY;
        for (card, owner) in self.iter() {
            if owner == Owner::Public {
                counts.add(card, 1);
            }
        }
        counts
    }

    /// The cards `seat` discarded face down, in the order discarded.
    pub(crate) fn secret(&self, seat: Seated) -> impl Iterator<Item = Card> + '_ {
        self.iter()
            .filter(move |&(_, o)| o == Owner::Secret(seat))
            .map(|(c, _)| c)
    }
}

/// Where the game stands: whose decision, and what kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The active player chooses one of the six actions.
    Choose,
    /// The active player has chosen to discard and picks the cards.
    Discarding,
    /// A ghost is on its way to `target`'s `floor`; `target` may discard a cat to stop it.
    Defence {
        target: Seated,
        floor: Floor,
        then: Next,
    },
    /// The active player is escaping; `asking` may play a ghost to stop them
    /// (`ghosts_left` of them).
    Escape {
        asking: Seated,
        ghosts_left: u8,
    },
    Over {
        winner: Seated,
    },
}

/// A game of Ghost at Home.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GhostAtHome {
    pub(crate) options: Options,
    pub(crate) players: u8,
    pub(crate) rng: GameRng,
    pub(crate) houses: PerSeat<House>,
    pub(crate) hands: PerSeat<Hand>,
    pub(crate) deck: Deck,
    pub(crate) pile: Pile,
    pub(crate) reshuffles: u16,
    pub(crate) active: Seated,
    pub(crate) phase: Phase,
    /// Turns begun so far (the first is 1).
    pub(crate) turn: u32,
}

impl GhostAtHome {
    pub(crate) fn players_usize(&self) -> usize {
        usize::from(self.players)
    }

    /// `seat`, if it is at this table: where a seat from outside enters.
    #[inline]
    pub(crate) fn seated(&self, seat: takuge_engine::Seat) -> Option<Seated> {
        Seated::check(seat, self.players_usize())
    }

    pub(crate) fn house(&self, seat: Seated) -> &House {
        &self.houses[seat]
    }

    pub(crate) fn house_mut(&mut self, seat: Seated) -> &mut House {
        &mut self.houses[seat]
    }

    pub(crate) fn hand(&self, seat: Seated) -> Hand {
        self.hands[seat]
    }

    pub(crate) fn hand_mut(&mut self, seat: Seated) -> &mut Hand {
        &mut self.hands[seat]
    }

    /// The seat `steps` places after `seat` in turn order (`steps` below the player
    /// count). A compare, not `Seated::after`'s division: this is on the path of every
    /// turn of a playout.
    #[inline]
    pub(crate) fn seat_after(&self, seat: Seated, steps: usize) -> Seated {
        let n = self.players_usize();
        let i = seat.index() + steps;
        let i = if i >= n { i - n } else { i };
        Seated::check(takuge_engine::Seat(i as u8), n).unwrap_or(Seated::FIRST)
    }

    /// The seat after `seat` in turn order: the engine's `Seated::next` (one compare;
    /// `seat_after`'s re-check of the seat cost a few instructions every turn).
    #[inline]
    pub(crate) fn next_seat(&self, seat: Seated) -> Seated {
        seat.next(self.players_usize())
    }

    /// The seats other than `seat`, in turn order after it.
    pub(crate) fn opponents(&self, seat: Seated) -> impl Iterator<Item = Seated> + '_ {
        (1..self.players_usize()).map(move |k| self.seat_after(seat, k))
    }

    pub(crate) fn winner(&self) -> Option<Seated> {
        match self.phase {
            Phase::Over { winner } => Some(winner),
            _ => None,
        }
    }

    pub(crate) fn phase(&self) -> Phase {
        self.phase
    }
}

impl GhostAtHome {
    /// Who must decide now (public): the active player, or the seat asked to defend or
    /// to stop an escape; nobody once the game is over.
    pub(crate) fn pending(&self) -> takuge_engine::SeatSet {
        use takuge_engine::SeatSet;
        match self.phase {
            Phase::Over { .. } => SeatSet::EMPTY,
            Phase::Defence { target, .. } => SeatSet::single(target.seat()),
            Phase::Escape { asking, .. } => SeatSet::single(asking.seat()),
            _ => SeatSet::single(self.active.seat()),
        }
    }

    /// The winner scores 1, everyone else 0 (the first to escape wins).
    pub(crate) fn result(&self) -> Option<takuge_engine::Outcome> {
        let winner = self.winner()?;
        let n = self.players_usize();
        let scores = (0..n)
            .map(|i| i64::from(i == winner.index()))
            .collect::<Vec<_>>();
        Some(takuge_engine::Outcome::from_scores(scores, vec![None; n]))
    }
}
