//! Redealing what a seat cannot see, consistently with what it knows.

use crate::options::{MAX_CARDS, ORDER_CARDS};
use crate::role::{Role, RoleMask};
use crate::rules::order::{OrderLoc, OrderNumber};
use crate::state::Phase;
use crate::SecretMoon;
use takuge_engine::assign::deal_constrained;
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
        let mut places = [0usize; MAX_CARDS + 1];
        let mut masks = [RoleMask::NONE; MAX_CARDS + 1];
        let mut roles = [Role::Soldier; MAX_CARDS + 1];
        let mut n = 0;
        for slot in deal.slots() {
            if deal.known_role(seat, slot).is_none() {
                places[n] = slot.index();
                masks[n] = deal.possible_for(seat, slot);
                roles[n] = deal.role(slot);
                n += 1;
            }
        }
        if let Some(removed) = deal.removed {
            places[n] = REMOVED;
            masks[n] = deal.removal_pool;
            roles[n] = removed;
            n += 1;
        }
        let roles = &mut roles[..n];
        if !deal_constrained(
            roles,
            |i, r| masks.get(i).is_some_and(|m| m.contains(r)),
            rng,
        ) {
            // Unreachable for a consistent state (the true deal qualifies); keep the truth.
            return;
        }
        for (i, &role) in roles.iter().enumerate() {
            match places[i] {
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
        let mut locs = [OrderLoc::DiscardUp; ORDER_CARDS];
        let mut floors = [0 as OrderNumber; ORDER_CARDS];
        let mut numbers = [0 as OrderNumber; ORDER_CARDS];
        let mut n = 0;
        for (number, loc) in self.deal.order.iter() {
            let floor = match loc {
                OrderLoc::Held(holder) if holder != seat && number != current => current,
                OrderLoc::DiscardDown { seen, above } if !seen.contains(seat) => above,
                _ => continue,
            };
            locs[n] = loc;
            floors[n] = floor;
            numbers[n] = number;
            n += 1;
        }
        let numbers = &mut numbers[..n];
        if !deal_constrained(
            numbers,
            |i, num| floors.get(i).is_some_and(|f| num > *f),
            rng,
        ) {
            return;
        }
        for (i, &num) in numbers.iter().enumerate() {
            self.deal.order.set(num, locs[i]);
        }
    }
}
