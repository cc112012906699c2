//! Redealing what a seat cannot see, consistently with what it knows.

use crate::options::{MAX_CARDS, ORDER_CARDS};
use crate::role::{Role, RoleMask};
use crate::rules::order::{OrderLoc, OrderNumber};
use crate::state::Phase;
use crate::SecretMoon;
use takuge_engine::assign::deal_constrained;
use takuge_engine::list::FixedList;
use takuge_engine::{GameRng, Seat};

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

    /// Unplayed cards of others and unseen face-down discards swap numbers, each
    /// above what everyone knows of it.
    fn redeal_order_cards(&mut self, seat: Seat, rng: &mut GameRng) {
        let Some(current) = self.current_number() else {
            return;
        };
        // The cards to redeal, and the number each must stay above.
        let mut places = FixedList::<(OrderLoc, OrderNumber), ORDER_CARDS>::new();
        let mut numbers = FixedList::<OrderNumber, ORDER_CARDS>::new();
        for (number, loc) in self.deal.order.iter() {
            let floor = match loc {
                OrderLoc::Held(holder) if holder != seat && number != current => current,
                OrderLoc::DiscardDown { seen, above } if !seen.contains(seat) => above,
                _ => continue,
            };
            // One entry per order card: never full.
            let _ = places.push((loc, floor));
            let _ = numbers.push(number);
        }
        // The cards were gathered by their true numbers: put the places in an order the
        // seat can see (holder, or what it knows of a discard) and the numbers in
        // increasing order, so the redeal depends only on what the seat knows.
        places
            .as_mut_slice()
            .sort_unstable_by_key(|(loc, floor)| (place_key(*loc), *floor));
        let numbers = numbers.as_mut_slice();
        numbers.sort_unstable();
        if !deal_constrained(
            numbers,
            |i, num| places.get(i).is_some_and(|(_, floor)| num > *floor),
            rng,
        ) {
            return;
        }
        for (&(loc, _), &num) in places.iter().zip(numbers.iter()) {
            self.deal.order.set(num, loc);
        }
    }
}

/// An order of the places of hidden order cards that every seat can see.
fn place_key(loc: OrderLoc) -> (u8, u8, u16) {
    match loc {
        OrderLoc::Held(s) => (0, s.0, 0),
        OrderLoc::Reserved(s) => (1, s.0, 0),
        OrderLoc::DiscardUp => (2, 0, 0),
        OrderLoc::DiscardDown { seen, above } => (3, above, seen.bits()),
    }
}
