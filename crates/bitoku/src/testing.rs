//! Helpers the tests need from inside the crate (scenario set-up, a look at the
//! state), and the conformance suite's near misses. Not part of the game's API.

use crate::state::*;
use crate::types::{Action, HillPart, Res, Spot};
use takuge_engine::conformance::Probe;
use takuge_engine::{Game, Seat};

pub use crate::state::{Goods, Settled};

impl Probe for Bitoku {
    fn near_misses(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let p = self.player(seat.index());
        for y in [0u8, 3, 5, 7, 12, 33, 34, 200] {
            out.push(Action::Discard { yokai: y });
            out.push(Action::Retire { yokai: y });
            out.push(Action::Play { yokai: y, slot: 0 });
        }
        for &y in p.hand.iter() {
            out.push(Action::Discard { yokai: y });
            for slot in 0..5 {
                out.push(Action::Play { yokai: y, slot });
            }
        }
        for die in 0..4u8 {
            for r in 0..6u8 {
                out.push(Action::Place {
                    die,
                    at: Spot::Forest(r),
                });
                out.push(Action::Place {
                    die,
                    at: Spot::Abode(r),
                });
            }
            for hill in 0..5u8 {
                for take in HillPart::ALL {
                    out.push(Action::Cross { die, hill, take });
                }
            }
        }
        for k in 0..9u8 {
            out.extend([
                Action::Amulet { value: k },
                Action::Mitama { index: k },
                Action::Dragonfly { index: k },
                Action::Next { task: k },
                Action::Choose { option: k },
                Action::Track { region: k },
                Action::Pilgrim { space: k },
                Action::Tile { slot: k },
                Action::Region { region: k },
                Action::Socket { socket: k },
                Action::Swap { rock: k },
                Action::Keep { vision: k },
                Action::UseBuilding { space: k },
                Action::RetireSlot { slot: k },
            ]);
        }
        for resource in Res::ALL {
            out.push(Action::Discount { resource });
        }
        out.extend([Action::Pass, Action::Skip, Action::Done, Action::Pay]);
        out.push(Action::Arrange { dice: [1, 2, 3] });
        let d = p.dice;
        out.push(Action::Arrange {
            dice: [d[2].value, d[1].value, d[0].value],
        });
    }
}

/// A game at the start of its first summer, every player's hand as dealt: the
/// spring's discards made by taking the first card listed.
pub fn at_summer(players: usize, seed: u64) -> Bitoku {
    let mut g = match Bitoku::new(&Options::default(), players, seed) {
        Ok(g) => g,
        Err(e) => panic!("setup: {e}"),
    };
    let mut legal = Vec::new();
    while !matches!(g.phase, Phase::Summer { .. }) || g.busy() {
        let Some(seat) = g.to_move().first_seat() else {
            break;
        };
        g.legal_actions(seat, &mut legal);
        let Some(a) = legal.first().copied() else {
            break;
        };
        g.apply_legal(seat, &a);
    }
    g
}

/// The seat whose summer turn it is.
pub fn turn_seat(g: &Bitoku) -> u8 {
    g.pending_seat().unwrap_or(0)
}

/// Edits a player's board directly (for scenarios).
pub fn player_mut(g: &mut Bitoku, seat: u8) -> &mut Player {
    g.pl(seat)
}

/// Sets the turn order (seats, first to last).
pub fn set_order(g: &mut Bitoku, order: &[u8]) {
    for (slot, &s) in g.order.iter_mut().zip(order) {
        *slot = s;
    }
    g.phase = Phase::Summer {
        turn: 0,
        acted: false,
    };
    g.actor = order.first().copied().unwrap_or(0);
}

/// Puts a die of `seat` on a forest region with this value, without any rule.
pub fn put_die_in_forest(g: &mut Bitoku, seat: u8, die: u8, region: u8, value: u8) {
    if seat == TENGU {
        if let Some(v) = g.tengu.dice.get_mut(usize::from(die)) {
            *v = value;
        }
    } else if let Some(d) = g.pl(seat).dice.get_mut(usize::from(die)) {
        d.value = value;
        d.at = DieAt::Forest(region);
    }
    if let Some(f) = g.forest.get_mut(usize::from(region)) {
        let _ = f.push((seat, die));
    }
}

