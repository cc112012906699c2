//! 覚醒フェイズ B–H: the final scoring (A, the purple crystals once more, is played as
//! decisions before it). Every part can be computed on any state, for the view and
//! the bots.

use crate::state::*;
use crate::types::{Count, CrystalColour};
use takuge_engine::FixedList;

/// The Awakening's points of one player, by step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Awakening {
    /// B) 大勢の中の主席: first in turn order.
    pub first: i32,
    /// C) 美徳たちの敬意: Bitoku kinds.
    pub bitoku: i32,
    /// D) 湖の財宝: kodama ranks.
    pub lake: i32,
    /// E) 岩倉の反響.
    pub iwakura: i32,
    /// F) 守護者たちの敬意: (dice + resources) / 4.
    pub guardians: i32,
    /// G) 明かされた幻視.
    pub visions: i32,
    /// H) 成し遂げられた運命: the uncovered building and crystal areas.
    pub destiny: i32,
}

impl Awakening {
    pub fn total(&self) -> i32 {
        self.first
            + self.bitoku
            + self.lake
            + self.iwakura
            + self.guardians
            + self.visions
            + self.destiny
    }
}

impl Bitoku {
    pub(crate) fn final_scoring(&mut self) {
        let scores: FixedList<i32, MAX_PLAYERS> = (0..self.players)
            .map(|s| self.awakening(s).total())
            .collect();
        for (p, s) in self.p.iter_mut().zip(scores.iter()) {
            p.virtue += s;
        }
    }

