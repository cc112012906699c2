//! 夏: 守護者への呼びかけ. In turn order, one action a turn, until everyone has passed:
//! A) play a yokai, B) place a die, C) cross the river, D) pass. Mitama and dragonflies
//! are free actions on the seat's own turn.

use crate::state::*;
use crate::types::{Action, CrystalColour, HillPart, Spot};

impl Bitoku {
    pub(crate) fn start_summer(&mut self) {
        for p in self.p.iter_mut() {
            p.passed = false;
        }
        self.phase = Phase::Summer {
            turn: 0,
            acted: false,
        };
        self.actor = self.seat_at(0);
    }

    /// The next player in turn order who has not passed; autumn when all have.
    pub(crate) fn next_turn(&mut self, turn: u8) {
        if self.solo {
            self.tengu_acts();
        }
        let n = self.players;
        for k in 1..=n {
            let t = (turn + k) % n;
            let seat = self.seat_at(t);
            if !self.player(usize::from(seat)).passed {
                self.phase = Phase::Summer {
                    turn: t,
                    acted: false,
                };
                self.actor = seat;
                return;
            }
        }
        self.autumn();
        self.begin_winter();
    }

    /// The solo automa's turn: its next card puts one of its dice in the card's region
    /// (or the next region with a free space) and steps its kodama there.
    fn tengu_acts(&mut self) {
        if self.tengu.deck.is_empty() {
            let mut pile = self.tengu.discard;
            pile.as_mut_slice().sort_unstable();
            self.rng.shuffle(pile.as_mut_slice());
            self.tengu.deck = pile;
            self.tengu.discard.clear();
        }
        let Some(card) = self.tengu.deck.pop() else {
            return;
        };
        let _ = self.tengu.discard.push(card);
        let Some(t) = c().board.tengu.get(usize::from(card)) else {
            return;
        };
        let Some(home) = c().board.region.iter().position(|r| r.id == t.region) else {
            return;
        };
        if usize::from(self.tengu.placed) < DICE {
            let spaces = self.forest_spaces();
            let free = (0..REGIONS)
                .map(|k| (home + k) % REGIONS)
                .find(|&r| self.forest.get(r).is_some_and(|f| f.len() < spaces));
            if let Some(r) = free {
                let die = self.tengu.placed;
                if let Some(v) = self.tengu.dice.get_mut(usize::from(die)) {
                    *v = t.value;
                }
                if let Some(f) = self.forest.get_mut(r) {
                    let _ = f.push((TENGU, die));
                }
                self.tengu.placed += 1;
            }
        }
        let end = Self::track_end();
        let player_at_end = self.p[0].kodama.get(home) == Some(&end);
        if let Some(k) = self.tengu.kodama.get_mut(home) {
            // Only the first to arrive stands on the last space.
            if *k < end && !(*k + 1 == end && player_at_end) {
                *k += 1;
            }
        }
    }

    fn acted(&mut self) {
        if let Phase::Summer { turn, .. } = self.phase {
            self.phase = Phase::Summer { turn, acted: true };
        }
    }

    pub(crate) fn summer_action(&mut self, seat: u8, action: Action) {
        self.actor = seat;
        match action {
            Action::Play { yokai, slot } => {
                self.acted();
                self.play_yokai(seat, yokai, slot);
            }
            Action::Place { die, at } => {
                self.acted();
                self.place_die(seat, die, at);
            }
            Action::Cross { die, hill, take } => {
                self.acted();
                self.cross(seat, die, hill, take);
            }
            Action::Mitama { index } => {
                let p = self.pl(seat);
                if let Some(m) = p.mitama.remove(usize::from(index)) {
                    if let Some(t) = c().tiles.mitama.get(usize::from(m)) {
                        self.push_effect(&t.effect, NO_REGION);
                    }
                }
            }
            Action::Dragonfly { index } => {
                let p = self.pl(seat);
                p.dragonflies_used |= 1 << index;
                if let Some(&d) = p.dragonflies.get(usize::from(index)) {
                    if let Some(t) = c().tiles.dragonfly.get(usize::from(d)) {
                        self.push_effect(&t.effect, NO_REGION);
                    }
                }
            }
            Action::Pass => {
                self.acted();
                self.pl(seat).passed = true;
            }
            _ => {}
        }
    }

