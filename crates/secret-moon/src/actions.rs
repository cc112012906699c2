//! The seven actions (観察・質問・指名・隠れる/かばう・妨害・捕獲・パス), the two
//! follow-up decisions, and when each is legal.

use crate::cards::{CardRef, CardStatus, Slot};
use crate::order::{OrderLoc, OrderNumber};
use crate::role::{Answer, Role};
use crate::state::{Deal, Phase};
use crate::SecretMoon;
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::Seat;

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 観察: look at another player's card or a centre card in secret.
    Observe { card: CardRef },
    /// 質問: ask another player 「そこにいるのは何者か?」.
    Question { target: Seat },
    /// 指名: name the role of another player's card or a centre card.
    Nominate { card: CardRef, role: Role },
    /// 隠れる/かばう: protect a card (yourself, another player, an NPC) until the round ends.
    Protect { card: CardRef },
    /// 妨害: make another player discard their order card; you are revealed and captured.
    Sabotage { target: Seat },
    /// 捕獲: capture the holder of a card revealed by a nomination.
    Capture { card: CardRef },
    /// パス: do nothing, and take an order card for the next round.
    Pass,
    /// After passing: the card taken from the discard pile.
    TakeOrderCard { number: OrderNumber },
    /// The reply of a questioned player.
    Answer { answer: Answer },
}

/// Why an action is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    NoSuchCard,
    NoSuchPlayer,
    NotYourOwnCard,
    NotYourself,
    AlreadyFaceUp,
    Protected,
    AlreadyCaptured,
    NotRevealedByNomination,
    NoProtectionInRoundThree,
    ThiefCannotProtect,
    ThiefCannotCapture,
    SoldiersCaptureOnlyTheThief,
    OnlyTheMinisterCapturesThePrincess,
    NoOrderCard,
    NoThiefInThisGame,
    NotInDiscardPile,
    NotAnAnswerYouCanGive,
    NotNow,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::NoSuchCard => "there is no such character card on the table",
            Reject::NoSuchPlayer => "there is no such player at the table",
            Reject::NotYourOwnCard => "this action targets another player's card or a centre card, not your own",
            Reject::NotYourself => "this action targets another player, not yourself",
            Reject::AlreadyFaceUp => "that card is already face up",
            Reject::Protected => "that card is protected until the end of the round (隠れる/かばう)",
            Reject::AlreadyCaptured => "that player is already captured",
            Reject::NotRevealedByNomination => "only a card revealed by a nomination can be captured",
            Reject::NoProtectionInRoundThree => "hide/protect cannot be used in round 3",
            Reject::ThiefCannotProtect => "the thief cannot hide or protect",
            Reject::ThiefCannotCapture => "the thief cannot capture",
            Reject::SoldiersCaptureOnlyTheThief => "a soldier can capture only the thief",
            Reject::OnlyTheMinisterCapturesThePrincess => "only the minister can capture the princess",
            Reject::NoOrderCard => "that player holds no action-order card",
            Reject::NoThiefInThisGame => "this table plays without the thief",
            Reject::NotInDiscardPile => "that order card is not in the discard pile",
            Reject::NotAnAnswerYouCanGive => "your card does not give that answer",
            Reject::NotNow => "that is not the decision in front of you now",
        })
    }
}

