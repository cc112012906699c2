//! What one viewer may see of a game, and the English log lines (`describe_for`).

use crate::cards::{Card, Floor, KINDS};
use crate::state::{GhostAtHome, Phase};
use crate::types::{Action, Seated, Then};
use serde::Serialize;
use takuge_engine::{Game, Seat, SeatSet, Viewer};

/// A viewer's picture of the table: the houses, the public discards and the hand sizes
/// for everyone; a player's own hand and own face-down discards for that player only.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub viewer: Option<Seat>,
    pub players: usize,
    pub special_cards: bool,
    /// Whose turn it is.
    pub active: Seat,
    pub turn: u32,
    /// Who must decide now.
    pub to_move: SeatSet,
    pub phase: PhaseView,
    /// One house per seat.
    pub houses: Vec<HouseView>,
    pub hand_sizes: Vec<usize>,
    /// The viewer's own hand (`None` for a spectator).
    pub hand: Option<Vec<Card>>,
    pub deck_size: usize,
    /// The discard pile's face-up cards (since the last reshuffle), as (card, copies).
    pub discards: Vec<(Card, u8)>,
    /// How many cards each seat discarded face down since the last reshuffle.
    pub secret_discard_counts: Vec<usize>,
    /// The viewer's own face-down discards since the last reshuffle.
    pub my_secret_discards: Option<Vec<Card>>,
    /// How often the discard pile has been shuffled into a new deck.
    pub reshuffles: u16,
    pub winner: Option<Seat>,
    /// What each card face is, so that a client reads a card's floor and light bulbs
    /// from here rather than from its name (the same for every viewer: printed facts).
    pub cards: &'static [CardFacts; KINDS],
}

/// A card face's printed facts.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct CardFacts {
    pub card: Card,
    /// The floor printed on a room card (`None` for every other card, the wild room too).
    pub floor: Option<Floor>,
    /// Light-bulb icons (only printed rooms have any).
    pub bulbs: u8,
    /// One of the 7 special cards (特殊カード).
    pub special: bool,
}

impl CardFacts {
    const fn of(card: Card) -> CardFacts {
        CardFacts {
            card,
            floor: card.room_floor(),
            bulbs: card.bulbs(),
            special: card.is_special(),
        }
    }
}

/// Every face's facts, in `Card::ALL` order (built once, at compile time).
pub static CARD_FACTS: [CardFacts; KINDS] = {
    let mut out = [CardFacts::of(Card::Floor1Bulbs0); KINDS];
    let mut i = 0;
    while i < KINDS {
        out[i] = CardFacts::of(Card::ALL[i]);
        i += 1;
    }
    out
};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HouseView {
    /// Bottom to top.
    pub floors: Vec<FloorView>,
    /// Every room explored: the owner escapes at the end of their turn unless stopped.
    pub fully_explored: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FloorView {
    pub floor: Floor,
    /// The room cards on the floor (left first).
    pub rooms: Vec<Card>,
    pub cats: u8,
    pub ghost: bool,
    pub lit: bool,
}

/// The public part of the game's phase.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PhaseView {
    /// The active player chooses an action.
    Choose,
    /// The active player is choosing which cards to discard face down.
    Discarding,
    /// A ghost is coming to `target`'s `floor`; `target` may discard a cat.
    Defence {
        target: Seat,
        floor: Floor,
        then: Then,
    },
    /// The active player is escaping; `asking` may play a ghost to stop them.
    Escape {
        asking: Seat,
        ghosts_left: u8,
    },
    Over {
        winner: Seat,
    },
}

impl View {
    pub(crate) fn of(game: &GhostAtHome, viewer: Viewer) -> View {
        let players = game.players();
        let me = viewer.seat().and_then(|s| game.seated(s));
        let phase = match game.phase {
            Phase::Choose => PhaseView::Choose,
            Phase::Discarding => PhaseView::Discarding,
            Phase::Defence {
                target,
                floor,
                then,
            } => PhaseView::Defence {
                target: target.seat(),
                floor,
                then: then.public(),
            },
            Phase::Escape {
                asking,
                ghosts_left,
            } => PhaseView::Escape {
                asking: asking.seat(),
                ghosts_left,
            },
            Phase::Over { winner } => PhaseView::Over {
                winner: winner.seat(),
            },
        };
        let houses = Seated::all(players)
            .map(|s| {
                let house = game.house(s);
                HouseView {
                    floors: Floor::ALL
                        .iter()
                        .map(|&f| {
                            let fl = house.floor(f);
                            FloorView {
                                floor: f,
                                rooms: fl.rooms.iter().flatten().copied().collect(),
                                cats: fl.cats,
                                ghost: fl.ghost,
                                lit: fl.lit,
                            }
                        })
                        .collect(),
                    fully_explored: house.is_full(),
                }
            })
            .collect();
        View {
            viewer: me.map(Seated::seat),
            players,
            special_cards: game.options.special_cards,
            active: game.active.seat(),
            turn: game.turn,
            to_move: game.to_move(),
            phase,
            houses,
            hand_sizes: Seated::all(players).map(|s| game.hand(s).len()).collect(),
            hand: me.map(|s| game.hand(s).list().as_slice().to_vec()),
            deck_size: game.deck.len(),
            discards: game.pile.public().entries(),
            secret_discard_counts: Seated::all(players)
                .map(|s| game.pile.secret(s).count())
                .collect(),
            my_secret_discards: me.map(|s| game.pile.secret(s).collect()),
            reshuffles: game.reshuffles,
            winner: game.winner().map(Seated::seat),
            cards: &CARD_FACTS,
        }
    }
}

impl GhostAtHome {
    /// Everything is played in the open except which cards a player discards face down
    /// (捨て札がなんだったかは他のプレイヤーには秘密です): the others read how many went.
    pub(crate) fn describe_for_viewer(
        &self,
        actor: Seat,
        action: &Action,
        viewer: Viewer,
    ) -> Option<String> {
        match action {
            Action::DiscardCards { cards } if viewer != Viewer::Seat(actor) => {
                Some(match cards.len() {
                    1 => "discard a card face down and draw one".into(),
                    n => format!("discard {n} cards face down and draw as many"),
                })
            }
            _ => Some(describe(action)),
        }
    }
}

/// A short description of an action in English, for logs and terminals.
pub(crate) fn describe(action: &Action) -> String {
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
