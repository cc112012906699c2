//! Action-order cards (行動順カード): dealt each round, played from the lowest number,
//! discarded face up after acting, or face down when never played.

use crate::options::ORDER_CARDS;
use takuge_engine::{bits, GameRng, Seat, SeatSet};

/// An order card's number, 1..=ORDER_CARDS.
pub type OrderNumber = u8;

/// Where one order card is. `Default` only pads inline lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OrderLoc {
    /// In a player's hand, not yet played this round (its number is secret).
    Held(Seat),
    /// Taken by a player who passed (パス), for the next round; public (横向き).
    Reserved(Seat),
    /// Played, or sabotaged after a pass: face up in the discard pile.
    #[default]
    DiscardUp,
    /// Face down in the discard pile: never dealt, or discarded unplayed by sabotage or
    /// capture. `seen` knows its number; `above` is what every seat knows of it: it
    /// was higher than the card being played when it was discarded (0 if never dealt).
    DiscardDown { seen: SeatSet, above: OrderNumber },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderCards {
    loc: [OrderLoc; ORDER_CARDS],
    /// Bit `n - 1` set when card `n` is `Held` / `Reserved`: kept in step with `loc`
    /// by [`Self::put`], the only writer, so that who acts next and who holds a card
    /// are bit operations instead of scans (every step of every playout asks).
    held: u8,
    reserved: u8,
    /// The seats holding a card, unplayed or reserved: recounted by every writer but
    /// the hot one ([`Self::play`]), which knows what changed.
    holders: SeatSet,
}

impl Default for OrderCards {
    fn default() -> Self {
        OrderCards {
            loc: [OrderLoc::DiscardDown {
                seen: SeatSet::EMPTY,
                above: 0,
            }; ORDER_CARDS],
            held: 0,
            reserved: 0,
            holders: SeatSet::EMPTY,
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
        self.put(usize::from(number).wrapping_sub(1), loc);
        self.recount();
    }

    /// The card `actor` is playing goes face up to the discard pile (after its turn).
    #[inline]
    pub(crate) fn play(&mut self, number: OrderNumber, actor: Seat) {
        let i = usize::from(number).wrapping_sub(1);
        if self.loc.get(i) == Some(&OrderLoc::Held(actor)) {
            self.put(i, OrderLoc::DiscardUp);
            // A seat holds one unplayed card at most (one is dealt to each, and a
            // redeal only swaps numbers), so only a reserved card can keep it a holder.
            if self.reserved == 0 {
                self.holders.remove(actor);
            } else {
                self.recount();
            }
        }
    }

    fn recount(&mut self) {
        let mut set = SeatSet::EMPTY;
        for i in bits::iter(u64::from(self.held | self.reserved)).map(usize::from) {
            if let Some(OrderLoc::Held(s) | OrderLoc::Reserved(s)) = self.loc.get(i) {
                set.insert(*s);
            }
        }
        self.holders = set;
    }

    /// Writes card `index + 1`'s place and its bits in the masks.
    #[inline]
    fn put(&mut self, index: usize, loc: OrderLoc) {
        if let Some(l) = self.loc.get_mut(index) {
            *l = loc;
            let bit = 1u8 << index;
            self.held &= !bit;
            self.reserved &= !bit;
            match loc {
                OrderLoc::Held(_) => self.held |= bit,
                OrderLoc::Reserved(_) => self.reserved |= bit,
                OrderLoc::DiscardUp | OrderLoc::DiscardDown { .. } => {}
            }
        }
    }

    /// The seats holding a card, unplayed or reserved (those sabotage can hit).
    #[inline]
    pub(crate) fn holders(&self) -> SeatSet {
        self.holders
    }

    /// The seats that took a card for the next round.
    #[inline]
    pub(crate) fn reserving_seats(&self) -> SeatSet {
        let mut set = SeatSet::EMPTY;
        for i in bits::iter(u64::from(self.reserved)).map(usize::from) {
            if let Some(OrderLoc::Reserved(s)) = self.loc.get(i) {
                set.insert(*s);
            }
        }
        set
    }

    /// Whether any card is in the discard pile (face up or down).
    #[inline]
    pub(crate) fn pile_has_cards(&self) -> bool {
        (self.held | self.reserved) != u8::MAX
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
        let i = self.held.trailing_zeros() as usize;
        match self.loc.get(i) {
            Some(OrderLoc::Held(s)) => Some((number_of(i), *s)),
            _ => None,
        }
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
    /// go face down to the discard pile. Only the dealt cards are drawn (a partial
    /// shuffle): which cards stay face down, and in what order, is never seen.
    pub(crate) fn deal(&mut self, needs: SeatSet, captured: SeatSet, rng: &mut GameRng) {
        for i in bits::iter(u64::from(self.reserved)).map(usize::from) {
            if let Some(&OrderLoc::Reserved(s)) = self.loc.get(i) {
                if !captured.contains(s) {
                    self.put(i, OrderLoc::Held(s));
                }
            }
        }
        // The round starts with no card held, so every card not just taken up is dealt.
        let face_down = OrderLoc::DiscardDown {
            seen: SeatSet::EMPTY,
            above: 0,
        };
        let mut deck = [0 as OrderNumber; ORDER_CARDS];
        let mut len = 0;
        if self.held == 0 {
            // Nobody took a card up: the whole set, all going face down first.
            for (i, d) in deck.iter_mut().enumerate() {
                *d = number_of(i);
            }
            len = ORDER_CARDS;
            self.loc = [face_down; ORDER_CARDS];
        } else {
            for i in bits::iter(u64::from(!self.held)).map(usize::from) {
                if let (Some(d), Some(l)) = (deck.get_mut(len), self.loc.get_mut(i)) {
                    *d = number_of(i);
                    *l = face_down;
                    len += 1;
                }
            }
        }
        let deck = deck.get_mut(..len).unwrap_or_default();
        rng.partial_shuffle(deck, needs.len());
        // The dealt cards go to their seats; no card stays reserved (one still in the
        // deck was its captured holder's).
        self.reserved = 0;
        for (seat, &n) in needs.iter().zip(deck.iter()) {
            let i = usize::from(n).wrapping_sub(1);
            if let Some(l) = self.loc.get_mut(i) {
                *l = OrderLoc::Held(seat);
                self.held |= 1 << i;
            }
        }
        self.recount();
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
        for i in bits::iter(u64::from(self.held | self.reserved)).map(usize::from) {
            match self.loc.get(i) {
                Some(&OrderLoc::Held(s)) if s == seat => self.put(
                    i,
                    OrderLoc::DiscardDown {
                        seen: SeatSet::single(seat),
                        above: current,
                    },
                ),
                Some(&OrderLoc::Reserved(s)) if s == seat => self.put(i, OrderLoc::DiscardUp),
                _ => {}
            }
        }
        self.recount();
    }
}
