//! Ghosts and cats reaching a floor (ゴースト, ネコ), and the defence: a target may
//! discard a cat from hand to cancel a ghost on its way.

use crate::cards::{Card, Floor};
use crate::state::{FloorState, GhostAtHome, Phase};
use crate::types::{Next, Seated};

impl GhostAtHome {
    /// Everything on a floor goes to the discard pile and the light goes out if two
    /// ghosts put it out; a lone ghost only empties a dark floor.
    pub(crate) fn clear_floor(&mut self, seat: Seated, floor: Floor, ghosts: u8) {
        let state = *self.house(seat).floor(floor);
        for room in state.rooms.into_iter().flatten() {
            self.discard_public(room);
        }
        for _ in 0..state.cats {
            self.discard_public(Card::Cat);
        }
        for _ in 0..ghosts {
            self.discard_public(Card::Ghost);
        }
        let lit = state.lit && ghosts < 2;
        let house = self.house_mut(seat);
        *house.floor_mut(floor) = FloorState {
            lit,
            ..FloorState::default()
        };
        house.sync();
    }

    /// A ghost (played or moved) reaches `target`'s `floor`: a cat there cancels it,
    /// otherwise `target` gets the chance to defend.
    pub(crate) fn ghost_arrives(&mut self, target: Seated, floor: Floor, then: Next) {
        if self.house(target).floor(floor).cats > 0 {
            // 猫がいる場合、ゴーストも猫も捨て札になります。
            self.house_mut(target).floor_mut(floor).cats -= 1;
            self.discard_public(Card::Ghost);
            self.discard_public(Card::Cat);
            self.after_ghost(then);
        } else {
            self.phase = Phase::Defence {
                target,
                floor,
                then,
            };
        }
    }

    /// The ghost was not cancelled: it takes its place on the floor.
    fn ghost_lands(&mut self, target: Seated, floor: Floor) {
        let state = *self.house(target).floor(floor);
        if state.ghost {
            // ゴーストが2体いた場合、部屋とゴーストのカードは捨てられ、電気は消えます。
            self.clear_floor(target, floor, 2);
        } else if !state.lit {
            // その階の電気が消えている場合、そのゴーストとその階のすべての部屋カードは捨てられます。
            self.clear_floor(target, floor, 1);
        } else {
            self.house_mut(target).floor_mut(floor).ghost = true;
        }
    }

    /// A cat reaches a room of `floor` of `seat`'s house: a ghost there and the cat are
    /// both discarded, otherwise the cat stays.
    pub(crate) fn cat_arrives(&mut self, seat: Seated, floor: Floor) {
        if self.house(seat).floor(floor).ghost {
            self.house_mut(seat).floor_mut(floor).ghost = false;
            self.discard_public(Card::Ghost);
            self.discard_public(Card::Cat);
        } else {
            self.house_mut(seat).floor_mut(floor).cats += 1;
        }
    }

    /// The target discards a cat from hand: the ghost and the cat are discarded.
    pub(crate) fn defend_with_cat(&mut self, me: Seated) {
        if let Phase::Defence { then, .. } = self.phase {
            self.hand_mut(me).remove(Card::Cat);
            self.discard_public(Card::Cat);
            self.discard_public(Card::Ghost);
            self.after_ghost(then);
        }
    }

    /// The target lets the ghost come.
    pub(crate) fn no_defence(&mut self) {
        if let Phase::Defence {
            target,
            floor,
            then,
        } = self.phase
        {
            self.ghost_lands(target, floor);
            self.after_ghost(then);
        }
    }
}
