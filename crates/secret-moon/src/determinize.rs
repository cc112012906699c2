//! Redealing what a seat cannot see, consistently with what it knows.

use crate::options::{MAX_CARDS, MAX_PLAYERS, ORDER_CARDS};
use crate::role::{Role, RoleMask};
use crate::rules::order::{OrderCards, OrderLoc, OrderNumber, Origin};
use crate::state::Phase;
use crate::SecretMoon;
use takuge_engine::assign::deal_constrained;
use takuge_engine::list::FixedList;
use takuge_engine::{bits, GameRng, Seat};

/// The removed card's place in the redeal, after the card slots.
const REMOVED: usize = MAX_CARDS;

impl SecretMoon {
    pub(crate) fn redeal_hidden(&self, seat: Seat, rng: &mut GameRng) -> SecretMoon {
        let mut world = self.clone();
        world.rng = rng.fork();
        if self.phase == Phase::MatchOver {
            return world;
        }
        world.redeal_roles(seat, rng);
        world.redeal_order_cards(seat, rng);
        world
    }

    /// Character cards the seat does not know, and the removed card, are shuffled
    /// among themselves, each staying within what the seat can deduce of it.
    fn redeal_roles(&mut self, seat: Seat, rng: &mut GameRng) {
        let deal = &self.deal;
        // Where each card to redeal lies, and what the seat allows it to be.
        let mut hidden = FixedList::<(usize, RoleMask), { MAX_CARDS + 1 }>::new();
        let mut roles = FixedList::<Role, { MAX_CARDS + 1 }>::new();
        let unknown = deal.slots().filter(|s| deal.known_role(seat, *s).is_none());
        let cards = unknown.map(|s| (s.index(), deal.possible_for(seat, s), deal.role(s)));
        let removed = deal.removed.map(|r| (REMOVED, deal.removal_pool, r));
        for (place, mask, role) in cards.chain(removed) {
            // At most every card and the removed one: never full.
            let _ = hidden.push((place, mask));
            let _ = roles.push(role);
        }
        let roles = roles.as_mut_slice();
        // Sorted first: the cards to redeal are gathered in their true places' order,
        // and a world must depend only on what the seat knows (the same redeal from
        // every state the seat cannot tell apart), not on where the truth lies.
        roles.sort_unstable();
        if !deal_constrained(
            roles,
            |i, r| hidden.get(i).is_some_and(|(_, m)| m.contains(r)),
            rng,
        ) {
            // Unreachable for a consistent state (the true deal qualifies); keep the truth.
            return;
        }
        for (&(place, _), &role) in hidden.iter().zip(roles.iter()) {
            match place {
                REMOVED => self.deal.removed = Some(role),
                p => {
                    if let Some(r) = self.deal.roles.get_mut(p) {
                        *r = role;
                    }
                }
            }
        }
    }

    /// The order cards the seat cannot see get new numbers, uniformly among the
    /// worlds that agree with what it saw (`OrderWorlds`): what the table saw of the
    /// round (who acted, in which order; whose card was discarded unplayed, and when;
    /// which numbers were taken by a pass, and when), the numbers everyone knows, the
    /// seat's own cards and the numbers it saw looking through the pile. The phase
    /// follows its actor's new number.
    fn redeal_order_cards(&mut self, seat: Seat, rng: &mut GameRng) {
        let actor = match self.phase {
            Phase::Turn { actor, .. } | Phase::TakeOrderCard { actor, .. } => actor,
            Phase::Answer { asker, .. } => asker,
            Phase::MatchOver => return,
        };
        let Some(worlds) = OrderWorlds::new(&self.deal.order, seat, actor) else {
            return;
        };
        let Some(drawn) = worlds.draw(rng) else {
            return;
        };
        for &(number, origin) in &drawn {
            // A number everyone sees where it is (taken, or face up after) stays there;
            // any other card is wherever its new origin puts it.
            let loc = match self.deal.order.loc(number) {
                Some(l @ (OrderLoc::Reserved(_) | OrderLoc::DiscardUp)) => l,
                _ => match origin {
                    Origin::Dealt(s) => OrderLoc::Held(s),
                    _ => OrderLoc::DiscardDown,
                },
            };
            self.deal.order.set(number, loc, origin);
        }
        if let Some(n) = self.deal.order.held_by(actor) {
            match &mut self.phase {
                Phase::Turn { number, .. }
                | Phase::Answer { number, .. }
                | Phase::TakeOrderCard { number, .. } => *number = n,
                Phase::MatchOver => {}
            }
        }
    }
}

