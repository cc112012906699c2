//! The vocabulary of Ghost at Home: options, actions, refusals, what follows a ghost,
//! who owns a discarded card, and the table's sizes. Cards and floors are in
//! `cards.rs`; a hand (and a set of cards chosen from it) in `hand.rs`.

use crate::cards::{Card, Floor};
use crate::hand::Cards;
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::Seat;

/// The most players at a table.
pub const MAX_PLAYERS: usize = 4;
/// Cards in a full hand (3枚ずつ配ります; 最大3枚までカードを補充します).
pub const HAND_SIZE: usize = 3;
/// Every card of the game with the special cards (46 + 7).
pub const MAX_CARDS: usize = 53;

/// A seat checked once against the table (where it enters: a move, a view, an action's
/// target), then used to index the houses and hands without clamping.
pub(crate) type Seated = takuge_engine::Seated<MAX_PLAYERS>;
/// One value per seat, indexed by a [`Seated`].
pub(crate) type PerSeat<T> = takuge_engine::SeatMap<T, MAX_PLAYERS>;

/// Table options. `Default` is the recommended setup for a first game: no special cards
/// (最初のゲームでは特殊カードを抜くことを推奨).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Shuffle the 7 special cards (特殊カード) into the deck.
    pub special_cards: bool,
}

/// One decision of one seat. The turn is one choice among the six actions; the cards
/// of a room play or a light are chosen with it, those of a discard right after it
/// (each a part of a 3-card hand, at most 7), so every list stays small.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 部屋カードを1枚以上プレイする: these room cards (and wild rooms), one after another,
    /// each onto the lowest floor that is not full; the turn ends.
    PlayRooms { cards: Cards },
    /// ゴーストカードを出す: a ghost onto `target`'s highest floor with rooms.
    PlayGhost { target: Seat },
    /// 猫カードを出す: a cat onto an explored room of `floor` of your house.
    PlayCat { floor: Floor },
    /// 電気をつける: discard these 2 or 3 room cards face up (5+ light-bulb icons) and
    /// light `floor`.
    Light { cards: Cards, floor: Floor },
    /// 電球: light `floor` of your house.
    PlayLightBulb { floor: Floor },
    /// 雷: put out the light of `target`'s highest explored floor.
    PlayLightning { target: Seat },
    /// キャットフード: move a cat from `from`'s `floor` to `to` in your house.
    PlayCatFood { from: Seat, floor: Floor, to: Floor },
    /// エレベーター: move a cat of your house from floor `from` to floor `to`.
    PlayElevator { from: Floor, to: Floor },
    /// 時空の穴: move the ghost on `from`'s `floor` to `to`'s highest floor with rooms.
    PlaySpaceTimeHole { from: Seat, floor: Floor, to: Seat },
    /// カードを1枚以上捨てる: discard one or more cards face down and draw as many (the
    /// cards are chosen next, with [`Action::DiscardCards`]).
    Discard,
    /// The cards to discard face down; as many are drawn and the turn ends. Which
    /// cards they were is secret (捨て札がなんだったかは他のプレイヤーには秘密です).
    DiscardCards { cards: Cards },
    /// Discard a cat from your hand to cancel the ghost coming to your house.
    DefendWithCat,
    /// Let the ghost come (offered whether or not you hold a cat).
    NoDefence,
    /// Play a ghost from your hand to stop the active player's escape.
    StopEscape,
    /// Let the escape go on (offered whether or not you hold a ghost).
    LetEscape,
    /// Nothing else is possible (an empty hand, which only a dry deck can cause).
    Pass,
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The card is not in the player's hand.
    NotInHand(Card),
    /// The action does not fit the situation (wrong step, target or floor).
    NotAllowedNow,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reject::NotInHand(card) => write!(f, "you hold no {card}"),
            Reject::NotAllowedNow => f.write_str("that is not allowed now"),
        }
    }
}

/// What happens once a ghost has been dealt with, as the views show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Then {
    /// The ghost was played (or moved) in the active player's turn: the turn ends.
    EndTurn,
    /// The ghost was played against an escape by `by`, who may still play
    /// `ghosts_left` more.
    Escape { by: Seat, ghosts_left: u8 },
}

/// [`Then`] inside the state, with the seat checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Next {
    EndTurn,
    Escape { by: Seated, ghosts_left: u8 },
}

impl Next {
    pub(crate) fn public(self) -> Then {
        match self {
            Next::EndTurn => Then::EndTurn,
            Next::Escape { by, ghosts_left } => Then::Escape {
                by: by.seat(),
                ghosts_left,
            },
        }
    }
}

/// Who discarded a card of the pile: everyone saw it (face up: a light, a ghost or a
/// cat that met, a special card, a lost floor), or one seat discarded it face down
/// (捨て札がなんだったかは他のプレイヤーには秘密です).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Owner {
    #[default]
    Public,
    Secret(Seated),
}
