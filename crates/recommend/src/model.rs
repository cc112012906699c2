//! The model: item-item similarities from everyone's shelves, with content and
//! popularity to fall back on; and asking it for one person.

use crate::content::{Content, Interner};
use crate::{Filters, GameId, GameInfo, Interaction, Reason};
use std::collections::HashMap;

/// How the model is built.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Similar games kept per game.
    pub neighbours: usize,
    /// Shrinkage of a similarity toward 0 when few people share the two games:
    /// multiplied by `co / (co + shrink)`, `co` the people who like both.
    pub shrink: f32,
    /// Games liked by fewer people are "cold": reached through content.
    pub min_support: u32,
    /// Threads for the build (at least 1).
    pub threads: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            neighbours: 100,
            shrink: 10.0,
            min_support: 5,
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// A built model: immutable, shared by every request until the next build replaces it.
pub struct Model {
    ids: Vec<GameId>,
    index: HashMap<GameId, u32>,
    /// People who like each game (weight above 0).
    popularity: Vec<u32>,
    /// Games by popularity, most liked first (ties by id).
    by_popularity: Vec<u32>,
    /// Each game's neighbours (`nb[nb_start[i]..nb_start[i+1]]`), most similar first.
    nb_start: Vec<u32>,
    nb: Vec<(u32, f32)>,
    content: Vec<Content>,
    /// Games with content known and fewer than `min_support` people liking them.
    cold: Vec<u32>,
    users: usize,
    interactions: usize,
    params: Params,
}

/// One person's question.
#[derive(Clone, Debug, Default)]
pub struct Request<'a> {
    /// The person's own entries (their `user` is not looked at).
    pub entries: &'a [Interaction],
    /// Games the person said they are not interested in.
    pub dismissed: &'a [GameId],
    pub filters: Filters,
    pub limit: usize,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Recommendation {
    pub game: GameId,
    /// Higher is better; comparable within one answer only.
    pub score: f32,
    pub reason: Reason,
}

/// People with this many liked games weigh content and co-occurrence equally; fewer
/// lean on content, more on co-occurrence.
const CONTENT_HALF: f32 = 5.0;
/// A cold game's content score counts at least this much.
const COLD_CONTENT: f32 = 0.25;
/// Content is compared with this many of a person's liked games (the most liked).
const CONTENT_LIKED: usize = 20;

