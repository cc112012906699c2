//! Scoring: the properties' points, the Crystal ball and the Family portrait, and the
//! tie-breaks of the outcome.

use crate::state::GhostForSale;
use crate::types::{Phase, PropertyId, SeatId};
use takuge_engine::{Outcome, SeatMap};

impl GhostForSale {
    /// Every seat's `score`, in one pass over the properties.
    pub(crate) fn final_scoring(&mut self) {
        self.phase = Phase::Over;
        let mut total: SeatMap<i64, { crate::types::MAX_PLAYERS }> = SeatMap::default();
        let mut zero: SeatMap<i64, { crate::types::MAX_PLAYERS }> = SeatMap::default();
        for g in PropertyId::all() {
            if let Some(o) = self.owner[g.index()] {
                let pts = self.property_points(g).unwrap_or(0);
                total[o] += i64::from(pts);
                zero[o] += i64::from(pts == 0);
            }
        }
        if let Some(o) = self.crystal_owner {
            total[o] += 2;
        }
        if let Some(o) = self.portrait_owner {
            total[o] += zero[o];
        }
        self.scores = total;
    }

    /// Points of a seat: its properties, the Crystal ball ("2点として扱う") and the
    /// Family portrait ("獲得した0点の館(城) 1つにつき1点").
    pub(crate) fn score(&self, seat: SeatId) -> i64 {
        let mut total = 0i64;
        let mut zero = 0i64;
        for g in PropertyId::all() {
            if self.owner[g.index()] == Some(seat) {
                let pts = self.property_points(g).unwrap_or(0);
                total += i64::from(pts);
                if pts == 0 {
                    zero += 1;
                }
            }
        }
        if self.crystal_owner == Some(seat) {
            total += 2;
        }
        if self.portrait_owner == Some(seat) && self.phase == Phase::Over {
            total += zero;
        }
        total
    }

    /// The result: "同点だった場合は、獲得した城の数が少ないにもかかわらず、高得点を
    /// 獲得しているプレイヤーが勝ちます。それでも同点だった場合、手札にある賭け金カードの
    /// 合計が高い方が勝ちます。"
    pub(crate) fn final_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.n();
        let scores: Vec<i64> = self.scores.first(n).to_vec();
        let keys: Vec<(i64, std::cmp::Reverse<usize>, u32)> = self
            .seats()
            .map(|s| {
                (
                    self.scores[s],
                    std::cmp::Reverse(self.castles(s)),
                    self.hand_total(s),
                )
            })
            .collect();
        Some(Outcome::from_keys(scores, &keys, vec![None; n]))
    }
}
