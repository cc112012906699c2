//! The game's vocabulary: options, actions, refusals, cards, tokens, and the ids the
//! rules use inside (a property, a bid spot, a seat at this table).

use crate::data::PER_ROUND;
use serde::{Deserialize, Serialize};
use takuge_engine::{Seat, Seated};

/// At most five players ("3〜5人").
pub(crate) const MAX_PLAYERS: usize = 5;

/// A seat of this table, checked once where it enters (`Seated::check`), then used to
/// index the per-seat arrays with no clamp.
pub(crate) type SeatId = Seated<MAX_PLAYERS>;

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

impl Token {
    /// This token's bit in a mask over `Token::ALL` (ghost, painting, double ghost up,
    /// double painting up): the encoding of `legal::tokens_allowed`.
    #[inline]
    pub(crate) fn bit(self) -> u8 {
        match self {
            Token::Ghost => 0b0001,
            Token::Painting => 0b0010,
            Token::DoubleGhost => 0b0100,
            Token::DoublePainting => 0b1000,
        }
    }
}

/// A property of the current round by its place in alphabetical order (0..6): the
/// `Target::Property` and `Action::Declare` index, checked once by [`Lot::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Lot(u8);

impl Lot {
    pub(crate) const ALL: [Lot; PER_ROUND] = [Lot(0), Lot(1), Lot(2), Lot(3), Lot(4), Lot(5)];

    #[inline]
    pub(crate) fn new(i: u8) -> Option<Lot> {
        (usize::from(i) < PER_ROUND).then_some(Lot(i))
    }

    #[inline]
    pub(crate) fn get(self) -> u8 {
        self.0
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// One of the twelve properties: the manors (館) 0..6 of round 1, then the castles (城)
/// 6..12 of round 2, each in alphabetical order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct PropertyId(u8);

impl PropertyId {
    pub(crate) const COUNT: usize = 2 * PER_ROUND;

    /// Property `lot` of round `round` (0 manors, 1 castles).
    #[inline]
    pub(crate) fn new(round: u8, lot: Lot) -> PropertyId {
        debug_assert!(round < 2);
        PropertyId(round * PER_ROUND as u8 + lot.0)
    }

    /// The properties of round `round`, in alphabetical order.
    pub(crate) fn of_round(round: u8) -> impl Iterator<Item = PropertyId> + Clone {
        Lot::ALL.into_iter().map(move |l| PropertyId::new(round, l))
    }

    /// Every property with its global index.
    pub(crate) fn all() -> impl Iterator<Item = PropertyId> + Clone {
        (0..Self::COUNT as u8).map(PropertyId)
    }

    #[inline]
    pub(crate) fn index(self) -> usize {
        usize::from(self.0)
    }

    /// 0 for a manor, 1 for a castle.
    #[inline]
    pub(crate) fn round(self) -> u8 {
        self.0 / PER_ROUND as u8
    }

    #[inline]
    pub(crate) fn lot(self) -> Lot {
        Lot(self.0 % PER_ROUND as u8)
    }
}

/// Where a bidding card lies, as stored: the public [`Target`] with its property index
/// checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum BidSpot {
    /// A property of the round.
    Property(Lot),
    /// ミセス・トゥルーライト.
    #[default]
    Truelight,
    /// The "?" pile.
    Pile,
}

impl BidSpot {
    /// Spots per auction record: the six properties, Mrs. Truelight, the pile.
    pub(crate) const COUNT: usize = PER_ROUND + 2;

    /// The spot a target names, if it names one (a property index below 6).
    #[inline]
    pub(crate) fn of(target: Target) -> Option<BidSpot> {
        match target {
            Target::Truelight => Some(BidSpot::Truelight),
            Target::Pile => Some(BidSpot::Pile),
            Target::Property(i) => Lot::new(i).map(BidSpot::Property),
        }
    }

    #[inline]
    pub(crate) fn target(self) -> Target {
        match self {
            BidSpot::Property(l) => Target::Property(l.get()),
            BidSpot::Truelight => Target::Truelight,
            BidSpot::Pile => Target::Pile,
        }
    }

    /// A dense index below [`BidSpot::COUNT`] (for the tally).
    #[inline]
    pub(crate) fn index(self) -> usize {
        match self {
            BidSpot::Property(l) => l.index(),
            BidSpot::Truelight => PER_ROUND,
            BidSpot::Pile => PER_ROUND + 1,
        }
    }
}

/// Which auction of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AuctionKind {
    /// ③ 情報を得るオークション: Mrs. Truelight and the "?" pile.
    Info,
    /// ④ 館(城)のオークション.
    Property,
}

/// The step of play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    /// Setup: every seat secretly sets four bidding cards aside, all at once.
    SetAside,
    /// ① 真実か嘘か: every seat secretly plays a "?" card, all at once.
    Choose,
    /// ② 宣言: one token per turn, clockwise from the first player.
    Declare,
    Auction(AuctionKind),
    /// The buyer of this property decides on its special card.
    Special(PropertyId),
    Over,
}
