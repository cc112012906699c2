//! Action-order cards (行動順カード): dealt each round, played from the lowest number,
//! discarded face up after acting, or face down when never played.

use crate::options::ORDER_CARDS;
use takuge_engine::{GameRng, Seat, SeatSet};

/// An order card's number, 1..=ORDER_CARDS.
pub type OrderNumber = u8;

/// Where one order card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderLoc {
    /// In a player's hand, not yet played this round (its number is secret).
    Held(Seat),
    /// Taken by a player who passed (パス), for the next round; public (横向き).
    Reserved(Seat),
    /// Played, or sabotaged after a pass: face up in the discard pile.
    DiscardUp,
    /// Face down in the discard pile: never dealt, or discarded unplayed by sabotage or
    /// capture. `seen` knows its number; `above` is what every seat knows of it: it
    /// was higher than the card being played when it was discarded (0 if never dealt).
    DiscardDown { seen: SeatSet, above: OrderNumber },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderCards {
    loc: [OrderLoc; ORDER_CARDS],
}

impl Default for OrderCards {
    fn default() -> Self {
        OrderCards {
            loc: [OrderLoc::DiscardDown {
                seen: SeatSet::EMPTY,
                above: 0,
            }; ORDER_CARDS],
        }
    }
}

const fn number_of(index: usize) -> OrderNumber {
    index as OrderNumber + 1
}

impl OrderCards {
    #[inline]
    pub fn loc(&self, number: OrderNumber) -> Option<OrderLoc> {
        self.loc.get(usize::from(number).wrapping_sub(1)).copied()
    }

    #[inline]
    pub(crate) fn set(&mut self, number: OrderNumber, loc: OrderLoc) {
        if let Some(l) = self.loc.get_mut(usize::from(number).wrapping_sub(1)) {
            *l = loc;
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (OrderNumber, OrderLoc)> + '_ {
        self.loc.iter().enumerate().map(|(i, l)| (number_of(i), *l))
    }

    /// The unplayed card `seat` holds this round.
    pub fn held_by(&self, seat: Seat) -> Option<OrderNumber> {
        self.iter()
            .find(|(_, l)| *l == OrderLoc::Held(seat))
            .map(|(n, _)| n)
    }

    /// The card `seat` took for the next round.
    pub fn reserved_by(&self, seat: Seat) -> Option<OrderNumber> {
        self.iter()
            .find(|(_, l)| *l == OrderLoc::Reserved(seat))
            .map(|(n, _)| n)
    }

    /// The holder of the lowest unplayed card: who acts next.
    #[inline]
    pub fn next_actor(&self) -> Option<(OrderNumber, Seat)> {
        self.iter().find_map(|(n, l)| match l {
            OrderLoc::Held(s) => Some((n, s)),
            _ => None,
        })
    }

    #[inline]
    pub fn in_discard(&self, number: OrderNumber) -> bool {
        matches!(
            self.loc(number),
            Some(OrderLoc::DiscardUp | OrderLoc::DiscardDown { .. })
        )
    }

    /// Ⅰ. Deals one card to each seat in `needs` (in seat order) from the cards not
    /// reserved; reserved cards become their holders' cards for this round; the rest
    /// go face down to the discard pile.
    pub(crate) fn deal(&mut self, needs: SeatSet, captured: SeatSet, rng: &mut GameRng) {
        let mut deck = [0 as OrderNumber; ORDER_CARDS];
        let mut len = 0;
        for (i, l) in self.loc.iter_mut().enumerate() {
            match *l {
                OrderLoc::Reserved(s) if !captured.contains(s) => *l = OrderLoc::Held(s),
                _ => {
                    deck[len] = number_of(i);
                    len += 1;
                }
            }
        }
        let deck = &mut deck[..len];
        rng.shuffle(deck);
        let mut cards = deck.iter();
        for seat in needs.iter() {
            if let Some(&n) = cards.next() {
                self.set(n, OrderLoc::Held(seat));
            }
        }
        for &n in cards {
            self.set(
                n,
                OrderLoc::DiscardDown {
                    seen: SeatSet::EMPTY,
                    above: 0,
                },
            );
        }
    }

    /// The seat looks through the whole discard pile (to take a card after passing).
    pub(crate) fn look_through_discard(&mut self, seat: Seat) {
        for l in self.loc.iter_mut() {
            if let OrderLoc::DiscardDown { seen, .. } = l {
                seen.insert(seat);
            }
        }
    }

    /// Discards whatever `seat` holds: an unplayed card face down (only its holder
    /// knows it, and everyone knows it was above `current`), a reserved one face up.
    #[inline]
    pub(crate) fn discard_unplayed(&mut self, seat: Seat, current: OrderNumber) {
        for l in self.loc.iter_mut() {
            match *l {
                OrderLoc::Held(s) if s == seat => {
                    *l = OrderLoc::DiscardDown {
                        seen: SeatSet::single(seat),
                        above: current,
                    }
                }
                OrderLoc::Reserved(s) if s == seat => *l = OrderLoc::DiscardUp,
                _ => {}
            }
        }
    }
}
