//! The state of a game of Ghost at Home and its rules.

use crate::cards::{card_data, composition, light_set_valid, Card, Counts, Floor};
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::{
    ActionError, Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer,
};

/// The most players at a table.
pub const MAX_PLAYERS: usize = 4;
/// Cards in a full hand (3枚ずつ配ります; 最大3枚までカードを補充します).
pub const HAND_SIZE: usize = 3;
/// Every card of the game with the special cards (46 + 7).
pub const MAX_CARDS: usize = 53;

/// Table options. `Default` is the recommended setup for a first game: no special cards
/// (最初のゲームでは特殊カードを抜くことを推奨).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Shuffle the 7 special cards (特殊カード) into the deck.
    pub special_cards: bool,
}

/// One floor of a house: two room spaces (left, right), the cats on its
/// rooms, the ghost on it and its light.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FloorState {
    /// The room cards, filled from the left: the two spaces are interchangeable, so the
    /// game does not ask which one (see the rules doc).
    pub(crate) rooms: [Option<Card>; 2],
    /// Cats on the rooms (one per room at most: 他の猫の上に置いてはいけません).
    pub(crate) cats: u8,
    /// A ghost staying on this floor (only ever on a lit floor between actions).
    pub(crate) ghost: bool,
    /// The light is on (the floor card is turned to its bright side).
    pub(crate) lit: bool,
}

impl FloorState {
    pub(crate) fn room_count(&self) -> u8 {
        u8::from(self.rooms[0].is_some()) + u8::from(self.rooms[1].is_some())
    }

    pub(crate) fn is_full(&self) -> bool {
        self.rooms[0].is_some() & self.rooms[1].is_some()
    }

    fn has_room(&self) -> bool {
        self.rooms[0].is_some() | self.rooms[1].is_some()
    }
}

/// A haunted house: three floors under a roof.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct House {
    pub(crate) floors: [FloorState; 3],
    /// Bit `i` set when floor `i` is full; kept in step with `floors` by `sync`.
    full: u8,
    /// Bit `i` set when floor `i` has a room card; kept in step by `sync`.
    explored: u8,
}

impl House {
    pub(crate) fn floor(&self, f: Floor) -> &FloorState {
        &self.floors[f.index()]
    }

    pub(crate) fn floor_mut(&mut self, f: Floor) -> &mut FloorState {
        &mut self.floors[f.index()]
    }

    /// Every room explored (探索し尽くされた).
    pub(crate) fn is_full(&self) -> bool {
        self.full_mask() == 0b111
    }

    /// Bit `i` set when floor `i` is full.
    fn full_mask(&self) -> u8 {
        self.full
    }

    /// Recomputes the summary bits after the rooms of a floor changed.
    pub(crate) fn sync(&mut self) {
        let mut full = 0;
        let mut explored = 0;
        for (i, floor) in self.floors.iter().enumerate() {
            full |= u8::from(floor.is_full()) << i;
            explored |= u8::from(floor.has_room()) << i;
        }
        self.full = full;
        self.explored = explored;
    }

    /// The floor where the next room goes: the lowest one not full (a room may only go
    /// on a floor whose lower floors are full).
    pub(crate) fn open_floor(&self) -> Option<Floor> {
        Floor::from_index(self.full.trailing_ones() as usize)
    }

    /// The highest floor with a room card (相手の部屋カードがある最上階).
    pub(crate) fn top_room_floor(&self) -> Option<Floor> {
        match self.explored {
            0 => None,
            bits => Floor::from_index(7 - bits.leading_zeros() as usize),
        }
    }

    /// An explored room without a cat on floor `f`, where a cat may go.
    pub(crate) fn room_for_cat(&self, f: Floor) -> bool {
        let i = f.index();
        let rooms = (self.explored >> i & 1) + (self.full >> i & 1);
        self.floor(f).cats < rooms
    }

    /// All floors below `f` are fully explored (the 1st floor always qualifies).
    pub(crate) fn below_full(&self, f: Floor) -> bool {
        let below = (1u8 << f.index()) - 1;
        self.full_mask() & below == below
    }

    /// Bit `i` set when floor `i` may be lit now: dark, with every floor below it full.
    fn light_mask(&self) -> u8 {
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

    /// A floor whose light may be turned on now.
    pub(crate) fn can_light(&self, f: Floor) -> bool {
        !self.floor(f).lit && self.below_full(f)
    }
}

/// A hand of at most three cards, as a count per face packed two bits a face (a face
/// is at most 3 times in a hand of 3), so equal hands are equal numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Hand {
    faces: u64,
    len: u8,
    /// Light-bulb icons on the room cards held, to rule out lights cheaply.
    bulbs: u8,
}

/// The low bit of every face's two-bit count.
const LOW_BITS: u64 = 0x0000_0055_5555_5555;

/// What unused card slots hold, so that equal arrays mean equal contents.
const FILLER: Card = Card::Floor1Bulbs0;

/// Up to three cards, by value.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CardList {
    cards: [Card; HAND_SIZE],
    len: usize,
}

impl CardList {
    pub(crate) fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len.min(HAND_SIZE)]
    }
}

impl Hand {
    fn shift(card: Card) -> u32 {
        2 * card.index() as u32
    }

    pub(crate) fn count(self, card: Card) -> u8 {
        ((self.faces >> Self::shift(card)) & 3) as u8
    }

    pub(crate) fn len(self) -> usize {
        usize::from(self.len)
    }

    /// Light-bulb icons on the room cards held.
    pub(crate) fn bulbs(self) -> u8 {
        self.bulbs
    }

