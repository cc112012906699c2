//! Where character cards lie: in front of a player, or in the centre as an NPC.

use crate::options::MAX_CARDS;
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::Seat;

/// A character card on the table, named the way players point at it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardRef {
    /// The card in front of a player.
    Player(Seat),
    /// The n-th card in the centre (中央に置かれたカード), played by no one (NPC).
    Npc(u8),
}

impl fmt::Display for CardRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Numbered from 1, as the table shows seats and centre cards.
            CardRef::Player(s) => write!(f, "seat {}", u16::from(s.0) + 1),
            CardRef::Npc(i) => write!(f, "centre card {}", u16::from(*i) + 1),
        }
    }
}

/// A card's index in the state: players' cards first, then the centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot(pub(crate) u8);

impl Slot {
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// A set of slots.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SlotSet(pub(crate) u16);

impl SlotSet {
    pub const fn contains(self, slot: Slot) -> bool {
        slot.0 < MAX_CARDS as u8 && self.0 & (1 << slot.0) != 0
    }

    pub fn insert(&mut self, slot: Slot) {
        if slot.index() < MAX_CARDS {
            self.0 |= 1 << slot.0;
        }
    }
}

/// Whether a card is face down, face up, or its holder captured (捕獲: face up, out).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CardStatus {
    #[default]
    Hidden,
    /// 公開 — by a nomination (指名) or a failed one; only such cards can be captured.
    Revealed,
    /// 捕獲 — face up and out of the game until it ends.
    Captured,
}

impl CardStatus {
    pub const fn face_up(self) -> bool {
        !matches!(self, CardStatus::Hidden)
    }
}
