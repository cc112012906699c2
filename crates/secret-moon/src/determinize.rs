//! Redealing what a seat cannot see, consistently with what it knows.

use crate::options::{MAX_CARDS, MAX_PLAYERS, ORDER_CARDS};
use crate::role::{Role, RoleMask};
use crate::rules::order::{OrderCards, OrderLoc, OrderNumber};
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
    /// round (who acted, in which order; whose card was discarded unplayed, and when),
    /// the numbers everyone knows, the seat's own cards and the numbers it saw looking
    /// through the pile. The phase follows its actor's new number.
    fn redeal_order_cards(&mut self, seat: Seat, rng: &mut GameRng) {
        let actor = match self.phase {
            Phase::Turn { actor, .. } | Phase::TakeOrderCard { actor, .. } => actor,
            Phase::Answer { asker, .. } => asker,
            Phase::MatchOver => return,
        };
        let Some(worlds) = OrderWorlds::new(&self.deal.order, seat, actor) else {
            return;
        };
        for (loc, number) in worlds.draw(rng).iter() {
            self.deal.order.set(*number, *loc);
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

/// What the table saw of an order card during the round, as a bound on its number.
/// Players act from the lowest number up, so the cards played this round rise with
/// the turns, and a card still held, or discarded unplayed during a turn, is higher
/// than the card played at that turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Bound {
    /// Never dealt, or its place is known to all (reserved, face up): nothing.
    #[default]
    Free,
    /// The card played at this turn (or being played).
    Played(u8),
    /// Higher than the card played at this turn.
    Above(u8),
}

impl Bound {
    fn of(loc: OrderLoc, actor: Seat, turn: u8) -> Bound {
        match loc {
            OrderLoc::Held(s) if s == actor => Bound::Played(turn),
            OrderLoc::Held(_) => Bound::Above(turn),
            OrderLoc::DiscardUp { turn: t } if t > 0 => Bound::Played(t),
            OrderLoc::DiscardDown {
                turn: t, played, ..
            } if t > 0 => {
                if played {
                    Bound::Played(t)
                } else {
                    Bound::Above(t)
                }
            }
            _ => Bound::Free,
        }
    }
}

/// An order card whose number the seat does not know: where it is, its bound, and
/// whether it lay in the pile when the seat looked through it (then its number is one
/// of those the seat saw: `pool` 1, else 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Unknown {
    loc: OrderLoc,
    bound: Bound,
    pool: usize,
}

/// Bit `n - 1` for card `n`.
const fn bit(n: OrderNumber) -> u16 {
    1 << (n - 1)
}

/// The numbers above `floor`, as a mask.
const fn above(floor: OrderNumber) -> u16 {
    (0xFF << floor) & 0xFF
}

/// The turns of a round (one per player) and a place for turn 0.
const TURNS: usize = MAX_PLAYERS + 1;

/// The worlds of order numbers a seat cannot tell apart from the real one.
///
/// A world gives the cards played at each turn (`Bound::Played`) increasing numbers,
/// and each card bound `Above(t)` a number above the card of turn `t`. Drawn in two
/// steps, uniformly over all such worlds: first the set of numbers the unknown
/// played cards take — in increasing order, so the set decides which takes which —
/// weighted by how many ways the other unknown cards can then be numbered; then those
/// cards, highest bound first, each from the numbers left above its bound (per pool).
/// At most eight cards: at most 256 sets to weigh.
struct OrderWorlds {
    /// The unknown cards, in an order every seat can see (never by number).
    unknown: FixedList<Unknown, ORDER_CARDS>,
    /// The numbers of the unknown cards, per pool.
    pools: [u16; 2],
    /// The known number of the card played at each turn (0: unknown or gone).
    played: [OrderNumber; TURNS],
    /// Known numbers bound above the card of a turn: (number, turn).
    known_above: FixedList<(OrderNumber, u8), ORDER_CARDS>,
}