    pub(crate) fn contains(self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// Adds a card; false if the hand is full.
    pub(crate) fn insert(&mut self, card: Card) -> bool {
        if self.len() >= HAND_SIZE {
            return false;
        }
        self.faces += 1 << Self::shift(card);
        self.len += 1;
        self.bulbs += card.bulbs();
        true
    }

    pub(crate) fn remove(&mut self, card: Card) -> bool {
        if !self.contains(card) {
            return false;
        }
        self.faces -= 1 << Self::shift(card);
        self.len -= 1;
        self.bulbs -= card.bulbs();
        true
    }

    /// One bit (the low bit of its two-bit count) per face held.
    fn face_bits(self) -> u64 {
        (self.faces | (self.faces >> 1)) & LOW_BITS
    }

    /// Each face once, in face order.
    pub(crate) fn distinct(self) -> impl Iterator<Item = Card> {
        let mut faces = (self.faces | (self.faces >> 1)) & LOW_BITS;
        std::iter::from_fn(move || {
            if faces == 0 {
                return None;
            }
            let bit = faces.trailing_zeros() as usize;
            faces &= faces - 1;
            Card::from_index(bit / 2)
        })
    }

    /// The cards, in face order.
    pub(crate) fn list(self) -> CardList {
        let mut list = CardList {
            cards: [FILLER; HAND_SIZE],
            len: 0,
        };
        for card in self.distinct() {
            for _ in 0..self.count(card) {
                if list.len < HAND_SIZE {
                    list.cards[list.len] = card;
                    list.len += 1;
                }
            }
        }
        list
    }

    #[cfg(test)]
    pub(crate) fn from_cards(cards: &[Card]) -> Hand {
        let mut hand = Hand::default();
        for &c in cards {
            hand.insert(c);
        }
        hand
    }
}

/// The draw pile (山札): a multiset, drawn from at random.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Deck {
    cards: [Card; MAX_CARDS],
    len: u8,
}

impl Default for Deck {
    fn default() -> Self {
        Deck {
            cards: [FILLER; MAX_CARDS],
            len: 0,
        }
    }
}

impl Deck {
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len).min(MAX_CARDS)
    }

    pub(crate) fn as_slice(&self) -> &[Card] {
        &self.cards[..self.len()]
    }

    pub(crate) fn push(&mut self, card: Card) {
        let len = self.len();
        if len < MAX_CARDS {
            self.cards[len] = card;
            self.len += 1;
        }
    }

    fn clear(&mut self) {
        *self = Deck::default();
    }
}

/// The discard pile (捨て札). Cards discarded face up are public; the cards a player
/// discards with the "discard and draw" action are known to that player only
/// (捨て札がなんだったかは他のプレイヤーには秘密です). Kept in the order discarded, which is
/// the order a reshuffle starts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pile {
    cards: [Card; MAX_CARDS],
    /// The seat that discarded each card face down, or [`PUBLIC`].
    owner: [u8; MAX_CARDS],
    len: u8,
}

/// The owner mark of a card discarded face up.
pub(crate) const PUBLIC: u8 = u8::MAX;

impl Default for Pile {
    fn default() -> Self {
        Pile {
            cards: [FILLER; MAX_CARDS],
            owner: [0; MAX_CARDS],
            len: 0,
        }
    }
}

impl Pile {
    pub(crate) fn len(&self) -> usize {
        usize::from(self.len).min(MAX_CARDS)
    }

    pub(crate) fn push(&mut self, card: Card, owner: u8) {
        let len = self.len();
        if len < MAX_CARDS {
            self.cards[len] = card;
            self.owner[len] = owner;
            self.len += 1;
        }
    }

    /// (card, owner) in the order discarded.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (Card, u8)> + '_ {
        let len = self.len();
        self.cards[..len]
            .iter()
            .copied()
            .zip(self.owner[..len].iter().copied())
    }

    pub(crate) fn public(&self) -> Counts {
        let mut counts = Counts::EMPTY;
        for (card, owner) in self.iter() {
            if owner == PUBLIC {
                counts.add(card, 1);
            }
        }
        counts
    }

    /// The cards `seat` discarded face down, in the order discarded.
    pub(crate) fn secret(&self, seat: Seat) -> impl Iterator<Item = Card> + '_ {
        self.iter()
            .filter(move |&(_, o)| o == seat.0)
            .map(|(c, _)| c)
    }
}

/// What happens once a ghost has been dealt with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Then {
    /// The ghost was played (or moved) in the active player's turn: the turn ends.
    EndTurn,
    /// The ghost was played against an escape by `by`, who may still play
    /// `ghosts_left` more.
    Escape { by: Seat, ghosts_left: u8 },
}

/// Where the game stands: whose decision, and what kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// The active player chooses one of the six actions.
    Choose,
    /// The active player has played room cards and may play more, or end the turn.
    Rooms,
    /// The active player is discarding room cards (`chosen`, face up) to turn on a light.
    Lighting {
        chosen: Hand,
    },
    /// The active player has discarded `count` cards and may discard more, or draw.
    Discarding {
        count: u8,
    },
    /// A ghost is on its way to `target`'s `floor`; `target` may discard a cat to stop it.
    Defence {
        target: Seat,
        floor: Floor,
        then: Then,
    },
    /// The active player is escaping; `asking` may play a ghost to stop them
    /// (`ghosts_left` of them).
    Escape {
        asking: Seat,
        ghosts_left: u8,
    },
    Over {
        winner: Seat,
    },
}

