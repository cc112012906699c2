//! What the web board needs to show a legal action without working the rules out again
//! (`Game::action_facts`, sent as `facts` beside the action): the cards of the hand it
//! takes, where a room play puts each card, the floor a ghost or lightning strikes. Told
//! only to the seat whose action it is, and made only of what that seat may see (its own
//! hand, the houses).

use crate::cards::{Card, Floor};
use crate::state::GhostAtHome;
use crate::types::Action;
use serde::Serialize;
use takuge_engine::Seat;

#[derive(Debug, Default, PartialEq, Serialize)]
pub struct ActionFacts {
    /// The cards of the hand the action takes (empty for one that takes none).
    pub uses: Vec<Card>,
    /// Where a ghost or lightning strikes, or a moved ghost lands (`play_ghost`,
    /// `play_lightning`, `play_space_time_hole`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub floor: Option<Floor>,
    /// Where a room play puts its cards, in the order they are put down.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub places: Vec<RoomPlace>,
}

/// A room card put down: the floor, the space on it (0 left, 1 right) and the card.
#[derive(Debug, PartialEq, Serialize)]
pub struct RoomPlace {
    pub floor: Floor,
    pub space: usize,
    pub card: Card,
}

impl GhostAtHome {
    /// The facts of `seat`'s `action`; `None` for a seat not at the table.
    pub(crate) fn facts_of(&self, seat: Seat, action: &Action) -> Option<ActionFacts> {
        let me = self.seated(seat)?;
        let house = |s: Seat| self.seated(s).map(|s| self.house(s));
        let one = |card: Card| vec![card];
        let facts = match *action {
            Action::PlayRooms { cards } => {
                let mut places = Vec::with_capacity(cards.len());
                let mut copy = *self.house(me);
                copy.place_rooms(cards.0, |floor, space, card| {
                    places.push(RoomPlace { floor, space, card });
                });
                ActionFacts {
                    uses: cards.to_vec(),
                    places,
                    ..ActionFacts::default()
                }
            }
            Action::Light { cards, .. } | Action::DiscardCards { cards } => ActionFacts {
                uses: cards.to_vec(),
                ..ActionFacts::default()
            },
            Action::PlayGhost { target } => ActionFacts {
                uses: one(Card::Ghost),
                floor: house(target).and_then(|h| h.ghost_floor()),
                ..ActionFacts::default()
            },
            Action::PlayLightning { target } => ActionFacts {
                uses: one(Card::Lightning),
                floor: house(target).and_then(|h| h.lightning_floor()),
                ..ActionFacts::default()
            },
            Action::PlaySpaceTimeHole { to, .. } => ActionFacts {
                uses: one(Card::SpaceTimeHole),
                floor: house(to).and_then(|h| h.top_room_floor()),
                ..ActionFacts::default()
            },
            Action::PlayCat { .. } | Action::DefendWithCat => ActionFacts {
                uses: one(Card::Cat),
                ..ActionFacts::default()
            },
            Action::StopEscape => ActionFacts {
                uses: one(Card::Ghost),
                ..ActionFacts::default()
            },
            Action::PlayLightBulb { .. } => ActionFacts {
                uses: one(Card::LightBulb),
                ..ActionFacts::default()
            },
            Action::PlayCatFood { .. } => ActionFacts {
                uses: one(Card::CatFood),
                ..ActionFacts::default()
            },
            Action::PlayElevator { .. } => ActionFacts {
                uses: one(Card::Elevator),
                ..ActionFacts::default()
            },
            Action::Discard | Action::NoDefence | Action::LetEscape | Action::Pass => {
                ActionFacts::default()
            }
        };
        Some(facts)
    }
}
