//! Ⅱ. The effect of each action (観察・質問・指名・隠れる/かばう・妨害・捕獲・パス, the
//! answer to a question, the order card taken after a pass). `apply_legal` comes here
//! with an action `collect_legal` lists: nothing here checks legality.

use crate::options::ROUNDS;
use crate::role::{Role, RoleMask};
use crate::rules::order::OrderNumber;
use crate::state::{Deal, Phase, PlayerSeat};
use crate::types::Action;
use crate::SecretMoon;
use takuge_engine::{Game, Seat};

impl SecretMoon {
    /// Plays an action `collect_legal` lists for `seat` (the provided `apply` and the
    /// fast playout call this only with such an action).
    #[inline]
    pub(crate) fn play(&mut self, seat: Seat, action: Action) {
        // The one place the acting seat becomes an index into per-seat arrays: a
        // pending seat is always at the table, so this never refuses.
        let Some(at) = PlayerSeat::check(seat, self.players()) else {
            return;
        };
        match self.phase {
            Phase::Turn { actor, number } if actor == seat => self.play_turn(at, number, action),
            Phase::Answer {
                asker,
                number,
                target,
            } if target == seat => {
                if let Action::Answer { answer } = action {
                    self.deal.record_answer(at, answer);
                }
                self.finish_turn(asker, number, false);
            }
            Phase::TakeOrderCard { actor, number } if actor == seat => {
                if let Action::TakeOrderCard { number: taken } = action {
                    self.deal.order.take(taken, actor);
                }
                self.finish_turn(actor, number, false);
            }
            _ => {}
        }
    }

    #[inline]
    fn play_turn(&mut self, at: PlayerSeat, number: OrderNumber, action: Action) {
        let actor = at.seat();
        let own = Deal::seat_slot(actor);
        let players = self.players();
        let deal = &mut self.deal;
        match action {
            Action::Observe { card } => {
                if let Some(slot) = deal.slot(card) {
                    deal.known[at].insert(slot);
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
                // Without the thief every card has one answer, spoken at once. The
                // target is a player: the list offers no other.
                let role = deal.role(Deal::seat_slot(target));
                if let (Some(&answer), Some(target)) =
                    (role.answers().first(), PlayerSeat::check(target, players))
                {
                    deal.record_answer(target, answer);
                }
            }
            Action::Nominate { card, role } => {
                if let Some(slot) = deal.slot(card) {
                    if !deal.is_player_slot(slot) {
                        // 中央のカード: the nominator looks at it in secret.
                        deal.known[at].insert(slot);
                    }
                    if deal.role(slot) == role {
                        deal.reveal(slot, number);
                    } else {
                        deal.restrict(slot, RoleMask::ALL.without(role));
                        deal.reveal(own, number);
                    }
                }
            }
            Action::Protect { card } => {
                if let Some(slot) = deal.slot(card) {
                    deal.protected.insert(slot);
                }
                deal.restrict(own, RoleMask::ALL.without(Role::Thief));
            }
            Action::Sabotage { target } => {
                // The saboteur's own card is played (discarded as any played card)
                // before the saboteur is captured.
                deal.order.discard_played(number, actor);
                deal.order.discard_unplayed(target, number);
                deal.capture(own, number);
            }
            Action::Capture { card } => {
                if let Some(slot) = deal.slot(card) {
                    let target_role = deal.role(slot);
                    let mut mask = RoleMask::ALL.without(Role::Thief);
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
}