/// A game of Ghost at Home.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GhostAtHome {
    pub(crate) options: Options,
    pub(crate) players: u8,
    pub(crate) rng: GameRng,
    pub(crate) houses: [House; MAX_PLAYERS],
    pub(crate) hands: [Hand; MAX_PLAYERS],
    pub(crate) deck: Deck,
    pub(crate) pile: Pile,
    pub(crate) reshuffles: u16,
    pub(crate) active: Seat,
    pub(crate) phase: Phase,
    /// Turns begun so far (the first is 1).
    pub(crate) turn: u32,
}

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 部屋カードを出す: one room card (or a wild room) onto the lowest floor that is
    /// not full. Several may follow in the same turn.
    PlayRoom { card: Card },
    /// Stop playing room cards; the turn ends.
    EndTurn,
    /// ゴーストカードを出す: a ghost onto `target`'s highest floor with rooms.
    PlayGhost { target: Seat },
    /// 猫カードを出す: a cat onto an explored room of `floor` of your house.
    PlayCat { floor: Floor },
    /// 電気をつける, one card at a time: discard this room card towards a light.
    LightWith { card: Card },
    /// 電気をつける, last step: the discarded cards are enough; light `floor`.
    LightFloor { floor: Floor },
    /// 電球: light `floor` of your house.
    PlayLightBulb { floor: Floor },
    /// 雷: put out the light of `target`'s highest explored floor.
    PlayLightning { target: Seat },
    /// キャットフード: move a cat from `from`'s `floor` to `to` in your house.
    PlayCatFood { from: Seat, floor: Floor, to: Floor },
    /// エレベーター: move a cat of your house from floor `from` to floor `to`.
    PlayElevator { from: Floor, to: Floor },
    /// 時空の穴: move the ghost on `from`'s `floor` to `to`'s highest floor with rooms.
    PlaySpaceTimeHole { from: Seat, floor: Floor, to: Seat },
    /// カードを捨てる, one card at a time (face down).
    Discard { card: Card },
    /// Done discarding: draw as many cards as were discarded; the turn ends.
    Draw,
    /// Discard a cat from your hand to cancel the ghost coming to your house.
    DefendWithCat,
    /// Let the ghost come (offered whether or not you hold a cat).
    NoDefence,
    /// Play a ghost from your hand to stop the active player's escape.
    StopEscape,
    /// Let the escape go on (offered whether or not you hold a ghost).
    LetEscape,
    /// Nothing else is possible (an empty hand, which only a dry deck can cause).
    Pass,
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The card is not in the player's hand.
    NotInHand(Card),
    /// The action does not fit the situation (wrong step, target or floor).
    NotAllowedNow,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reject::NotInHand(card) => write!(f, "you hold no {card}"),
            Reject::NotAllowedNow => f.write_str("that is not allowed now"),
        }
    }
}

