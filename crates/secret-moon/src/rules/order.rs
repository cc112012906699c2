//! Action-order cards (行動順カード): dealt each round, played from the lowest number,
//! then discarded. Whose number is whose is secret (「行動順カードによる順番は公開されません」):
//! each player knows their own, and a played card goes face down — unless the table
//! plays with the order public (`Options::public_order`), where the card being played
//! is shown and goes face up. A card everyone knows (one taken by a pass) goes face up.

use crate::options::ORDER_CARDS;
use takuge_engine::{bits, GameRng, Seat, SeatSet};

/// An order card's number, 1..=ORDER_CARDS.
pub type OrderNumber = u8;

/// Where one order card is, with the part of its history this round that the table
/// saw (whose hand it left, and at which turn): what `determinize` needs to redraw
/// hidden numbers consistently with the order in which the table saw players act.
/// Turns are counted from 1 within the round. `Default` only pads inline lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderLoc {
    /// In a player's hand, not yet played this round.
    Held(Seat),
    /// Taken by a player who passed (パス), for the next round; public (横向き).
    Reserved(Seat),
    /// Face up in the discard pile: everyone knows its number. `turn`: the turn it was
    /// played at, or 0 if it was not played this round (a reserved card discarded by
    /// sabotage or capture).
    DiscardUp { turn: u8 },
    /// Face down in the discard pile: never dealt (`from` none, turn 0); played by
    /// `from` at `turn` (`played`: the order is secret, or its player was captured
    /// during their own turn); or discarded unplayed from `from`'s hand during `turn`
    /// (sabotage or capture), so it was higher than the card played at `turn`. `from`
    /// knows its number; `seen` are the seats that looked through the pile while it
    /// lay there (they know it is among the numbers they saw).
    DiscardDown {
        from: Option<Seat>,
        turn: u8,
        played: bool,
        seen: SeatSet,
    },
}

impl Default for OrderLoc {
    fn default() -> Self {
        OrderLoc::DiscardUp { turn: 0 }
    }
}

/// A card never dealt this round.
const UNDEALT: OrderLoc = OrderLoc::DiscardDown {
    from: None,
    turn: 0,
    played: false,
    seen: SeatSet::EMPTY,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderCards {
    loc: [OrderLoc; ORDER_CARDS],
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
            loc: [UNDEALT; ORDER_CARDS],
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

    #[inline]
    pub(crate) fn set(&mut self, number: OrderNumber, loc: OrderLoc) {
        self.put(usize::from(number).wrapping_sub(1), loc);
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
            let loc = self.played_loc(number, actor);
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
    fn played_loc(&self, number: OrderNumber, actor: Seat) -> OrderLoc {
        if self.public || self.is_open(number) {
            OrderLoc::DiscardUp { turn: self.turn() }
        } else {
            OrderLoc::DiscardDown {
                from: Some(actor),
                turn: self.turn(),
                played: true,
                seen: SeatSet::EMPTY,
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
                OrderLoc::DiscardUp { .. } | OrderLoc::DiscardDown { .. } => {}
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
            Some(OrderLoc::DiscardUp { .. } | OrderLoc::DiscardDown { .. })
        )
    }

    /// Ⅰ. Deals one card to each seat in `needs` (in seat order) from the cards not
    /// reserved; reserved cards become their holders' cards for this round; the rest
    /// go face down to the discard pile. Only the dealt cards are drawn (a partial
    /// shuffle): which cards stay face down, and in what order, is never seen.
    pub(crate) fn deal(&mut self, needs: SeatSet, captured: SeatSet, rng: &mut GameRng) {
        self.turns = 0;
        self.open = 0;
        for i in bits::iter(u64::from(self.reserved)).map(usize::from) {
            if let Some(&OrderLoc::Reserved(s)) = self.loc.get(i) {
                if !captured.contains(s) {
                    self.put(i, OrderLoc::Held(s));
                    // Everyone saw it taken: its number stays public.
                    self.open |= 1 << i;
                }
            }
        }
        // The round starts with no card held, so every card not just taken up is dealt.
        let face_down = UNDEALT;
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
            let open = self.is_open(number);
            match self.loc.get(i) {
                Some(&OrderLoc::Held(s)) if s == seat && open => {
                    let turn = if number == current { turn } else { 0 };
                    self.put(i, OrderLoc::DiscardUp { turn })
                }
                Some(&OrderLoc::Held(s)) if s == seat => self.put(
                    i,
                    OrderLoc::DiscardDown {
                        from: Some(seat),
                        turn,
                        played: number == current,
                        seen: SeatSet::EMPTY,
                    },
                ),
                Some(&OrderLoc::Reserved(s)) if s == seat => {
                    self.put(i, OrderLoc::DiscardUp { turn: 0 })
                }
                _ => {}
            }
        }
        self.recount();
    }
}
