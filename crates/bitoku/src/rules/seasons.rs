//! 秋 (崇拝: turn order from the abode), 冬 (森の休息: dice home, a yokai retired, the
//! Great Spirit's step, snow).

use crate::state::*;
use takuge_engine::FixedList;

impl Bitoku {
    /// 秋: the topmost die of the abode goes first, and so on; a player's highest die
    /// counts; the others keep their order behind. No dice there: nothing changes.
    pub(crate) fn autumn(&mut self) {
        let n = self.players_usize();
        let mut first: FixedList<u8, MAX_PLAYERS> = FixedList::new();
        for (seat, _) in self.abode.iter().flatten() {
            if usize::from(*seat) < n && !first.contains(seat) {
                let _ = first.push(*seat);
            }
        }
        let mut order = [0u8; MAX_PLAYERS];
        let rest = self.order().iter().copied().filter(|s| !first.contains(s));
        for (slot, seat) in order.iter_mut().zip(first.iter().copied().chain(rest)) {
            *slot = seat;
        }
        if let Some(o) = self.order.get_mut(..n) {
            o.copy_from_slice(order.get(..n).unwrap_or(&[]));
        }
    }

    /// 冬 A starts: every die leaves the board (its value kept).
    pub(crate) fn begin_winter(&mut self) {
        for f in self.forest.iter_mut() {
            f.clear();
        }
        self.abode = [None; ABODE];
        for h in self.hills.iter_mut() {
            h.dice = 0;
        }
        self.tengu.placed = 0;
        self.phase = Phase::WinterArrange { i: 0 };
    }

    /// The distinct ways to put the dice back on the red spaces (任意の並び).
    pub(crate) fn arrangements(&self, seat: u8) -> FixedList<[u8; 3], 6> {
        let d = self.player(usize::from(seat)).dice;
        let v = [d[0].value, d[1].value, d[2].value];
        let mut out = FixedList::new();
        for [a, b, c] in [
            [0, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ] {
            let order = [v[a], v[b], v[c]];
            if !out.contains(&order) {
                let _ = out.push(order);
            }
        }
        out
    }

    pub(crate) fn return_dice_as_they_are(&mut self, seat: u8) {
        for d in self.pl(seat).dice.iter_mut() {
            d.at = DieAt::Red;
        }
    }

    /// 冬 B: five or more yokai owned, and one on the board to retire.
    pub(crate) fn may_retire(&self, seat: u8) -> bool {
        let p = self.player(usize::from(seat));
        p.owned_yokai() >= 5 && p.slots.iter().any(Option::is_some)
    }

    pub(crate) fn retire_slot(&mut self, seat: u8, slot: u8) {
        let p = self.pl(seat);
        if let Some(y) = p.slots.get_mut(usize::from(slot)).and_then(Option::take) {
            let _ = p.retired.push(y);
            let v = c().cards.yokai.get(usize::from(y)).map_or(0, |y| y.virtue);
            p.virtue += i32::from(v);
        }
    }

    /// 冬 C, D, E: the rest of winter.
    pub(crate) fn end_winter(&mut self) {
        // C) 妖怪との別れ: the board's yokai to the discard pile; the hand is kept.
        for p in self.p.iter_mut() {
            for y in p.slots.iter_mut().filter_map(Option::take) {
                let _ = p.discard.push(y);
            }
            p.dragonflies_used = 0;
        }
        // D) 大精霊の歩み.
        self.year += 1;
        if self.year > c().board.years {
            self.phase = Phase::AwakeningIncome { i: 0 };
            self.queue_income(self.seat_at(0));
            return;
        }
        // E) 森に降る雪.
        self.snow();
        self.start_year();
    }

    fn snow(&mut self) {
        for h in self.hills.iter_mut() {
            if let Some(y) = h.yokai.take() {
                let _ = self.yokai_discard.push(y);
            }
            if let Some(b) = h.bitoku.take() {
                let _ = self.bitoku_discard.push(b);
            }
            h.taken = [false; 3];
        }
        self.refill_hills();
        let d = Self::display_len();
        for rows in self.rows.iter_mut() {
            for row in rows.iter_mut() {
                // The farthest from the stack is boxed; the rest slide away from the
                // stack without gaps; the gaps by the stack are refilled.
                if let Some(far) = row.display.get_mut(d.wrapping_sub(1)) {
                    *far = None;
                }
                let kept: FixedList<u8, DISPLAY> =
                    row.display.iter().take(d).flatten().copied().collect();
                let gap = d - kept.len();
                for (i, space) in row.display.iter_mut().take(d).enumerate() {
                    *space = if i < gap {
                        None
                    } else {
                        kept.get(i - gap).copied()
                    };
                }
                for space in row.display.iter_mut().take(gap).rev() {
                    *space = row.stack.pop();
                }
            }
        }
    }

    /// The hills' empty card spaces from the decks, reshuffling the discards when a
    /// deck runs out.
    pub(crate) fn refill_hills(&mut self) {
        for h in 0..HILLS {
            if self.hills[h].bitoku.is_none() {
                self.hills[h].bitoku = self.draw_bitoku();
            }
            if self.hills[h].yokai.is_none() {
                if self.yokai_deck.is_empty() {
                    let mut pile = self.yokai_discard;
                    pile.as_mut_slice().sort_unstable();
                    self.rng.shuffle(pile.as_mut_slice());
                    self.yokai_deck = pile;
                    self.yokai_discard.clear();
                }
                self.hills[h].yokai = self.yokai_deck.pop();
            }
        }
    }
}
