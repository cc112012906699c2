//! THE rules of what may be played: [`GhostAtHome::for_each_legal`] (which
//! `legal_actions` collects) and the predicates it is built from, one per rule: where
//! a ghost goes, where a cat may go, which floors may be lit and with which cards,
//! which room sets fit, what each special card may do. `refusal` (why not) is here too.
//! The samplers and the fast `is_legal` in `fast.rs` are built from these predicates.

use crate::cards::{Card, Floor};
use crate::hand::{Cards, Hand, BULBS0_BITS, BULBS1_BITS, BULBS2_BITS, FACE_BITS, ROOM_BITS};
use crate::state::{GhostAtHome, House, Phase};
use crate::types::{Action, Reject, Seated, HAND_SIZE};
use takuge_engine::Seat;
/// A [`House::room_spaces`] entry: fewer free spaces than cards.
pub(crate) const NO_SPACE: u32 = 1 << 31;

/// [`House::room_spaces`] by the open floor (3: none) and whether it holds a room already.
const ROOM_SPACES: [[[u32; HAND_SIZE + 1]; 2]; 4] = {
    let mut table = [[[NO_SPACE; HAND_SIZE + 1]; 2]; 4];
    let mut open = 0;
    while open < 4 {
        let mut half = 0;
        while half < 2 {
            let entry = &mut table[open][half];
            entry[0] = 0;
            let (mut k, mut sum, mut floor) = (0, 0u32, open);
            let mut free = 2 - half;
            while floor < 3 && k < HAND_SIZE {
                if free == 0 {
                    floor += 1;
                    free = 2;
                    continue;
                }
                k += 1;
                sum += 1 << (8 * floor);
                entry[k] = sum;
                free -= 1;
            }
            half += 1;
        }
        open += 1;
    }
    table
};

impl House {
    /// An explored room without a cat on floor `f`, where a cat may go (one cat a room:
    /// 他の猫の上に置いてはいけません).
    pub(crate) fn room_for_cat(&self, f: Floor) -> bool {
        let i = f.index();
        let rooms = (self.explored_mask() >> i & 1) + (self.full_mask() >> i & 1);
        self.floor(f).cats < rooms
    }

