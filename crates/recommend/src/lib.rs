//! Board-game recommendations from everyone's shelves (issue 18): games a person has
//! neither played nor owned, each with the reason it is suggested.
//!
//! Pure: no I/O, no server types. The server turns its tables into [`Interaction`]s and
//! [`GameInfo`]s, builds a [`Model`] off the request path, and asks it per person; the
//! command line measures it ([`eval`]) on a ratings file or on a synthetic one
//! ([`synth`]).
//!
//! The method (docs/RECOMMEND.md has the measurements that chose it):
//! - **item-item co-occurrence**: each person's entries are weighted by how much they
//!   show liking ([`Interaction::weight`]); two games are similar by the cosine of their
//!   columns, shrunk toward zero when few people share them (`co / (co + shrink)`: the
//!   popularity correction — a blockbuster everybody owns is not "similar" to
//!   everything). Each game keeps its `neighbours` most similar games.
//! - a person's score for a game is the weighted mean similarity to the games they like;
//!   the one or two liked games that contributed most are the reason.
//! - **content** (players, time, age, mechanics and categories, designers) fills in where
//!   co-occurrence knows little: people with few entries lean on it, and games with few
//!   interactions are reached only through it.
//! - **popularity** among the games that pass the filters comes last, for people with
//!   nothing liked yet, and to fill a short list.
//!
//! Every random choice comes from a seeded `rand_chacha` generator: same input, same
//! output.

mod content;
pub mod eval;
mod model;
mod reason;
mod rng;
pub mod synth;

pub use model::{Model, Params, Recommendation, Request};
pub use reason::{Lang, Reason};

/// A person's catalog id, a game's catalog id (or BoardGameGeek id in [`eval`]).
pub type UserId = i64;
pub type GameId = i64;

/// One person's entry for one game: what their shelf says about it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Interaction {
    pub user: UserId,
    pub game: GameId,
    /// 1 to 10.
    pub rating: Option<f32>,
    pub own: bool,
    pub prev_owned: bool,
    pub played: bool,
    pub favourite: bool,
    /// Want to play, or on the wishlist.
    pub want: bool,
    /// Plays logged.
    pub plays: u32,
}

impl Interaction {
    /// How much the entry shows the person likes the game, 0 (not at all, or not
    /// known) to 1. A rating says it best: 6 is the first liking one (BoardGameGeek's
    /// scale calls 6 "OK, will play if in the mood"), 10 is 1; below 6 is 0 whatever
    /// the statuses. Without a rating: a favourite 1, owning or playing (more with each
    /// play) about half, having owned or wanting a little.
    pub fn weight(&self) -> f32 {
        if let Some(r) = self.rating.filter(|r| r.is_finite()) {
            return if r >= 6.0 {
                ((r - 5.0) / 5.0).min(1.0)
            } else {
                0.0
            };
        }
        let mut w: f32 = 0.0;
        if self.favourite {
            w = 1.0;
        }
        if self.own || self.played || self.plays > 0 {
            w = w.max(0.5 + 0.05 * self.plays.min(6) as f32);
        }
        if self.prev_owned || self.want {
            w = w.max(0.3);
        }
        w
    }

    /// Whether the person knows the game already: owns or owned it, played it or rated
    /// it (a rating is of a game played). Such games are never recommended to them.
    pub fn known(&self) -> bool {
        self.own || self.prev_owned || self.played || self.plays > 0 || self.rating.is_some()
    }
}

/// What the catalog says about a game, for content similarity and the filters. A
/// missing number fails any filter on it (as the catalog's own filters do).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GameInfo {
    pub id: GameId,
    pub min_players: Option<u32>,
    pub max_players: Option<u32>,
    /// The longest playing time, in minutes.
    pub max_minutes: Option<u32>,
    pub min_age: Option<u32>,
    /// Mechanics and categories.
    pub tags: Vec<String>,
    pub designers: Vec<String>,
}

/// Which games may be recommended.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Filters {
    /// Playable with this many players.
    pub players: Option<u32>,
    /// At most this long (the longest playing time, in minutes).
    pub max_minutes: Option<u32>,
    /// Suitable for a player this old: the game's minimum age is at most this.
    pub min_age: Option<u32>,
}

impl Filters {
    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }

    /// Whether `g` passes; `None` (nothing known of the game) passes only no filter.
    pub fn pass(&self, g: Option<&GameInfo>) -> bool {
        if self.is_empty() {
            return true;
        }
        let Some(g) = g else {
            return false;
        };
        if let Some(n) = self.players {
            match (g.min_players, g.max_players) {
                (Some(a), Some(b)) if a <= n && n <= b => {}
                _ => return false,
            }
        }
        if let Some(m) = self.max_minutes {
            if g.max_minutes.is_none_or(|t| t > m) {
                return false;
            }
        }
        if let Some(a) = self.min_age {
            if g.min_age.is_none_or(|x| x > a) {
                return false;
            }
        }
        true
    }
}
