//! What the web board needs to show a legal action without the rules
//! (`Game::action_facts`): for the 「2」 card, whether it does anything where the seat
//! plays this turn. Told only to that seat, from its own place and hand.

use crate::cards::PLAYERS;
use crate::state::ArtHeist;
use crate::types::{Action, SeatId};
use serde::Serialize;
use takuge_engine::Seat;

#[derive(Debug, PartialEq, Serialize)]
pub struct PlayFacts {
    /// The card acts where the seat is (`Kind::of_use_at`); false: a wasted turn.
    pub of_use: bool,
}

impl ArtHeist {
    pub(crate) fn facts_of(&self, seat: Seat, action: &Action) -> Option<PlayFacts> {
        let Action::Play(card) = *action else {
            return None;
        };
        let place = self.place_of(SeatId::check(seat, PLAYERS)?)?;
        Some(PlayFacts {
            of_use: card.kind().of_use_at(place),
        })
    }
}
