//! Ghost for Sale (ゴースト売ります), Acchittocca / What's Your Game?, 2007: 3–5 players
//! bid for haunted manors and castles worth most with the right number of ghosts, having
//! declared what they saw — truthfully or not, as a secret card decides.
//!
//! The rules are in `docs/games/ghost-for-sale.md`; every decision where the Japanese
//! text is silent or ambiguous is quoted there. Property names, score tables and the
//! bidding cards' back marks beyond what the text fixes are the project's defaults, in
//! `data/properties.toml`.

pub mod bot;
pub mod data;
mod determinize;
mod log_ja;
mod state;
mod view;

#[cfg(test)]
mod tests;

pub use bot::Appraiser;
pub use state::GhostForSale;
pub use view::{
    AuctionView, BidView, LookView, PileCounts, PileView, PrivateView, PropertyKind, PropertyView,
    SeatTokens, SeatView, Step, TokensLeft, TurnView, View,
};

use serde::{Deserialize, Serialize};
use takuge_engine::{BotFactory, MonteCarloBot, RandomBot, Seat};

/// Table options. `Default` is the basic game with a random first player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// The advanced variant (上級バリアントルール): one special card on each property.
    pub special_cards: bool,
    /// The first player of round 1 ("一番幽霊に見えるプレイヤー", the one who looks most
    /// like a ghost), as chosen by the table; `None` draws one at random.
    pub first_player: Option<u8>,
}

/// A "?" card (「?」カード): each player holds one of each and secretly plays one per round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionCard {
    /// 真実カード: the player's declarations are true.
    Truth,
    /// 嘘カード: every declaration of the player means its opposite.
    Lie,
}

/// The face of a declaration token (宣言トークン).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Face {
    /// 幽霊: "I saw a ghost here".
    Ghost,
    /// 絵画: "there was no ghost, only a painting".
    Painting,
}

/// A declaration token as placed: which token and which face up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Token {
    /// A ghost token (幽霊).
    Ghost,
    /// A painting token (絵画).
    Painting,
    /// A double-faced token (両面) placed ghost side up; it stays a ghost token.
    DoubleGhost,
    /// A double-faced token (両面) placed painting side up; it stays a painting token.
    DoublePainting,
}

impl Token {
    pub const ALL: [Token; 4] = [
        Token::Ghost,
        Token::Painting,
        Token::DoubleGhost,
        Token::DoublePainting,
    ];

    pub fn face(self) -> Face {
        match self {
            Token::Ghost | Token::DoubleGhost => Face::Ghost,
            Token::Painting | Token::DoublePainting => Face::Painting,
        }
    }

    /// Index into a player's token supply: 0 ghost, 1 painting, 2 double-faced.
    pub(crate) fn supply(self) -> usize {
        match self {
            Token::Ghost => 0,
            Token::Painting => 1,
            Token::DoubleGhost | Token::DoublePainting => 2,
        }
    }
}

/// What a bidding card is placed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// ミセス・トゥルーライト: look at another player's "?" card.
    Truelight,
    /// The "?" pile (?カード): look at the unused "?" cards. Not with 3 players.
    Pile,
    /// A property of the current round, by its place in alphabetical order (0..6).
    Property(u8),
}

/// The back mark of a bidding card (裏のマーク), visible to everyone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// 低額マーク: a small pile of money.
    Low,
    /// 高額マーク: a large pile of money.
    High,
}

/// The special cards of the advanced variant (スペシャルカード).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    /// 暗すぎる: only painting-face tokens may be declared here.
    TooDark,
    /// 古来からの伝説: only ghost-face tokens may be declared here.
    AncientLegend,
    /// 公開オークション: bids on this property are placed face up.
    OpenAuction,
    /// 魔法の鏡: the buyer may remove one ghost-face token.
    MagicMirror,
    /// 秘密の墓所: the buyer may add one ghost.
    SecretCrypt,
    /// 水晶玉: the buyer guesses the ghosts; right, the card is worth 2 points.
    CrystalBall,
    /// 家族の肖像画: its buyer scores 1 point per 0-point property at the end.
    FamilyPortrait,
    /// 全く以て普通: a perfectly normal property.
    PerfectlyNormal,
}

