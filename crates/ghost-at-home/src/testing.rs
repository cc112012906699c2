//! Helpers the tests need from inside the crate (scenario set-up, a look at the
//! state), and the conformance suite's near misses. Not part of the game's API.

use crate::cards::{Card, Counts, Floor};
use crate::hand::{Cards, Hand};
use crate::legal;
use crate::state::{GhostAtHome, House};
use crate::types::{Action, Options, Seated, MAX_PLAYERS};
use crate::view::PhaseView;
use takuge_engine::conformance::Probe;
use takuge_engine::{Game, Seat, Viewer};

pub use crate::state::FloorState;

/// A house built floor by floor, for scenarios.
#[derive(Clone, Copy, Debug, Default)]
pub struct H(House);

impl H {
    /// These room cards on `floor` (left first).
    pub fn rooms(mut self, floor: Floor, rooms: &[Card]) -> H {
        let f = self.0.floor_mut(floor);
        for (space, &card) in f.rooms.iter_mut().zip(rooms) {
            *space = Some(card);
        }
        self.0.sync();
        self
    }

    /// Every floor up to and including `top` full of plain rooms.
    pub fn full_to(mut self, top: Floor) -> H {
        for floor in Floor::ALL.into_iter().filter(|&f| f <= top) {
            let room = Card::room(floor, 1).unwrap_or(Card::WildRoom);
            self = self.rooms(floor, &[room, room]);
        }
        self
    }

    pub fn lit(mut self, floor: Floor) -> H {
        self.0.floor_mut(floor).lit = true;
        self
    }

    pub fn cats(mut self, floor: Floor, n: u8) -> H {
        self.0.floor_mut(floor).cats = n;
        self
    }

    pub fn ghost(mut self, floor: Floor) -> H {
        self.0.floor_mut(floor).ghost = true;
        self
    }

    /// The floor where the next room goes (the lowest not full).
    pub fn open_floor(&self) -> Option<Floor> {
        self.0.open_floor()
    }

    /// Puts `card` in the next free space of the open floor, without any rule.
    pub fn put_room(&mut self, card: Card) {
        if let Some(open) = self.0.open_floor() {
            let floor = self.0.floor_mut(open);
            if let Some(space) = floor.rooms.iter_mut().find(|r| r.is_none()) {
                *space = Some(card);
            }
            self.0.sync();
        }
    }
}

/// A state built from parts: `houses` and `hands` per seat (2 to 4 seats), `deck`
/// drawn from (at random), seat 0 to play, special cards off.
pub fn game(houses: &[H], hands: &[&[Card]], deck: &[Card]) -> GhostAtHome {
    let players = houses.len().clamp(2, MAX_PLAYERS);
    let mut state = GhostAtHome::empty(&Options::default(), players, 0);
    for (seat, h) in Seated::all(players).zip(houses) {
        state.houses[seat] = h.0;
        state.houses[seat].sync();
    }
    for (seat, h) in Seated::all(players).zip(hands) {
        state.hands[seat] = Hand::from_cards(h);
    }
    for &c in deck {
        let _ = state.deck.push(c);
    }
    state
}

/// The same state with the special cards in play.
pub fn with_specials(mut g: GhostAtHome) -> GhostAtHome {
    g.options.special_cards = true;
    g
}

fn seated(g: &GhostAtHome, seat: Seat) -> Seated {
    g.seated(seat).unwrap_or(Seated::FIRST)
}

/// Floor `f` of `seat`'s house.
pub fn floor(g: &GhostAtHome, seat: Seat, f: Floor) -> FloorState {
    *g.house(seated(g, seat)).floor(f)
}

/// Every room of `seat`'s house explored.
pub fn house_full(g: &GhostAtHome, seat: Seat) -> bool {
    g.house(seated(g, seat)).is_full()
}

/// `seat`'s house is as at the start: no room, cat, ghost or light.
pub fn house_empty(g: &GhostAtHome, seat: Seat) -> bool {
    *g.house(seated(g, seat)) == House::default()
}

/// `seat`'s hand in face order (empty for a seat not at the table).
pub fn hand(g: &GhostAtHome, seat: Seat) -> Vec<Card> {
    g.seated(seat)
        .map(|s| g.hand(s).list().as_slice().to_vec())
        .unwrap_or_default()
}

/// The deck, in the order kept.
pub fn deck(g: &GhostAtHome) -> Vec<Card> {
    g.deck.as_slice().to_vec()
}

pub fn pile_len(g: &GhostAtHome) -> usize {
    g.pile.len()
}

/// The cards discarded face up.
pub fn public_discards(g: &GhostAtHome) -> Counts {
    g.pile.public()
}

pub fn active(g: &GhostAtHome) -> Seat {
    g.active.seat()
}

/// The phase, as the views show it.
pub fn phase(g: &GhostAtHome) -> PhaseView {
    g.view(Viewer::Spectator).phase
}

pub fn winner(g: &GhostAtHome) -> Option<Seat> {
    g.winner().map(Seated::seat)
}

pub fn reshuffles(g: &GhostAtHome) -> u16 {
    g.reshuffles
}

/// Whether discarding `cards` turns on a light (`legal::light_set`).
pub fn light_set(cards: &[Card]) -> bool {
    legal::light_set(Hand::from_cards(cards))
}

