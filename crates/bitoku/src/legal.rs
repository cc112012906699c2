//! What may be played: THE one source of legality (`collect_legal`), and why an
//! action is refused (`why_not`, which decides nothing).

use crate::rules::effects::step_kind;
use crate::state::*;
use crate::types::{Action, HillPart, Res, Spot, Step};
use takuge_engine::Seat;

impl Bitoku {
    pub(crate) fn collect_legal(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if self.pending_seat() != Some(seat.0) || seat.index() >= self.players_usize() {
            return;
        }
        let me = seat.0;
        if self.busy() {
            self.list_effect(out);
            return;
        }
        let p = self.player(seat.index());
        match self.phase {
            Phase::SpringDiscard { .. } => {
                for (i, &y) in p.hand.iter().enumerate() {
                    if !p.hand.iter().take(i).any(|&o| o == y) {
                        out.push(Action::Discard { yokai: y });
                    }
                }
            }
            Phase::Summer { .. } => self.list_summer(me, out),
            Phase::WinterArrange { .. } => {
                for dice in self.arrangements(me).iter() {
                    out.push(Action::Arrange { dice: *dice });
                }
            }
            Phase::WinterRetire { .. } => {
                for (slot, y) in p.slots.iter().enumerate() {
                    if y.is_some() {
                        out.push(Action::RetireSlot { slot: slot as u8 });
                    }
                }
                out.push(Action::Skip);
            }
            Phase::SpringIncome { .. } | Phase::AwakeningIncome { .. } | Phase::Over => {}
        }
    }

    fn list_summer(&self, me: u8, out: &mut Vec<Action>) {
        let p = self.player(usize::from(me));
        // A) a yokai into an empty slot.
        for (i, &y) in p.hand.iter().enumerate() {
            if p.hand.iter().take(i).any(|&o| o == y) {
                continue;
            }
            for (slot, s) in p.slots.iter().enumerate() {
                if s.is_none() {
                    out.push(Action::Play {
                        yokai: y,
                        slot: slot as u8,
                    });
                }
            }
        }
        // B) a die on a die space.
        let spaces = self.forest_spaces();
        for (die, d) in p.dice.iter().enumerate() {
            let die = die as u8;
            let released = d.at == DieAt::Green;
            if !(released || (d.at == DieAt::Red && p.awake > 0)) {
                continue;
            }
            for (r, f) in self.forest.iter().enumerate() {
                if f.len() < spaces {
                    out.push(Action::Place {
                        die,
                        at: Spot::Forest(r as u8),
                    });
                }
            }
            // The sacrificed pilgrim's die goes to the forest only (※ 「森エリア」).
            if released {
                for (s, a) in self.abode.iter().enumerate().take(self.abode_spaces()) {
                    if a.is_none() {
                        out.push(Action::Place {
                            die,
                            at: Spot::Abode(s as u8),
                        });
                    }
                }
            }
        }
        // C) cross the river.
        for (die, d) in p.dice.iter().enumerate() {
            if !matches!(d.at, DieAt::Forest(_)) || d.value <= 1 {
                continue;
            }
            for hill in 0..HILLS {
                for take in HillPart::ALL {
                    if self.hill_open(hill, take) {
                        out.push(Action::Cross {
                            die: die as u8,
                            hill: hill as u8,
                            take,
                        });
                    }
                }
            }
        }
        for index in 0..p.mitama.len() {
            out.push(Action::Mitama { index: index as u8 });
        }
        for index in 0..p.dragonflies.len() {
            if p.dragonflies_used & (1 << index) == 0 {
                out.push(Action::Dragonfly { index: index as u8 });
            }
        }
        // D) passing is always possible: every summer ends.
        out.push(Action::Pass);
    }

