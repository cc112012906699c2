//! The game's vocabulary beyond the cards (`cards.rs`): options, actions, refusals, the
//! seat and run types the rules pass around.

use crate::cards::{ActionCard, ArtCard, ArtSet, Letter, Pile, Place, PLAYERS};
use crate::data::MAX_SERIES;
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::{Seat, Seated};

/// A seat at the table, checked once where it enters (`Seated::check`), then used to
/// index the per-seat tables (`SeatMap`) without clamps.
pub(crate) type SeatId = Seated<PLAYERS>;

/// Table options. The seed's game is always five players; the one option is an online
/// convenience that the seed's rules do not have.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {
    /// Memory aid (記憶の補助), off by default: every view lists the whole safe instead of
    /// its top card. The seed makes remembering it part of the game:
    /// 「金庫の情報は一番上の情報だけ公開で、前の情報は、記憶を辿ることで推測する。」
    #[serde(default)]
    pub memory_aid: bool,
}

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The 「1」 card: where to play this turn, set face down.
    Go(Place),
    /// The 「2」 card: the action card played this turn, face down. Any card in hand may
    /// be played; one with no use where the player is makes a wasted turn.
    Play(ActionCard),
    /// Choose the letters of the exhibit: the run `from..=to` (every letter in hand, 3
    /// cards or more of them). The cards follow, one step per letter.
    Exhibit { from: Letter, to: Letter },
    /// The cards shown of the next letter of the run (one or more, and enough to make 3
    /// cards with the letters still to come). After the last letter the exhibit is
    /// complete. A letter a step, whatever the hand holds, so how many steps a player
    /// takes depends only on the exhibit everyone will see.
    Cards(ArtSet),
    /// Show no exhibit (in a turn, the failed-exhibit penalty applies).
    ShowNothing,
    /// The highest bidder takes the face-up card of this pile.
    Take(Pile),
    /// A thief takes this card from the exhibit it is robbing.
    Steal(ArtCard),
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The table is not deciding this kind of thing now.
    NotNow,
    /// The card is not in the player's hand.
    NotInHand,
    /// The hand holds no valid exhibit of those letters (every letter from `from` to
    /// `to`, 3 cards or more).
    NoSuchRun,
    /// Those are not cards of the next letter in hand, or too few to reach 3 cards.
    NotThoseCards,
    /// The letters of the exhibit have not been chosen yet.
    NoExhibitYet,
    /// The letters of the exhibit were already chosen.
    AlreadyExhibiting,
    /// That pile is empty.
    EmptyPile,
    /// That card is not in the exhibit (being robbed, or being put together).
    NotInExhibit,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::NotNow => "that is not what the table is deciding now",
            Reject::NotInHand => "that card is not in your hand",
            Reject::NoSuchRun => {
                "your hand holds no valid exhibit of those letters (every letter of the run, 3+ cards)"
            }
            Reject::NotThoseCards => {
                "choose one or more of your cards of the next letter, enough to reach 3 cards"
            }
            Reject::NoExhibitYet => "choose the letters of your exhibit first",
            Reject::AlreadyExhibiting => "you have already chosen the letters of your exhibit",
            Reject::EmptyPile => "that pile is empty",
            Reject::NotInExhibit => "that card is not in that exhibit",
        })
    }
}

/// What happened at the auction house this turn (public once it happened).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AuctionResult {
    pub winner: Seat,
    pub art: Option<ArtCard>,
    pub money: ActionCard,
    /// The lone thief who took the money, if there was exactly one.
    pub stolen_by: Option<Seat>,
}

/// The letters of an exhibit (展示): the series `from..=to`, packed as `from * 8 + to` in
/// one byte so that the runs of every hand shape are one small table (`data.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Run(u8);

impl Run {
    /// Series `from..=to` (each below 8, `MAX_SERIES`: a series is one byte of an art
    /// set).
    pub(crate) const fn new(from: u32, to: u32) -> Run {
        Run((from * 8 + to) as u8)
    }

    /// The run of letters `from..=to`, if both are letters an art set can hold (the
    /// game may have fewer: `Components::runs_of` lists only the game's).
    pub(crate) const fn of(from: Letter, to: Letter) -> Option<Run> {
        if (from.0 as usize) < MAX_SERIES && (to.0 as usize) < MAX_SERIES {
            Some(Run::new(from.0 as u32, to.0 as u32))
        } else {
            None
        }
    }

    pub(crate) const fn from(self) -> u32 {
        (self.0 / 8) as u32
    }

    pub(crate) const fn to(self) -> u32 {
        (self.0 % 8) as u32
    }

    /// The run as the action that chooses it.
    pub(crate) const fn action(self) -> Action {
        Action::Exhibit {
            from: Letter(self.from() as u8),
            to: Letter(self.to() as u8),
        }
    }
}
