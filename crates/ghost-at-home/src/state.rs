//! The state of a game of Ghost at Home and its rules.

use crate::cards::{card_data, composition, Card, Counts, Floor};
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

    /// For `k` room cards played now (`k` = 0 to 3), how many of the next `k` free
    /// spaces lie on each floor, one byte per floor — the spaces fill from the bottom —
    /// or [`NO_SPACE`] if fewer than `k` spaces are free.
    pub(crate) fn room_spaces(&self) -> [u32; HAND_SIZE + 1] {
        let open = self.full.trailing_ones() as usize;
        let half = usize::from((self.explored >> open.min(7)) & 1);
        ROOM_SPACES
            .get(open)
            .and_then(|t| t.get(half))
            .copied()
            .unwrap_or([0, NO_SPACE, NO_SPACE, NO_SPACE])
    }

    /// A floor whose light may be turned on now.
    pub(crate) fn can_light(&self, f: Floor) -> bool {
        !self.floor(f).lit && self.below_full(f)
    }
}

/// A hand of at most three cards in one number: a count per face packed two bits a
/// face (a face is at most 3 times in a hand of 3) in bits 0–39, the number of cards
/// in bits 48–50 and the light-bulb icons of the room cards in bits 56–59. Every part
/// is a sum over the cards, so adding or taking a card (or a set of cards) is one
/// addition or subtraction, and equal hands are equal numbers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Hand(u64);

/// Where the number of cards starts in a [`Hand`].
const LEN_SHIFT: u32 = 48;
/// Where the light-bulb icons start in a [`Hand`].
const BULBS_SHIFT: u32 = 56;

/// The low bit of every face's two-bit count.
const LOW_BITS: u64 = 0x0000_0055_5555_5555;
/// Every face's two-bit count.
const FACE_BITS: u64 = 0x0000_00FF_FFFF_FFFF;
/// The counts of the printed room cards (the first 12 faces).
const PRINTED_BITS: u64 = 0x00FF_FFFF;
/// The counts of the printed room cards and the wild room.
const ROOM_BITS: u64 = PRINTED_BITS | (3 << Hand::shift(Card::WildRoom));
/// The counts of the room cards with no light-bulb icon, one icon and two icons.
const BULBS0_BITS: u64 = 0x03_0303;
const BULBS1_BITS: u64 = 0x0C_0C0C;
const BULBS2_BITS: u64 = 0x30_3030;
/// The counts of the special cards played on their own (all but the wild room).
const SPECIAL_ACTION_BITS: u64 = 0x3FF << Hand::shift(Card::SpaceTimeHole);
/// A [`House::room_spaces`] entry: fewer free spaces than cards.
const NO_SPACE: u32 = 1 << 31;

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

/// One to three cards of a hand, chosen together (a multiset: which copy of a face it
/// is does not matter). In JSON a list of 1 to 3 cards in any order, e.g.
/// `["ghost", "floor1_bulbs2"]`; it is kept in face order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Cards(pub(crate) Hand);

impl Cards {
    /// One to three cards; `None` for none or more than three.
    pub fn new(cards: &[Card]) -> Option<Cards> {
        if cards.is_empty() || cards.len() > HAND_SIZE {
            return None;
        }
        let mut hand = Hand::default();
        for &card in cards {
            hand.insert(card);
        }
        Some(Cards(hand))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Never true for a value made by `new` or deserialized.
    pub fn is_empty(&self) -> bool {
        self.0.len() == 0
    }

    /// How many copies of `card`.
    pub fn count(&self, card: Card) -> u8 {
        self.0.count(card)
    }

    /// The cards, in face order.
    pub fn to_vec(&self) -> Vec<Card> {
        self.0.list().as_slice().to_vec()
    }
}

impl fmt::Display for Cards {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = self.0.list();
        let cards = list.as_slice();
        for (i, card) in cards.iter().enumerate() {
            let sep = match (i, cards.len() - i) {
                (0, _) => "",
                (_, 1) => " and ",
                _ => ", ",
            };
            write!(f, "{sep}{card}")?;
        }
        Ok(())
    }
}