impl Model {
    /// Builds the model from everyone's entries and the catalog's facts (either may
    /// name games the other does not).
    pub fn build(interactions: &[Interaction], games: &[GameInfo], params: Params) -> Model {
        let mut ids: Vec<GameId> = Vec::new();
        let mut index: HashMap<GameId, u32> = HashMap::new();
        let mut content: Vec<Content> = Vec::new();
        let mut words = Interner::default();
        for g in games {
            if index.contains_key(&g.id) {
                continue;
            }
            index.insert(g.id, ids.len() as u32);
            ids.push(g.id);
            content.push(Content::of(g, &mut words));
        }
        let mut users: HashMap<i64, u32> = HashMap::new();
        let mut triples: Vec<(u32, u32, f32)> = Vec::with_capacity(interactions.len());
        for e in interactions {
            let item = *index.entry(e.game).or_insert_with(|| {
                ids.push(e.game);
                content.push(Content::default());
                (ids.len() - 1) as u32
            });
            let w = e.weight();
            if w > 0.0 {
                let n = users.len() as u32;
                let u = *users.entry(e.user).or_insert(n);
                triples.push((u, item, w));
            }
        }
        // One weight per person and game: the largest.
        triples.sort_unstable_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then(b.2.total_cmp(&a.2)));
        triples.dedup_by(|b, a| a.0 == b.0 && a.1 == b.1);
        let n_items = ids.len();
        let n_users = users.len();
        let by_user = csr(n_users, triples.iter().map(|t| (t.0, t.1, t.2)));
        let by_item = csr(n_items, triples.iter().map(|t| (t.1, t.0, t.2)));
        let norms: Vec<f32> = (0..n_items)
            .map(|i| {
                by_item
                    .row(i)
                    .iter()
                    .map(|(_, w)| w * w)
                    .sum::<f32>()
                    .sqrt()
            })
            .collect();
        let popularity: Vec<u32> = (0..n_items).map(|i| by_item.row(i).len() as u32).collect();
        let mut by_popularity: Vec<u32> = (0..n_items as u32).collect();
        by_popularity.sort_by(|a, b| {
            popularity[*b as usize]
                .cmp(&popularity[*a as usize])
                .then(ids[*a as usize].cmp(&ids[*b as usize]))
        });
        let lists = neighbours(&by_user, &by_item, &norms, &params);
        let mut nb_start = Vec::with_capacity(n_items + 1);
        let mut nb = Vec::new();
        nb_start.push(0u32);
        for l in lists {
            nb.extend(l);
            nb_start.push(nb.len() as u32);
        }
        let cold = (0..n_items as u32)
            .filter(|i| {
                popularity[*i as usize] < params.min_support && content[*i as usize].info.is_some()
            })
            .collect();
        Model {
            ids,
            index,
            popularity,
            by_popularity,
            nb_start,
            nb,
            content,
            cold,
            users: n_users,
            interactions: triples.len(),
            params,
        }
    }

    /// Games known to the model.
    pub fn games(&self) -> usize {
        self.ids.len()
    }

    /// People with at least one liked game.
    pub fn users(&self) -> usize {
        self.users
    }

    /// Liking entries the model was built from.
    pub fn interactions(&self) -> usize {
        self.interactions
    }

    pub fn game_ids(&self) -> &[GameId] {
        &self.ids
    }

    /// How many people like `game`.
    pub fn popularity(&self, game: GameId) -> u32 {
        self.index
            .get(&game)
            .map_or(0, |i| self.popularity[*i as usize])
    }

    fn row(&self, i: u32) -> &[(u32, f32)] {
        let a = self.nb_start[i as usize] as usize;
        let b = self.nb_start[i as usize + 1] as usize;
        &self.nb[a..b]
    }

    fn info(&self, i: u32) -> Option<&GameInfo> {
        self.content[i as usize].info.as_ref()
    }

    /// Which of the model's games the person knows or dismissed.
    fn excluded(&self, entries: &[Interaction], dismissed: &[GameId]) -> Vec<bool> {
        let mut out = vec![false; self.ids.len()];
        for e in entries.iter().filter(|e| e.known()) {
            if let Some(i) = self.index.get(&e.game) {
                out[*i as usize] = true;
            }
        }
        for g in dismissed {
            if let Some(i) = self.index.get(g) {
                out[*i as usize] = true;
            }
        }
        out
    }

    /// Up to `limit` games for one person, best first, each with its reason: never a
    /// game they know (own, owned, played, rated) or dismissed, only games passing the
    /// filters.
    pub fn recommend(&self, req: &Request) -> Vec<Recommendation> {
        let n = self.ids.len();
        let excluded = self.excluded(req.entries, req.dismissed);
        // The liked games, one weight each (the largest), most liked first.
        let mut liked: HashMap<u32, f32> = HashMap::new();
        for e in req.entries {
            let w = e.weight();
            if let (Some(i), true) = (self.index.get(&e.game), w > 0.0) {
                let slot = liked.entry(*i).or_insert(0.0);
                *slot = slot.max(w);
            }
        }
        let mut liked: Vec<(u32, f32)> = liked.into_iter().collect();
        liked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let wsum: f32 = liked.iter().map(|l| l.1).sum();
        // Co-occurrence, with the two largest contributions to each game.
        let mut cf = vec![0f32; n];
        let mut top: Vec<[(u32, f32); 2]> = vec![[(u32::MAX, 0.0); 2]; n];
        let mut touched: Vec<u32> = Vec::new();
        for &(i, w) in &liked {
            for &(j, s) in self.row(i) {
                let ju = j as usize;
                if excluded[ju] {
                    continue;
                }
                if cf[ju] == 0.0 {
                    touched.push(j);
                }
                let c = w * s;
                cf[ju] += c;
                let t = &mut top[ju];
                if c > t[0].1 {
                    t[1] = t[0];
                    t[0] = (i, c);
                } else if c > t[1].1 {
                    t[1] = (i, c);
                }
            }
        }
        let beta = CONTENT_HALF / (CONTENT_HALF + liked.len() as f32);
        // Content: against every game for a person with few liked games, else only the
        // cold games (which co-occurrence cannot reach).
        let sources: Vec<(u32, f32)> = liked
            .iter()
            .filter(|(i, _)| self.info(*i).is_some())
            .take(CONTENT_LIKED)
            .copied()
            .collect();
        let wmax = sources.first().map_or(1.0, |s| s.1);
        let mut content: HashMap<u32, (f32, u32)> = HashMap::new();
        if !sources.is_empty() {
            let all: Vec<u32>;
            let candidates: &[u32] = if (liked.len() as f32) < CONTENT_HALF {
                all = (0..n as u32).collect();
                &all
            } else {
                &self.cold
            };
            for &j in candidates {
                if excluded[j as usize] || self.info(j).is_none() {
                    continue;
                }
                let cj = &self.content[j as usize];
                let mut best = (0f32, u32::MAX);
                for &(i, w) in &sources {
                    if i == j {
                        continue;
                    }
                    let s = w / wmax * self.content[i as usize].similarity(cj);
                    if s > best.0 {
                        best = (s, i);
                    }
                }
                if best.0 > 0.0 {
                    content.insert(j, best);
                }
            }
        }
        let mut scored: Vec<Recommendation> = Vec::new();
        let mut seen = vec![false; n];
        let consider = |j: u32, seen: &mut Vec<bool>, scored: &mut Vec<Recommendation>| {
            let ju = j as usize;
            if seen[ju] || excluded[ju] || !req.filters.pass(self.info(j)) {
                return;
            }
            seen[ju] = true;
            let c = if wsum > 0.0 { cf[ju] / wsum } else { 0.0 };
            let cold = self.popularity[ju] < self.params.min_support;
            let (cs, ci) = content.get(&j).copied().unwrap_or((0.0, u32::MAX));
            let b = if cold { beta.max(COLD_CONTENT) } else { beta };
            let from_cf = (1.0 - beta) * c;
            let from_content = b * cs;
            let score = from_cf + from_content;
            if score <= 0.0 {
                return;
            }
            let reason = if from_cf >= from_content {
                let t = top[ju];
                Reason::Liked(
                    t.iter()
                        .filter(|x| x.0 != u32::MAX)
                        .map(|x| self.ids[x.0 as usize])
                        .collect(),
                )
            } else {
                Reason::Similar(self.ids[ci as usize])
            };
            scored.push(Recommendation {
                game: self.ids[ju],
                score,
                reason,
            });
        };
        for &j in &touched {
            consider(j, &mut seen, &mut scored);
        }
        let mut from_content: Vec<u32> = content.keys().copied().collect();
        from_content.sort_unstable();
        for j in from_content {
            consider(j, &mut seen, &mut scored);
        }
        scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.game.cmp(&b.game)));
        scored.truncate(req.limit);
        // Popular games that pass the filters fill what is left.
        if scored.len() < req.limit {
            let reason = Reason::Popular {
                players: req.filters.players,
                max_minutes: req.filters.max_minutes,
            };
            for &j in &self.by_popularity {
                if scored.len() >= req.limit || self.popularity[j as usize] == 0 {
                    break;
                }
                let ju = j as usize;
                if seen[ju] || excluded[ju] || !req.filters.pass(self.info(j)) {
                    continue;
                }
                seen[ju] = true;
                scored.push(Recommendation {
                    game: self.ids[ju],
                    score: 0.0,
                    reason: reason.clone(),
                });
            }
        }
        scored
    }

    /// The popularity baseline: the most liked games the person does not know.
    pub fn popular(&self, entries: &[Interaction], filters: Filters, limit: usize) -> Vec<GameId> {
        let excluded = self.excluded(entries, &[]);
        self.by_popularity
            .iter()
            .filter(|j| !excluded[**j as usize] && filters.pass(self.info(**j)))
            .take(limit)
            .map(|j| self.ids[*j as usize])
            .collect()
    }

    /// "People who like this game also like": its most similar games; for a game few
    /// people like yet, the games most like it in content.
    pub fn similar(&self, game: GameId, limit: usize) -> Vec<(GameId, f32)> {
        let Some(&i) = self.index.get(&game) else {
            return Vec::new();
        };
        let mut out: Vec<(GameId, f32)> = self
            .row(i)
            .iter()
            .take(limit)
            .map(|(j, s)| (self.ids[*j as usize], *s))
            .collect();
        if out.len() < limit && self.info(i).is_some() {
            let ci = &self.content[i as usize];
            let mut more: Vec<(GameId, f32)> = (0..self.ids.len() as u32)
                .filter(|j| *j != i && !out.iter().any(|o| o.0 == self.ids[*j as usize]))
                .map(|j| {
                    (
                        self.ids[j as usize],
                        ci.similarity(&self.content[j as usize]),
                    )
                })
                .filter(|(_, s)| *s > 0.3)
                .collect();
            more.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            // Below every co-occurrence neighbour: content is the weaker evidence.
            let floor = out.last().map_or(1.0, |o| o.1);
            out.extend(
                more.into_iter()
                    .take(limit - out.len())
                    .map(|(g, s)| (g, s * floor.min(1.0) * 0.5)),
            );
        }
        out
    }
}