    /// A) 妖怪カードを1枚出す: the die to its right is released; the yokai's effect and
    /// the touching pink crystals' resonance, in the order the seat chooses.
    fn play_yokai(&mut self, seat: u8, yokai: u8, slot: u8) {
        let p = self.pl(seat);
        if let Some(i) = p.hand.position(&yokai) {
            p.hand.remove(i);
        }
        if let Some(s) = p.slots.get_mut(usize::from(slot)) {
            *s = Some(yokai);
        }
        if let Some(d) = p.dice.get_mut(usize::from(slot)) {
            if d.at == DieAt::Red {
                d.at = DieAt::Green;
            }
        }
        let crystals = p.crystals;
        if let Some(y) = c().cards.yokai.get(usize::from(yokai)) {
            self.queue(Task::Effect(&y.effect, NO_REGION));
        }
        // Socket n touches slots n and n + 1 (離接する).
        for socket in [Some(slot), slot.checked_sub(1)].into_iter().flatten() {
            let Some(Some(crystal)) = crystals.get(usize::from(socket)) else {
                continue;
            };
            if let Some(cr) = c().tiles.crystal.get(usize::from(*crystal)) {
                if cr.colour == CrystalColour::Pink {
                    self.queue(Task::Effect(&cr.effect, NO_REGION));
                }
            }
        }
    }

    /// B) a released die (or an unreleased one for an awake pilgrim) on a die space;
    /// a waiting `raise_die` first, then amulets one token at a time.
    fn place_die(&mut self, seat: u8, die: u8, at: Spot) {
        let p = self.pl(seat);
        let Some(d) = p.dice.get_mut(usize::from(die)) else {
            return;
        };
        if d.at == DieAt::Red {
            // ※ 利用可能な「巡礼者コマ」を1個、ゲームから除外する.
            p.awake = p.awake.saturating_sub(1);
        }
        d.value = d.value.saturating_add(p.raise).min(6);
        p.raise = 0;
        match at {
            Spot::Forest(r) => {
                d.at = DieAt::Forest(r);
                if let Some(f) = self.forest.get_mut(usize::from(r)) {
                    let _ = f.push((seat, die));
                }
            }
            Spot::Abode(s) => {
                d.at = DieAt::Abode(s);
                if let Some(a) = self.abode.get_mut(usize::from(s)) {
                    *a = Some((seat, die));
                }
            }
        }
        if self.amulet_options(seat, die).iter().any(|o| *o) {
            self.sub = Sub::Amulets { die };
        } else {
            self.die_placed(seat, die);
        }
    }

    /// Which amulet tokens (value 1, 2, 3) may still raise the die: held, and not
    /// above 6 ("上限「6」まで"; no change is made).
    pub(crate) fn amulet_options(&self, seat: u8, die: u8) -> [bool; 3] {
        let p = self.player(usize::from(seat));
        let v = self.die_value(seat, die);
        let mut ok = [false; 3];
        for (k, o) in ok.iter_mut().enumerate() {
            *o = p.goods.amulets[k] > 0 && v + (k as u8) < 6;
        }
        ok
    }

    pub(crate) fn spend_amulet(&mut self, seat: u8, die: u8, value: u8) {
        let p = self.pl(seat);
        if let Some(a) = p.goods.amulets.get_mut(usize::from(value).wrapping_sub(1)) {
            *a = a.saturating_sub(1);
        }
        if let Some(d) = p.dice.get_mut(usize::from(die)) {
            d.value = d.value.saturating_add(value).min(6);
        }
        if !self.amulet_options(seat, die).iter().any(|o| *o) {
            self.sub = Sub::None;
            self.die_placed(seat, die);
        }
    }

