//! What one viewer may see of a game.

use crate::cards::{Card, Floor};
use crate::state::{GhostAtHome, Phase, Then};
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
}

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
        let me = viewer.seat().filter(|s| s.index() < players);
        let phase = match game.phase {
            Phase::Choose => PhaseView::Choose,
            Phase::Discarding => PhaseView::Discarding,
            Phase::Defence {
                target,
                floor,
                then,
            } => PhaseView::Defence {
                target,
                floor,
                then,
            },
            Phase::Escape {
                asking,
                ghosts_left,
            } => PhaseView::Escape {
                asking,
                ghosts_left,
            },
            Phase::Over { winner } => PhaseView::Over { winner },
        };
        let houses = Seat::all(players)
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
            viewer: me,
            players,
            special_cards: game.options.special_cards,
            active: game.active,
            turn: game.turn,
            to_move: game.to_move(),
            phase,
            houses,
            hand_sizes: Seat::all(players).map(|s| game.hand(s).len()).collect(),
            hand: me.map(|s| game.hand(s).list().as_slice().to_vec()),
            deck_size: game.deck.len(),
            discards: game.pile.public().entries(),
            secret_discard_counts: Seat::all(players)
                .map(|s| game.pile.secret(s).count())
                .collect(),
            my_secret_discards: me.map(|s| game.pile.secret(s).collect()),
            reshuffles: game.reshuffles,
            winner: game.winner(),
        }
    }
}