/// A game's neighbours: `(game index, similarity)`, most similar first.
type Neighbours = Vec<(u32, f32)>;

/// Rows of `(column, weight)`, compressed.
struct Csr {
    start: Vec<u32>,
    cells: Vec<(u32, f32)>,
}

impl Csr {
    fn row(&self, r: usize) -> &[(u32, f32)] {
        &self.cells[self.start[r] as usize..self.start[r + 1] as usize]
    }
}

fn csr(rows: usize, cells: impl Iterator<Item = (u32, u32, f32)> + Clone) -> Csr {
    let mut count = vec![0u32; rows + 1];
    for (r, _, _) in cells.clone() {
        count[r as usize + 1] += 1;
    }
    for r in 0..rows {
        count[r + 1] += count[r];
    }
    let mut fill = count.clone();
    let mut out = vec![(0u32, 0f32); count[rows] as usize];
    for (r, c, w) in cells {
        let at = &mut fill[r as usize];
        out[*at as usize] = (c, w);
        *at += 1;
    }
    Csr {
        start: count,
        cells: out,
    }
}

/// Each game's most similar games: shrunk cosine over the people who like both,
/// computed game by game on `params.threads` threads.
fn neighbours(
    by_user: &Csr,
    by_item: &Csr,
    norms: &[f32],
    params: &Params,
) -> Vec<Vec<(u32, f32)>> {
    let n = norms.len();
    let threads = params.threads.clamp(1, 64);
    let mut lists: Vec<Vec<(u32, f32)>> = vec![Vec::new(); n];
    let parts: Vec<Vec<(usize, Neighbours)>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                s.spawn(move || {
                    let mut acc = vec![0f32; n];
                    let mut co = vec![0u32; n];
                    let mut touched: Vec<u32> = Vec::new();
                    let mut out = Vec::new();
                    for i in (t..n).step_by(threads) {
                        for &(u, wi) in by_item.row(i) {
                            for &(j, wj) in by_user.row(u as usize) {
                                let ju = j as usize;
                                if ju == i {
                                    continue;
                                }
                                if co[ju] == 0 {
                                    touched.push(j);
                                }
                                co[ju] += 1;
                                acc[ju] += wi * wj;
                            }
                        }
                        let mut list: Vec<(u32, f32)> = touched
                            .iter()
                            .filter_map(|&j| {
                                let ju = j as usize;
                                let c = co[ju] as f32;
                                let d = norms[i] * norms[ju];
                                let s = if d > 0.0 {
                                    acc[ju] / d * c / (c + params.shrink)
                                } else {
                                    0.0
                                };
                                acc[ju] = 0.0;
                                co[ju] = 0;
                                (s > 0.0).then_some((j, s))
                            })
                            .collect();
                        touched.clear();
                        let order = |a: &(u32, f32), b: &(u32, f32)| {
                            b.1.total_cmp(&a.1).then(a.0.cmp(&b.0))
                        };
                        if list.len() > params.neighbours {
                            list.select_nth_unstable_by(params.neighbours, order);
                            list.truncate(params.neighbours);
                        }
                        list.sort_by(order);
                        out.push((i, list));
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    for part in parts {
        for (i, l) in part {
            lists[i] = l;
        }
    }
    lists
}

#[cfg(test)]
mod tests {
    use super::*;

    fn liked(user: i64, game: i64, rating: f32) -> Interaction {
        Interaction {
            user,
            game,
            rating: Some(rating),
            played: true,
            ..Default::default()
        }
    }

    /// Two tastes: games 1–3 go together, 10–12 go together.
    fn shelves() -> Vec<Interaction> {
        let mut v = Vec::new();
        for u in 0..20 {
            let group: [i64; 3] = if u % 2 == 0 { [1, 2, 3] } else { [10, 11, 12] };
            for g in group {
                v.push(liked(u, g, 8.0));
            }
        }
        // 10 is the most popular of all.
        for u in 100..130 {
            v.push(liked(u, 10, 9.0));
        }
        v
    }

    #[test]
    fn a_person_who_likes_one_taste_is_offered_the_rest_of_it_with_the_reason() {
        let m = Model::build(&shelves(), &[], Params::default());
        let me = [liked(999, 1, 9.0), liked(999, 2, 8.0)];
        let recs = m.recommend(&Request {
            entries: &me,
            limit: 1,
            ..Default::default()
        });
        assert_eq!(recs.len(), 1);
        assert_eq!(recs[0].game, 3);
        assert_eq!(recs[0].reason, Reason::Liked(vec![1, 2]));
        // Popularity alone would say 10.
        assert_eq!(m.popular(&me, Filters::default(), 1), [10]);
    }

    #[test]
    fn known_and_dismissed_games_are_never_recommended() {
        let m = Model::build(&shelves(), &[], Params::default());
        let mut me = vec![liked(999, 1, 9.0)];
        me.push(Interaction {
            user: 999,
            game: 2,
            own: true,
            ..Default::default()
        });
        let recs = m.recommend(&Request {
            entries: &me,
            dismissed: &[3],
            limit: 10,
            ..Default::default()
        });
        let games: Vec<GameId> = recs.iter().map(|r| r.game).collect();
        assert!(!games.is_empty());
        for g in [1, 2, 3] {
            assert!(!games.contains(&g), "{games:?}");
        }
    }

    #[test]
    fn someone_with_nothing_liked_gets_popular_games_passing_the_filters() {
        let games: Vec<GameInfo> = [1, 2, 3, 10, 11, 12]
            .iter()
            .map(|&id| GameInfo {
                id,
                min_players: Some(2),
                max_players: Some(if id < 10 { 4 } else { 2 }),
                max_minutes: Some(30),
                min_age: Some(8),
                ..Default::default()
            })
            .collect();
        let m = Model::build(&shelves(), &games, Params::default());
        let filters = Filters {
            players: Some(4),
            ..Default::default()
        };
        let recs = m.recommend(&Request {
            entries: &[],
            filters,
            limit: 2,
            ..Default::default()
        });
        assert_eq!(recs.len(), 2);
        for r in &recs {
            assert!(r.game < 10, "{recs:?}");
            assert_eq!(
                r.reason,
                Reason::Popular {
                    players: Some(4),
                    max_minutes: None
                }
            );
        }
    }

    #[test]
    fn a_game_nobody_shares_is_reached_through_its_content() {
        let info = |id: i64, tags: &[&str]| GameInfo {
            id,
            min_players: Some(2),
            max_players: Some(4),
            max_minutes: Some(30),
            min_age: Some(8),
            tags: tags.iter().map(|s| s.to_string()).collect(),
            designers: Vec::new(),
        };
        let games = [
            info(1, &["Tiles", "Abstract"]),
            info(50, &["Tiles", "Abstract"]),
            info(51, &["Wargame"]),
        ];
        let m = Model::build(&shelves(), &games, Params::default());
        let me = [liked(999, 1, 9.0)];
        let recs = m.recommend(&Request {
            entries: &me,
            limit: 10,
            ..Default::default()
        });
        let new = recs.iter().find(|r| r.game == 50).expect("50 by content");
        assert_eq!(new.reason, Reason::Similar(1));
        assert_eq!(m.similar(50, 1)[0].0, 1);
    }
}
