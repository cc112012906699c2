//! Action-order cards (行動順カード): dealt each round, played from the lowest number,
//! then discarded. Whose number is whose is secret (「行動順カードによる順番は公開されません」):
//! each player knows their own, and a played card goes face down — unless the table
//! plays with the order public (`Options::public_order`), where the card being played
//! is shown and goes face up. A card everyone knows (one taken by a pass) goes face up.

use crate::options::{MAX_PLAYERS, ORDER_CARDS};
use takuge_engine::{bits, GameRng, Seat, SeatSet};

/// An order card's number, 1..=ORDER_CARDS.
pub type OrderNumber = u8;

/// Where one order card is. `Default` only pads inline lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OrderLoc {
    /// In a player's hand, not yet played this round.
    Held(Seat),
    /// Taken by a player who passed (パス), for the next round; public (横向き).
    Reserved(Seat),
    /// Face up in the discard pile: everyone knows its number.
    #[default]
    DiscardUp,
    /// Face down in the discard pile: its number is known to the player whose card it
    /// was and to the players who looked through the pile while it lay there.
    DiscardDown,
}

/// What the table saw happen to an order card this round, whatever its number: who
/// held it, and when it left their hand. Players act from the lowest number up, so
/// this bounds the numbers a seat that cannot see them must allow (`determinize`).
/// Turns are counted from 1 within the round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// Not dealt this round: face down in the pile from the start.
    #[default]
    Undealt,
    /// In this player's hand this round (dealt, or taken up from a reservation), not
    /// played yet.
    Dealt(Seat),
    /// Played by this player at this turn (including a player captured during their
    /// own turn): higher than every card played before.
    Played(Seat, u8),
    /// Discarded unplayed from this player's hand during this turn (sabotage, capture):
    /// higher than the card played at that turn.
    Discarded(Seat, u8),
}

impl Origin {
    /// The player whose card it was this round.
    pub fn holder(self) -> Option<Seat> {
        match self {
            Origin::Undealt => None,
            Origin::Dealt(s) | Origin::Played(s, _) | Origin::Discarded(s, _) => Some(s),
        }
    }

