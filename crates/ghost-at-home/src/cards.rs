//! The cards of Ghost at Home: the faces and the floors (the numbers of each face in
//! the deck are in `data.rs`).

use serde::{Deserialize, Serialize};
use std::fmt;

/// A floor of a house (階), counted from the ground up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Floor {
    /// 1階
    First,
    /// 2階
    Second,
    /// 3階
    Third,
}

impl Floor {
    pub const ALL: [Floor; 3] = [Floor::First, Floor::Second, Floor::Third];

    pub const fn index(self) -> usize {
        self as usize
    }

    /// The floor number as printed on the cards (1, 2, 3).
    pub const fn number(self) -> u8 {
        self as u8 + 1
    }

    pub const fn from_index(i: usize) -> Option<Floor> {
        match i {
            0 => Some(Floor::First),
            1 => Some(Floor::Second),
            2 => Some(Floor::Third),
            _ => None,
        }
    }
}

impl fmt::Display for Floor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Floor::First => f.write_str("1st floor"),
            Floor::Second => f.write_str("2nd floor"),
            Floor::Third => f.write_str("3rd floor"),
        }
    }
}

/// The most light-bulb icons a room card shows in the project's data (0 to 3).
pub const MAX_BULBS: u8 = 3;

/// One card face. Cards with the same face are interchangeable (the illustration of a
/// room does not matter: イラストは関係なく、カードの階だけで判断します), so a room card is
/// its floor and its number of light-bulb icons.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum Card {
    /// (Also what unused slots of a card list hold.)
    #[default]
    Floor1Bulbs0,
    Floor1Bulbs1,
    Floor1Bulbs2,
    Floor1Bulbs3,
    Floor2Bulbs0,
    Floor2Bulbs1,
    Floor2Bulbs2,
    Floor2Bulbs3,
    Floor3Bulbs0,
    Floor3Bulbs1,
    Floor3Bulbs2,
    Floor3Bulbs3,
    /// ゴースト
    Ghost,
    /// ネコ
    Cat,
    /// 時空の穴: move a ghost from any house to an opponent's highest floor with rooms.
    SpaceTimeHole,
    /// 電球: light a floor of your house.
    LightBulb,
    /// キャットフード: move a cat from an opponent's house to yours.
    CatFood,
    /// エレベーター: move a cat between floors of your house.
    Elevator,
    /// 雷: put out the light of an opponent's highest explored floor.
    Lightning,
    /// 部屋ワイルドカード: a room of any floor.
    WildRoom,
}

/// The number of distinct card faces.
pub const KINDS: usize = 20;

impl Card {
    pub const ALL: [Card; KINDS] = [
        Card::Floor1Bulbs0,
        Card::Floor1Bulbs1,
        Card::Floor1Bulbs2,
        Card::Floor1Bulbs3,
        Card::Floor2Bulbs0,
        Card::Floor2Bulbs1,
        Card::Floor2Bulbs2,
        Card::Floor2Bulbs3,
        Card::Floor3Bulbs0,
        Card::Floor3Bulbs1,
        Card::Floor3Bulbs2,
        Card::Floor3Bulbs3,
        Card::Ghost,
        Card::Cat,
        Card::SpaceTimeHole,
        Card::LightBulb,
        Card::CatFood,
        Card::Elevator,
        Card::Lightning,
        Card::WildRoom,
    ];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn from_index(i: usize) -> Option<Card> {
        if i < KINDS {
            Some(Card::ALL[i])
        } else {
            None
        }
    }

    /// The room card of `floor` with `bulbs` icons.
    pub const fn room(floor: Floor, bulbs: u8) -> Option<Card> {
        if bulbs > MAX_BULBS {
            return None;
        }
        Card::from_index(floor.index() * 4 + bulbs as usize)
    }

    /// The floor printed on a room card; `None` for every other card (including the
    /// wild room, which has no floor of its own).
    pub const fn room_floor(self) -> Option<Floor> {
        let i = self as usize;
        if i < 12 {
            Floor::from_index(i / 4)
        } else {
            None
        }
    }

    pub const fn is_printed_room(self) -> bool {
        (self as usize) < 12
    }

    /// Light-bulb icons (0 for every card that is not a printed room).
    pub const fn bulbs(self) -> u8 {
        let i = self as u8;
        // Without a branch: it is on the path of every card drawn.
        (i % 4) * (i < 12) as u8
    }

    /// One of the 7 special cards (特殊カード).
    pub const fn is_special(self) -> bool {
        (self as usize) >= Card::SpaceTimeHole as usize
    }

    pub fn name(self) -> String {
        match self {
            Card::Ghost => "ghost".into(),
            Card::Cat => "cat".into(),
            Card::SpaceTimeHole => "space-time hole".into(),
            Card::LightBulb => "light bulb".into(),
            Card::CatFood => "cat food".into(),
            Card::Elevator => "elevator".into(),
            Card::Lightning => "lightning".into(),
            Card::WildRoom => "wild room".into(),
            room => {
                let floor = room.room_floor().map_or(0, Floor::number);
                let bulbs = room.bulbs();
                let s = if bulbs == 1 { "" } else { "s" };
                format!("room {floor}F ({bulbs} bulb{s})")
            }
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A multiset of cards, as counts per face.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Counts(pub [u8; KINDS]);

impl Counts {
    pub const EMPTY: Counts = Counts([0; KINDS]);

    pub fn get(&self, card: Card) -> u8 {
        self.0[card.index()]
    }

    pub fn add(&mut self, card: Card, n: u8) {
        let slot = &mut self.0[card.index()];
        *slot = slot.saturating_add(n);
    }

    /// Removes one copy; false (and no change) if there is none.
    pub fn remove(&mut self, card: Card) -> bool {
        let slot = &mut self.0[card.index()];
        if *slot == 0 {
            false
        } else {
            *slot -= 1;
            true
        }
    }

    pub fn total(&self) -> usize {
        self.0.iter().map(|&n| usize::from(n)).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Every card, one entry per copy, in face order.
    pub fn cards(&self) -> impl Iterator<Item = Card> + '_ {
        Card::ALL
            .iter()
            .flat_map(move |&c| std::iter::repeat_n(c, usize::from(self.get(c))))
    }

    /// (face, copies) for the faces present.
    pub fn entries(&self) -> Vec<(Card, u8)> {
        Card::ALL
            .iter()
            .filter(|&&c| self.get(c) > 0)
            .map(|&c| (c, self.get(c)))
            .collect()
    }
}