/// What an order card's origin says of its number. Players act from the lowest
/// number up, so the cards played this round rise with the turns, and a card still
/// held, or discarded unplayed during a turn, is higher than the card played at that
/// turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    /// Never dealt: nothing.
    Free,
    /// The card played at this turn (or being played).
    Played(u8),
    /// Higher than the card played at this turn.
    Above(u8),
}

impl Bound {
    fn of(origin: Origin, actor: Seat, turn: u8) -> Bound {
        match origin {
            Origin::Undealt => Bound::Free,
            Origin::Dealt(s) if s == actor => Bound::Played(turn),
            Origin::Dealt(_) => Bound::Above(turn),
            Origin::Played(_, t) => Bound::Played(t),
            Origin::Discarded(_, t) => Bound::Above(t),
        }
    }
}

/// A number whose origin the seat does not know: the turn it was taken by a pass
/// (0: not taken), and whether the seat saw it looking through the pile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Number {
    number: OrderNumber,
    taken: u8,
    seen: bool,
}

/// The turns of a round (one per player) and a place for turn 0.
const TURNS: usize = MAX_PLAYERS + 1;

/// The worlds of order cards a seat cannot tell apart from the real one: the numbers
/// whose origin it does not know, matched to those origins.
///
/// A number may take an origin if a number taken by a pass at turn `j` comes from a
/// card in the pile before `j`, and the seat would have seen it looking through the
/// pile exactly if it did. A world gives the cards played at each turn increasing
/// numbers, and a card bound above a turn a number above that turn's card. Drawn
/// uniformly over all such worlds in two steps: first the numbers the unknown played
/// cards take — in increasing order, so the set decides which takes which — weighted
/// by how many ways the other numbers can then be matched to the other origins
/// (counted over subsets of origins); then that matching. At most eight cards.
struct OrderWorlds {
    /// Ascending.
    numbers: FixedList<Number, ORDER_CARDS>,
    /// In an order every seat can see (never by number).
    origins: FixedList<Origin, ORDER_CARDS>,
    /// The known number of the card played at each turn (0: unknown).
    played: [OrderNumber; TURNS],
    /// Known numbers bound above the card of a turn: (number, turn).
    known_above: FixedList<(OrderNumber, u8), ORDER_CARDS>,
    actor: Seat,
    turn: u8,
    /// The turn the seat looked through the pile (0: it did not).
    looked: u8,
}

/// The matchings of the numbers left, once the played cards have theirs, to the
/// origins left: `ways[used]` counts the ways to match the numbers after the first
/// `used.count_ones()` to the origins outside `used` (`ways[0]`: all of them).
struct Matching {
    /// Per number left (ascending): its index in `numbers`, and the origins left it
    /// may take, as a mask over `origins_left`.
    fits: FixedList<(usize, u16), ORDER_CARDS>,
    /// The origins left, as indices into `origins`.
    origins_left: FixedList<usize, ORDER_CARDS>,
    ways: [u32; 256],
}

impl Matching {
    fn total(&self) -> u32 {
        self.ways[0]
    }

    /// One matching, uniformly: (index in `numbers`, index in `origins`) pairs.
    fn sample(&self, rng: &mut GameRng) -> Option<FixedList<(usize, usize), ORDER_CARDS>> {
        let mut out = FixedList::new();
        let mut used = 0usize;
        for &(k, fit) in &self.fits {
            let total = *self.ways.get(used)?;
            if total == 0 {
                return None;
            }
            let mut pick = rng.below(total);
            let mut chosen = None;
            for j in bits::iter(u64::from(fit & !(used as u16))) {
                let w = *self.ways.get(used | 1 << j)?;
                if pick < w {
                    chosen = Some(usize::from(j));
                    break;
                }
                pick -= w;
            }
            let j = chosen?;
            used |= 1 << j;
            let _ = out.push((k, *self.origins_left.get(j)?));
        }
        Some(out)
    }
}