    /// The turn it went to the discard pile (0: before the first; none while held).
    /// A player looking through the pile at turn `t` sees the cards that went there
    /// before `t` and are still there.
    pub fn into_pile(self) -> Option<u8> {
        match self {
            Origin::Undealt => Some(0),
            Origin::Dealt(_) => None,
            Origin::Played(_, t) | Origin::Discarded(_, t) => Some(t),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderCards {
    loc: [OrderLoc; ORDER_CARDS],
    /// What happened to each card this round (by number, like `loc`).
    origin: [Origin; ORDER_CARDS],
    /// The turn at which each card was taken by a pass this round (0: not taken).
    taken: [u8; ORDER_CARDS],
    /// The turn at which each seat looked through the pile this round (0: it did not).
    looked: [u8; MAX_PLAYERS],
    /// Bit `n - 1` set when card `n` is `Held` / `Reserved`: kept in step with `loc`
    /// by [`Self::put`], the only writer, so that who acts next and who holds a card
    /// are bit operations instead of scans (every step of every playout asks).
    held: u8,
    reserved: u8,
    /// Bit `n - 1` set when everyone knows where card `n` is this round: it was taken
    /// by a pass last round (「選んだカードは全プレイヤーに公開されます」).
    open: u8,
    /// The seats holding a card, unplayed or reserved: recounted by every writer but
    /// the hot one ([`Self::play`]), which knows what changed.
    holders: SeatSet,
    /// Turns finished this round.
    turns: u8,
    /// The table option `public_order`: the card being played is shown and discarded
    /// face up.
    public: bool,
}

impl Default for OrderCards {
    fn default() -> Self {
        OrderCards::new(false)
    }
}

const fn number_of(index: usize) -> OrderNumber {
    index as OrderNumber + 1
}

impl OrderCards {
    /// No card dealt yet; `public`: the table plays with the order public.
    pub(crate) fn new(public: bool) -> OrderCards {
        OrderCards {
            loc: [OrderLoc::DiscardDown; ORDER_CARDS],
            origin: [Origin::Undealt; ORDER_CARDS],
            taken: [0; ORDER_CARDS],
            looked: [0; MAX_PLAYERS],
            held: 0,
            reserved: 0,
            open: 0,
            holders: SeatSet::EMPTY,
            turns: 0,
            public,
        }
    }

    /// Whether the table plays with the order public (`Options::public_order`).
    pub fn public(&self) -> bool {
        self.public
    }

    /// Whether everyone knows where card `number` is this round (taken by a pass).
    #[inline]
    pub fn is_open(&self, number: OrderNumber) -> bool {
        number >= 1 && usize::from(number) <= ORDER_CARDS && self.open & (1 << (number - 1)) != 0
    }

    /// The turn of the round being played (from 1).
    #[inline]
    pub fn turn(&self) -> u8 {
        self.turns + 1
    }

    #[inline]
    pub fn loc(&self, number: OrderNumber) -> Option<OrderLoc> {
        self.loc.get(usize::from(number).wrapping_sub(1)).copied()
    }

    /// What happened to card `number` this round.
    #[inline]
    pub fn origin(&self, number: OrderNumber) -> Option<Origin> {
        self.origin
            .get(usize::from(number).wrapping_sub(1))
            .copied()
    }

    /// The turn at which card `number` was taken by a pass this round (0: not taken).
    #[inline]
    pub fn taken_at(&self, number: OrderNumber) -> u8 {
        self.taken
            .get(usize::from(number).wrapping_sub(1))
            .copied()
            .unwrap_or(0)
    }

    /// The turn at which `seat` looked through the pile this round (0: it did not).
    #[inline]
    pub fn looked_at(&self, seat: Seat) -> u8 {
        self.looked.get(seat.index()).copied().unwrap_or(0)
    }

    /// Whether `seat` knows the number of face-down card `number`: it was its own, or
    /// it lay in the pile when the seat looked through it.
    pub fn seen_face_down(&self, number: OrderNumber, seat: Seat) -> bool {
        let Some(origin) = self.origin(number) else {
            return false;
        };
        self.loc(number) == Some(OrderLoc::DiscardDown)
            && (origin.holder() == Some(seat)
                || origin.into_pile().is_some_and(|t| t < self.looked_at(seat)))
    }

    /// Card `number` is at `loc` and came from `origin` (for a redraw).
    #[inline]
    pub(crate) fn set(&mut self, number: OrderNumber, loc: OrderLoc, origin: Origin) {
        let i = usize::from(number).wrapping_sub(1);
        if let Some(o) = self.origin.get_mut(i) {
            *o = origin;
        }
        self.put(i, loc);
        self.recount();
    }

    /// Card `number` is held by `seat` from the deal (rule tests set up the deal).
    pub(crate) fn give(&mut self, number: OrderNumber, seat: Seat) {
        self.set(number, OrderLoc::Held(seat), Origin::Dealt(seat));
    }

    /// パス: `seat` takes card `number` from the pile for the next round.
    pub(crate) fn take(&mut self, number: OrderNumber, seat: Seat) {
        let i = usize::from(number).wrapping_sub(1);
        if let Some(t) = self.taken.get_mut(i) {
            *t = self.turns + 1;
        }
        self.put(i, OrderLoc::Reserved(seat));
        self.recount();
    }

    /// Ends `actor`'s turn: the card they played goes to the discard pile (if they
    /// still hold it: a saboteur's went already) and the next turn begins.
    #[inline]
    pub(crate) fn play(&mut self, number: OrderNumber, actor: Seat) {
        self.discard_played(number, actor);
        self.turns = self.turns.saturating_add(1);
    }

    /// The card `actor` played this turn goes to the discard pile: face down while the
    /// order is secret, face up when it is public or the card is one everyone knows.
    #[inline]
    pub(crate) fn discard_played(&mut self, number: OrderNumber, actor: Seat) {
        let i = usize::from(number).wrapping_sub(1);
        if self.loc.get(i) == Some(&OrderLoc::Held(actor)) {
            let loc = self.played_loc(number);
            if let Some(o) = self.origin.get_mut(i) {
                *o = Origin::Played(actor, self.turns + 1);
            }
            self.put(i, loc);
            // A seat holds one unplayed card at most (one is dealt to each, and a
            // redeal only swaps numbers), so only a reserved card can keep it a holder.
            if self.reserved == 0 {
                self.holders.remove(actor);
            } else {
                self.recount();
            }
        }
    }

    /// Where a card played at this turn goes.
    #[inline]
    fn played_loc(&self, number: OrderNumber) -> OrderLoc {
        if self.public || self.is_open(number) {
            OrderLoc::DiscardUp
        } else {
            OrderLoc::DiscardDown
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
                OrderLoc::DiscardUp | OrderLoc::DiscardDown => {}
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
            Some(OrderLoc::DiscardUp | OrderLoc::DiscardDown)
        )
    }

    /// Ⅰ. Deals one card to each seat in `needs` (in seat order) from the cards not
    /// reserved; reserved cards become their holders' cards for this round; the rest
    /// go face down to the discard pile. Only the dealt cards are drawn (a partial
    /// shuffle): which cards stay face down, and in what order, is never seen.
    pub(crate) fn deal(&mut self, needs: SeatSet, captured: SeatSet, rng: &mut GameRng) {
        self.turns = 0;
        self.open = 0;
        self.taken = [0; ORDER_CARDS];
        self.looked = [0; MAX_PLAYERS];
        self.origin = [Origin::Undealt; ORDER_CARDS];
        for i in bits::iter(u64::from(self.reserved)).map(usize::from) {
            if let Some(&OrderLoc::Reserved(s)) = self.loc.get(i) {
                if !captured.contains(s) {
                    self.put(i, OrderLoc::Held(s));
                    if let Some(o) = self.origin.get_mut(i) {
                        *o = Origin::Dealt(s);
                    }
                    // Everyone saw it taken: its number stays public.
                    self.open |= 1 << i;
                }
            }
        }
        // The round starts with no card held, so every card not just taken up is dealt.
        let face_down = OrderLoc::DiscardDown;
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
            if let (Some(l), Some(o)) = (self.loc.get_mut(i), self.origin.get_mut(i)) {
                *l = OrderLoc::Held(seat);
                *o = Origin::Dealt(seat);
                self.held |= 1 << i;
            }
        }
        self.recount();
    }

    /// The seat looks through the whole discard pile (to take a card after passing).
    pub(crate) fn look_through_discard(&mut self, seat: Seat) {
        if let Some(l) = self.looked.get_mut(seat.index()) {
            *l = self.turns + 1;
        }
    }

    /// Discards whatever `seat` holds, when it is sabotaged or captured during the turn
    /// of the card `current`: an unplayed card face down (only its holder knows it,
    /// and everyone knows it was above the card played at this turn) — or, if it is
    /// `current` itself (its player captured during their own turn), as a played card
    /// face down; a card everyone knows (reserved, or taken up from a reservation)
    /// face up.
    #[inline]
    pub(crate) fn discard_unplayed(&mut self, seat: Seat, current: OrderNumber) {
        let turn = self.turn();
        for i in bits::iter(u64::from(self.held | self.reserved)).map(usize::from) {
            let number = number_of(i);
            let face = if self.is_open(number) {
                OrderLoc::DiscardUp
            } else {
                OrderLoc::DiscardDown
            };
            match self.loc.get(i) {
                Some(&OrderLoc::Held(s)) if s == seat => {
                    if let Some(o) = self.origin.get_mut(i) {
                        *o = if number == current {
                            Origin::Played(seat, turn)
                        } else {
                            Origin::Discarded(seat, turn)
                        };
                    }
                    self.put(i, face);
                }
                Some(&OrderLoc::Reserved(s)) if s == seat => self.put(i, OrderLoc::DiscardUp),
                _ => {}
            }
        }
        self.recount();
    }
}