impl Serialize for Cards {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.list().as_slice())
    }
}

impl<'de> Deserialize<'de> for Cards {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let cards = Vec::<Card>::deserialize(deserializer)?;
        Cards::new(&cards)
            .ok_or_else(|| serde::de::Error::invalid_length(cards.len(), &"a list of 1 to 3 cards"))
    }
}

impl Hand {
    const fn shift(card: Card) -> u32 {
        2 * card.index() as u32
    }

    /// What one copy of `card` adds to a hand.
    const fn unit(card: Card) -> u64 {
        (1 << Self::shift(card)) | (1 << LEN_SHIFT) | ((card.bulbs() as u64) << BULBS_SHIFT)
    }

    pub(crate) fn count(self, card: Card) -> u8 {
        ((self.0 >> Self::shift(card)) & 3) as u8
    }

    pub(crate) fn len(self) -> usize {
        ((self.0 >> LEN_SHIFT) & 7) as usize
    }

    /// Light-bulb icons on the room cards held.
    pub(crate) fn bulbs(self) -> u8 {
        ((self.0 >> BULBS_SHIFT) & 15) as u8
    }

    pub(crate) fn contains(self, card: Card) -> bool {
        self.count(card) > 0
    }

    /// Adds a card; false if the hand is full.
    pub(crate) fn insert(&mut self, card: Card) -> bool {
        if self.len() >= HAND_SIZE {
            return false;
        }
        self.0 += Self::unit(card);
        true
    }

    pub(crate) fn remove(&mut self, card: Card) -> bool {
        if !self.contains(card) {
            return false;
        }
        self.0 -= Self::unit(card);
        true
    }

    /// One bit (the low bit of its two-bit count) per face held.
    fn face_bits(self) -> u64 {
        (self.0 | (self.0 >> 1)) & LOW_BITS
    }

    /// Each face once, in face order.
    pub(crate) fn distinct(self) -> impl Iterator<Item = Card> {
        let mut faces = self.face_bits();
        std::iter::from_fn(move || {
            if faces == 0 {
                return None;
            }
            let bit = faces.trailing_zeros() as usize;
            faces &= faces - 1;
            Card::from_index(bit / 2)
        })
    }

    /// The cards, in face order (unused slots hold [`FILLER`]). Straight-line: a hand
    /// holds at most three faces.
    #[inline]
    pub(crate) fn list(self) -> CardList {
        let face = |shift: u32| Card::ALL.get(shift as usize / 2).copied().unwrap_or(FILLER);
        let copies = |shift: u32| self.0.checked_shr(shift).map_or(0, |bits| bits & 3);
        let f0 = self.face_bits();
        let f1 = f0 & f0.wrapping_sub(1);
        let f2 = f1 & f1.wrapping_sub(1);
        let (s0, s1, s2) = (
            f0.trailing_zeros(),
            f1.trailing_zeros(),
            f2.trailing_zeros(),
        );
        let (x0, x1, x2) = (face(s0), face(s1), face(s2));
        let cards = match copies(s0) {
            3 => [x0, x0, x0],
            2 => [x0, x0, x1],
            _ if copies(s1) == 2 => [x0, x1, x1],
            _ => [x0, x1, x2],
        };
        CardList {
            cards,
            len: self.len().min(HAND_SIZE),
        }
    }

    /// Every copy in `part` is in this hand too.
    pub(crate) fn contains_all(self, part: Hand) -> bool {
        let mut faces = part.face_bits();
        while faces != 0 {
            let shift = faces.trailing_zeros();
            faces &= faces - 1;
            if (self.0 >> shift) & 3 < (part.0 >> shift) & 3 {
                return false;
            }
        }
        true
    }

