//! The numbers of the deck: room cards per floor and their light-bulb icons (from
//! `data/cards.toml`, which the rules document does not give), ghosts, cats and the
//! special cards; and the composition of a game's deck.

use crate::cards::{Card, Counts, Floor, MAX_BULBS};
use serde::Deserialize;
use std::sync::OnceLock;

/// Room cards per floor, as the rules give them (1階12枚、2階10枚、3階10枚).
pub const ROOMS_PER_FLOOR: [u8; 3] = [12, 10, 10];
/// ゴースト8枚
pub const GHOSTS: u8 = 8;
/// ネコ6枚
pub const CATS: u8 = 6;

/// The light-bulb distribution: `rooms[floor][bulbs]` cards.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardData {
    pub rooms: [[u8; MAX_BULBS as usize + 1]; 3],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FloorRow {
    cards: u8,
    bulbs0: u8,
    bulbs1: u8,
    bulbs2: u8,
    bulbs3: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DataFile {
    floor1: FloorRow,
    floor2: FloorRow,
    floor3: FloorRow,
}

/// The data file, compiled in.
pub const CARDS_TOML: &str = include_str!("../data/cards.toml");

/// Parses and checks a light-bulb data file.
pub fn parse_card_data(text: &str) -> Result<CardData, String> {
    let file: DataFile = toml::from_str(text).map_err(|e| e.to_string())?;
    let mut rooms = [[0u8; 4]; 3];
    for (i, row) in [&file.floor1, &file.floor2, &file.floor3]
        .into_iter()
        .enumerate()
    {
        let counts = [row.bulbs0, row.bulbs1, row.bulbs2, row.bulbs3];
        let sum: u32 = counts.iter().map(|&n| u32::from(n)).sum();
        let expected = ROOMS_PER_FLOOR[i];
        if row.cards != expected {
            return Err(format!(
                "floor{}: the rules give {expected} room cards, the file says {}",
                i + 1,
                row.cards
            ));
        }
        if sum != u32::from(expected) {
            return Err(format!(
                "floor{}: bulb counts add up to {sum}, not {expected}",
                i + 1
            ));
        }
        rooms[i] = counts;
    }
    Ok(CardData { rooms })
}

/// The project's default data, parsed once.
pub fn card_data() -> Result<&'static CardData, &'static str> {
    static DATA: OnceLock<Result<CardData, String>> = OnceLock::new();
    DATA.get_or_init(|| parse_card_data(CARDS_TOML))
        .as_ref()
        .map_err(|e| e.as_str())
}

/// Every card of a game: the 46 basic cards, plus the 7 special cards if used.
pub fn composition(data: &CardData, special_cards: bool) -> Counts {
    let mut counts = Counts::EMPTY;
    for floor in Floor::ALL {
        for bulbs in 0..=MAX_BULBS {
            if let Some(card) = Card::room(floor, bulbs) {
                counts.add(card, data.rooms[floor.index()][usize::from(bulbs)]);
            }
        }
    }
    counts.add(Card::Ghost, GHOSTS);
    counts.add(Card::Cat, CATS);
    if special_cards {
        // 時空の穴1枚、電球1枚、キャットフード1枚、エレベーター1枚、雷1枚、部屋のワイルドカード2枚
        for card in [
            Card::SpaceTimeHole,
            Card::LightBulb,
            Card::CatFood,
            Card::Elevator,
            Card::Lightning,
        ] {
            counts.add(card, 1);
        }
        counts.add(Card::WildRoom, 2);
    }
    counts
}