    /// The solo score attack's title of the player's score (solo games only).
    pub fn solo_title(&self) -> Option<&'static crate::types::SoloTitle> {
        if !self.solo {
            return None;
        }
        let score = self.p[0].virtue;
        c().board
            .solo_titles
            .iter()
            .rev()
            .find(|t| i32::from(t.score) <= score)
    }

    /// What the Awakening would give `seat` now.
    pub fn awakening(&self, seat: u8) -> Awakening {
        let comp = c();
        let pb = &comp.board.player_board;
        let p = self.player(usize::from(seat));
        let kinds = comp
            .cards
            .bitoku_kind
            .iter()
            .filter(|k| {
                p.bitoku.iter().any(|&b| {
                    comp.cards
                        .bitoku
                        .get(usize::from(b))
                        .is_some_and(|card| card.kind == k.id)
                })
            })
            .count();
        let touching = pb
            .iwakura_touches
            .iter()
            .filter(|&&t| p.asleep & (1 << t) != 0)
            .count() as i32;
        let symbol = comp
            .tiles
            .iwakura
            .get(usize::from(p.rock))
            .map(|r| r.symbol);
        let dice: i32 = p.dice.iter().map(|d| i32::from(d.value)).sum();
        let built = pb
            .building_space_points
            .iter()
            .take(usize::from(p.built))
            .map(|&v| i32::from(v))
            .sum::<i32>();
        let woken = pb
            .pilgrim_space_points
            .iter()
            .enumerate()
            .filter(|(i, _)| p.asleep & (1 << i) == 0)
            .map(|(_, &v)| i32::from(v))
            .sum::<i32>();
        let orange = p
            .crystals
            .iter()
            .flatten()
            .filter_map(|&cr| comp.tiles.crystal.get(usize::from(cr)))
            .filter(|cr| cr.colour == CrystalColour::Orange)
            .map(|cr| i32::from(cr.points))
            .sum::<i32>();
        Awakening {
            first: if self.order.first() == Some(&seat) {
                3
            } else {
                0
            },
            bitoku: comp
                .board
                .bitoku_kinds
                .points
                .get(kinds)
                .map_or(0, |&v| i32::from(v)),
            lake: (0..REGIONS).map(|r| self.lake_points(seat, r)).sum(),
            iwakura: symbol.map_or(0, |s| self.count(seat, s) as i32 * touching),
            guardians: (dice + p.resources() as i32) / 4,
            visions: self.vision_points(seat),
            destiny: built + woken + orange,
        }
    }

    /// D) on one track: kodama sharing a space share the points of the ranks they
    /// occupy, rounded down (the neutral kodama takes its share to nobody); a kodama
    /// still on the start space ranks nowhere.
    pub(crate) fn lake_points(&self, seat: u8, region: usize) -> i32 {
        let comp = c();
        let Some(points) = self
            .lake
            .get(region)
            .and_then(|&t| comp.tiles.lake_treasure.get(usize::from(t)))
            .map(|t| &t.points)
        else {
            return 0;
        };
        let at = |s: usize| self.p[s].kodama.get(region).copied().unwrap_or(0);
        let mine = at(usize::from(seat));
        // A kodama still on the start space has not entered the track: no rank.
        if mine == 0 {
            return 0;
        }
        let mut all: FixedList<u8, 5> = (0..self.players_usize())
            .map(at)
            .filter(|&x| x > 0)
            .collect();
        if self.neutral {
            let _ = all.push(comp.board.kodama.neutral_space);
        }
        // The solo automa's kodama ranks like a player's, for nobody.
        if self.solo {
            if let Some(&k) = self.tengu.kodama.get(region).filter(|&&k| k > 0) {
                let _ = all.push(k);
            }
        }
        let ahead = all.iter().filter(|&&x| x > mine).count();
        let tied = all.iter().filter(|&&x| x == mine).count().max(1);
        let sum: i32 = points
            .iter()
            .skip(ahead)
            .take(tied)
            .map(|&v| i32::from(v))
            .sum();
        sum / tied as i32
    }

    /// The kodama tracks `seat` leads: its kodama off the start space and no other
    /// kodama (a player's, the neutral one, the Tengu's) ahead of it.
    pub fn tracks_led(&self, seat: u8) -> u32 {
        let neutral = c().board.kodama.neutral_space;
        let mine = self.player(usize::from(seat)).kodama;
        (0..REGIONS)
            .filter(|&r| {
                let at = mine.get(r).copied().unwrap_or(0);
                at > 0
                    && (0..self.players_usize())
                        .all(|s| self.p[s].kodama.get(r).copied().unwrap_or(0) <= at)
                    && !(self.neutral && neutral > at)
                    && !(self.solo && self.tengu.kodama.get(r).is_some_and(|&k| k > at))
            })
            .count() as u32
    }

    /// What an Iwakura symbol or a vision counts for `seat`.
    pub fn count(&self, seat: u8, what: Count) -> u32 {
        let p = self.player(usize::from(seat));
        let end = Self::track_end();
        match what {
            Count::YokaiRetired => p.retired.len() as u32,
            Count::YokaiOwned => p.owned_yokai() as u32,
            Count::BuildingsBuilt => u32::from(p.built),
            Count::BuildingKinds => p.built_kinds.iter().filter(|&&k| k > 0).count() as u32,
            Count::Crystals => p.crystals.iter().flatten().count() as u32,
            Count::BitokuCards => p.bitoku.len() as u32,
            Count::KodamaAtEnd => p.kodama.iter().filter(|&&k| k >= end).count() as u32,
            Count::Mitama => u32::from(p.mitama_taken),
            Count::Dragonflies => p.dragonflies.len() as u32,
            Count::Visions => p.visions.len() as u32,
            Count::Wood => u32::from(p.goods.res[0]),
            Count::Stone => u32::from(p.goods.res[1]),
            Count::Jade => u32::from(p.goods.res[2]),
            Count::Sake => u32::from(p.goods.res[3]),
            Count::Amulets => p.goods.amulets.iter().map(|&a| u32::from(a)).sum(),
            Count::PilgrimsAwake => u32::from(p.awake),
        }
    }

    /// G) each vision met scores its gain, each not met loses its loss; a thing counted
    /// for one vision is not counted for another of the same count (「他の「幻視カード」の
    /// 達成のための要素として参照できない」), under the best assignment.
    pub(crate) fn vision_points(&self, seat: u8) -> i32 {
        self.visions_scored(seat).0
    }

    /// How many of `seat`'s visions are met under the assignment G scores.
    pub fn visions_met(&self, seat: u8) -> u32 {
        self.visions_scored(seat).1
    }

    /// G's points and the number of visions met, under the best assignment.
    fn visions_scored(&self, seat: u8) -> (i32, u32) {
        let comp = c();
        let p = self.player(usize::from(seat));
        let vision = |id: u8| comp.cards.vision.get(usize::from(id));
        let mut total = 0;
        let mut met = 0;
        for (i, &id) in p.visions.iter().enumerate() {
            let Some(v) = vision(id) else { continue };
            // Each count's group once, at its first vision.
            if p.visions
                .iter()
                .take(i)
                .any(|&o| vision(o).is_some_and(|w| w.count == v.count))
            {
                continue;
            }
            let group: FixedList<u8, 28> = p
                .visions
                .iter()
                .copied()
                .filter(|&o| vision(o).is_some_and(|w| w.count == v.count))
                .collect();
            let have = self.count(seat, v.count);
            let k = group.len().min(12);
            let mut best = (i32::MIN, 0);
            for mask in 0u32..(1 << k) {
                let mut need = 0u32;
                let mut score = 0i32;
                for (j, w) in group.iter().take(k).filter_map(|&o| vision(o)).enumerate() {
                    if mask & (1 << j) != 0 {
                        need += u32::from(w.need);
                        score += i32::from(w.gain);
                    } else {
                        score -= i32::from(w.loss);
                    }
                }
                if need <= have && score > best.0 {
                    best = (score, mask.count_ones());
                }
            }
            total += best.0.max(-1000);
            met += best.1;
        }
        (total, met)
    }
}
