//! The offline evaluation: hide a seeded 20% of each person's rated games, build on
//! the rest, recommend 10 games per person from those they have not rated, and count
//! how many hidden games they rated 7 or more come back.
//!
//! - precision@10: hits / 10; recall@10: hits / relevant hidden games;
//! - ndcg@10: binary gains, `1/log2(rank+1)`, over the ideal ranking of the relevant;
//! - coverage: distinct games recommended to anyone / games in the file.
//!
//! Averaged over people with at least one relevant hidden game.

use crate::model::{Model, Params, Request};
use crate::rng::Rng;
use crate::{GameId, Interaction, UserId};
use std::collections::{HashMap, HashSet};

/// One line of a ratings file.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub user: UserId,
    pub game: GameId,
    /// 1 to 10.
    pub rating: f32,
}

/// A line of a file that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based.
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for ParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Hidden games rated this or more are the ones a recommendation should find.
pub const RELEVANT: f32 = 7.0;
/// Recommendations per person.
pub const K: usize = 10;
/// The share of each person's ratings hidden.
pub const HIDDEN: f64 = 0.2;

/// `user_id,game_id,rating` lines (a header line first is allowed; BoardGameGeek ids,
/// ratings from 1 to 10).
pub fn parse_ratings(text: &str) -> Result<Vec<Rating>, ParseError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line_no = n + 1;
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let err = |message: String| ParseError {
            line: line_no,
            message,
        };
        if fields.len() != 3 {
            return Err(err(format!(
                "expected 3 fields (user_id,game_id,rating), found {}",
                fields.len()
            )));
        }
        let user = fields[0].parse::<i64>();
        if out.is_empty() && user.is_err() && fields[0].to_ascii_lowercase().contains("user") {
            continue; // the header
        }
        let user = user.map_err(|_| err(format!("user_id {:?} is not an integer", fields[0])))?;
        let game = fields[1]
            .parse::<i64>()
            .map_err(|_| err(format!("game_id {:?} is not an integer", fields[1])))?;
        let rating = fields[2]
            .parse::<f32>()
            .ok()
            .filter(|r| r.is_finite() && (1.0..=10.0).contains(r))
            .ok_or_else(|| {
                err(format!(
                    "rating {:?} is not a number from 1 to 10",
                    fields[2]
                ))
            })?;
        out.push(Rating { user, game, rating });
    }
    Ok(out)
}

/// `game_id,title` lines (a header first is allowed; a title may be quoted).
pub fn parse_titles(text: &str) -> Result<HashMap<GameId, String>, ParseError> {
    let mut out = HashMap::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let err = |message: String| ParseError {
            line: n + 1,
            message,
        };
        let Some((id, title)) = line.split_once(',') else {
            return Err(err("expected game_id,title".into()));
        };
        let Ok(id) = id.trim().parse::<i64>() else {
            if n == 0 {
                continue; // the header
            }
            return Err(err(format!("game_id {:?} is not an integer", id.trim())));
        };
        let title = title.trim();
        let title = match title.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
            Some(t) => t.replace("\"\"", "\""),
            None => title.to_string(),
        };
        out.insert(id, title);
    }
    Ok(out)
}

/// One method's numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Metrics {
    pub precision: f64,
    pub recall: f64,
    pub ndcg: f64,
    pub coverage: f64,
    /// People measured.
    pub users: usize,
}

