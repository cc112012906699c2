//! The flow of a year: spring (春), summer (夏), autumn (秋), winter (冬), and after the
//! last winter the Awakening (覚醒). `advance` moves the game on until some seat has a
//! decision to make.

pub(crate) mod awakening;
pub(crate) mod effects;
pub(crate) mod seasons;
pub(crate) mod summer;
pub(crate) mod tiles;

use crate::state::*;
use crate::types::{Action, CrystalColour};
use takuge_engine::Seat;

impl Bitoku {
    /// The seat that decides now, if any.
    pub(crate) fn pending_seat(&self) -> Option<u8> {
        if self.busy() {
            return Some(self.actor);
        }
        match self.phase {
            Phase::SpringDiscard { i } | Phase::WinterArrange { i } | Phase::WinterRetire { i } => {
                Some(self.seat_at(i))
            }
            Phase::Summer { turn, .. } => Some(self.seat_at(turn)),
            Phase::SpringIncome { .. } | Phase::AwakeningIncome { .. } | Phase::Over => None,
        }
    }

    /// Plays a listed action.
    pub(crate) fn play(&mut self, seat: Seat, action: Action) {
        let seat = seat.0;
        if self.busy() {
            if let (Sub::Amulets { die }, Action::Amulet { value }) = (self.sub, action) {
                self.spend_amulet(seat, die, value);
            } else if let (Sub::Amulets { die }, Action::Done) = (self.sub, action) {
                self.sub = Sub::None;
                self.die_placed(seat, die);
            } else {
                self.effect_action(action);
            }
        } else {
            match (self.phase, action) {
                (Phase::SpringDiscard { .. }, Action::Discard { yokai }) => {
                    let p = self.pl(seat);
                    if let Some(i) = p.hand.position(&yokai) {
                        p.hand.remove(i);
                        let _ = p.discard.push(yokai);
                    }
                }
                (Phase::Summer { .. }, a) => self.summer_action(seat, a),
                (Phase::WinterArrange { i }, Action::Arrange { dice }) => {
                    let p = self.pl(seat);
                    for (d, v) in p.dice.iter_mut().zip(dice) {
                        *d = Die {
                            value: v,
                            at: DieAt::Red,
                        };
                    }
                    self.phase = Phase::WinterArrange { i: i + 1 };
                }
                (Phase::WinterRetire { i }, a) => {
                    if let Action::RetireSlot { slot } = a {
                        self.retire_slot(seat, slot);
                    }
                    self.phase = Phase::WinterRetire { i: i + 1 };
                }
                _ => {}
            }
        }
        self.advance();
    }

    /// Moves the game on until a seat must decide (or the game is over).
    pub(crate) fn advance(&mut self) {
        loop {
            if self.busy() {
                if self.run_effects() {
                    return;
                }
                continue;
            }
            let n = self.players;
            match self.phase {
                Phase::SpringDiscard { i } => {
                    let seat = self.seat_at(i);
                    if self.player(usize::from(seat)).hand.len() > usize::from(c().board.keep) {
                        return;
                    }
                    if i + 1 < n {
                        self.phase = Phase::SpringDiscard { i: i + 1 };
                        self.draw_to_hand(self.seat_at(i + 1));
                    } else {
                        self.phase = Phase::SpringIncome { i: 0 };
                        self.queue_income(self.seat_at(0));
                    }
                }
                Phase::SpringIncome { i } => {
                    if i + 1 < n {
                        self.phase = Phase::SpringIncome { i: i + 1 };
                        self.queue_income(self.seat_at(i + 1));
                    } else {
                        self.start_summer();
                    }
                }
                Phase::Summer { turn, acted } => {
                    if !acted {
                        return;
                    }
                    self.next_turn(turn);
                }
                Phase::WinterArrange { i } => {
                    if i >= n {
                        self.phase = Phase::WinterRetire { i: 0 };
                    } else if self.arrangements(self.seat_at(i)).len() > 1 {
                        return;
                    } else {
                        let seat = self.seat_at(i);
                        self.return_dice_as_they_are(seat);
                        self.phase = Phase::WinterArrange { i: i + 1 };
                    }
                }
                Phase::WinterRetire { i } => {
                    if i >= n {
                        self.end_winter();
                    } else if self.may_retire(self.seat_at(i)) {
                        return;
                    } else {
                        self.phase = Phase::WinterRetire { i: i + 1 };
                    }
                }
                Phase::AwakeningIncome { i } => {
                    if i + 1 < n {
                        self.phase = Phase::AwakeningIncome { i: i + 1 };
                        self.queue_income(self.seat_at(i + 1));
                    } else {
                        self.final_scoring();
                        self.phase = Phase::Over;
                        return;
                    }
                }
                Phase::Over => return,
            }
        }
    }

    /// 成果の獲得: each purple crystal's effect, in the order the seat chooses.
    pub(crate) fn queue_income(&mut self, seat: u8) {
        self.actor = seat;
        let crystals = self.player(usize::from(seat)).crystals;
        for crystal in crystals.into_iter().flatten() {
            if let Some(cr) = c().tiles.crystal.get(usize::from(crystal)) {
                if cr.colour == CrystalColour::Purple {
                    self.queue(Task::Effect(&cr.effect, NO_REGION));
                }
            }
        }
    }

    /// 大精霊マーカー on a new year: 春 A for the first in turn order.
    pub(crate) fn start_year(&mut self) {
        self.phase = Phase::SpringDiscard { i: 0 };
        self.draw_to_hand(self.seat_at(0));
        self.advance();
    }

    /// 妖怪の召喚: draw until the hand holds four (the discard follows as decisions).
    fn draw_to_hand(&mut self, seat: u8) {
        self.actor = seat;
        let have = self.player(usize::from(seat)).hand.len();
        let want = usize::from(c().board.draw_to);
        self.draw_yokai(seat, want.saturating_sub(have));
    }
}