/// Puts a die of `seat` on an abode space, without any rule.
pub fn put_die_in_abode(g: &mut Bitoku, seat: u8, die: u8, space: u8) {
    if let Some(d) = g.pl(seat).dice.get_mut(usize::from(die)) {
        d.at = DieAt::Abode(space);
    }
    if let Some(a) = g.abode.get_mut(usize::from(space)) {
        *a = Some((seat, die));
    }
}

pub fn set_settlement(g: &mut Bitoku, region: u8, space: u8, settled: Settled) {
    if let Some(s) = g
        .settlements
        .get_mut(usize::from(region))
        .and_then(|s| s.get_mut(usize::from(space)))
    {
        *s = settled;
    }
}

pub fn settlement(g: &Bitoku, region: u8) -> [Settled; SETTLEMENT] {
    g.settlements
        .get(usize::from(region))
        .copied()
        .unwrap_or_default()
}

pub fn set_kodama(g: &mut Bitoku, seat: u8, region: usize, space: u8) {
    if let Some(k) = g.pl(seat).kodama.get_mut(region) {
        *k = space;
    }
}

pub fn lake_points(g: &Bitoku, seat: u8, region: usize) -> i32 {
    g.lake_points(seat, region)
}

pub fn set_lake(g: &mut Bitoku, region: usize, treasure: u8) {
    if let Some(l) = g.lake.get_mut(region) {
        *l = treasure;
    }
}

pub fn hills(g: &Bitoku) -> [Hill; HILLS] {
    g.hills
}

pub fn display(g: &Bitoku, kind: Kind) -> [Row; 2] {
    g.rows.get(kind.index()).copied().unwrap_or_default()
}

pub fn face_up_rocks(g: &Bitoku) -> [Option<u8>; 2] {
    g.face_up_rocks
}

pub fn settlements_all(g: &Bitoku) -> [[Settled; SETTLEMENT]; REGIONS] {
    g.settlements
}

pub fn neutral(g: &Bitoku) -> bool {
    g.neutral
}

pub fn torii(g: &Bitoku) -> [u8; 2] {
    g.torii
}

pub fn boxed_rocks(g: &Bitoku) -> usize {
    g.boxed_rocks.len()
}

pub fn is_small_side(g: &Bitoku) -> bool {
    g.small
}

/// Ends the summer at once (everyone passed) and plays autumn.
pub fn run_autumn(g: &mut Bitoku) {
    g.autumn();
}

/// Starts winter now (dice off the board) and plays it to its decisions.
pub fn start_winter(g: &mut Bitoku) {
    g.begin_winter();
    g.advance();
}

/// Plays `seat`'s first listed action until `stop` holds or nobody is pending.
pub fn play_first_until(g: &mut Bitoku, stop: impl Fn(&Bitoku) -> bool) {
    let mut legal = Vec::new();
    for _ in 0..10_000 {
        if stop(g) {
            return;
        }
        let Some(seat) = g.to_move().first_seat() else {
            return;
        };
        g.legal_actions(seat, &mut legal);
        let pick = legal
            .iter()
            .find(|a| !matches!(a, Action::Skip))
            .or_else(|| legal.first())
            .copied();
        let Some(a) = pick else { return };
        g.apply_legal(seat, &a);
    }
}

pub fn vision_points(g: &Bitoku, seat: u8) -> i32 {
    g.vision_points(seat)
}

pub fn set_visions(g: &mut Bitoku, seat: u8, visions: &[u8]) {
    g.pl(seat).visions = visions.iter().copied().collect();
}

pub fn busy(g: &Bitoku) -> bool {
    g.busy()
}

pub fn year_end_snow(g: &mut Bitoku) {
    g.end_winter();
}

pub use crate::state::{Hill, Kind, Row, HILLS, REGIONS, SETTLEMENT};

/// 成果の獲得 for `seat` now (its purple crystals queued), then the game goes on.
pub fn begin_income(g: &mut Bitoku, seat: u8) {
    let i = g.order().iter().position(|&s| s == seat).unwrap_or(0) as u8;
    g.phase = Phase::SpringIncome { i };
    g.queue_income(seat);
    g.advance();
}

/// The Awakening's scoring now (B–H added to the virtue points).
pub fn final_scoring(g: &mut Bitoku) {
    g.final_scoring();
    g.phase = Phase::Over;
}

pub fn set_year(g: &mut Bitoku, year: u8) {
    g.year = year;
}

pub fn set_tengu_kodama(g: &mut Bitoku, region: usize, space: u8) {
    if let Some(k) = g.tengu.kodama.get_mut(region) {
        *k = space;
    }
}

pub use crate::state::TENGU;
