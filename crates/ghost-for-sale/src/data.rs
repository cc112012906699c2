//! The numbers the rules text does not give: property names, score tables and the
//! bidding cards' back marks. They live in `data/properties.toml` (the project's
//! defaults, which an owner of the box can correct) and are compiled in.

use serde::Deserialize;
use std::sync::OnceLock;

/// The data file, as shipped.
pub const PROPERTIES_TOML: &str = include_str!("../data/properties.toml");

/// Properties per round: 6 manors (館), then 6 castles (城).
pub const PER_ROUND: usize = 6;

/// One property card.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PropertyCard {
    pub name: String,
    /// The name in katakana, for the Japanese log (「Algernon館」 reads badly).
    pub name_ja: String,
    /// Points for 0, 1, 2, 3 and 4 ghosts; 5 or more ghosts score 0.
    pub points: [u8; 5],
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct Marks {
    low: Vec<u8>,
    high: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    marks: Marks,
    manor: Vec<PropertyCard>,
    castle: Vec<PropertyCard>,
}

/// The validated data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Data {
    /// Manors then castles, each in alphabetical order (index = global property id).
    pub properties: Vec<PropertyCard>,
    /// Bit `v` is set when the card of value `v` shows the high mark (高額マーク).
    pub high_marks: u16,
}

/// Parses and checks a data file; the error says what is wrong in words.
pub fn parse(text: &str) -> Result<Data, String> {
    let file: File = toml::from_str(text).map_err(|e| format!("properties.toml: {e}"))?;
    let mut high_marks = 0u16;
    let mut seen = 0u16;
    for (list, high) in [(&file.marks.low, false), (&file.marks.high, true)] {
        for &v in list {
            if !(1..=10).contains(&v) {
                return Err(format!("marks: {v} is not a card value (1..10)"));
            }
            if seen & (1 << v) != 0 {
                return Err(format!("marks: value {v} is listed twice"));
            }
            seen |= 1 << v;
            if high {
                high_marks |= 1 << v;
            }
        }
    }
    if seen != 0b111_1111_1110 {
        return Err("marks: every value 1..10 must be low or high".into());
    }
    // "最も低額である「1」の裏には高額マークが書かれており、最も高額である「10」の裏には
    // 定額マークが書かれています" — the one fact about the backs the text fixes.
    if high_marks & (1 << 1) == 0 || high_marks & (1 << 10) != 0 {
        return Err("marks: the 1 must show the high mark and the 10 the low mark".into());
    }
    for (kind, list) in [("manor", &file.manor), ("castle", &file.castle)] {
        if list.len() != PER_ROUND {
            return Err(format!(
                "there must be {PER_ROUND} {kind}s, not {}",
                list.len()
            ));
        }
        for pair in list.windows(2) {
            if pair[0].name.to_lowercase() >= pair[1].name.to_lowercase() {
                return Err(format!(
                    "{kind}s must be in alphabetical order: {} comes before {}",
                    pair[0].name, pair[1].name
                ));
            }
        }
        for card in list.iter() {
            check_table(card)?;
        }
    }
    if file.manor.first().map(|m| m.name.as_str()) != Some("Algernon") {
        return Err("the first manor must be Algernon (通常はalgernon)".into());
    }
    match file.manor.iter().find(|m| m.name == "Culzean") {
        Some(c) if c.points == [0, 1, 3, 4, 0] => {}
        Some(_) => return Err("Culzean scores 1, 3, 4 points for 1, 2, 3 ghosts, else 0".into()),
        None => return Err("Culzean must be one of the manors".into()),
    }
    let mut properties = file.manor;
    properties.extend(file.castle);
    Ok(Data {
        properties,
        high_marks,
    })
}

/// 0 at 0 ghosts, then rising and falling (never rising again), with a positive peak.
fn check_table(card: &PropertyCard) -> Result<(), String> {
    if card.name_ja.trim().is_empty() {
        return Err(format!(
            "{}: name_ja (the name in katakana) is empty",
            card.name
        ));
    }
    let p = card.points;
    if p[0] != 0 {
        return Err(format!("{}: 0 ghosts must score 0", card.name));
    }
    if p.iter().all(|&x| x == 0) {
        return Err(format!("{}: the table never scores", card.name));
    }
    let mut falling = false;
    for w in p.windows(2) {
        if w[1] < w[0] {
            falling = true;
        } else if w[1] > w[0] && falling {
            return Err(format!(
                "{}: a table rises and then falls; {:?} rises again",
                card.name, p
            ));
        }
    }
    Ok(())
}

/// The shipped data, parsed once.
pub fn data() -> Result<&'static Data, &'static str> {
    static DATA: OnceLock<Result<Data, String>> = OnceLock::new();
    match DATA.get_or_init(|| parse(PROPERTIES_TOML)) {
        Ok(d) => Ok(d),
        Err(e) => Err(e.as_str()),
    }
}

/// The katakana name of a property (global id 0..12), for the Japanese log.
pub fn property_name_ja(id: usize) -> String {
    data()
        .ok()
        .and_then(|d| d.properties.get(id))
        .map(|p| p.name_ja.clone())
        .unwrap_or_else(|| format!("物件{id}"))
}

/// The name of a property (global id 0..12), for views and descriptions.
pub fn property_name(id: usize) -> String {
    data()
        .ok()
        .and_then(|d| d.properties.get(id))
        .map(|p| p.name.clone())
        .unwrap_or_else(|| format!("property {id}"))
}