impl Metrics {
    /// `name  precision@10 0.xxx  recall@10 0.xxx  ndcg@10 0.xxx  coverage 0.xxx`.
    pub fn line(&self, name: &str) -> String {
        format!(
            "{name}  precision@10 {:.3}  recall@10 {:.3}  ndcg@10 {:.3}  coverage {:.3}",
            self.precision, self.recall, self.ndcg, self.coverage
        )
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub takuge: Metrics,
    pub popularity: Metrics,
    pub random: Metrics,
    /// A person measured and their takuge recommendations with reasons (for a look).
    pub sample: Option<(UserId, Vec<crate::Recommendation>)>,
}

fn interaction(r: &Rating) -> Interaction {
    Interaction {
        user: r.user,
        game: r.game,
        rating: Some(r.rating),
        played: true,
        ..Default::default()
    }
}

/// The split and the three methods' numbers.
pub fn evaluate(ratings: &[Rating], seed: u64, params: Params) -> Report {
    // Each person's ratings in file order, people by id.
    let mut by_user: HashMap<UserId, Vec<Rating>> = HashMap::new();
    for r in ratings {
        by_user.entry(r.user).or_default().push(*r);
    }
    let mut people: Vec<UserId> = by_user.keys().copied().collect();
    people.sort_unstable();
    let mut train: Vec<Interaction> = Vec::with_capacity(ratings.len());
    let mut tests: Vec<(UserId, Vec<Interaction>, HashSet<GameId>)> = Vec::new();
    for &u in &people {
        let mut mine = by_user.remove(&u).unwrap_or_default();
        let mut rng = Rng::stream(seed, u as u64);
        rng.shuffle(&mut mine);
        let hide = (mine.len() as f64 * HIDDEN).round() as usize;
        let (hidden, kept) = mine.split_at(hide.min(mine.len()));
        let kept: Vec<Interaction> = kept.iter().map(interaction).collect();
        train.extend(kept.iter().cloned());
        let relevant: HashSet<GameId> = hidden
            .iter()
            .filter(|r| r.rating >= RELEVANT)
            .map(|r| r.game)
            .collect();
        if !relevant.is_empty() {
            tests.push((u, kept, relevant));
        }
    }
    let model = Model::build(&train, &[], params);
    let all_games = {
        let mut g: Vec<GameId> = ratings.iter().map(|r| r.game).collect();
        g.sort_unstable();
        g.dedup();
        g
    };
    let mut takuge = Tally::default();
    let mut popularity = Tally::default();
    let mut random = Tally::default();
    let mut sample = None;
    for (u, kept, relevant) in &tests {
        let recs = model.recommend(&Request {
            entries: kept,
            limit: K,
            ..Default::default()
        });
        let ids: Vec<GameId> = recs.iter().map(|r| r.game).collect();
        takuge.add(&ids, relevant);
        if sample.is_none() {
            sample = Some((*u, recs));
        }
        popularity.add(&model.popular(kept, crate::Filters::default(), K), relevant);
        // Random: 10 of the games in the file the person has not rated (in training).
        let known: HashSet<GameId> = kept.iter().map(|e| e.game).collect();
        let mut rng = Rng::stream(seed ^ 0x005e_ed0f_7a4d, *u as u64);
        let mut picks = Vec::with_capacity(K);
        let unknown = all_games.len().saturating_sub(known.len());
        let mut tries = 0;
        while picks.len() < K.min(unknown) && tries < 100 * K {
            tries += 1;
            let g = all_games[rng.below(all_games.len())];
            if !known.contains(&g) && !picks.contains(&g) {
                picks.push(g);
            }
        }
        random.add(&picks, relevant);
    }
    Report {
        takuge: takuge.metrics(all_games.len()),
        popularity: popularity.metrics(all_games.len()),
        random: random.metrics(all_games.len()),
        sample,
    }
}

#[derive(Default)]
struct Tally {
    precision: f64,
    recall: f64,
    ndcg: f64,
    users: usize,
    shown: HashSet<GameId>,
}

impl Tally {
    fn add(&mut self, recs: &[GameId], relevant: &HashSet<GameId>) {
        let mut hits = 0usize;
        let mut dcg = 0.0;
        for (rank, g) in recs.iter().take(K).enumerate() {
            self.shown.insert(*g);
            if relevant.contains(g) {
                hits += 1;
                dcg += 1.0 / ((rank + 2) as f64).log2();
            }
        }
        let ideal: f64 = (0..relevant.len().min(K))
            .map(|rank| 1.0 / ((rank + 2) as f64).log2())
            .sum();
        self.precision += hits as f64 / K as f64;
        self.recall += hits as f64 / relevant.len() as f64;
        self.ndcg += if ideal > 0.0 { dcg / ideal } else { 0.0 };
        self.users += 1;
    }

    fn metrics(&self, games: usize) -> Metrics {
        let n = self.users.max(1) as f64;
        Metrics {
            precision: self.precision / n,
            recall: self.recall / n,
            ndcg: self.ndcg / n,
            coverage: if games == 0 {
                0.0
            } else {
                self.shown.len() as f64 / games as f64
            },
            users: self.users,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_line_is_named() {
        let e = parse_ratings("user_id,game_id,rating\n1,13,7\n1,x,7\n").unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().starts_with("line 3: game_id"), "{e}");
        let e = parse_ratings("1,13,11\n").unwrap_err();
        assert_eq!(e.line, 1);
        let e = parse_ratings("1,13\n").unwrap_err();
        assert!(e.to_string().contains("expected 3 fields"), "{e}");
        assert_eq!(parse_ratings("1,13,7.5\n").map(|r| r.len()), Ok(1));
    }

    #[test]
    fn titles_read_quoted_and_plain() {
        let t = parse_titles("game_id,title\n13,Catan\n822,\"Carcassonne, \"\"the\"\" game\"\n")
            .expect("reads");
        assert_eq!(t[&13], "Catan");
        assert_eq!(t[&822], "Carcassonne, \"the\" game");
        assert_eq!(parse_titles("x13 Catan\n").unwrap_err().line, 1);
    }

    #[test]
    fn perfect_recommendations_score_one() {
        let mut t = Tally::default();
        let rel: HashSet<GameId> = (0..10).collect();
        t.add(&(0..10).collect::<Vec<_>>(), &rel);
        let m = t.metrics(10);
        assert_eq!((m.precision, m.recall, m.coverage), (1.0, 1.0, 1.0));
        assert!((m.ndcg - 1.0).abs() < 1e-12);
    }
}