impl OrderWorlds {
    /// The seat's knowledge, or `None` if it knows every number and its origin.
    fn new(order: &OrderCards, seat: Seat, actor: Seat) -> Option<OrderWorlds> {
        let turn = order.turn();
        let public = order.public();
        let mut worlds = OrderWorlds {
            numbers: FixedList::new(),
            origins: FixedList::new(),
            played: [0; TURNS],
            known_above: FixedList::new(),
            actor,
            turn,
            looked: order.looked_at(seat),
        };
        for (number, loc) in order.iter() {
            let origin = order.origin(number).unwrap_or_default();
            let taken = order.taken_at(number);
            // Everyone knows where the card came from: taken up from a reservation,
            // or played with the order public.
            let open = order.is_open(number) || public && matches!(origin, Origin::Played(..));
            let own = origin.holder() == Some(seat);
            let known = match loc {
                OrderLoc::Held(s) => s == seat || open || public && s == actor,
                OrderLoc::DiscardDown => own || open,
                // Its number is public; where it came from too, unless it was taken from
                // the pile (a face-down card, or a face-up one whose origin was secret).
                OrderLoc::Reserved(_) | OrderLoc::DiscardUp => taken == 0 || own || open,
            };
            if known {
                match Bound::of(origin, actor, turn) {
                    Bound::Played(t) => {
                        if let Some(p) = worlds.played.get_mut(usize::from(t)) {
                            *p = number;
                        }
                    }
                    // One entry per order card: never full.
                    Bound::Above(t) => {
                        let _ = worlds.known_above.push((number, t));
                    }
                    Bound::Free => {}
                }
                continue;
            }
            let seen = worlds.sees(taken, origin);
            let _ = worlds.numbers.push(Number {
                number,
                taken,
                seen,
            });
            let _ = worlds.origins.push(origin);
        }
        if worlds.numbers.is_empty() {
            return None;
        }
        // Gathered by their true numbers: sorted, the origins say nothing of that.
        worlds.origins.as_mut_slice().sort_unstable();
        Some(worlds)
    }

    /// Whether the seat saw a card of this origin looking through the pile, if taken
    /// at turn `taken` (0: not taken): it had gone to the pile before, and was not
    /// taken before.
    fn sees(&self, taken: u8, origin: Origin) -> bool {
        let looked = self.looked;
        looked > 0
            && origin.into_pile().is_some_and(|t| t < looked)
            && !(taken > 0 && taken < looked)
    }

    /// Whether a number may have come from this origin.
    fn fits(&self, n: Number, origin: Origin) -> bool {
        let from_pile = n.taken == 0 || origin.into_pile().is_some_and(|t| t < n.taken);
        from_pile && self.sees(n.taken, origin) == n.seen
    }

    /// The unknown origins of played cards (their index), by turn.
    fn played_origins(&self) -> FixedList<(u8, usize), ORDER_CARDS> {
        let mut list = FixedList::<(u8, usize), ORDER_CARDS>::new();
        for (i, &o) in self.origins.iter().enumerate() {
            if let Bound::Played(t) = Bound::of(o, self.actor, self.turn) {
                let _ = list.push((t, i));
            }
        }
        list.as_mut_slice().sort_unstable();
        list
    }

    /// If the unknown played cards take the numbers at `set` (a mask over `numbers`),
    /// in increasing order of turns: the origin each takes, and the number every card
    /// bound above a turn must exceed — or `None` if that breaks the order of the turns.
    fn floors(&self, set: u16, played_origins: &[(u8, usize)]) -> Option<[OrderNumber; TURNS]> {
        let mut played = self.played;
        let mut rest = set;
        for &(t, i) in played_origins {
            let k = rest.trailing_zeros() as usize;
            rest &= rest.wrapping_sub(1);
            let n = *self.numbers.get(k)?;
            if !self.fits(n, *self.origins.get(i)?) {
                return None;
            }
            *played.get_mut(usize::from(t))? = n.number;
        }
        let mut floor = 0;
        for p in played.iter_mut() {
            if *p != 0 {
                if *p <= floor {
                    return None;
                }
                floor = *p;
            }
            *p = floor;
        }
        let bound = |t: u8| played.get(usize::from(t)).copied().unwrap_or(floor);
        if self.known_above.iter().any(|&(n, t)| n <= bound(t)) {
            return None;
        }
        Some(played)
    }