    /// Takes out every copy in `part`; false (and no change) unless all are held.
    pub(crate) fn remove_all(&mut self, part: Hand) -> bool {
        if !self.contains_all(part) {
            return false;
        }
        self.0 -= part.0;
        true
    }

    /// Only printed room cards (the wild room is a special card).
    pub(crate) fn all_printed_rooms(self) -> bool {
        self.0 & FACE_BITS & !PRINTED_BITS == 0
    }

    /// The printed room cards of each floor, one byte per floor (floor 1 lowest).
    fn rooms_per_floor(self) -> u32 {
        let x = (self.0 & PRINTED_BITS) as u32;
        let pairs = (x & 0x33_3333) + ((x >> 2) & 0x33_3333);
        (pairs & 0x0F_0F0F) + ((pairs >> 4) & 0x0F_0F0F)
    }

    /// The parts of the hand whose cards are `list` = [a, b, c], by positions taken:
    /// `parts[m - 1]` takes the cards of the bits of `m` (a = 1, b = 2, c = 4), and bit
    /// `m - 1` of the mask is set for each distinct multiset (at most 7, fewer when a
    /// face is held twice).
    #[inline]
    pub(crate) fn parts(list: &CardList) -> ([Hand; 7], u32) {
        let [a, b, c] = list.cards;
        let (ua, ub, uc) = (Self::unit(a), Self::unit(b), Self::unit(c));
        let parts = [
            Hand(ua),
            Hand(ub),
            Hand(ua + ub),
            Hand(uc),
            Hand(ua + uc),
            Hand(ub + uc),
            Hand(ua + ub + uc),
        ];
        let mask = Self::part_mask(list);
        (parts, mask)
    }

    /// Bit `i` set for each part `i` of [`Hand::parts`] that is a distinct multiset.
    #[inline]
    pub(crate) fn part_mask(list: &CardList) -> u32 {
        let [a, b, c] = list.cards;
        // Of a run of equal cards (adjacent in face order) only a leading part is
        // taken, so each multiset comes once: with a = b, b alone is a alone and b + c
        // is a + c; with b = c, c alone is b alone and a + c is a + b.
        let mut mask = match list.len {
            0 => 0,
            1 => 0b000_0001,
            2 => 0b000_0111,
            _ => 0b111_1111,
        };
        if a == b {
            mask &= !0b010_0010;
        }
        if b == c {
            mask &= !0b001_1000;
        }
        mask
    }

    /// Part `i` of [`Hand::parts`]: the cards of `list` at the bits of `i + 1`.
    #[inline]
    pub(crate) fn part(list: &CardList, i: u32) -> Hand {
        let [a, b, c] = list.cards;
        let taken = i + 1;
        let pick = |bit: u32, card: Card| {
            if taken >> bit & 1 == 1 {
                Self::unit(card)
            } else {
                0
            }
        };
        Hand(pick(0, a) + pick(1, b) + pick(2, c))
    }

