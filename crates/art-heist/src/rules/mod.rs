//! The effect of each action, one file per phase of play. [`ArtHeist::apply_action`] is
//! `Game::apply_legal`: it is called only with an action `legal_actions` lists (the
//! engine's `apply` checks that first; the playouts draw from the list), so nothing
//! here checks what may be played — that is `legal.rs`, once.
//!
//! - `turn.rs`: a turn's start, the places (「1」), the action cards (「2」), the end
//!   of a turn and of the game;
//! - `auction.rs`: the auction house (オークション会場): bids, thieves, the pile taken;
//! - `castle.rs`: the castle (城): exhibits scored, thieves stealing, detectives;
//! - `exhibit.rs`: an exhibit (展示) put together, and exhibits ranked.

mod auction;
mod castle;
mod exhibit;
mod turn;

pub(crate) use exhibit::{fill_order, sort_descending};

use crate::state::{seat_bit, ArtHeist};
use crate::types::{Action, SeatId};

impl ArtHeist {
    /// Plays `action` of seat `p`, which `legal_actions(p)` lists.
    #[inline]
    pub(crate) fn apply_action(&mut self, p: SeatId, action: &Action) {
        match *action {
            Action::Go(place) => self.choose_place(p, place),
            Action::Play(card) => self.play_card(p, card),
            Action::Exhibit { from, to } => self.choose_letters(p, from, to),
            Action::Cards(set) => self.show_cards(p, set),
            Action::ShowNothing => self.show_nothing(p),
            Action::Take(pile) => self.finish_auction(p, pile),
            Action::Steal(a) => self.steal_chosen(p, a),
        }
    }

    /// Seat `p` has made its choice in the secret choice under way; once every seat
    /// has, the choices are revealed and resolved.
    #[inline]
    pub(crate) fn chosen(&mut self, p: SeatId) {
        self.pending &= !seat_bit(p);
        if self.pending == 0 {
            self.all_chosen();
        }
    }
}