    /// The choices inside an effect, for the actor.
    fn list_effect(&self, out: &mut Vec<Action>) {
        let me = self.actor;
        let p = self.player(usize::from(me));
        match self.sub {
            Sub::Amulets { die } => {
                for (k, ok) in self.amulet_options(me, die).iter().enumerate() {
                    if *ok {
                        out.push(Action::Amulet { value: k as u8 + 1 });
                    }
                }
                out.push(Action::Done);
            }
            Sub::BuildRegion(_) => {
                for r in 0..REGIONS as u8 {
                    if self.free_settlement(r) {
                        out.push(Action::Region { region: r });
                    }
                }
                out.push(Action::Skip);
            }
            Sub::Discount(buy) => {
                for (r, ok) in self.discount_options(&buy).iter().enumerate() {
                    if *ok {
                        if let Some(&resource) = Res::ALL.get(r) {
                            out.push(Action::Discount { resource });
                        }
                    }
                }
            }
            Sub::Socket { .. } => {
                let full = p.crystals.iter().all(Option::is_some);
                for (s, cr) in p.crystals.iter().enumerate() {
                    if full || cr.is_none() {
                        out.push(Action::Socket { socket: s as u8 });
                    }
                }
            }
            Sub::Keep { a, b } => {
                out.push(Action::Keep { vision: a });
                if b != a {
                    out.push(Action::Keep { vision: b });
                }
            }
            Sub::Building { region, value } => {
                for space in self.usable_buildings(region, value) {
                    out.push(Action::UseBuilding { space });
                }
                out.push(Action::Skip);
            }
            Sub::None => {
                if self.frames.is_empty() {
                    for task in 0..self.tasks.len() {
                        out.push(Action::Next { task: task as u8 });
                    }
                    return;
                }
                self.list_step(out);
            }
        }
    }

    fn list_step(&self, out: &mut Vec<Action>) {
        let me = self.actor;
        let p = self.player(usize::from(me));
        let Some((step, frame)) = self.current() else {
            return;
        };
        if let Some((kind, discount)) = step_kind(step) {
            for slot in 0..(2 * Self::display_len()) as u8 {
                if self.can_take(kind, slot, discount, frame.region) {
                    out.push(Action::Tile { slot });
                }
            }
        }
        match step {
            Step::Pay { .. } => out.push(Action::Pay),
            Step::Choose(options) => {
                for option in 0..options.len().min(16) {
                    out.push(Action::Choose {
                        option: option as u8,
                    });
                }
            }
            Step::Kodama(_) => {
                for r in 0..REGIONS {
                    if self.kodama_can_move(me, r) {
                        out.push(Action::Track { region: r as u8 });
                    }
                }
            }
            Step::WakePilgrim(_) => {
                for space in 0..8u8 {
                    if p.asleep & (1 << space) != 0 {
                        out.push(Action::Pilgrim { space });
                    }
                }
            }
            Step::SwapIwakura(_) => {
                for (rock, r) in self.face_up_rocks.iter().enumerate() {
                    if r.is_some() {
                        out.push(Action::Swap { rock: rock as u8 });
                    }
                }
            }
            Step::RetireYokai(_) => {
                let all = || p.discard.iter().chain(p.hand.iter());
                for (i, &y) in all().enumerate() {
                    if !all().take(i).any(|&o| o == y) {
                        out.push(Action::Retire { yokai: y });
                    }
                }
            }
            _ => {}
        }
        out.push(Action::Skip);
    }

    /// Why `action` is not one of the seat's choices now, in words it may read.
    pub(crate) fn why_not(&self, seat: Seat, action: &Action) -> crate::types::Reject {
        let what = if self.pending_seat() != Some(seat.0) {
            "it is not your decision now"
        } else if self.busy() {
            match self.sub {
                Sub::Amulets { .. } => "you are spending amulets on the die you placed (or done)",
                Sub::BuildRegion(_) => "you are choosing the region to build in",
                Sub::Discount(_) => "you are choosing the resource the discount takes off",
                Sub::Socket { .. } => "you are choosing a crystal socket",
                Sub::Keep { .. } => "you are choosing which vision to keep",
                Sub::Building { .. } => {
                    "you are choosing a building not above your die, or skipping"
                }
                Sub::None if self.frames.is_empty() => {
                    "you are choosing which effect to resolve next"
                }
                Sub::None => "you are resolving an effect: take one of its choices or skip it",
            }
        } else {
            match (self.phase, action) {
                (Phase::SpringDiscard { .. }, _) => "discard a yokai from your hand down to three",
                (Phase::Summer { .. }, Action::Play { .. }) => {
                    "that yokai is not in your hand, or that slot is not empty"
                }
                (Phase::Summer { .. }, Action::Place { .. }) => {
                    "that die cannot go there: a die must be released (or an awake pilgrim sacrificed, forest only) and the space free"
                }
                (Phase::Summer { .. }, Action::Cross { .. }) => {
                    "only a die in the forest showing 2 or more crosses, to a hill with a free space and that effect not yet taken"
                }
                (Phase::Summer { .. }, _) => "play a yokai, place a die, cross the river, use a mitama or dragonfly, or pass",
                (Phase::WinterArrange { .. }, _) => "put your dice back on the red spaces",
                (Phase::WinterRetire { .. }, _) => "retire a yokai from your board, or skip",
                _ => "the game is over",
            }
        };
        crate::types::Reject(format!("not now: {what}"))
    }
}
