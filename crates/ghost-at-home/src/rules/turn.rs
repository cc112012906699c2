//! The actions of a turn: rooms (部屋カード), a ghost, a cat, a light (電気をつける) and the
//! special cards (電球, 雷, キャットフード, エレベーター, 時空の穴).

use crate::cards::{Card, Floor};
use crate::hand::{Cards, Hand};
use crate::state::{GhostAtHome, House};
use crate::types::{Next, Seated};

impl House {
    /// Plays `cards` (rooms and wild rooms) one after another on the open floor: each
    /// space gets a printed room of its floor if one is left, else a wild room. `placed`
    /// hears of each card put down (floor, space, card): the views' room previews
    /// (`facts.rs`) ask the same rule on a copy of the house.
    #[inline]
    pub(crate) fn place_rooms(&mut self, cards: Hand, mut placed: impl FnMut(Floor, usize, Card)) {
        let mut left = cards;
        while let Some(open) = self.open_floor() {
            let card = match left.distinct().find(|c| c.room_floor() == Some(open)) {
                Some(card) => card,
                None if left.contains(Card::WildRoom) => Card::WildRoom,
                None => break,
            };
            left.remove(card);
            let floor = self.floor_mut(open);
            if let Some(space) = floor.rooms.iter().position(Option::is_none) {
                floor.rooms[space] = Some(card);
                placed(open, space, card);
            }
            self.sync();
        }
    }
}

impl GhostAtHome {
    /// 部屋カードを1枚以上プレイする; the turn ends.
    pub(crate) fn play_rooms(&mut self, me: Seated, cards: Cards) {
        self.hand_mut(me).remove_all(cards.0);
        self.house_mut(me).place_rooms(cards.0, |_, _, _| {});
        self.end_turn();
    }

    /// ゴーストカードを出す: the ghost heads for the target's highest floor with rooms.
    pub(crate) fn play_ghost(&mut self, me: Seated, target: Seated) {
        self.hand_mut(me).remove(Card::Ghost);
        if let Some(floor) = self.ghost_target(target) {
            self.ghost_arrives(target, floor, Next::EndTurn);
        }
    }

    /// 猫カードを出す onto a room of your house.
    pub(crate) fn play_cat(&mut self, me: Seated, floor: Floor) {
        self.hand_mut(me).remove(Card::Cat);
        self.cat_arrives(me, floor);
        self.end_turn();
    }

    /// 電気をつける: the cards are discarded face up and the floor is lit.
    pub(crate) fn light(&mut self, me: Seated, cards: Cards, floor: Floor) {
        self.hand_mut(me).remove_all(cards.0);
        for &card in cards.0.list().as_slice() {
            self.discard_public(card);
        }
        self.house_mut(me).floor_mut(floor).lit = true;
        self.end_turn();
    }

    /// 電球: light a floor of your house.
    pub(crate) fn play_light_bulb(&mut self, me: Seated, floor: Floor) {
        self.hand_mut(me).remove(Card::LightBulb);
        self.discard_public(Card::LightBulb);
        self.house_mut(me).floor_mut(floor).lit = true;
        self.end_turn();
    }

    /// 雷: put out the light of the target's highest explored floor.
    pub(crate) fn play_lightning(&mut self, me: Seated, target: Seated) {
        self.hand_mut(me).remove(Card::Lightning);
        self.discard_public(Card::Lightning);
        if let Some(floor) = self.house(target).top_room_floor() {
            if self.house(target).floor(floor).ghost {
                // A ghost in the dark: the floor is lost, as if it had just come.
                self.clear_floor(target, floor, 1);
            }
            self.house_mut(target).floor_mut(floor).lit = false;
        }
        self.end_turn();
    }

    /// キャットフード: a cat of an opponent's floor moves to a room of yours.
    pub(crate) fn play_cat_food(&mut self, me: Seated, from: Seated, floor: Floor, to: Floor) {
        self.hand_mut(me).remove(Card::CatFood);
        self.discard_public(Card::CatFood);
        let source = self.house_mut(from).floor_mut(floor);
        source.cats = source.cats.saturating_sub(1);
        self.cat_arrives(me, to);
        self.end_turn();
    }

    /// エレベーター: a cat of your house moves to another floor.
    pub(crate) fn play_elevator(&mut self, me: Seated, from: Floor, to: Floor) {
        self.hand_mut(me).remove(Card::Elevator);
        self.discard_public(Card::Elevator);
        let source = self.house_mut(me).floor_mut(from);
        source.cats = source.cats.saturating_sub(1);
        self.cat_arrives(me, to);
        self.end_turn();
    }

    /// 時空の穴: a ghost moves to an opponent's highest floor with rooms.
    pub(crate) fn play_space_time_hole(
        &mut self,
        me: Seated,
        from: Seated,
        floor: Floor,
        to: Seated,
    ) {
        self.hand_mut(me).remove(Card::SpaceTimeHole);
        self.discard_public(Card::SpaceTimeHole);
        self.house_mut(from).floor_mut(floor).ghost = false;
        match self.house(to).top_room_floor() {
            Some(dest) => self.ghost_arrives(to, dest, Next::EndTurn),
            None => self.end_turn(),
        }
    }
}