/// A uniform integer in `0..n`: the engine's `GameRng::below` (Lemire's
/// multiply-and-reject over `next_u32`, the same numbers for the same stream), written
/// here so the hot paths of a playout make one call into the RNG instead of three.
#[inline]
fn uniform(rng: &mut GameRng, n: u32) -> u32 {
    if n <= 1 {
        return 0;
    }
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

static META: GameMeta = GameMeta {
    id: "ghost-at-home",
    name_en: "Ghost at Home",
    name_ja: "ゴーストアットホーム",
    min_players: 2,
    max_players: MAX_PLAYERS,
    minutes: (20, 20),
    min_age: 8,
    year: 2020,
    teams: &[],
};

impl GhostAtHome {
    fn players_usize(&self) -> usize {
        usize::from(self.players)
    }

    fn seat_ok(&self, seat: Seat) -> bool {
        seat.index() < self.players_usize()
    }

    pub(crate) fn house(&self, seat: Seat) -> &House {
        &self.houses[seat.index().min(MAX_PLAYERS - 1)]
    }

    fn house_mut(&mut self, seat: Seat) -> &mut House {
        &mut self.houses[seat.index().min(MAX_PLAYERS - 1)]
    }

    pub(crate) fn hand(&self, seat: Seat) -> Hand {
        self.hands[seat.index().min(MAX_PLAYERS - 1)]
    }

    fn hand_mut(&mut self, seat: Seat) -> &mut Hand {
        &mut self.hands[seat.index().min(MAX_PLAYERS - 1)]
    }

    /// The seat after `seat` in turn order.
    fn next_seat(&self, seat: Seat) -> Seat {
        let i = seat.index() + 1;
        Seat(if i >= self.players_usize() {
            0
        } else {
            i as u8
        })
    }

    /// The seats other than `seat`, in turn order after it.
    fn opponents(&self, seat: Seat) -> impl Iterator<Item = Seat> {
        let n = self.players_usize();
        (1..n).map(move |k| {
            let i = seat.index() + k;
            Seat((if i >= n { i - n } else { i }) as u8)
        })
    }

    /// The floor a ghost played at `target` would go to: the highest floor with rooms,
    /// if no ghost is there (対象には猫がいてもよいが、ゴーストはいてはいけません).
    pub(crate) fn ghost_target(&self, target: Seat) -> Option<Floor> {
        let house = self.house(target);
        house.top_room_floor().filter(|&f| !house.floor(f).ghost)
    }

    /// Some floor the player could light now.
    fn any_light_floor(&self, seat: Seat) -> bool {
        self.house(seat).light_mask() != 0
    }

    pub(crate) fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over { winner } => Some(winner),
            _ => None,
        }
    }

    /// Whether some light can be made from `chosen` plus cards from `rest`.
    pub(crate) fn light_completable(chosen: &[Card], rest: &[Card]) -> bool {
        let k = chosen.len();
        if k == 0 || k > 3 || chosen.iter().any(|c| !c.is_printed_room()) {
            return false;
        }
        let mut bulbs = [0u8; 3];
        for (b, c) in bulbs.iter_mut().zip(chosen) {
            *b = c.bulbs();
        }
        if k >= 2 && light_set_valid(&bulbs[..k]) {
            return true;
        }
        let mut extra = [0u8; 3];
        let mut m = 0;
        for c in rest {
            if c.is_printed_room() && m < 3 {
                extra[m] = c.bulbs();
                m += 1;
            }
        }
        for i in 0..m {
            if k < 3 {
                bulbs[k] = extra[i];
                if light_set_valid(&bulbs[..k + 1]) {
                    return true;
                }
            }
            if k == 1 {
                for &e in &extra[i + 1..m] {
                    bulbs[1] = extra[i];
                    bulbs[2] = e;
                    if light_set_valid(&bulbs) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The room faces of `hand` (bit = face index) that begin some light made only of
    /// cards of `hand` (the same as `light_completable` for each, in one pass).
    fn light_starters(hand: Hand) -> u32 {
        let list = hand.list();
        let cards = list.as_slice();
        let mut starters = 0u32;
        for (i, a) in cards.iter().enumerate() {
            for (j, b) in cards.iter().enumerate().skip(i + 1) {
                if a.is_printed_room()
                    && b.is_printed_room()
                    && light_set_valid(&[a.bulbs(), b.bulbs()])
                {
                    starters |= 1 << a.index() | 1 << b.index();
                }
                for c in cards.iter().skip(j + 1) {
                    if a.is_printed_room()
                        && b.is_printed_room()
                        && c.is_printed_room()
                        && light_set_valid(&[a.bulbs(), b.bulbs(), c.bulbs()])
                    {
                        starters |= 1 << a.index() | 1 << b.index() | 1 << c.index();
                    }
                }
            }
        }
        starters
    }

    /// Calls `f` with every legal action of `seat`.
    pub(crate) fn for_each_legal(&self, seat: Seat, mut f: impl FnMut(Action)) {
        if !self.seat_ok(seat) {
            return;
        }
        let hand = self.hand(seat);
        match self.phase {
            Phase::Over { .. } => {}
            Phase::Choose if seat == self.active => self.turn_actions(seat, &mut f),
            Phase::Rooms if seat == self.active => {
                f(Action::EndTurn);
                self.room_actions(seat, &mut f);
            }
            Phase::Lighting { chosen } if seat == self.active => {
                let chosen_list = chosen.list();
                let chosen = chosen_list.as_slice();
                for c in hand.distinct() {
                    if !c.is_printed_room() || chosen.len() >= 3 {
                        continue;
                    }
                    let mut with = [FILLER; 3];
                    with[..chosen.len()].copy_from_slice(chosen);
                    with[chosen.len()] = c;
                    let mut rest = hand;
                    rest.remove(c);
                    if Self::light_completable(&with[..chosen.len() + 1], rest.list().as_slice()) {
                        f(Action::LightWith { card: c });
                    }
                }
                if Self::light_valid(chosen) {
                    let house = self.house(seat);
                    for floor in Floor::ALL {
                        if house.can_light(floor) {
                            f(Action::LightFloor { floor });
                        }
                    }
                }
            }
            Phase::Discarding { .. } if seat == self.active => {
                f(Action::Draw);
                for card in hand.distinct() {
                    f(Action::Discard { card });
                }
            }
            Phase::Defence { target, .. } if seat == target => {
                f(Action::NoDefence);
                if hand.contains(Card::Cat) {
                    f(Action::DefendWithCat);
                }
            }
            Phase::Escape { asking, .. } if seat == asking => {
                f(Action::LetEscape);
                if hand.contains(Card::Ghost) {
                    f(Action::StopEscape);
                }
            }
            _ => {}
        }
    }

    fn room_actions(&self, seat: Seat, f: &mut impl FnMut(Action)) {
        let Some(open) = self.house(seat).open_floor() else {
            return;
        };
        for card in self.hand(seat).distinct() {
            if card.room_floor() == Some(open) || card == Card::WildRoom {
                f(Action::PlayRoom { card });
            }
        }
    }

    fn turn_actions(&self, seat: Seat, f: &mut impl FnMut(Action)) {
        let hand = self.hand(seat);
        let house = self.house(seat);
        if hand.len() == 0 {
            f(Action::Pass);
            return;
        }
        // The open floor's index, 3 when the house is full.
        let open = house.full_mask().trailing_ones() as usize;
        let light_starters = if hand.bulbs() >= 5 && house.light_mask() != 0 {
            Self::light_starters(hand)
        } else {
            0
        };
        let mut faces = hand.face_bits();
        while faces != 0 {
            let index = faces.trailing_zeros() as usize / 2;
            faces &= faces - 1;
            let Some(card) = Card::from_index(index) else {
                break;
            };
            match card {
                Card::WildRoom => {
                    if open < 3 {
                        f(Action::PlayRoom { card });
                    }
                }
                Card::Ghost => {
                    for target in self.opponents(seat) {
                        if self.ghost_target(target).is_some() {
                            f(Action::PlayGhost { target });
                        }
                    }
                }
                Card::Cat => {
                    for floor in Floor::ALL {
                        if house.room_for_cat(floor) {
                            f(Action::PlayCat { floor });
                        }
                    }
                }
                Card::LightBulb => {
                    for floor in Floor::ALL {
                        if house.can_light(floor) {
                            f(Action::PlayLightBulb { floor });
                        }
                    }
                }
                Card::Lightning => {
                    for target in self.opponents(seat) {
                        let h = self.house(target);
                        if h.top_room_floor().is_some_and(|t| h.floor(t).lit) {
                            f(Action::PlayLightning { target });
                        }
                    }
                }
                Card::CatFood => {
                    for from in self.opponents(seat) {
                        for floor in Floor::ALL {
                            if self.house(from).floor(floor).cats == 0 {
                                continue;
                            }
                            for to in Floor::ALL {
                                if house.room_for_cat(to) {
                                    f(Action::PlayCatFood { from, floor, to });
                                }
                            }
                        }
                    }
                }
                Card::Elevator => {
                    for from in Floor::ALL {
                        if house.floor(from).cats == 0 {
                            continue;
                        }
                        for to in Floor::ALL {
                            if to != from && house.room_for_cat(to) {
                                f(Action::PlayElevator { from, to });
                            }
                        }
                    }
                }
                Card::SpaceTimeHole => {
                    for from in Seat::all(self.players_usize()) {
                        for floor in Floor::ALL {
                            if !self.house(from).floor(floor).ghost {
                                continue;
                            }
                            for to in self.opponents(seat) {
                                let Some(dest) = self.house(to).top_room_floor() else {
                                    continue;
                                };
                                if (to, dest) != (from, floor) {
                                    f(Action::PlaySpaceTimeHole { from, floor, to });
                                }
                            }
                        }
                    }
                }
                room => {
                    // A printed room: its floor is its index / 4.
                    if index / 4 == open {
                        f(Action::PlayRoom { card: room });
                    }
                    if light_starters & (1 << index) != 0 {
                        f(Action::LightWith { card: room });
                    }
                }
            }
            f(Action::Discard { card });
        }
    }

    /// Whether `action` is among `seat`'s legal actions, checked directly (the test
    /// `validation_matches_legal_actions` keeps this in step with `for_each_legal`).
    fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        if !self.seat_ok(seat) {
            return false;
        }
        let hand = self.hand(seat);
        let house = self.house(seat);
        let is_opponent = |t: Seat| t != seat && self.seat_ok(t);
        let room_ok = |card: Card| {
            hand.contains(card)
                && house
                    .open_floor()
                    .is_some_and(|open| card.room_floor() == Some(open) || card == Card::WildRoom)
        };
        match (self.phase, *action) {
            (Phase::Choose, a) if seat == self.active => {
                if hand.len() == 0 {
                    return a == Action::Pass;
                }
                match a {
                    Action::PlayRoom { card } => room_ok(card),
                    Action::PlayGhost { target } => {
                        hand.contains(Card::Ghost)
                            && is_opponent(target)
                            && self.ghost_target(target).is_some()
                    }
                    Action::PlayCat { floor } => {
                        hand.contains(Card::Cat) && house.room_for_cat(floor)
                    }
                    Action::LightWith { card } => {
                        card.is_printed_room()
                            && hand.contains(card)
                            && hand.bulbs() >= 5
                            && self.any_light_floor(seat)
                            && {
                                let mut rest = hand;
                                rest.remove(card);
                                Self::light_completable(&[card], rest.list().as_slice())
                            }
                    }
                    Action::PlayLightBulb { floor } => {
                        hand.contains(Card::LightBulb) && house.can_light(floor)
                    }
                    Action::PlayLightning { target } => {
                        hand.contains(Card::Lightning) && is_opponent(target) && {
                            let h = self.house(target);
                            h.top_room_floor().is_some_and(|t| h.floor(t).lit)
                        }
                    }
                    Action::PlayCatFood { from, floor, to } => {
                        hand.contains(Card::CatFood)
                            && is_opponent(from)
                            && self.house(from).floor(floor).cats > 0
                            && house.room_for_cat(to)
                    }
                    Action::PlayElevator { from, to } => {
                        hand.contains(Card::Elevator)
                            && from != to
                            && house.floor(from).cats > 0
                            && house.room_for_cat(to)
                    }
                    Action::PlaySpaceTimeHole { from, floor, to } => {
                        hand.contains(Card::SpaceTimeHole)
                            && self.seat_ok(from)
                            && self.house(from).floor(floor).ghost
                            && is_opponent(to)
                            && self
                                .house(to)
                                .top_room_floor()
                                .is_some_and(|dest| (to, dest) != (from, floor))
                    }
                    Action::Discard { card } => hand.contains(card),
                    _ => false,
                }
            }
            (Phase::Rooms, Action::EndTurn) => seat == self.active,
            (Phase::Rooms, Action::PlayRoom { card }) => seat == self.active && room_ok(card),
            (Phase::Lighting { chosen }, Action::LightWith { card }) => {
                seat == self.active
                    && card.is_printed_room()
                    && hand.contains(card)
                    && chosen.len() < 3
                    && {
                        let mut with = chosen;
                        with.insert(card);
                        let mut rest = hand;
                        rest.remove(card);
                        Self::light_completable(with.list().as_slice(), rest.list().as_slice())
                    }
            }
            (Phase::Lighting { chosen }, Action::LightFloor { floor }) => {
                seat == self.active
                    && Self::light_valid(chosen.list().as_slice())
                    && house.can_light(floor)
            }
            (Phase::Discarding { .. }, Action::Draw) => seat == self.active,
            (Phase::Discarding { .. }, Action::Discard { card }) => {
                seat == self.active && hand.contains(card)
            }
            (Phase::Defence { target, .. }, Action::NoDefence) => seat == target,
            (Phase::Defence { target, .. }, Action::DefendWithCat) => {
                seat == target && hand.contains(Card::Cat)
            }
            (Phase::Escape { asking, .. }, Action::LetEscape) => seat == asking,
            (Phase::Escape { asking, .. }, Action::StopEscape) => {
                seat == asking && hand.contains(Card::Ghost)
            }
            _ => false,
        }
    }

    /// Whether these discarded room cards turn on a light.
    fn light_valid(cards: &[Card]) -> bool {
        let mut bulbs = [0u8; 3];
        if cards.len() > 3 || cards.iter().any(|c| !c.is_printed_room()) {
            return false;
        }
        for (b, c) in bulbs.iter_mut().zip(cards) {
            *b = c.bulbs();
        }
        light_set_valid(&bulbs[..cards.len()])
    }

    // --- Effects -----------------------------------------------------------------

    fn take_from_hand(&mut self, seat: Seat, card: Card) {
        self.hand_mut(seat).remove(card);
    }

    fn discard_public(&mut self, card: Card) {
        self.pile.push(card, PUBLIC);
    }

    /// Draws one card, reshuffling the discard pile into a new deck when the deck is
    /// empty (山札がなくなったら、山札をシャッフルしてから補充します).
    ///
    /// The deck is kept unordered and each draw takes a uniformly random card of it,
    /// which deals exactly like shuffling once and drawing from the top, without paying
    /// for a whole shuffle at every reshuffle.
    fn draw_card(&mut self) -> Option<Card> {
        if self.deck.len() == 0 {
            let len = self.pile.len();
            if len == 0 {
                return None;
            }
            self.deck.cards[..len].copy_from_slice(&self.pile.cards[..len]);
            self.deck.len = len as u8;
            self.pile = Pile::default();
            self.reshuffles = self.reshuffles.saturating_add(1);
        }
        let last = self.deck.len().checked_sub(1)?;
        let pick = (uniform(&mut self.rng, (last + 1) as u32) as usize).min(last);
        let card = self.deck.cards[pick];
        self.deck.cards[pick] = self.deck.cards[last];
        self.deck.cards[last] = FILLER;
        self.deck.len = last as u8;
        Some(card)
    }

    fn draw(&mut self, seat: Seat, count: usize) {
        let i = seat.index().min(MAX_PLAYERS - 1);
        let wanted = count.min(HAND_SIZE.saturating_sub(self.hands[i].len()));
        for _ in 0..wanted {
            match self.draw_card() {
                Some(card) => {
                    self.hands[i].insert(card);
                }
                None => break,
            }
        }
    }

    fn refill(&mut self, seat: Seat) {
        let missing = HAND_SIZE.saturating_sub(self.hand(seat).len());
        self.draw(seat, missing);
    }

    /// Everything on a floor goes to the discard pile and the light goes out if two
    /// ghosts put it out; a lone ghost only empties a dark floor.
    fn clear_floor(&mut self, seat: Seat, floor: Floor, ghosts: u8) {
        let state = *self.house(seat).floor(floor);
        for room in state.rooms.into_iter().flatten() {
            self.pile.push(room, PUBLIC);
        }
        for _ in 0..state.cats {
            self.pile.push(Card::Cat, PUBLIC);
        }
        for _ in 0..ghosts {
            self.pile.push(Card::Ghost, PUBLIC);
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
    fn ghost_arrives(&mut self, target: Seat, floor: Floor, then: Then) {
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
    fn ghost_lands(&mut self, target: Seat, floor: Floor) {
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

    fn after_ghost(&mut self, then: Then) {
        match then {
            Then::EndTurn => self.end_turn(),
            Then::Escape { by, ghosts_left } => self.escape_continue(by, ghosts_left),
        }
    }

    /// A cat reaches a room of `floor` of `seat`'s house: a ghost there and the cat are
    /// both discarded, otherwise the cat stays.
    fn cat_arrives(&mut self, seat: Seat, floor: Floor) {
        if self.house(seat).floor(floor).ghost {
            self.house_mut(seat).floor_mut(floor).ghost = false;
            self.discard_public(Card::Ghost);
            self.discard_public(Card::Cat);
        } else {
            self.house_mut(seat).floor_mut(floor).cats += 1;
        }
    }

    fn ghosts_per_escape(&self) -> u8 {
        if self.players == 2 {
            2
        } else {
            1
        }
    }

    /// End of the active player's turn: refill, or try to escape.
    fn end_turn(&mut self) {
        let p = self.active;
        if self.house(p).is_full() {
            let ghosts = self.ghosts_per_escape();
            self.escape_ask(self.next_seat(p), ghosts);
        } else {
            self.refill(p);
            self.next_turn();
        }
    }

    fn next_turn(&mut self) {
        self.active = self.next_seat(self.active);
        self.turn = self.turn.saturating_add(1);
        self.phase = Phase::Choose;
    }

    /// Asks `asking` whether to play a ghost against the escape, or, once every other
    /// player has had the chance or no ghost can be played, lets the escape succeed.
    fn escape_ask(&mut self, asking: Seat, ghosts_left: u8) {
        let escaper = self.active;
        if asking == escaper || self.ghost_target(escaper).is_none() {
            self.phase = Phase::Over { winner: escaper };
        } else {
            self.phase = Phase::Escape {
                asking,
                ghosts_left,
            };
        }
    }

    fn escape_continue(&mut self, by: Seat, ghosts_left: u8) {
        let escaper = self.active;
        if !self.house(escaper).is_full() {
            // 脱出しようとしたプレイヤーから順に手札を補充します。
            for k in 0..self.players_usize() {
                let seat = Seat(((escaper.index() + k) % self.players_usize()) as u8); // rare
                self.refill(seat);
            }
            self.next_turn();
        } else if ghosts_left > 0 {
            self.escape_ask(by, ghosts_left);
        } else {
            let ghosts = self.ghosts_per_escape();
            self.escape_ask(self.next_seat(by), ghosts);
        }
    }

    /// Plays a legal action. Discarding is most of a random game; the rest lives in
    /// `play_rest`, kept out of line so this path stays small.
    fn play(&mut self, seat: Seat, action: Action) {
        match action {
            Action::Discard { card } => {
                self.take_from_hand(seat, card);
                self.pile.push(card, seat.0);
                let count = match self.phase {
                    Phase::Discarding { count } => count,
                    _ => 0,
                };
                self.phase = Phase::Discarding { count: count + 1 };
            }
            Action::Draw => {
                if let Phase::Discarding { count } = self.phase {
                    self.draw(seat, usize::from(count));
                }
                self.end_turn();
            }
            _ => self.play_rest(seat, action),
        }
    }

    #[inline(never)]
    fn play_rest(&mut self, seat: Seat, action: Action) {
        match action {
            Action::PlayRoom { card } => {
                self.take_from_hand(seat, card);
                let house = self.house_mut(seat);
                if let Some(open) = house.open_floor() {
                    let floor = house.floor_mut(open);
                    if let Some(space) = floor.rooms.iter_mut().find(|r| r.is_none()) {
                        *space = Some(card);
                    }
                    house.sync();
                }
                if self.house(seat).is_full() {
                    self.end_turn();
                } else {
                    self.phase = Phase::Rooms;
                }
            }
            Action::EndTurn | Action::Pass => self.end_turn(),
            Action::PlayGhost { target } => {
                self.take_from_hand(seat, Card::Ghost);
                if let Some(floor) = self.ghost_target(target) {
                    self.ghost_arrives(target, floor, Then::EndTurn);
                }
            }
            Action::PlayCat { floor } => {
                self.take_from_hand(seat, Card::Cat);
                self.cat_arrives(seat, floor);
                self.end_turn();
            }
            Action::LightWith { card } => {
                self.take_from_hand(seat, card);
                let mut chosen = match self.phase {
                    Phase::Lighting { chosen } => chosen,
                    _ => Hand::default(),
                };
                chosen.insert(card);
                self.phase = Phase::Lighting { chosen };
            }
            Action::LightFloor { floor } => {
                if let Phase::Lighting { chosen } = self.phase {
                    for &card in chosen.list().as_slice() {
                        self.discard_public(card);
                    }
                }
                self.house_mut(seat).floor_mut(floor).lit = true;
                self.end_turn();
            }
            Action::PlayLightBulb { floor } => {
                self.take_from_hand(seat, Card::LightBulb);
                self.discard_public(Card::LightBulb);
                self.house_mut(seat).floor_mut(floor).lit = true;
                self.end_turn();
            }
            Action::PlayLightning { target } => {
                self.take_from_hand(seat, Card::Lightning);
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
            Action::PlayCatFood { from, floor, to } => {
                self.take_from_hand(seat, Card::CatFood);
                self.discard_public(Card::CatFood);
                let source = self.house_mut(from).floor_mut(floor);
                source.cats = source.cats.saturating_sub(1);
                self.cat_arrives(seat, to);
                self.end_turn();
            }
            Action::PlayElevator { from, to } => {
                self.take_from_hand(seat, Card::Elevator);
                self.discard_public(Card::Elevator);
                let source = self.house_mut(seat).floor_mut(from);
                source.cats = source.cats.saturating_sub(1);
                self.cat_arrives(seat, to);
                self.end_turn();
            }
            Action::PlaySpaceTimeHole { from, floor, to } => {
                self.take_from_hand(seat, Card::SpaceTimeHole);
                self.discard_public(Card::SpaceTimeHole);
                self.house_mut(from).floor_mut(floor).ghost = false;
                match self.house(to).top_room_floor() {
                    Some(dest) => self.ghost_arrives(to, dest, Then::EndTurn),
                    None => self.end_turn(),
                }
            }
            Action::DefendWithCat => {
                if let Phase::Defence { then, .. } = self.phase {
                    self.take_from_hand(seat, Card::Cat);
                    self.discard_public(Card::Cat);
                    self.discard_public(Card::Ghost);
                    self.after_ghost(then);
                }
            }
            Action::NoDefence => {
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
            Action::StopEscape => {
                if let Phase::Escape {
                    asking,
                    ghosts_left,
                } = self.phase
                {
                    self.take_from_hand(seat, Card::Ghost);
                    let then = Then::Escape {
                        by: asking,
                        ghosts_left: ghosts_left.saturating_sub(1),
                    };
                    match self.ghost_target(self.active) {
                        Some(floor) => self.ghost_arrives(self.active, floor, then),
                        None => self.after_ghost(then),
                    }
                }
            }
            Action::LetEscape => {
                if let Phase::Escape { asking, .. } = self.phase {
                    let ghosts = self.ghosts_per_escape();
                    self.escape_ask(self.next_seat(asking), ghosts);
                }
            }
            Action::Discard { .. } | Action::Draw => self.play(seat, action),
        }
    }

    /// The cards of an action that must be in the actor's hand.
    fn card_needed(action: &Action) -> Option<Card> {
        match *action {
            Action::PlayRoom { card } | Action::LightWith { card } | Action::Discard { card } => {
                Some(card)
            }
            Action::PlayGhost { .. } | Action::StopEscape => Some(Card::Ghost),
            Action::PlayCat { .. } | Action::DefendWithCat => Some(Card::Cat),
            Action::PlayLightBulb { .. } => Some(Card::LightBulb),
            Action::PlayLightning { .. } => Some(Card::Lightning),
            Action::PlayCatFood { .. } => Some(Card::CatFood),
            Action::PlayElevator { .. } => Some(Card::Elevator),
            Action::PlaySpaceTimeHole { .. } => Some(Card::SpaceTimeHole),
            _ => None,
        }
    }

    /// A state built from parts, for tests and tools: `houses` and `hands` per seat,
    /// `deck` drawn from the end.
    #[cfg(test)]
    pub(crate) fn from_parts(
        options: Options,
        houses: &[House],
        hands: &[&[Card]],
        deck: &[Card],
        active: Seat,
    ) -> GhostAtHome {
        let players = houses.len().clamp(2, MAX_PLAYERS);
        let mut state = GhostAtHome {
            options,
            players: players as u8,
            rng: GameRng::from_seed(0),
            houses: [House::default(); MAX_PLAYERS],
            hands: [Hand::default(); MAX_PLAYERS],
            deck: Deck::default(),
            pile: Pile::default(),
            reshuffles: 0,
            active,
            phase: Phase::Choose,
            turn: 1,
        };
        for (i, h) in houses.iter().enumerate().take(players) {
            state.houses[i] = *h;
            state.houses[i].sync();
        }
        for (i, h) in hands.iter().enumerate().take(players) {
            state.hands[i] = Hand::from_cards(h);
        }
        for &c in deck {
            state.deck.push(c);
        }
        state
    }

    pub(crate) fn phase(&self) -> Phase {
        self.phase
    }
}

impl Game for GhostAtHome {
    type Options = Options;
    type Action = Action;
    type View = crate::view::View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(_options: &Options, players: usize) -> Result<(), SetupError> {
        if !(META.min_players..=META.max_players).contains(&players) {
            return Err(SetupError::PlayerCount {
                game: META.id,
                min: META.min_players,
                max: META.max_players,
                got: players,
            });
        }
        card_data().map_err(|reason| SetupError::InvalidOptions {
            reason: format!("the card data file is broken: {reason}"),
        })?;
        Ok(())
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        let data = card_data().map_err(|reason| SetupError::InvalidOptions {
            reason: reason.to_string(),
        })?;
        let rng = GameRng::from_seed(seed);
        let mut deck = Deck::default();
        for card in composition(data, options.special_cards).cards() {
            deck.push(card);
        }
        let mut state = GhostAtHome {
            options: options.clone(),
            players: players as u8,
            rng,
            houses: [House::default(); MAX_PLAYERS],
            hands: [Hand::default(); MAX_PLAYERS],
            deck,
            pile: Pile::default(),
            reshuffles: 0,
            active: Seat(0),
            phase: Phase::Choose,
            turn: 1,
        };
        // 各プレイヤーに3枚ずつカードを配ります。
        for _ in 0..HAND_SIZE {
            for seat in Seat::all(players) {
                state.draw(seat, 1);
            }
        }
        Ok(state)
    }

    fn option_sets() -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                special_cards: true,
            },
        ]
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.players_usize()
    }

    fn to_move(&self) -> SeatSet {
        match self.phase {
            Phase::Over { .. } => SeatSet::EMPTY,
            Phase::Defence { target, .. } => SeatSet::single(target),
            Phase::Escape { asking, .. } => SeatSet::single(asking),
            _ => SeatSet::single(self.active),
        }
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        self.for_each_legal(seat, |a| out.push(a));
    }

    /// Uniform over `legal_actions`, without listing in the frequent two-way questions
    /// and while discarding (most steps of a random game).
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        if !self.seat_ok(seat) {
            return None;
        }
        let hand = self.hand(seat);
        let either = |rng: &mut GameRng, a: Action, b: Action| {
            if uniform(rng, 2) == 0 {
                a
            } else {
                b
            }
        };
        match self.phase {
            Phase::Discarding { .. } if seat == self.active => {
                let mut faces = hand.face_bits();
                match uniform(rng, faces.count_ones() + 1) {
                    0 => Some(Action::Draw),
                    k => {
                        for _ in 1..k {
                            faces &= faces - 1;
                        }
                        Card::from_index(faces.trailing_zeros() as usize / 2)
                            .map(|card| Action::Discard { card })
                    }
                }
            }
            Phase::Defence { target, .. } if seat == target => Some(if hand.contains(Card::Cat) {
                either(rng, Action::NoDefence, Action::DefendWithCat)
            } else {
                Action::NoDefence
            }),
            Phase::Escape { asking, .. } if seat == asking => Some(if hand.contains(Card::Ghost) {
                either(rng, Action::LetEscape, Action::StopEscape)
            } else {
                Action::LetEscape
            }),
            _ => {
                // Listed on the stack; only a rare long list (special cards) goes to `buf`.
                let mut list = [Action::Pass; 24];
                let mut n = 0;
                self.for_each_legal(seat, |a| {
                    if let Some(slot) = list.get_mut(n) {
                        *slot = a;
                    }
                    n += 1;
                });
                if n == 0 {
                    None
                } else if n <= list.len() {
                    list.get(uniform(rng, n as u32) as usize).copied()
                } else {
                    self.legal_actions(seat, buf);
                    buf.get(uniform(rng, buf.len() as u32) as usize).copied()
                }
            }
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError<Reject>> {
        // Most actions of a game are discards: their checks come first.
        let discarded = match self.phase {
            Phase::Choose => Some(0),
            Phase::Discarding { count } => Some(count),
            _ => None,
        };
        if let (Some(count), true) = (discarded, seat == self.active) {
            let i = seat.index().min(MAX_PLAYERS - 1);
            match *action {
                Action::Discard { card } if self.hands[i].remove(card) => {
                    self.pile.push(card, seat.0);
                    self.phase = Phase::Discarding { count: count + 1 };
                    return Ok(());
                }
                Action::Draw if self.phase != Phase::Choose => {
                    self.draw(seat, usize::from(count));
                    self.end_turn();
                    return Ok(());
                }
                _ => {}
            }
        }
        // `is_legal` is false for a finished game, a seat not at the table and a seat
        // that is not pending; the reason is worked out only when refusing.
        if self.is_legal(seat, action) {
            self.play(seat, *action);
            return Ok(());
        }
        Err(if self.winner().is_some() {
            ActionError::GameOver
        } else if !self.seat_ok(seat) {
            ActionError::NoSuchSeat(seat)
        } else if !self.to_move().contains(seat) {
            ActionError::NotYourTurn(seat)
        } else {
            ActionError::Illegal(match Self::card_needed(action) {
                Some(card) if !self.hand(seat).contains(card) => Reject::NotInHand(card),
                _ => Reject::NotAllowedNow,
            })
        })
    }

    fn view(&self, viewer: Viewer) -> crate::view::View {
        crate::view::View::of(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        let winner = self.winner()?;
        let n = self.players_usize();
        let scores = (0..n)
            .map(|i| i64::from(i == winner.index()))
            .collect::<Vec<_>>();
        Some(Outcome::from_scores(scores, vec![None; n]))
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut world = self.clone();
        // Everything `seat` has not seen: the other hands, the other players' face-down
        // discards, the deck (and so its order), and the future shuffles.
        let mut pool = [FILLER; MAX_CARDS];
        let mut n = 0;
        let mut push = |c: Card| {
            if let Some(slot) = pool.get_mut(n) {
                *slot = c;
                n += 1;
            }
        };
        let others = Seat::all(self.players_usize()).filter(|&s| s != seat);
        for other in others.clone() {
            for &c in self.hand(other).list().as_slice() {
                push(c);
            }
        }
        let hidden_discard = |owner: u8| owner != PUBLIC && owner != seat.0;
        for (c, owner) in self.pile.iter() {
            if hidden_discard(owner) {
                push(c);
            }
        }
        for &c in self.deck.as_slice() {
            push(c);
        }
        let pool = &mut pool[..n];
        rng.shuffle(pool);
        let mut next = pool.iter().copied();
        for other in others {
            let i = other.index();
            let mut hand = Hand::default();
            for _ in 0..self.hands[i].len() {
                if let Some(c) = next.next() {
                    hand.insert(c);
                }
            }
            world.hands[i] = hand;
        }
        for i in 0..world.pile.len() {
            if hidden_discard(world.pile.owner[i]) {
                if let Some(c) = next.next() {
                    world.pile.cards[i] = c;
                }
            }
        }
        world.deck.clear();
        for c in next {
            world.deck.push(c);
        }
        world.rng = rng.fork();
        world
    }

    /// Everything is played in the open except which cards a player discards face down
    /// (捨て札がなんだったかは他のプレイヤーには秘密です): the others read that a card went.
    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        match action {
            Action::Discard { .. } if viewer != Viewer::Seat(actor) => {
                Some("discard a card face down".into())
            }
            _ => Some(self.describe(action)),
        }
    }

    fn describe(&self, action: &Action) -> String {
        match *action {
            Action::PlayRoom { card } => match self.house(self.active).open_floor() {
                Some(floor) => format!("play {card} on the {floor}"),
                None => format!("play {card}"),
            },
            Action::EndTurn => "end the turn".into(),
            Action::PlayGhost { target } => format!("play a ghost at {target}"),
            Action::PlayCat { floor } => format!("play a cat on the {floor}"),
            Action::LightWith { card } => format!("discard {card} towards a light"),
            Action::LightFloor { floor } => format!("turn on the light of the {floor}"),
            Action::PlayLightBulb { floor } => format!("light bulb: light the {floor}"),
            Action::PlayLightning { target } => format!("lightning: put out {target}'s light"),
            Action::PlayCatFood { from, floor, to } => {
                format!("cat food: move the cat on {from}'s {floor} to your {to}")
            }
            Action::PlayElevator { from, to } => {
                format!("elevator: move a cat from your {from} to your {to}")
            }
            Action::PlaySpaceTimeHole { from, floor, to } => {
                format!("space-time hole: move the ghost on {from}'s {floor} to {to}")
            }
            Action::Discard { card } => format!("discard {card}"),
            Action::Draw => "draw as many cards as discarded".into(),
            Action::DefendWithCat => "discard a cat to cancel the ghost".into(),
            Action::NoDefence => "let the ghost come".into(),
            Action::StopEscape => "play a ghost to stop the escape".into(),
            Action::LetEscape => "let the escape go on".into(),
            Action::Pass => "pass".into(),
        }
    }
}
