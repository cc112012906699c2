//! The game's words for a decision: the seven actions (観察・質問・指名・隠れる/かばう・
//! 妨害・捕獲・パス), the two follow-up decisions, and the reasons an action is refused.
//! Cards, roles, order cards and options have their own vocabulary files
//! (`cards.rs`, `role.rs`, `rules/order.rs`, `options.rs`).

use crate::cards::CardRef;
use crate::role::{Answer, Role};
use crate::rules::order::OrderNumber;
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
            Reject::NotYourOwnCard => {
                "this action targets another player's card or a centre card, not your own"
            }
            Reject::NotYourself => "this action targets another player, not yourself",
            Reject::AlreadyFaceUp => "that card is already face up",
            Reject::Protected => {
                "that card is protected until the end of the round (隠れる/かばう)"
            }
            Reject::AlreadyCaptured => "that player is already captured",
            Reject::NotRevealedByNomination => {
                "only a card revealed by a nomination can be captured"
            }
            Reject::NoProtectionInRoundThree => "hide/protect cannot be used in round 3",
            Reject::ThiefCannotProtect => "the thief cannot hide or protect",
            Reject::ThiefCannotCapture => "the thief cannot capture",
            Reject::SoldiersCaptureOnlyTheThief => "a soldier can capture only the thief",
            Reject::OnlyTheMinisterCapturesThePrincess => {
                "only the minister can capture the princess"
            }
            Reject::NoOrderCard => "that player holds no action-order card",
            Reject::NoThiefInThisGame => "this table plays without the thief",
            Reject::NotInDiscardPile => "that order card is not in the discard pile",
            Reject::NotAnAnswerYouCanGive => "your card does not give that answer",
            Reject::NotNow => "that is not the decision in front of you now",
        })
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Observe { card } => write!(f, "observe {card}"),
            Action::Question { target } => write!(f, "question seat {}", u16::from(target.0) + 1),
            Action::Nominate { card, role } => write!(f, "nominate {card} as the {role}"),
            Action::Protect { card } => write!(f, "hide/protect {card}"),
            Action::Sabotage { target } => write!(f, "sabotage seat {}", u16::from(target.0) + 1),
            Action::Capture { card } => write!(f, "capture {card}"),
            Action::Pass => write!(f, "pass"),
            Action::TakeOrderCard { number } => {
                write!(f, "take order card {number} for the next round")
            }
            Action::Answer { answer } => write!(f, "answer \"{}\"", answer.words()),
        }
    }
}
