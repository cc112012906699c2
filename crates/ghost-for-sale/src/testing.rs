//! Helpers the tests need from inside the crate (`#[doc(hidden)]`): the conformance
//! suite's near misses, and a read-only window on the state for the rule scenarios.

use crate::state::GhostForSale;
use crate::{Action, QuestionCard, Target, Token};
use takuge_engine::conformance::Probe;
use takuge_engine::Seat;

impl Probe for GhostForSale {
    /// The action space is small: all of it, with every index one or two past its
    /// range (a seventh and eighth property, values 0 and 11, seats beyond the table,
    /// a guess above the tokens on the property).
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        for value in 0..=11 {
            out.push(Action::SetAside { value });
            out.push(Action::Play { value });
        }
        for card in [QuestionCard::Truth, QuestionCard::Lie] {
            out.push(Action::Choose { card });
        }
        for property in 0..8 {
            for token in Token::ALL {
                out.push(Action::Declare { property, token });
            }
            out.push(Action::Bid {
                target: Target::Property(property),
            });
        }
        out.push(Action::Bid {
            target: Target::Truelight,
        });
        out.push(Action::Bid {
            target: Target::Pile,
        });
        out.extend([
            Action::Done,
            Action::Pass,
            Action::AddGhost,
            Action::Decline,
        ]);
        for owner in 0..7 {
            out.push(Action::RemoveGhost { owner: Seat(owner) });
        }
        for ghosts in 0..=22 {
            out.push(Action::Guess { ghosts });
        }
    }
}