impl Special {
    pub const ALL: [Special; 8] = [
        Special::TooDark,
        Special::AncientLegend,
        Special::OpenAuction,
        Special::MagicMirror,
        Special::SecretCrypt,
        Special::CrystalBall,
        Special::FamilyPortrait,
        Special::PerfectlyNormal,
    ];

    pub fn name_en(self) -> &'static str {
        match self {
            Special::TooDark => "Too dark",
            Special::AncientLegend => "Ancient legend",
            Special::OpenAuction => "Open auction",
            Special::MagicMirror => "Magic mirror",
            Special::SecretCrypt => "Secret crypt",
            Special::CrystalBall => "Crystal ball",
            Special::FamilyPortrait => "Family portrait",
            Special::PerfectlyNormal => "Perfectly normal",
        }
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// One decision of one seat. A turn of the auctions ("1枚か2枚の賭け金カード") is split
/// into two actions per card (where, then which), so every legal-action list stays
/// small: at most 8 targets or 10 card values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Setup, simultaneous and secret: put one bidding card under the character card
    /// for round 2 (four in all).
    SetAside { value: u8 },
    /// Step ① of a round, simultaneous and secret: play the truth or the lie card.
    Choose { card: QuestionCard },
    /// Step ②: place one declaration token on a property of this round.
    Declare { property: u8, token: Token },
    /// Auctions, first half of placing a card: where the next card goes (public as
    /// soon as the card lies there, so nothing is revealed early).
    Bid { target: Target },
    /// Auctions, second half: the card placed on that target, face down (face up on an
    /// Open auction property).
    Play { value: u8 },
    /// End the turn after one card instead of placing a second.
    Done,
    /// Leave this auction (パス); only at the start of a turn.
    Pass,
    /// Magic mirror: remove one ghost-face token of this owner from the property.
    RemoveGhost { owner: Seat },
    /// Secret crypt: add one ghost to the property.
    AddGhost,
    /// Magic mirror or Secret crypt: do not use the card (it is discarded).
    Decline,
    /// Crystal ball: the number of ghosts actually on the property.
    Guess { ghosts: u8 },
}

/// Why an action was refused; only ever about the acting seat's own cards or what is
/// public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    #[error("that is not a decision of this step")]
    WrongStep,
    #[error("you hold no bidding card {0}")]
    NoSuchCard(u8),
    #[error("there is no property {0} this round")]
    NoSuchProperty(u8),
    #[error("you have no such declaration token left")]
    NoToken,
    #[error("the special card on that property forbids that face")]
    FaceForbidden,
    #[error("there is no \"?\" pile auction with three players")]
    NoPileAuction,
    #[error("that is not a target of this auction")]
    WrongTarget,
    #[error("you may not pass before you have bid on Mrs. Truelight")]
    MustBidOnTruelight,
    #[error("you may pass only at the start of your turn")]
    PassOnlyAtTurnStart,
    #[error("place a card first (or pass)")]
    NothingPlaced,
    #[error("choose the card for the target you chose first")]
    CardPending,
    #[error("choose where the card goes first")]
    NoTargetChosen,
    #[error("that owner has no ghost-face token on this property")]
    NoGhostToken,
    #[error("a guess is between 0 and the number of tokens on the property")]
    GuessOutOfRange,
}

/// The bots, the rule-following one first.
pub fn bots() -> Vec<(&'static str, BotFactory<GhostForSale>)> {
    vec![
        ("appraiser", Appraiser::boxed),
        ("random", RandomBot::boxed),
        ("monte-carlo", MonteCarloBot::boxed),
    ]
}