/// Whether `cards` may be played as rooms on `house` (`legal::rooms_fit`).
pub fn rooms_fit(house: H, cards: &[Card]) -> bool {
    let mut house = house.0;
    house.sync();
    legal::rooms_fit(&house.room_spaces(), Hand::from_cards(cards))
}

/// A hand of these cards lists them in face order.
pub fn hand_list(cards: &[Card]) -> Vec<Card> {
    Hand::from_cards(cards).list().as_slice().to_vec()
}

/// The parts of a hand of these cards (each a list in face order), as the discard step
/// and the room plays enumerate them.
pub fn hand_parts(cards: &[Card]) -> Vec<Vec<Card>> {
    let mut parts = Vec::new();
    Hand::for_each_part(&Hand::from_cards(cards).list(), |p| {
        parts.push(p.list().as_slice().to_vec());
    });
    parts
}

/// Seats beyond every table (up to 5: one past the largest table).
const PROBE_SEATS: u8 = 5;

impl Probe for GhostAtHome {
    /// Every action naming seats, floors or a special card (for seats 0 to 4, so seats
    /// beyond the table are probed too), the questions of every phase, and every set of
    /// one to three cards taken from the seat's hand and two cards it may not hold.
    fn near_misses(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        out.extend([
            Action::Discard,
            Action::DefendWithCat,
            Action::NoDefence,
            Action::StopEscape,
            Action::LetEscape,
            Action::Pass,
        ]);
        for s in (0..PROBE_SEATS).map(Seat) {
            out.push(Action::PlayGhost { target: s });
            out.push(Action::PlayLightning { target: s });
            for floor in Floor::ALL {
                for to in Floor::ALL {
                    out.push(Action::PlayCatFood { from: s, floor, to });
                }
                for to in (0..PROBE_SEATS).map(Seat) {
                    out.push(Action::PlaySpaceTimeHole { from: s, floor, to });
                }
            }
        }
        for floor in Floor::ALL {
            out.push(Action::PlayCat { floor });
            out.push(Action::PlayLightBulb { floor });
            for to in Floor::ALL {
                out.push(Action::PlayElevator { from: floor, to });
            }
        }
        // Card sets: the hand's cards and two others, chosen by the turn so that the
        // probes vary over a game.
        let mut pool: Vec<Card> = match self.seated(seat) {
            Some(me) => self.hand(me).list().as_slice().to_vec(),
            None => Vec::new(),
        };
        let turn = self.turn as usize;
        for k in 0..2 {
            if let Some(&card) = Card::ALL.get((turn * 7 + k * 11) % Card::ALL.len()) {
                pool.push(card);
            }
        }
        let mut sets: Vec<Cards> = Vec::new();
        for mask in 1u32..(1 << pool.len()) {
            if mask.count_ones() > 3 {
                continue;
            }
            let picked: Vec<Card> = pool
                .iter()
                .enumerate()
                .filter(|&(i, _)| mask >> i & 1 == 1)
                .map(|(_, &c)| c)
                .collect();
            if let Some(cards) = Cards::new(&picked) {
                if !sets.contains(&cards) {
                    sets.push(cards);
                }
            }
        }
        for cards in sets {
            out.push(Action::PlayRooms { cards });
            out.push(Action::DiscardCards { cards });
            for floor in Floor::ALL {
                out.push(Action::Light { cards, floor });
            }
        }
    }
}

pub const S0: Seat = Seat(0);
pub const S1: Seat = Seat(1);
pub const S2: Seat = Seat(2);

/// The legal actions of `seat`.
pub fn legal(g: &GhostAtHome, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(seat, &mut out);
    out
}

/// Plays `action`, which must be listed and accepted.
#[track_caller]
pub fn play(g: &mut GhostAtHome, seat: Seat, action: Action) {
    assert!(
        legal(g, seat).contains(&action),
        "{action:?} is not legal for {seat}: {:?}",
        legal(g, seat)
    );
    if let Err(e) = g.apply(seat, &action) {
        panic!("{action:?} refused: {e}");
    }
}

/// `action` is refused and the state left as it was.
#[track_caller]
pub fn refused(g: &mut GhostAtHome, seat: Seat, action: Action) {
    let before = g.clone();
    assert!(g.apply(seat, &action).is_err(), "{action:?} was accepted");
    assert_eq!(*g, before);
}

/// One to three cards chosen together.
#[track_caller]
pub fn cs(cards: &[Card]) -> Cards {
    match Cards::new(cards) {
        Some(cards) => cards,
        None => panic!("1 to 3 cards, not {cards:?}"),
    }
}

pub fn rooms(cards: &[Card]) -> Action {
    Action::PlayRooms { cards: cs(cards) }
}

pub fn discard(cards: &[Card]) -> Action {
    Action::DiscardCards { cards: cs(cards) }
}

pub fn light(cards: &[Card], floor: Floor) -> Action {
    Action::Light {
        cards: cs(cards),
        floor,
    }
}

/// A deck of plain 3rd-floor rooms, for scenarios that draw.
pub fn filler_deck() -> Vec<Card> {
    vec![Card::Floor3Bulbs0; 20]
}

/// The Japanese names of `cards`, as the log writes them.
pub fn cards_ja(cards: &Cards) -> String {
    crate::log_ja::cards(cards)
}
