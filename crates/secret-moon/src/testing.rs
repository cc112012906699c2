//! What the tests outside the crate need from inside: scenario setups with chosen
//! cards, and the near misses the conformance suite probes `apply` with. Not part of
//! the game's API (hidden from the docs).

use crate::cards::CardRef;
use crate::options::{Options, MAX_CARDS, MAX_PLAYERS, ORDER_CARDS};
use crate::role::{Answer, Role, RoleMask};
use crate::rules::order::{OrderCards, OrderNumber};
use crate::state::Phase;
use crate::types::Action;
use crate::SecretMoon;
use takuge_engine::conformance::Probe;
use takuge_engine::{Game, Seat, SetupError};

impl SecretMoon {
    /// Sets up a deal with the given cards (players' first, then the centre) and the
    /// given order cards for round 1, for rule tests.
    #[doc(hidden)]
    pub fn with_cards(
        options: Options,
        roles: &[Role],
        order_numbers: &[OrderNumber],
        seed: u64,
    ) -> Result<Self, SetupError> {
        let players = order_numbers.len();
        let mut game = Self::new(&options, players, seed)?;
        let deal = &mut game.deal;
        let Some(cards) = deal
            .roles
            .get_mut(..roles.len())
            .filter(|_| roles.len() >= players)
        else {
            return Err(SetupError::InvalidOptions {
                reason: "bad card list".into(),
            });
        };
        cards.copy_from_slice(roles);
        deal.card_count = roles.len() as u8;
        deal.removed = None;
        deal.removal_pool = RoleMask::NONE;
        let mut order = OrderCards::new(options.public_order);
        for (seat, &n) in Seat::all(players).zip(order_numbers) {
            order.give(n, seat);
        }
        deal.order = order;
        game.phase = Phase::first_turn(deal);
        Ok(game)
    }
}

/// Secret Moon's whole action space is small (under two hundred actions), so the near
/// misses are all of it, with cards, seats and order numbers one beyond the largest
/// table: every action of every phase, whoever is asked.
impl Probe for SecretMoon {
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let seats = (0..=MAX_PLAYERS as u8).map(Seat);
        let cards = seats
            .clone()
            .map(CardRef::Player)
            .chain((0..=MAX_CARDS as u8).map(CardRef::Npc));
        for card in cards {
            out.push(Action::Observe { card });
            out.extend(Role::ALL.map(|role| Action::Nominate { card, role }));
            out.push(Action::Protect { card });
            out.push(Action::Capture { card });
        }
        for target in seats {
            out.push(Action::Question { target });
            out.push(Action::Sabotage { target });
        }
        out.push(Action::Pass);
        for number in 0..=ORDER_CARDS as OrderNumber + 1 {
            out.push(Action::TakeOrderCard { number });
        }
        out.extend(Answer::ALL.map(|answer| Action::Answer { answer }));
    }
}