impl SecretMoon {
    /// Checks an action of `seat` against the rules; `Ok` exactly when it is legal.
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), Reject> {
        let deal = &self.deal;
        match (self.phase, *action) {
            (Phase::Turn { actor, .. }, a) if actor == seat => self.check_turn_action(seat, a),
            (Phase::Answer { target, .. }, Action::Answer { answer }) if target == seat => {
                if deal.role(Deal::seat_slot(seat)).answers().contains(&answer) {
                    Ok(())
                } else {
                    Err(Reject::NotAnAnswerYouCanGive)
                }
            }
            (Phase::TakeOrderCard { actor, .. }, Action::TakeOrderCard { number }) if actor == seat => {
                if deal.order.in_discard(number) {
                    Ok(())
                } else {
                    Err(Reject::NotInDiscardPile)
                }
            }
            _ => Err(Reject::NotNow),
        }
    }

    fn check_turn_action(&self, actor: Seat, action: Action) -> Result<(), Reject> {
        let deal = &self.deal;
        let own = Deal::seat_slot(actor);
        let my_role = deal.role(own);
        match action {
            Action::Observe { card } => {
                let slot = self.other_card(actor, card)?;
                self.hidden_target(slot)
            }
            Action::Question { target } => {
                let slot = self.other_player(actor, target)?;
                self.live_target(slot)
            }
            Action::Nominate { card, role } => {
                if role == Role::Thief && !self.options.thief {
                    return Err(Reject::NoThiefInThisGame);
                }
                let slot = self.other_card(actor, card)?;
                self.hidden_target(slot)
            }
            Action::Protect { card } => {
                if deal.last_round() {
                    return Err(Reject::NoProtectionInRoundThree);
                }
                if my_role == Role::Thief {
                    return Err(Reject::ThiefCannotProtect);
                }
                let slot = deal.slot(card).ok_or(Reject::NoSuchCard)?;
                self.live_target(slot)
            }
            Action::Sabotage { target } => {
                let slot = self.other_player(actor, target)?;
                self.live_target(slot)?;
                let holds = deal.order.iter().any(|(_, l)| l == OrderLoc::Held(target) || l == OrderLoc::Reserved(target));
                if holds {
                    Ok(())
                } else {
                    Err(Reject::NoOrderCard)
                }
            }
            Action::Capture { card } => {
                if my_role == Role::Thief {
                    return Err(Reject::ThiefCannotCapture);
                }
                let slot = self.other_card(actor, card)?;
                match deal.status(slot) {
                    CardStatus::Hidden => return Err(Reject::NotRevealedByNomination),
                    CardStatus::Captured => return Err(Reject::AlreadyCaptured),
                    CardStatus::Revealed => {}
                }
                if deal.protected.contains(slot) {
                    return Err(Reject::Protected);
                }
                let target_role = deal.role(slot);
                if my_role == Role::Soldier && target_role != Role::Thief {
                    return Err(Reject::SoldiersCaptureOnlyTheThief);
                }
                if target_role == Role::Princess && my_role != Role::Minister {
                    return Err(Reject::OnlyTheMinisterCapturesThePrincess);
                }
                Ok(())
            }
            Action::Pass => Ok(()),
            Action::TakeOrderCard { .. } | Action::Answer { .. } => Err(Reject::NotNow),
        }
    }

    fn other_card(&self, actor: Seat, card: CardRef) -> Result<Slot, Reject> {
        let slot = self.deal.slot(card).ok_or(Reject::NoSuchCard)?;
        if slot == Deal::seat_slot(actor) {
            Err(Reject::NotYourOwnCard)
        } else {
            Ok(slot)
        }
    }

    fn other_player(&self, actor: Seat, target: Seat) -> Result<Slot, Reject> {
        if target.0 >= self.deal.players {
            Err(Reject::NoSuchPlayer)
        } else if target == actor {
            Err(Reject::NotYourself)
        } else {
            Ok(Deal::seat_slot(target))
        }
    }

    /// Face down and not protected (observe, nominate).
    fn hidden_target(&self, slot: Slot) -> Result<(), Reject> {
        if self.deal.status(slot).face_up() {
            Err(Reject::AlreadyFaceUp)
        } else if self.deal.protected.contains(slot) {
            Err(Reject::Protected)
        } else {
            Ok(())
        }
    }

    /// Not captured and not protected (question, protect, sabotage).
    fn live_target(&self, slot: Slot) -> Result<(), Reject> {
        if self.deal.status(slot) == CardStatus::Captured {
            Err(Reject::AlreadyCaptured)
        } else if self.deal.protected.contains(slot) {
            Err(Reject::Protected)
        } else {
            Ok(())
        }
    }

    /// Every legal action of `seat`, built from candidates filtered by [`Self::check`]
    /// so the list and the check can never disagree.
    pub(crate) fn collect_legal(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let push = |a: Action, out: &mut Vec<Action>| {
            if self.check(seat, &a).is_ok() {
                out.push(a);
            }
        };
        match self.phase {
            Phase::Turn { actor, .. } if actor == seat => {
                let cards = self.deal.slots().map(|s| self.deal.card_ref(s));
                let others = Seat::all(usize::from(self.deal.players)).filter(|s| *s != seat);
                for card in cards.clone() {
                    push(Action::Observe { card }, out);
                }
                for target in others.clone() {
                    push(Action::Question { target }, out);
                }
                for card in cards.clone() {
                    for role in Role::ALL {
                        push(Action::Nominate { card, role }, out);
                    }
                }
                for card in cards.clone() {
                    push(Action::Protect { card }, out);
                }
                for target in others {
                    push(Action::Sabotage { target }, out);
                }
                for card in cards {
                    push(Action::Capture { card }, out);
                }
                out.push(Action::Pass);
            }
            Phase::Answer { target, .. } if target == seat => {
                for &answer in self.deal.role(Deal::seat_slot(seat)).answers() {
                    out.push(Action::Answer { answer });
                }
            }
            Phase::TakeOrderCard { actor, .. } if actor == seat => {
                for (number, _) in self.deal.order.iter() {
                    push(Action::TakeOrderCard { number }, out);
                }
            }
            _ => {}
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Observe { card } => write!(f, "observe {card}"),
            Action::Question { target } => write!(f, "question player {}", target.0),
            Action::Nominate { card, role } => write!(f, "nominate {card} as the {role}"),
            Action::Protect { card } => write!(f, "hide/protect {card}"),
            Action::Sabotage { target } => write!(f, "sabotage player {}", target.0),
            Action::Capture { card } => write!(f, "capture {card}"),
            Action::Pass => write!(f, "pass"),
            Action::TakeOrderCard { number } => write!(f, "take order card {number} for the next round"),
            Action::Answer { answer } => write!(f, "answer \"{}\"", answer.words()),
        }
    }
}
