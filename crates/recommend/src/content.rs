//! Content similarity: what two games are, from the catalog's facts.

use crate::GameInfo;
use std::collections::HashMap;

/// A game's facts with its words interned, for fast comparison.
#[derive(Clone, Debug, Default)]
pub struct Content {
    pub info: Option<GameInfo>,
    /// Mechanics and categories, sorted ids.
    tags: Vec<u32>,
    /// Designers, sorted ids.
    designers: Vec<u32>,
}

#[derive(Default)]
pub struct Interner(HashMap<String, u32>);

impl Interner {
    fn ids(&mut self, words: &[String]) -> Vec<u32> {
        let mut v: Vec<u32> = words
            .iter()
            .map(|w| {
                let n = self.0.len() as u32;
                *self.0.entry(w.trim().to_lowercase()).or_insert(n)
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }
}

impl Content {
    pub fn of(info: &GameInfo, words: &mut Interner) -> Content {
        Content {
            tags: words.ids(&info.tags),
            designers: words.ids(&info.designers),
            info: Some(info.clone()),
        }
    }

    /// 0 (nothing alike, or nothing known) to 1: mechanics and categories (Jaccard),
    /// a shared designer, overlapping player counts, close playing times.
    pub fn similarity(&self, other: &Content) -> f32 {
        let (Some(a), Some(b)) = (&self.info, &other.info) else {
            return 0.0;
        };
        let mut s = 0.5 * jaccard(&self.tags, &other.tags);
        if shares(&self.designers, &other.designers) {
            s += 0.2;
        }
        if let (Some(a0), Some(a1), Some(b0), Some(b1)) =
            (a.min_players, a.max_players, b.min_players, b.max_players)
        {
            let overlap = a1.min(b1) as f32 - a0.max(b0) as f32 + 1.0;
            let span = a1.max(b1) as f32 - a0.min(b0) as f32 + 1.0;
            if overlap > 0.0 && span > 0.0 {
                s += 0.15 * overlap / span;
            }
        }
        if let (Some(x), Some(y)) = (a.max_minutes, b.max_minutes) {
            let (x, y) = (x.max(1) as f32, y.max(1) as f32);
            s += 0.15 * x.min(y) / x.max(y);
        }
        s
    }
}

fn jaccard(a: &[u32], b: &[u32]) -> f32 {
    if a.is_empty() || b.is_empty() {
        return 0.0;
    }
    let (mut i, mut j, mut both) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    both as f32 / (a.len() + b.len() - both) as f32
}

fn shares(a: &[u32], b: &[u32]) -> bool {
    a.iter().any(|x| b.binary_search(x).is_ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: i64, players: (u32, u32), minutes: u32, tags: &[&str]) -> GameInfo {
        GameInfo {
            id,
            min_players: Some(players.0),
            max_players: Some(players.1),
            max_minutes: Some(minutes),
            min_age: Some(8),
            tags: tags.iter().map(|s| s.to_string()).collect(),
            designers: Vec::new(),
        }
    }

    #[test]
    fn games_alike_in_mechanics_players_and_time_are_more_similar() {
        let mut w = Interner::default();
        let a = Content::of(
            &game(1, (2, 4), 30, &["Tile Placement", "Abstract"]),
            &mut w,
        );
        let b = Content::of(
            &game(2, (2, 4), 40, &["tile placement", "Abstract"]),
            &mut w,
        );
        let c = Content::of(&game(3, (5, 10), 180, &["Negotiation"]), &mut w);
        assert!(a.similarity(&b) > 0.7, "{}", a.similarity(&b));
        assert!(a.similarity(&c) < 0.1, "{}", a.similarity(&c));
        assert_eq!(a.similarity(&Content::default()), 0.0);
    }
}
