//! **art-heist** (seed 001), in the catalog as *Collectors & Thieves: Auction and Castle
//! (5 players)*: a Japanese house-rules write-up of Adel Verpflichtet / Hoity Toity for
//! exactly five players. Each turn every player secretly picks the auction house
//! (オークション会場) or the castle (城) with the 「1」 card, then plays an action card
//! 「2」 there: a cheque (お金) or a thief (泥棒) at the auction house; an exhibition
//! (展示), a thief or a detective (探偵) at the castle. Exhibits of connected art
//! (美術品) move pawns toward the goal; the farthest pawn after the final exhibit wins.
//!
//! The rules, with every decision where the text is silent, are in
//! `docs/games/art-heist.md`; numbers the text does not give are defaults in
//! `data/components.toml`.

mod bot;
mod cards;
mod components;
mod game;
mod log_ja;
mod view;

#[cfg(test)]
mod scenarios;

pub use bot::{best_exhibit, CollectorBot};
pub use cards::{
    ActionCard, ArtCard, ArtSet, Colour, Kind, Letter, Pile, Place, ACTION_CARDS, PLAYERS,
};
pub use components::{components, Castle, Components, COMPONENTS_TOML};
pub use game::{Action, ArtHeist, AuctionResult, Options, Reject};
pub use view::{ArtFace, AuctionView, CardFace, PileView, PlayerView, Step, View};

use takuge_engine::{BotFactory, MonteCarloBot, RandomBot};

/// The bots of art-heist; the first is the default.
pub fn bots() -> Vec<(&'static str, BotFactory<ArtHeist>)> {
    vec![
        ("collector", CollectorBot::boxed),
        ("random", RandomBot::boxed),
        ("monte-carlo", MonteCarloBot::boxed),
    ]
}
