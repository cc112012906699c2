//! Carrying out actions, and the flow of rounds, games and the match.

use crate::actions::Action;
use crate::cards::{CardStatus, Slot};
use crate::options::ROUNDS;
use crate::order::{OrderLoc, OrderNumber};
use crate::role::{Role, Side};
use crate::state::{Deal, EndReason, GameResult, Phase};
use crate::SecretMoon;
use takuge_engine::{Game, Seat};

impl SecretMoon {
    /// Plays an action already checked legal.
    #[inline]
    pub(crate) fn play(&mut self, seat: Seat, action: Action) {
        match self.phase {
            Phase::Turn { actor, number } if actor == seat => self.play_turn(actor, number, action),
            Phase::Answer {
                asker,
                number,
                target,
            } if target == seat => {
                if let Action::Answer { answer } = action {
                    self.deal.record_answer(target, answer);
                }
                self.finish_turn(asker, number, false);
            }
            Phase::TakeOrderCard { actor, number } if actor == seat => {
                if let Action::TakeOrderCard { number: taken } = action {
                    self.deal.order.set(taken, OrderLoc::Reserved(actor));
                }
                self.finish_turn(actor, number, false);
            }
            _ => {}
        }
    }

    #[inline]
    fn play_turn(&mut self, actor: Seat, number: OrderNumber, action: Action) {
        let own = Deal::seat_slot(actor);
        let deal = &mut self.deal;
        match action {
            Action::Observe { card } => {
                if let Some(slot) = deal.slot(card) {
                    if let Some(k) = deal.known.get_mut(actor.index()) {
                        k.insert(slot);
                    }
                    if let Some(e) = deal.eyes.get_mut(slot.index()) {
                        e.insert(actor);
                    }
                }
            }
            Action::Question { target } => {
                if self.options.thief {
                    // Everyone questioned is asked, so that the thief's pause to choose
                    // looks like anyone's.
                    self.phase = Phase::Answer {
                        asker: actor,
                        number,
                        target,
                    };
                    return;
                }
                let role = deal.role(Deal::seat_slot(target));
                if let Some(&answer) = role.answers().first() {
                    deal.record_answer(target, answer);
                }
            }
            Action::Nominate { card, role } => {
                if let Some(slot) = deal.slot(card) {
                    if !deal.is_player_slot(slot) {
                        // 中央のカード: the nominator looks at it in secret.
                        if let Some(k) = deal.known.get_mut(actor.index()) {
                            k.insert(slot);
                        }
                    }
                    if deal.role(slot) == role {
                        deal.reveal(slot, number);
                    } else {
                        deal.restrict(slot, crate::role::RoleMask::ALL.without(role));
                        deal.reveal(own, number);
                    }
                }
            }
            Action::Protect { card } => {
                if let Some(slot) = deal.slot(card) {
                    deal.protected.insert(slot);
                }
                deal.restrict(own, crate::role::RoleMask::ALL.without(Role::Thief));
            }
            Action::Sabotage { target } => {
                // The saboteur's own card is played, face up, before the saboteur is captured.
                deal.order.set(number, OrderLoc::DiscardUp);
                deal.order.discard_unplayed(target, number);
                deal.capture(own, number);
            }
            Action::Capture { card } => {
                if let Some(slot) = deal.slot(card) {
                    let target_role = deal.role(slot);
                    let mut mask = crate::role::RoleMask::ALL.without(Role::Thief);
                    if target_role != Role::Thief {
                        mask = mask.without(Role::Soldier);
                    }
                    if target_role == Role::Princess {
                        mask = Role::Minister.bit();
                    }
                    deal.restrict(own, mask);
                    deal.capture(slot, number);
                }
            }
            Action::Pass => {
                if deal.round < ROUNDS && deal.order.pile_has_cards() {
                    deal.order.look_through_discard(actor);
                    self.phase = Phase::TakeOrderCard { actor, number };
                    return;
                }
            }
            Action::TakeOrderCard { .. } | Action::Answer { .. } => {}
        }
        // Only a card turning face up can decide the game (the end conditions read
        // nothing else), and it was undecided before this action.
        let turned_up = matches!(
            action,
            Action::Nominate { .. } | Action::Sabotage { .. } | Action::Capture { .. }
        );
        self.finish_turn(actor, number, turned_up);
    }

    /// The actor's order card goes face up to the discard pile; then the game ends
    /// if decided (`turned_up`: the action turned a card face up), or the next card is
    /// played, or the round ends.
    #[inline]
    fn finish_turn(&mut self, actor: Seat, number: OrderNumber, turned_up: bool) {
        self.deal.order.play(number, actor);
        if turned_up {
            if let Some(reason) = self.deal.decided() {
                self.end_game(reason);
                return;
            }
        }
        self.next_turn();
    }

    #[inline]
    fn next_turn(&mut self) {
        loop {
            if let Some((number, actor)) = self.deal.order.next_actor() {
                self.phase = Phase::Turn { actor, number };
                return;
            }
            // Ⅲ. Everyone has acted: the round ends and protection with it.
            self.deal.protected = Default::default();
            if self.deal.round >= ROUNDS {
                self.end_game(EndReason::ThirdRoundEnded);
                return;
            }
            self.deal.round += 1;
            self.deal_order_cards();
        }
    }

    /// Ⅰ. Order cards to every player still in the game who did not reserve one.
    pub(crate) fn deal_order_cards(&mut self) {
        self.deal.deal_order_cards(&mut self.rng);
    }

    /// Starts the first round of a fresh deal.
    pub(crate) fn start_deal(&mut self) {
        self.deal = Deal::new(&self.options, self.players(), &mut self.rng);
        self.deal_order_cards();
        self.next_turn();
    }

    fn end_game(&mut self, reason: EndReason) {
        let deal = &self.deal;
        // 盗賊の勝利条件: a seated thief still free steals the win (an NPC thief does not).
        let thief_steals = deal.slot_of_role(Role::Thief).is_some_and(|s: Slot| {
            deal.is_player_slot(s) && deal.status(s) != CardStatus::Captured
        });
        let winner = if thief_steals {
            Side::Thief
        } else {
            reason.side()
        };
        for seat in Seat::all(self.players()) {
            if deal.role(Deal::seat_slot(seat)).side() == winner {
                if let Some(vp) = self.victory_points.get_mut(seat.index()) {
                    *vp += 1;
                }
            }
        }
        self.results.push(GameResult {
            reason,
            winner,
            roles: crate::state::DealtRoles::new(
                deal.roles
                    .get(..usize::from(deal.card_count))
                    .unwrap_or_default(),
            ),
            removed: deal.removed,
            round: deal.round,
        });
        if self.results.len() < usize::from(self.options.games.games()) {
            self.start_deal();
        } else {
            self.phase = Phase::MatchOver;
        }
    }
}