    /// The matchings of the numbers outside `set` to the origins of cards not played.
    fn matching(&self, set: u16, floors: &[OrderNumber; TURNS]) -> Matching {
        let mut origins_left = FixedList::<usize, ORDER_CARDS>::new();
        let mut left = FixedList::<(Origin, OrderNumber), ORDER_CARDS>::new();
        for (i, &o) in self.origins.iter().enumerate() {
            let floor = match Bound::of(o, self.actor, self.turn) {
                Bound::Played(_) => continue,
                Bound::Above(t) => floors.get(usize::from(t)).copied().unwrap_or(0),
                Bound::Free => 0,
            };
            // At most one entry per order card: never full.
            let _ = origins_left.push(i);
            let _ = left.push((o, floor));
        }
        let mut fits = FixedList::<(usize, u16), ORDER_CARDS>::new();
        for (k, &n) in self.numbers.iter().enumerate() {
            if set & (1 << k) != 0 {
                continue;
            }
            let mut mask = 0u16;
            for (j, &(o, floor)) in left.iter().enumerate() {
                if n.number > floor && self.fits(n, o) {
                    mask |= 1 << j;
                }
            }
            let _ = fits.push((k, mask));
        }
        let full = (1usize << left.len()) - 1;
        let mut ways = [0u32; 256];
        if let Some(w) = ways.get_mut(full) {
            *w = 1;
        }
        for used in (0..full).rev() {
            let Some(&(_, fit)) = fits.get(used.count_ones() as usize) else {
                continue;
            };
            let mut sum = 0u32;
            for j in bits::iter(u64::from(fit & !(used as u16))) {
                sum = sum.saturating_add(ways.get(used | 1 << j).copied().unwrap_or(0));
            }
            if let Some(w) = ways.get_mut(used) {
                *w = sum;
            }
        }
        Matching {
            fits,
            origins_left,
            ways,
        }
    }

    /// One world, uniformly: each number whose origin was unknown, and its new origin
    /// (`None` only for an inconsistent state, which has no world).
    fn draw(&self, rng: &mut GameRng) -> Option<FixedList<(OrderNumber, Origin), ORDER_CARDS>> {
        let played_origins = self.played_origins();
        let m = played_origins.len() as u32;
        let all: u16 = (1 << self.numbers.len()) - 1;
        // Every set of that many numbers, in a fixed order, with its weight.
        let mut sets = [(0u16, 0u32); 256];
        let mut len = 0;
        let mut total = 0u32;
        let mut set = all;
        loop {
            if set.count_ones() == m {
                if let Some(floors) = self.floors(set, played_origins.as_slice()) {
                    let w = self.matching(set, &floors).total();
                    if let (true, Some(entry)) = (w > 0, sets.get_mut(len)) {
                        *entry = (set, w);
                        len += 1;
                        total = total.saturating_add(w);
                    }
                }
            }
            if set == 0 {
                break;
            }
            set = (set - 1) & all;
        }
        if total == 0 {
            return None;
        }
        let mut k = rng.below(total);
        let mut chosen = 0;
        for &(set, w) in sets.get(..len).unwrap_or_default() {
            if k < w {
                chosen = set;
                break;
            }
            k -= w;
        }
        let floors = self.floors(chosen, played_origins.as_slice())?;
        let mut out = FixedList::new();
        let mut rest = chosen;
        for &(_, i) in &played_origins {
            let k = rest.trailing_zeros() as usize;
            rest &= rest.wrapping_sub(1);
            let _ = out.push((self.numbers.get(k)?.number, *self.origins.get(i)?));
        }
        let matching = self.matching(chosen, &floors);
        for &(k, i) in &matching.sample(rng)? {
            let _ = out.push((self.numbers.get(k)?.number, *self.origins.get(i)?));
        }
        Some(out)
    }
}