impl OrderWorlds {
    /// The seat's knowledge, or `None` if it knows every number.
    fn new(order: &OrderCards, seat: Seat, actor: Seat) -> Option<OrderWorlds> {
        let turn = order.turn();
        let public = order.public();
        let mut worlds = OrderWorlds {
            unknown: FixedList::new(),
            pools: [0; 2],
            played: [0; TURNS],
            known_above: FixedList::new(),
        };
        for (number, loc) in order.iter() {
            let bound = Bound::of(loc, actor, turn);
            let known = order.is_open(number)
                || match loc {
                    OrderLoc::Held(s) => s == seat || public && s == actor,
                    OrderLoc::Reserved(_) | OrderLoc::DiscardUp { .. } => true,
                    OrderLoc::DiscardDown { from, played, .. } => {
                        from == Some(seat) || public && played
                    }
                };
            if known {
                match bound {
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
            let pool = usize::from(
                matches!(loc, OrderLoc::DiscardDown { seen, .. } if seen.contains(seat)),
            );
            if let Some(p) = worlds.pools.get_mut(pool) {
                *p |= bit(number);
            }
            let _ = worlds.unknown.push(Unknown { loc, bound, pool });
        }
        if worlds.unknown.is_empty() {
            return None;
        }
        // The cards were gathered by their true numbers: put them in an order the seat
        // can see, so that the draw depends only on what it knows.
        worlds
            .unknown
            .as_mut_slice()
            .sort_unstable_by_key(|u| (place_key(u.loc), u.bound == Bound::Free));
        Some(worlds)
    }

    /// The unknown played cards, by turn.
    fn played_unknown(&self) -> FixedList<(u8, usize), ORDER_CARDS> {
        let mut turns = FixedList::<(u8, usize), ORDER_CARDS>::new();
        for u in &self.unknown {
            if let Bound::Played(t) = u.bound {
                // One entry per order card: never full.
                let _ = turns.push((t, u.pool));
            }
        }
        turns.as_mut_slice().sort_unstable();
        turns
    }

    /// The numbers of the played cards of every turn if the unknown ones take `set`
    /// (in increasing order), or `None` if that breaks the order of the turns or a
    /// pool; then, per turn, the number a card bound above it must exceed.
    fn floors(&self, set: u16) -> Option<[OrderNumber; TURNS]> {
        let mut played = self.played;
        let mut rest = set;
        for &(t, pool) in &self.played_unknown() {
            let n = rest.trailing_zeros() as OrderNumber + 1;
            rest &= rest.wrapping_sub(1);
            if self.pools.get(pool).is_none_or(|p| p & bit(n) == 0) {
                return None;
            }
            if let Some(p) = played.get_mut(usize::from(t)) {
                *p = n;
            }
        }
        // Rising with the turns; a turn whose card is gone (taken by a pass) bounds
        // nothing: the card before it does.
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

    /// The unknown cards other than played ones, of one pool, with the number each
    /// must exceed, highest first.
    fn bounded(
        &self,
        pool: usize,
        floors: &[OrderNumber; TURNS],
    ) -> FixedList<(OrderNumber, OrderLoc), ORDER_CARDS> {
        let mut list = FixedList::<(OrderNumber, OrderLoc), ORDER_CARDS>::new();
        for u in self.unknown.iter().filter(|u| u.pool == pool) {
            let floor = match u.bound {
                Bound::Played(_) => continue,
                Bound::Above(t) => floors.get(usize::from(t)).copied().unwrap_or(0),
                Bound::Free => 0,
            };
            let _ = list.push((floor, u.loc));
        }
        // Stable: equal bounds keep the seen order.
        list.as_mut_slice()
            .sort_by_key(|(floor, _)| std::cmp::Reverse(*floor));
        list
    }

    /// How many ways the unknown cards can be numbered once the played ones take `set`.
    fn ways(&self, set: u16) -> u32 {
        let Some(floors) = self.floors(set) else {
            return 0;
        };
        let mut ways = 1u32;
        for (pool, &numbers) in self.pools.iter().enumerate() {
            let free = numbers & !set;
            for (i, (floor, _)) in self.bounded(pool, &floors).iter().enumerate() {
                let n = (free & above(*floor)).count_ones().saturating_sub(i as u32);
                ways = ways.saturating_mul(n);
            }
        }
        ways
    }

    /// One world, uniformly: each unknown card and its number.
    fn draw(&self, rng: &mut GameRng) -> FixedList<(OrderLoc, OrderNumber), ORDER_CARDS> {
        let all = self.pools[0] | self.pools[1];
        let played = self.played_unknown().len() as u32;
        // Every set of that many numbers, in a fixed order, with its weight.
        let mut sets = [(0u16, 0u32); 256];
        let mut len = 0;
        let mut total = 0u32;
        let mut set = all;
        loop {
            if set.count_ones() == played {
                let w = self.ways(set);
                if let (true, Some(entry)) = (w > 0, sets.get_mut(len)) {
                    *entry = (set, w);
                    len += 1;
                    total = total.saturating_add(w);
                }
            }
            if set == 0 {
                break;
            }
            set = (set - 1) & all;
        }
        let mut out = FixedList::new();
        // The true world is one: `total` is 0 only for an inconsistent state; keep it.
        if total == 0 {
            return out;
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
        let Some(floors) = self.floors(chosen) else {
            return out;
        };
        // The played cards take the chosen set in increasing order of turns.
        let mut rest = chosen;
        let mut by_turn = FixedList::<(u8, OrderLoc), ORDER_CARDS>::new();
        for u in &self.unknown {
            if let Bound::Played(t) = u.bound {
                let _ = by_turn.push((t, u.loc));
            }
        }
        by_turn.as_mut_slice().sort_unstable_by_key(|(t, _)| *t);
        for &(_, loc) in &by_turn {
            let n = rest.trailing_zeros() as OrderNumber + 1;
            rest &= rest.wrapping_sub(1);
            let _ = out.push((loc, n));
        }
        // The others, highest bound first, each from what is left above its bound.
        for (pool, &numbers) in self.pools.iter().enumerate() {
            let mut free = numbers & !chosen;
            for &(floor, loc) in &self.bounded(pool, &floors) {
                let choices = free & above(floor);
                let pick = rng.below(choices.count_ones().max(1));
                let Some(b) = bits::nth(u64::from(choices), pick) else {
                    return FixedList::new();
                };
                free &= !(1 << b);
                let _ = out.push((loc, b + 1));
            }
        }
        out
    }
}

/// An order of the places of unknown order cards that every seat can see.
fn place_key(loc: OrderLoc) -> (u8, u8, bool, u8, u16) {
    match loc {
        OrderLoc::Held(s) => (0, 0, false, s.0, 0),
        OrderLoc::Reserved(s) => (1, 0, false, s.0, 0),
        OrderLoc::DiscardUp { turn } => (2, turn, false, 0, 0),
        OrderLoc::DiscardDown {
            from,
            turn,
            played,
            seen,
        } => (3, turn, played, from.map_or(0, |s| s.0 + 1), seen.bits()),
    }
}