    /// Calls `f` with every distinct non-empty part of the hand whose cards are `list`.
    pub(crate) fn for_each_part(list: &CardList, mut f: impl FnMut(Hand)) {
        let (parts, mask) = Self::parts(list);
        for (i, &part) in parts.iter().enumerate() {
            if mask >> i & 1 == 1 {
                f(part);
            }
        }
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
    /// The active player has chosen to discard and picks the cards.
    Discarding,
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

/// One decision of one seat. The turn is one choice among the six actions; the cards
/// of a room play or a light are chosen with it, those of a discard right after it
/// (each a part of a 3-card hand, at most 7), so every list stays small.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 部屋カードを1枚以上プレイする: these room cards (and wild rooms), one after another,
    /// each onto the lowest floor that is not full; the turn ends.
    PlayRooms { cards: Cards },
    /// ゴーストカードを出す: a ghost onto `target`'s highest floor with rooms.
    PlayGhost { target: Seat },
    /// 猫カードを出す: a cat onto an explored room of `floor` of your house.
    PlayCat { floor: Floor },
    /// 電気をつける: discard these 2 or 3 room cards face up (5+ light-bulb icons) and
    /// light `floor`.
    Light { cards: Cards, floor: Floor },
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
    /// カードを1枚以上捨てる: discard one or more cards face down and draw as many (the
    /// cards are chosen next, with [`Action::DiscardCards`]).
    Discard,
    /// The cards to discard face down; as many are drawn and the turn ends. Which
    /// cards they were is secret (捨て札がなんだったかは他のプレイヤーには秘密です).
    DiscardCards { cards: Cards },
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

/// The positions (bit 0 = first card of a hand's list) among the first `len` where
/// the card has some property.
#[inline]
fn positions(a: bool, b: bool, c: bool, len: usize) -> u32 {
    let all = (1u32 << len.min(HAND_SIZE)) - 1;
    (u32::from(a) | u32::from(b) << 1 | u32::from(c) << 2) & all
}

/// The parts (bit `i` = the part taking the positions of `i + 1`) that take only
/// positions in `allowed`.
#[inline]
fn subsets(allowed: u32) -> u32 {
    const SUBSETS: [u32; 8] = {
        let mut table = [0; 8];
        let mut allowed = 0;
        while allowed < 8 {
            let mut i = 0;
            while i < 7 {
                if (i + 1) & !allowed == 0 {
                    table[allowed as usize] |= 1 << i;
                }
                i += 1;
            }
            allowed += 1;
        }
        table
    };
    SUBSETS[(allowed & 7) as usize]
}

/// The parts of two or three cards (positions 0b011, 0b101, 0b110, 0b111).
const SEVERAL_CARDS: u32 = 0b111_0100;

/// The set bits of a small mask (7 bits at most here), from a table: `count_ones` is a
/// library call on the baseline x86-64 target, and the table lookup is a third of the
/// bit arithmetic (four counts a turn of every playout).
#[inline]
fn bit_count(bits: u32) -> u32 {
    const COUNTS: [u8; 128] = {
        let mut table = [0; 128];
        let mut i = 0;
        while i < 128 {
            table[i] = (i as u8).count_ones() as u8;
            i += 1;
        }
        table
    };
    u32::from(COUNTS[(bits & 127) as usize])
}

/// The index of the `n`-th set bit of `bits` (counting from 0, lowest first).
#[inline]
fn nth_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    bits.trailing_zeros()
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

    pub(crate) fn winner(&self) -> Option<Seat> {
        match self.phase {
            Phase::Over { winner } => Some(winner),
            _ => None,
        }
    }

    /// Whether discarding `cards` turns on a light: 2 or 3 printed room cards with
    /// enough light-bulb icons (`light_set_valid`, worked out on the packed hand; a test
    /// checks they agree).
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
    /// [`House::room_spaces`]. They fill the next free spaces from the bottom whatever
    /// their order, so this holds exactly when every card is a room and each floor
    /// receives at least as many of those spaces as there are printed rooms of that
    /// floor (wild rooms take the rest).
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

    /// One of `turn_actions`, drawn uniformly without listing them (most steps of a
    /// random game): the actions are counted by kind, one number is drawn, and only that
    /// action is built. `None` if the hand holds a special card other than a wild room
    /// (rare; the caller lists the actions then).
    fn sample_turn(&self, seat: Seat, rng: &mut GameRng) -> Option<Action> {
        let hand = self.hand(seat);
        if hand.len() == 0 {
            return Some(Action::Pass);
        }
        if hand.0 & SPECIAL_ACTION_BITS != 0 {
            return None;
        }
        let house = self.house(seat);
        // One-card actions: a ghost at each target (bit = seat), a cat on each floor.
        let mut ghost_targets = 0u32;
        if hand.contains(Card::Ghost) {
            for (i, h) in self.houses.iter().enumerate().take(self.players_usize()) {
                // The highest floor with rooms holds no ghost (as `ghost_target`).
                let top = h.top_room_floor().map(|f| !h.floor(f).ghost);
                ghost_targets |= u32::from(top == Some(true)) << i;
            }
            ghost_targets &= !(1 << seat.index());
        }
        let ghosts = bit_count(ghost_targets);
        let (mut cat_floors, mut cats) = (0u32, 0u32);
        if hand.contains(Card::Cat) {
            for floor in Floor::ALL {
                if house.room_for_cat(floor) {
                    cat_floors |= 1 << floor.index();
                    cats += 1;
                }
            }
        }
        // Parts of the hand that may be played as rooms or may light, named by the
        // positions they take in `list` (bit 0 = its first card). Only worked out when
        // the hand could do either.
        let spaces = house.room_spaces();
        // A room play needs a room of the open floor or a wild room (the cards fill the
        // open floor first); it is made of rooms only.
        let open_byte = spaces[1] & !NO_SPACE;
        let rooms_possible = spaces[1] & NO_SPACE == 0
            && (hand.rooms_per_floor() & (open_byte * 0xFF) != 0 || hand.contains(Card::WildRoom));
        // A light is 2 or 3 printed rooms.
        let light_floors = if hand.bulbs() >= 5 {
            u32::from(house.light_mask())
        } else {
            0
        };
        let list = if rooms_possible || light_floors != 0 {
            hand.list()
        } else {
            CardList {
                cards: [FILLER; HAND_SIZE],
                len: 0,
            }
        };
        let [a, b, c] = list.cards;
        let part_mask = Hand::part_mask(&list);
        let room_candidates = if rooms_possible {
            let is_room = |card: Card| card.is_printed_room() || card == Card::WildRoom;
            let rooms = positions(is_room(a), is_room(b), is_room(c), list.len);
            part_mask & subsets(rooms)
        } else {
            0
        };
        let light_candidates = if light_floors != 0 {
            let printed = positions(
                a.is_printed_room(),
                b.is_printed_room(),
                c.is_printed_room(),
                list.len,
            );
            part_mask & subsets(printed) & SEVERAL_CARDS
        } else {
            0
        };
        let ghosts_cats = ghosts + cats;
        let rooms = bit_count(room_candidates);
        let per_set = bit_count(light_floors);
        let lights = bit_count(light_candidates) * per_set;
        // Rejection sampling: a uniform draw over every candidate; a candidate that
        // turns out not to be legal (a room set that does not fit, cards that do not
        // light) is drawn again, which leaves every legal action equally likely while
        // checking only the candidates drawn.
        let total = ghosts_cats + rooms + lights + 1;
        for _ in 0..64 {
            let mut r = uniform(rng, total);
            if r < ghosts {
                let target = Seat(nth_bit(ghost_targets, r) as u8);
                return Some(Action::PlayGhost { target });
            }
            r -= ghosts;
            if r < cats {
                let floor = Floor::from_index(nth_bit(cat_floors, r) as usize)?;
                return Some(Action::PlayCat { floor });
            }
            r -= cats;
            if r < rooms {
                if let Some(part) = Self::rooms_part(&list, &spaces, nth_bit(room_candidates, r)) {
                    return Some(Action::PlayRooms { cards: Cards(part) });
                }
                continue;
            }
            r -= rooms;
            if r < lights {
                if let Some(part) = Self::light_part(&list, nth_bit(light_candidates, r / per_set))
                {
                    let floor = Floor::from_index(nth_bit(light_floors, r % per_set) as usize)?;
                    return Some(Action::Light {
                        cards: Cards(part),
                        floor,
                    });
                }
                continue;
            }
            return Some(Action::Discard);
        }
        // Practically never (discarding is always legal, so each draw has a fair
        // chance): the caller lists the actions, uniform as well.
        None
    }

    /// Part `i` of the hand `list`, if it can be played as rooms now. Kept out of line:
    /// inlined, its set-up is hoisted to the start of `sample_turn`, where most turns
    /// (a discard, a ghost, a cat) pay for it without using it.
    #[inline(never)]
    fn rooms_part(list: &CardList, spaces: &[u32; HAND_SIZE + 1], i: u32) -> Option<Hand> {
        let part = Hand::part(list, i);
        Self::rooms_fit(spaces, part).then_some(part)
    }

    /// Part `i` of the hand `list`, if discarding it turns on a light (out of line, as
    /// [`GhostAtHome::rooms_part`]).
    #[inline(never)]
    fn light_part(list: &CardList, i: u32) -> Option<Hand> {
        let part = Hand::part(list, i);
        Self::light_set(part).then_some(part)
    }

    /// A uniform draw from the listed legal actions: on the stack, and only a rare long
    /// list (special cards) goes to `buf`.
    fn sample_listed(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let mut list = [Action::Pass; 32];
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

    /// Calls `f` with every legal action of `seat`.
    pub(crate) fn for_each_legal(&self, seat: Seat, mut f: impl FnMut(Action)) {
        if !self.seat_ok(seat) {
            return;
        }
        let hand = self.hand(seat);
        match self.phase {
            Phase::Over { .. } => {}
            Phase::Choose if seat == self.active => self.turn_actions(seat, &mut f),
            Phase::Discarding if seat == self.active => {
                Hand::for_each_part(&hand.list(), |part| {
                    f(Action::DiscardCards { cards: Cards(part) });
                });
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

    fn turn_actions(&self, seat: Seat, f: &mut impl FnMut(Action)) {
        let hand = self.hand(seat);
        let house = self.house(seat);
        if hand.len() == 0 {
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
                    for target in self.opponents(seat) {
                        if self.ghost_target(target).is_some() {
                            f(Action::PlayGhost { target });
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
                    for floor in Floor::ALL {
                        if house.can_light(floor) {
                            f(Action::PlayLightBulb { floor });
                        }
                    }
                }
                Some(Card::Lightning) => {
                    for target in self.opponents(seat) {
                        let h = self.house(target);
                        if h.top_room_floor().is_some_and(|t| h.floor(t).lit) {
                            f(Action::PlayLightning { target });
                        }
                    }
                }
                Some(Card::CatFood) => {
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
                Some(Card::Elevator) => {
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
                Some(Card::SpaceTimeHole) => {
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
            if Self::rooms_fit(&spaces, part) {
                f(Action::PlayRooms { cards });
            }
            if light_floors != 0 && Self::light_set(part) {
                for floor in Floor::ALL {
                    if light_floors >> floor.index() & 1 == 1 {
                        f(Action::Light { cards, floor });
                    }
                }
            }
        });
        f(Action::Discard);
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
        match (self.phase, *action) {
            (Phase::Choose, a) if seat == self.active => {
                if hand.len() == 0 {
                    return a == Action::Pass;
                }
                match a {
                    Action::Discard => true,
                    Action::PlayRooms { cards } => {
                        hand.contains_all(cards.0) && Self::rooms_fit(&house.room_spaces(), cards.0)
                    }
                    Action::Light { cards, floor } => {
                        hand.contains_all(cards.0)
                            && Self::light_set(cards.0)
                            && house.can_light(floor)
                    }
                    Action::PlayGhost { target } => {
                        hand.contains(Card::Ghost)
                            && is_opponent(target)
                            && self.ghost_target(target).is_some()
                    }
                    Action::PlayCat { floor } => {
                        hand.contains(Card::Cat) && house.room_for_cat(floor)
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
                    _ => false,
                }
            }
            (Phase::Discarding, Action::DiscardCards { cards }) => {
                seat == self.active && cards.0.len() > 0 && hand.contains_all(cards.0)
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
        if missing > 0 {
            self.draw(seat, missing);
        }
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
            Action::DiscardCards { cards } => {
                let i = seat.index().min(MAX_PLAYERS - 1);
                // Checked by `is_legal`: the cards are in the hand.
                self.hands[i].0 -= cards.0 .0;
                for &card in cards.0.list().as_slice() {
                    self.pile.push(card, seat.0);
                }
                // The discards reach the pile first: a dry deck may hand them back.
                self.draw(seat, cards.0.len());
                self.end_turn();
            }
            _ => self.play_rest(seat, action),
        }
    }

    /// Plays `cards` (rooms and wild rooms) one after another on the open floor: each
    /// space gets a printed room of its floor if one is left, else a wild room.
    fn place_rooms(&mut self, seat: Seat, cards: Hand) {
        let mut left = cards;
        let house = self.house_mut(seat);
        while let Some(open) = house.open_floor() {
            let card = match left.distinct().find(|c| c.room_floor() == Some(open)) {
                Some(card) => card,
                None if left.contains(Card::WildRoom) => Card::WildRoom,
                None => break,
            };
            left.remove(card);
            let floor = house.floor_mut(open);
            if let Some(space) = floor.rooms.iter_mut().find(|r| r.is_none()) {
                *space = Some(card);
            }
            house.sync();
        }
    }

    #[inline(never)]
    fn play_rest(&mut self, seat: Seat, action: Action) {
        match action {
            Action::PlayRooms { cards } => {
                self.hand_mut(seat).remove_all(cards.0);
                self.place_rooms(seat, cards.0);
                self.end_turn();
            }
            Action::Pass => self.end_turn(),
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
            Action::Light { cards, floor } => {
                self.hand_mut(seat).remove_all(cards.0);
                for &card in cards.0.list().as_slice() {
                    self.discard_public(card);
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
            Action::Discard => self.phase = Phase::Discarding,
            Action::DiscardCards { .. } => self.play(seat, action),
        }
    }

    /// A card of an action that must be in the actor's hand and is not.
    fn card_missing(&self, seat: Seat, action: &Action) -> Option<Card> {
        let hand = self.hand(seat);
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
        META.check_players(players)?;
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

    /// Uniform over `legal_actions`, without listing them in the frequent two-way
    /// questions and in most turns (`sample_turn`).
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
            Phase::Discarding if seat == self.active => {
                let list = hand.list();
                let parts = Hand::part_mask(&list);
                let part = Hand::part(&list, nth_bit(parts, uniform(rng, bit_count(parts))));
                Some(Action::DiscardCards { cards: Cards(part) })
            }
            Phase::Choose if seat == self.active => match self.sample_turn(seat, rng) {
                Some(action) => Some(action),
                None => self.sample_listed(seat, rng, buf),
            },
            _ => self.sample_listed(seat, rng, buf),
        }
    }

    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError<Reject>> {
        // The two steps of a discard, most of a random game's actions, checked first (the
        // same conditions as in `is_legal`; the active seat is always at the table).
        if seat == self.active {
            let hand = self.hand(seat);
            match (self.phase, *action) {
                (Phase::Choose, Action::Discard) if hand.len() > 0 => {
                    self.phase = Phase::Discarding;
                    return Ok(());
                }
                (Phase::Discarding, Action::DiscardCards { cards })
                    if cards.0.len() > 0 && hand.contains_all(cards.0) =>
                {
                    self.play(seat, *action);
                    return Ok(());
                }
                _ => {}
            }
        }
        self.apply_checked(seat, action)
    }

    /// `sample_action` draws only legal actions, so they are played without `apply`'s
    /// check; the same games as the engine's checked loop (tested).
    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        let mut steps = 0;
        while steps < max_steps {
            // The two steps of a discard, most of a random game's actions, drawn as
            // `sample_action` draws them but without asking who moves and matching the
            // phase again: the active seat, always at the table.
            let action = match self.phase {
                Phase::Choose => match self.sample_turn(self.active, rng) {
                    Some(Action::Discard) => {
                        self.phase = Phase::Discarding;
                        steps += 1;
                        continue;
                    }
                    Some(action) => action,
                    None => match self.sample_listed(self.active, rng, buf) {
                        Some(action) => action,
                        None => break,
                    },
                },
                Phase::Discarding => {
                    let list = self.hand(self.active).list();
                    let parts = Hand::part_mask(&list);
                    let part = Hand::part(&list, nth_bit(parts, uniform(rng, bit_count(parts))));
                    Action::DiscardCards { cards: Cards(part) }
                }
                _ => {
                    let Some(seat) = self.to_move().first_seat() else {
                        break;
                    };
                    let Some(action) = self.sample_action(seat, rng, buf) else {
                        break;
                    };
                    self.play(seat, action);
                    steps += 1;
                    continue;
                }
            };
            self.play(self.active, action);
            steps += 1;
        }
        steps
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
    /// (捨て札がなんだったかは他のプレイヤーには秘密です): the others read how many went.
    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        match action {
            Action::DiscardCards { cards } if viewer != Viewer::Seat(actor) => {
                Some(match cards.len() {
                    1 => "discard a card face down and draw one".into(),
                    n => format!("discard {n} cards face down and draw as many"),
                })
            }
            _ => Some(self.describe(action)),
        }
    }

    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Action,
        viewer: Viewer,
        lang: takuge_engine::Lang,
    ) -> Option<String> {
        match lang {
            takuge_engine::Lang::En => self.describe_for(actor, action, viewer),
            takuge_engine::Lang::Ja => crate::log_ja::describe_for(actor, action, viewer),
        }
    }

    fn describe(&self, action: &Action) -> String {
        // Seats numbered from 1, as the table shows them.
        let seat = |s: Seat| format!("seat {}", u16::from(s.0) + 1);
        match *action {
            Action::PlayRooms { cards } => format!("play {cards} as rooms"),
            Action::Light { cards, floor } => {
                format!("discard {cards} to turn on the light of the {floor}")
            }
            Action::PlayGhost { target } => format!("play a ghost at {}", seat(target)),
            Action::PlayCat { floor } => format!("play a cat on the {floor}"),
            Action::PlayLightBulb { floor } => format!("light bulb: light the {floor}"),
            Action::PlayLightning { target } => {
                format!("lightning: put out {}'s light", seat(target))
            }
            Action::PlayCatFood { from, floor, to } => {
                format!(
                    "cat food: move the cat on {}'s {floor} to your {to}",
                    seat(from)
                )
            }
            Action::PlayElevator { from, to } => {
                format!("elevator: move a cat from your {from} to your {to}")
            }
            Action::PlaySpaceTimeHole { from, floor, to } => {
                format!(
                    "space-time hole: move the ghost on {}'s {floor} to {}",
                    seat(from),
                    seat(to)
                )
            }
            Action::Discard => "discard one or more cards".into(),
            Action::DiscardCards { cards } => format!("discard {cards} face down and draw as many"),
            Action::DefendWithCat => "discard a cat to cancel the ghost".into(),
            Action::NoDefence => "let the ghost come".into(),
            Action::StopEscape => "play a ghost to stop the escape".into(),
            Action::LetEscape => "let the escape go on".into(),
            Action::Pass => "pass".into(),
        }
    }
}

impl GhostAtHome {
    /// `apply` for every action but the two discard steps: checked in full by
    /// `is_legal`, which is false for a finished game, a seat not at the table and a
    /// seat that is not pending; the reason is worked out only when refusing. Out of
    /// line, so that the discard steps (most of a random game) do not pay for saving
    /// the registers this part needs.
    #[inline(never)]
    fn apply_checked(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError<Reject>> {
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
            ActionError::Illegal(match self.card_missing(seat, action) {
                Some(card) => Reject::NotInHand(card),
                None => Reject::NotAllowedNow,
            })
        })
    }
}