    /// The die stands: the forest action (if at least every other die of the region)
    /// and the building action, in either order; or the abode space's reward.
    pub(crate) fn die_placed(&mut self, seat: u8, die: u8) {
        let value = self.die_value(seat, die);
        let at = self
            .player(usize::from(seat))
            .dice
            .get(usize::from(die))
            .map(|d| d.at);
        match at {
            Some(DieAt::Forest(r)) => {
                let ru = usize::from(r);
                let highest = self.forest.get(ru).is_some_and(|f| {
                    f.iter()
                        .filter(|&&(s, d)| (s, d) != (seat, die))
                        .all(|&(s, d)| self.die_value(s, d) <= value)
                });
                if highest {
                    if let Some(a) = c()
                        .board
                        .region
                        .get(ru)
                        .and_then(|reg| reg.actions.get(usize::from(value).wrapping_sub(1)))
                    {
                        self.queue(Task::Effect(a, r));
                    }
                }
                if self.usable_buildings(r, value).next().is_some() {
                    self.queue(Task::Building { region: r, value });
                }
            }
            Some(DieAt::Abode(s)) => {
                if let Some(a) = c().board.abode.get(usize::from(s)) {
                    self.queue(Task::Effect(&a.reward, NO_REGION));
                }
            }
            _ => {}
        }
    }

    /// Settlement spaces of the region whose building is not above the die.
    pub(crate) fn usable_buildings(&self, region: u8, value: u8) -> impl Iterator<Item = u8> + '_ {
        let spaces = self.settlements.get(usize::from(region));
        (0..SETTLEMENT as u8).filter(move |&i| {
            spaces
                .and_then(|s| s.get(usize::from(i)))
                .and_then(|&s| Self::settled_value(s))
                .is_some_and(|v| v <= value)
        })
    }

    /// C) 川を渡る: −1 (a 6 becomes a 3), onto a hill, taking one of its effects.
    fn cross(&mut self, seat: u8, die: u8, hill: u8, take: HillPart) {
        let p = self.pl(seat);
        let Some(d) = p.dice.get_mut(usize::from(die)) else {
            return;
        };
        let from = d.at;
        d.value = if d.value == 6 {
            3
        } else {
            d.value.saturating_sub(1)
        };
        d.at = DieAt::Hill(hill);
        if let DieAt::Forest(r) = from {
            if let Some(f) = self.forest.get_mut(usize::from(r)) {
                if let Some(i) = f.position(&(seat, die)) {
                    f.remove(i);
                }
            }
        }
        let Some(h) = self.hills.get_mut(usize::from(hill)) else {
            return;
        };
        h.dice = h.dice.saturating_add(1);
        h.taken[take.index()] = true;
        match take {
            HillPart::Yokai => {
                if let Some(y) = h.yokai.take() {
                    let _ = self.pl(seat).hand.push(y);
                }
            }
            HillPart::Bitoku => {
                if let Some(b) = h.bitoku.take() {
                    self.take_bitoku(seat, b);
                }
            }
            HillPart::Effect => {
                if let Some(e) = c().board.hill.get(usize::from(hill)) {
                    self.push_effect(&e.effect, NO_REGION);
                }
            }
        }
    }

    /// Whether a hill part may be taken: not yet taken this year, and its card there.
    pub(crate) fn hill_open(&self, hill: usize, part: HillPart) -> bool {
        let Some(h) = self.hills.get(hill) else {
            return false;
        };
        !h.taken[part.index()]
            && h.dice < c().board.hill_dice_spaces
            && match part {
                HillPart::Yokai => h.yokai.is_some(),
                HillPart::Bitoku => h.bitoku.is_some(),
                HillPart::Effect => true,
            }
    }
}