    /// Bit `i` set when floor `i` may be lit now: dark, with every floor below it full
    /// (the 1st floor always qualifies). The one lighting rule: a light (電気をつける) and
    /// a light bulb (電球) both ask it.
    pub(crate) fn light_mask(&self) -> u8 {
        let full = self.full_mask();
        let mut mask = 0;
        for (i, floor) in self.floors.iter().enumerate() {
            let below = (1u8 << i) - 1;
            if !floor.lit && full & below == below {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Floor `f` may be lit now ([`House::light_mask`]).
    pub(crate) fn can_light(&self, f: Floor) -> bool {
        self.light_mask() >> f.index() & 1 == 1
    }

    /// The floor a ghost played at this house goes to: the highest floor with rooms, if
    /// no ghost is there (対象には猫がいてもよいが、ゴーストはいてはいけません). The one
    /// ghost-target rule: a ghost played in a turn, against an escape, and whether an
    /// escape can be stopped at all.
    #[inline]
    pub(crate) fn ghost_floor(&self) -> Option<Floor> {
        self.top_room_floor().filter(|&f| !self.floor(f).ghost)
    }

    /// 雷: the highest explored floor is lit, so lightning has a light to put out.
    pub(crate) fn lightning_floor(&self) -> Option<Floor> {
        self.top_room_floor().filter(|&f| self.floor(f).lit)
    }

    /// For `k` room cards played now (`k` = 0 to 3), how many of the next `k` free
    /// spaces lie on each floor, one byte per floor — the spaces fill from the bottom —
    /// or [`NO_SPACE`] if fewer than `k` spaces are free.
    pub(crate) fn room_spaces(&self) -> [u32; HAND_SIZE + 1] {
        let open = self.full_mask().trailing_ones() as usize;
        let half = usize::from((self.explored_mask() >> open.min(7)) & 1);
        ROOM_SPACES
            .get(open)
            .and_then(|t| t.get(half))
            .copied()
            .unwrap_or([0, NO_SPACE, NO_SPACE, NO_SPACE])
    }
}

/// Whether discarding `cards` turns on a light (電気をつける): 2 or 3 printed room cards
/// with 5 or more light-bulb icons, where a third card is allowed only if the other two
/// are not already enough — or if it shows no icon at all (電球アイコン0個のカード).
/// Worked out on the packed hand.
pub(crate) fn light_set(cards: Hand) -> bool {
    let sum = cards.bulbs();
    if cards.len() < 2 || !cards.all_printed_rooms() || sum < 5 {
        return false;
    }
    // A third card only if the best two fall short, or if it shows no icon.
    let min = if cards.0 & BULBS0_BITS != 0 {
        0
    } else if cards.0 & BULBS1_BITS != 0 {
        1
    } else if cards.0 & BULBS2_BITS != 0 {
        2
    } else {
        3
    };
    cards.len() == 2 || min == 0 || sum - min < 5
}

/// Whether `cards`, room cards and wild rooms, can all be played now one after
/// another, each on the lowest floor that is not full, given the house's
/// [`House::room_spaces`] (部屋カードは下の階がすべて埋まっている階にしか置けません). They
/// fill the next free spaces from the bottom whatever their order, so this holds
/// exactly when every card is a room and each floor receives at least as many of those
/// spaces as there are printed rooms of that floor (wild rooms take the rest).
#[inline]
pub(crate) fn rooms_fit(spaces: &[u32; HAND_SIZE + 1], cards: Hand) -> bool {
    if cards.0 & FACE_BITS & !ROOM_BITS != 0 {
        return false;
    }
    let Some(&space) = spaces.get(cards.len()) else {
        return false;
    };
    // Byte by byte, `space >= needed` (every byte is at most 3): no borrow.
    let needed = cards.rooms_per_floor();
    space & NO_SPACE == 0 && ((space | 0x80_8080) - needed) & 0x80_8080 == 0x80_8080
}

impl GhostAtHome {
    /// The floor a ghost played at `target` goes to ([`House::ghost_floor`]).
    pub(crate) fn ghost_target(&self, target: Seated) -> Option<Floor> {
        self.house(target).ghost_floor()
    }

    /// `target` is another seat at this table.
    fn opponent(&self, me: Seated, target: Seat) -> Option<Seated> {
        self.seated(target).filter(|&t| t != me)
    }

    /// キャットフード: a cat on `from`'s `floor` may move to floor `to` of `me`'s house.
    fn cat_food_fits(&self, me: Seated, from: Seated, floor: Floor, to: Floor) -> bool {
        self.house(from).floor(floor).cats > 0 && self.house(me).room_for_cat(to)
    }

    /// エレベーター: a cat of `house` may move from floor `from` to another floor `to`.
    fn elevator_fits(house: &House, from: Floor, to: Floor) -> bool {
        from != to && house.floor(from).cats > 0 && house.room_for_cat(to)
    }

    /// 時空の穴: the ghost on `from`'s `floor` may move to `to`'s highest floor with rooms
    /// (anywhere but where it is).
    fn space_time_hole_fits(&self, from: Seated, floor: Floor, to: Seated) -> bool {
        self.house(from).floor(floor).ghost
            && self
                .house(to)
                .top_room_floor()
                .is_some_and(|dest| (to, dest) != (from, floor))
    }

    /// Whether `me`, the active player choosing an action with a non-empty `hand`, may
    /// play `action`: the rule of each action of a turn, asked of one action (the fast
    /// `is_legal` in `fast.rs` asks this; `turn_actions` lists by the same predicates).
    pub(crate) fn turn_action_fits(&self, me: Seated, hand: Hand, action: Action) -> bool {
        let house = self.house(me);
        match action {
            Action::Discard => true,
            Action::PlayRooms { cards } => {
                hand.contains_all(cards.0) && rooms_fit(&house.room_spaces(), cards.0)
            }
            Action::Light { cards, floor } => {
                hand.contains_all(cards.0) && light_set(cards.0) && house.can_light(floor)
            }
            Action::PlayGhost { target } => {
                hand.contains(Card::Ghost)
                    && self
                        .opponent(me, target)
                        .is_some_and(|t| self.ghost_target(t).is_some())
            }
            Action::PlayCat { floor } => hand.contains(Card::Cat) && house.room_for_cat(floor),
            Action::PlayLightBulb { floor } => {
                hand.contains(Card::LightBulb) && house.can_light(floor)
            }
            Action::PlayLightning { target } => {
                hand.contains(Card::Lightning)
                    && self
                        .opponent(me, target)
                        .is_some_and(|t| self.house(t).lightning_floor().is_some())
            }
            Action::PlayCatFood { from, floor, to } => {
                hand.contains(Card::CatFood)
                    && self
                        .opponent(me, from)
                        .is_some_and(|from| self.cat_food_fits(me, from, floor, to))
            }
            Action::PlayElevator { from, to } => {
                hand.contains(Card::Elevator) && Self::elevator_fits(house, from, to)
            }
            Action::PlaySpaceTimeHole { from, floor, to } => {
                hand.contains(Card::SpaceTimeHole)
                    && match (self.seated(from), self.opponent(me, to)) {
                        (Some(from), Some(to)) => self.space_time_hole_fits(from, floor, to),
                        _ => false,
                    }
            }
            _ => false,
        }
    }

    /// A discard (カードを1枚以上捨てる) takes one or more cards of the hand.
    pub(crate) fn discard_fits(hand: Hand, cards: Cards) -> bool {
        cards.0.len() > 0 && hand.contains_all(cards.0)
    }

    /// Calls `f` with every legal action of `seat`: the one list of what may be played.
    pub(crate) fn for_each_legal(&self, seat: Seat, mut f: impl FnMut(Action)) {
        let Some(me) = self.seated(seat) else {
            return;
        };
        let hand = self.hand(me);
        match self.phase {
            Phase::Over { .. } => {}
            Phase::Choose if me == self.active => self.turn_actions(me, &mut f),
            Phase::Discarding if me == self.active => {
                Hand::for_each_part(&hand.list(), |part| {
                    f(Action::DiscardCards { cards: Cards(part) });
                });
            }
            // The target is asked whether or not it holds a cat, so the pause reveals
            // nothing (see the rules doc).
            Phase::Defence { target, .. } if me == target => {
                f(Action::NoDefence);
                if hand.contains(Card::Cat) {
                    f(Action::DefendWithCat);
                }
            }
            Phase::Escape { asking, .. } if me == asking => {
                f(Action::LetEscape);
                if hand.contains(Card::Ghost) {
                    f(Action::StopEscape);
                }
            }
            _ => {}
        }
    }

    /// The actions of a turn (the six actions, and the special cards), in the order the
    /// list has always had (the samplers and the golden records depend on it).
    pub(crate) fn turn_actions(&self, me: Seated, f: &mut impl FnMut(Action)) {
        let hand = self.hand(me);
        let house = self.house(me);
        if hand.len() == 0 {
            // An empty hand (only a dry deck causes one): nothing to do but pass.
            f(Action::Pass);
            return;
        }
        // Actions of one card.
        let mut faces = hand.face_bits() >> Hand::shift(Card::Ghost);
        while faces != 0 {
            let index = faces.trailing_zeros() as usize / 2 + Card::Ghost.index();
            faces &= faces - 1;
            match Card::from_index(index) {
                Some(Card::Ghost) => {
                    for target in self.opponents(me) {
                        if self.ghost_target(target).is_some() {
                            f(Action::PlayGhost {
                                target: target.seat(),
                            });
                        }
                    }
                }
                Some(Card::Cat) => {
                    for floor in Floor::ALL {
                        if house.room_for_cat(floor) {
                            f(Action::PlayCat { floor });
                        }
                    }
                }
                Some(Card::LightBulb) => {
                    let floors = house.light_mask();
                    for floor in Floor::ALL {
                        if floors >> floor.index() & 1 == 1 {
                            f(Action::PlayLightBulb { floor });
                        }
                    }
                }
                Some(Card::Lightning) => {
                    for target in self.opponents(me) {
                        if self.house(target).lightning_floor().is_some() {
                            f(Action::PlayLightning {
                                target: target.seat(),
                            });
                        }
                    }
                }
                Some(Card::CatFood) => {
                    for from in self.opponents(me) {
                        for floor in Floor::ALL {
                            // (Skips what the predicate would refuse for every `to`.)
                            if self.house(from).floor(floor).cats == 0 {
                                continue;
                            }
                            for to in Floor::ALL {
                                if self.cat_food_fits(me, from, floor, to) {
                                    f(Action::PlayCatFood {
                                        from: from.seat(),
                                        floor,
                                        to,
                                    });
                                }
                            }
                        }
                    }
                }
                Some(Card::Elevator) => {
                    for from in Floor::ALL {
                        for to in Floor::ALL {
                            if Self::elevator_fits(house, from, to) {
                                f(Action::PlayElevator { from, to });
                            }
                        }
                    }
                }
                Some(Card::SpaceTimeHole) => {
                    for from in Seated::all(self.players_usize()) {
                        for floor in Floor::ALL {
                            // (Skips what the predicate would refuse for every `to`.)
                            if !self.house(from).floor(floor).ghost {
                                continue;
                            }
                            for to in self.opponents(me) {
                                if self.space_time_hole_fits(from, floor, to) {
                                    f(Action::PlaySpaceTimeHole {
                                        from: from.seat(),
                                        floor,
                                        to: to.seat(),
                                    });
                                }
                            }
                        }
                    }
                }
                // Wild rooms are played with the rooms below.
                _ => {}
            }
        }
        // Actions choosing a part of the hand: rooms, a light; and discarding.
        let spaces = house.room_spaces();
        let light_floors = if hand.bulbs() >= 5 {
            house.light_mask()
        } else {
            0
        };
        Hand::for_each_part(&hand.list(), |part| {
            let cards = Cards(part);
            if rooms_fit(&spaces, part) {
                f(Action::PlayRooms { cards });
            }
            if light_floors != 0 && light_set(part) {
                for floor in Floor::ALL {
                    if light_floors >> floor.index() & 1 == 1 {
                        f(Action::Light { cards, floor });
                    }
                }
            }
        });
        f(Action::Discard);
    }

    /// Why `seat`, pending, may not play `action`: a card it does not hold, or else an
    /// action that does not fit the situation (its own hand is all it is told about).
    pub(crate) fn refusal(&self, seat: Seat, action: &Action) -> Reject {
        match self.card_missing(seat, action) {
            Some(card) => Reject::NotInHand(card),
            None => Reject::NotAllowedNow,
        }
    }

    /// A card of an action that must be in the actor's hand and is not.
    fn card_missing(&self, seat: Seat, action: &Action) -> Option<Card> {
        let hand = self.hand(self.seated(seat)?);
        let needed = match *action {
            Action::PlayRooms { cards }
            | Action::Light { cards, .. }
            | Action::DiscardCards { cards } => {
                return cards
                    .0
                    .distinct()
                    .find(|&c| hand.count(c) < cards.0.count(c));
            }
            Action::PlayGhost { .. } | Action::StopEscape => Card::Ghost,
            Action::PlayCat { .. } | Action::DefendWithCat => Card::Cat,
            Action::PlayLightBulb { .. } => Card::LightBulb,
            Action::PlayLightning { .. } => Card::Lightning,
            Action::PlayCatFood { .. } => Card::CatFood,
            Action::PlayElevator { .. } => Card::Elevator,
            Action::PlaySpaceTimeHole { .. } => Card::SpaceTimeHole,
            _ => return None,
        };
        (!hand.contains(needed)).then_some(needed)
    }
}
