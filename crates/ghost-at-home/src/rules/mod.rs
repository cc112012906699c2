//! The effect of each action, one file per part of play: `apply_legal` dispatches here
//! and nothing here checks legality (the actions come from `legal_actions` or from the
//! samplers, which draw only listed actions).
//!
//! - `turn.rs`: the actions of a turn (rooms, a light, a cat, the special cards).
//! - `draw.rs`: discarding face down, drawing and refilling, reshuffling.
//! - `ghost.rs`: a ghost or a cat reaching a floor; the defence with a cat.
//! - `flow.rs`: the end of a turn, escaping, and who decides next.

mod draw;
mod flow;
mod ghost;
mod turn;

use crate::state::GhostAtHome;
use crate::types::{Action, Seated};

impl GhostAtHome {
    /// Plays an action `me` may play. Discarding is most of a random game; the rest
    /// lives in `play_rest`, kept out of line so this path stays small.
    #[inline]
    pub(crate) fn play(&mut self, me: Seated, action: Action) {
        match action {
            Action::DiscardCards { cards } => self.discard_cards(me, cards),
            _ => self.play_rest(me, action),
        }
    }

    #[inline(never)]
    fn play_rest(&mut self, me: Seated, action: Action) {
        match action {
            Action::PlayRooms { cards } => self.play_rooms(me, cards),
            Action::Pass => self.end_turn(),
            Action::PlayGhost { target } => {
                if let Some(target) = self.seated(target) {
                    self.play_ghost(me, target);
                }
            }
            Action::PlayCat { floor } => self.play_cat(me, floor),
            Action::Light { cards, floor } => self.light(me, cards, floor),
            Action::PlayLightBulb { floor } => self.play_light_bulb(me, floor),
            Action::PlayLightning { target } => {
                if let Some(target) = self.seated(target) {
                    self.play_lightning(me, target);
                }
            }
            Action::PlayCatFood { from, floor, to } => {
                if let Some(from) = self.seated(from) {
                    self.play_cat_food(me, from, floor, to);
                }
            }
            Action::PlayElevator { from, to } => self.play_elevator(me, from, to),
            Action::PlaySpaceTimeHole { from, floor, to } => {
                if let (Some(from), Some(to)) = (self.seated(from), self.seated(to)) {
                    self.play_space_time_hole(me, from, floor, to);
                }
            }
            Action::DefendWithCat => self.defend_with_cat(me),
            Action::NoDefence => self.no_defence(),
            Action::StopEscape => self.stop_escape(me),
            Action::LetEscape => self.let_escape(),
            Action::Discard => self.start_discard(),
            Action::DiscardCards { cards } => self.discard_cards(me, cards),
        }
    }
}
