//! The cards of the game: colours, the location card 「1」, the action cards 「2」 and
//! the art (美術品) cards.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Always five players (「必ず、5人でゲームは行う。」).
pub const PLAYERS: usize = 5;
/// Every seat, as a bit mask.
pub(crate) const ALL_SEATS: u8 = 0b1_1111;
/// Action cards per colour: 4 cheques, 2 thieves, 1 detective, 1 exhibition card.
pub const CARDS_PER_COLOUR: usize = 8;
pub const ACTION_CARDS: usize = PLAYERS * CARDS_PER_COLOUR;
/// The most art cards the state can hold (they live in `u64` bit sets).
pub const MAX_ART: usize = 64;

/// A player's colour. The colours' 「1」 cards are shuffled and drawn to fix the order of
/// play (「1番手:赤、2番手:青、3番手:緑、4番手:紫、5番手:白」); a colour also fixes the
/// cheques and thieves a player starts with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Colour {
    /// 赤, first to play.
    Red,
    /// 青
    Blue,
    /// 緑
    Green,
    /// 紫
    Purple,
    /// 白
    White,
}

impl Colour {
    pub const ALL: [Colour; PLAYERS] = [
        Colour::Red,
        Colour::Blue,
        Colour::Green,
        Colour::Purple,
        Colour::White,
    ];

    /// 0 for red (first to play) to 4 for white.
    pub const fn index(self) -> usize {
        self as usize
    }

    pub(crate) const fn from_index(i: usize) -> Colour {
        match i {
            0 => Colour::Red,
            1 => Colour::Blue,
            2 => Colour::Green,
            3 => Colour::Purple,
            _ => Colour::White,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Blue => "blue",
            Colour::Green => "green",
            Colour::Purple => "purple",
            Colour::White => "white",
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a player spends the turn: the choice on the 「1」 card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Place {
    /// オークション会場
    AuctionHouse,
    /// 城
    Castle,
}

/// What an action card does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// お金: a cheque, bid at the auction house.
    Money,
    /// 泥棒: steals the winning bid at the auction house, or art from exhibits at the castle.
    Thief,
    /// 探偵: catches the thieves at the castle.
    Detective,
    /// 展示: shows an exhibit at the castle.
    Exhibit,
}

impl Kind {
    /// Whether a card of this kind does anything where it is played: a cheque bids at the
    /// auction house, a thief steals at either place, the detective and the exhibition
    /// card act at the castle. Any card may be played anywhere; one of no use there makes
    /// a wasted turn (the web board warns of it from the legal action's facts).
    pub const fn of_use_at(self, place: Place) -> bool {
        matches!(
            (self, place),
            (Kind::Money, Place::AuctionHouse)
                | (Kind::Thief, _)
                | (Kind::Detective | Kind::Exhibit, Place::Castle)
        )
    }
}

/// One of the 40 action cards 「2」: `colour * 8 + slot`, slots 0–3 the cheques (in the
/// order of the data file), 4–5 the thieves, 6 the detective, 7 the exhibition card.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ActionCard(pub u8);

impl ActionCard {
    pub(crate) const fn new(colour: Colour, slot: usize) -> ActionCard {
        ActionCard((colour.index() * CARDS_PER_COLOUR + slot) as u8)
    }

    pub const fn is_valid(self) -> bool {
        (self.0 as usize) < ACTION_CARDS
    }

    /// The colour printed on the card (its first owner; a cheque may change hands).
    pub const fn colour(self) -> Colour {
        Colour::from_index(self.0 as usize / CARDS_PER_COLOUR)
    }

    pub(crate) const fn slot(self) -> usize {
        self.0 as usize % CARDS_PER_COLOUR
    }

    pub const fn kind(self) -> Kind {
        match self.slot() {
            0..=3 => Kind::Money,
            4 | 5 => Kind::Thief,
            6 => Kind::Detective,
            _ => Kind::Exhibit,
        }
    }

    /// The card's bit in a hand (none for an id beyond the 40 cards).
    pub const fn bit(self) -> u64 {
        if self.is_valid() {
            1u64 << self.0
        } else {
            0
        }
    }
}

/// One art card (美術品): `series * 8 + n`, where `n` counts the cards of the series from
/// the oldest. One byte of a `u64` per series makes "which series are in this hand" a
/// handful of bit operations, which every exhibit step of every playout asks.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(transparent)]
pub struct ArtCard(pub u8);

impl ArtCard {
    /// The card's bit in a set (none for an id beyond the 64 the sets hold).
    pub const fn bit(self) -> u64 {
        if (self.0 as usize) < MAX_ART {
            1u64 << self.0
        } else {
            0
        }
    }
}

/// One of the two piles of art (ヤマ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pile {
    /// The pile dealt one card larger at setup.
    Left,
    Right,
}

impl Pile {
    pub const BOTH: [Pile; 2] = [Pile::Left, Pile::Right];

    pub const fn index(self) -> usize {
        self as usize
    }
}

/// Some art cards of one letter (series): what an exhibitor shows of a letter. Written
/// as the list of the cards' ids. Two bytes, so that an action stays a few bytes (every
/// step of every playout moves actions around).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArtSet {
    series: u8,
    cards: u8,
}

impl ArtSet {
    /// The cards of `set` in its lowest series (callers pass cards of one series).
    pub const fn of(set: u64) -> ArtSet {
        let series = if set == 0 {
            0
        } else {
            set.trailing_zeros() / 8
        };
        ArtSet {
            series: series as u8,
            cards: (set >> (8 * series)) as u8,
        }
    }

    /// The series (letter) of the cards.
    pub const fn series(self) -> u32 {
        self.series as u32
    }

    /// The cards, as a set of card bits.
    pub const fn mask(self) -> u64 {
        (self.cards as u64) << (8 * (self.series as u32 % 8))
    }

    pub fn cards(self) -> impl Iterator<Item = ArtCard> + Clone {
        takuge_engine::bits::iter(self.mask()).map(ArtCard)
    }
}

impl Serialize for ArtSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(takuge_engine::bits::iter(self.mask()))
    }
}

impl<'de> Deserialize<'de> for ArtSet {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let ids = Vec::<u8>::deserialize(d)?;
        let mut set = 0u64;
        for id in ids {
            if usize::from(id) >= MAX_ART {
                return Err(serde::de::Error::custom(format!("no art card {id}")));
            }
            set |= 1 << id;
        }
        let one = ArtSet::of(set);
        if one.mask() != set {
            return Err(serde::de::Error::custom("cards of one letter"));
        }
        Ok(one)
    }
}

/// A letter (series) of art, 'A' for the first; written as the letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Letter(pub u8);

impl Letter {
    /// The letter `c` ('A', 'B', ...); a character that is no letter of the game
    /// becomes a letter no hand holds.
    pub const fn of(c: char) -> Letter {
        let n = (c as u32).wrapping_sub('A' as u32);
        Letter(if n < 26 { n as u8 } else { u8::MAX })
    }

    pub const fn series(self) -> u32 {
        self.0 as u32
    }

    pub fn as_char(self) -> char {
        if self.0 < 26 {
            char::from(b'A' + self.0)
        } else {
            '?'
        }
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

impl Serialize for Letter {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(self.as_char())
    }
}

impl<'de> Deserialize<'de> for Letter {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Letter::of(char::deserialize(d)?))
    }
}
