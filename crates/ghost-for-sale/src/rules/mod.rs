//! The effect of each action, one file per phase of play. `apply_legal` dispatches
//! here; nothing here checks legality (that is `legal.rs`): every action arriving has
//! been listed by `legal_actions`.

pub(crate) mod auction;
mod declare;
pub(crate) mod round;
mod score;
pub(crate) mod setup;
mod special;

use crate::state::GhostForSale;
use crate::types::{BidSpot, Lot, Phase};
use crate::Action;
use takuge_engine::Seat;

/// Plays an action `legal_actions(seat)` lists and refreshes `pending`. In an auction,
/// `pending` changes only when the turn ends (see `end_turn`): choosing a spot or a
/// first card leaves it as it was.
#[inline]
pub(crate) fn apply_legal(g: &mut GhostForSale, seat: Seat, action: &Action) {
    // A listed action's seat sits at the table; anything else is no action at all.
    let Some(s) = g.seated(seat) else {
        return;
    };
    if let Phase::Auction(kind) = g.phase {
        match *action {
            Action::Bid { target } => {
                if let Some(spot) = BidSpot::of(target) {
                    g.choose_spot(spot);
                }
            }
            Action::Play { value } => g.play_card(s, kind, value),
            Action::Done => g.end_turn(),
            Action::Pass => g.pass(s),
            _ => {}
        }
        return;
    }
    match (g.phase, *action) {
        (Phase::SetAside, Action::SetAside { value }) => g.set_aside(s, value),
        (Phase::Choose, Action::Choose { card }) => g.choose(s, card),
        (Phase::Declare, Action::Declare { property, token }) => {
            if let Some(lot) = Lot::new(property) {
                g.declare(s, lot, token);
            }
        }
        (Phase::Special(property), action) => g.decide_special(property, action),
        _ => return,
    }
    g.pending = g.next_pending(s);
}
