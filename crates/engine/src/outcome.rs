//! The result of a finished game.

use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// Per seat: score, rank (1 = best, ties share a rank) and team, if the game has teams.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub scores: Vec<i64>,
    pub ranks: Vec<u8>,
    pub teams: Vec<Option<u8>>,
    /// For team games: the team that won (an index into `GameMeta::teams`), even when
    /// none of its members is seated (for example NPC cards in Secret Moon).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winning_team: Option<u8>,
}

impl Outcome {
    /// Ranks by score, higher is better, equal scores share a rank ("1224" ranking).
    pub fn from_scores(scores: Vec<i64>, teams: Vec<Option<u8>>) -> Outcome {
        let ranks = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|o| *o > s).count() as u8)
            .collect();
        Outcome {
            scores,
            ranks,
            teams,
            winning_team: None,
        }
    }

    /// Ranks by a sort key per seat (greater is better), for games whose tie-breaks
    /// go beyond the score; equal keys share a rank.
    pub fn from_keys<K: Ord>(scores: Vec<i64>, keys: &[K], teams: Vec<Option<u8>>) -> Outcome {
        let ranks = keys
            .iter()
            .map(|k| 1 + keys.iter().filter(|o| *o > k).count() as u8)
            .collect();
        Outcome {
            scores,
            ranks,
            teams,
            winning_team: None,
        }
    }

    pub fn with_winning_team(mut self, team: u8) -> Outcome {
        self.winning_team = Some(team);
        self
    }

    pub fn winners(&self) -> impl Iterator<Item = Seat> + '_ {
        self.ranks
            .iter()
            .enumerate()
            .filter(|(_, r)| **r == 1)
            .map(|(i, _)| Seat(i as u8))
    }

    /// A reward in `[0, 1]` for search: the share of other seats this seat beat,
    /// counting ties as half (alone: 1; a solo game scores itself with
    /// [`crate::Game::search_reward`]).
    pub fn reward(&self, seat: Seat) -> f64 {
        let n = self.ranks.len();
        let Some(&mine) = self.ranks.get(seat.index()) else {
            return 0.0;
        };
        if n <= 1 {
            return 1.0;
        }
        let mut won = 0.0;
        for (i, &r) in self.ranks.iter().enumerate() {
            if i == seat.index() {
                continue;
            }
            if r > mine {
                won += 1.0;
            } else if r == mine {
                won += 0.5;
            }
        }
        won / (n - 1) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_scores_share_a_rank() {
        let o = Outcome::from_scores(vec![3, 5, 3, 1], vec![None; 4]);
        assert_eq!(o.ranks, vec![2, 1, 2, 4]);
        assert_eq!(o.winners().collect::<Vec<_>>(), vec![Seat(1)]);
        assert_eq!(o.reward(Seat(1)), 1.0);
        assert_eq!(o.reward(Seat(3)), 0.0);
        assert_eq!(o.reward(Seat(0)), 0.5);
    }
}
