//! The game state and what is where. Fixed arrays only: a state is a few kilobytes that
//! clone with one copy, and no step allocates. The effects of the actions are in
//! `rules/`, what may be played in `legal.rs`.

use crate::data::PER_ROUND;
use crate::types::{AuctionKind, BidSpot, Lot, Phase, PropertyId, SeatId, MAX_PLAYERS};
use crate::{Mark, Options, QuestionCard, Seat, Special};
use takuge_engine::{FixedList, GameRng, SeatMap, SeatSet};

/// Every card of every player at most once on the table in one auction.
pub(crate) const MAX_BIDS: usize = MAX_PLAYERS * 12;
/// Per player: "賭け金カードの内訳は全て1.2.3.3.4.5.6.7.8.8.9.10", as counts by value.
pub(crate) const FULL_SET: [u8; 11] = [0, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1];
/// "4枚の賭け金カードをキャラクターカードの下に裏向きにして隠します".
pub(crate) const SET_ASIDE: u8 = 4;
/// Index of the ghost face in a seat's tokens on a property.
pub(crate) const GHOST: usize = 0;
/// Index of the painting face.
pub(crate) const PAINTING: usize = 1;

/// One bidding card on the table, in the order it was placed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bid {
    pub seat: SeatId,
    pub spot: BidSpot,
    pub value: u8,
    /// Placed face up (Open auction): everyone sees the value at once.
    pub face_up: bool,
}

impl Default for Bid {
    fn default() -> Self {
        Bid {
            seat: SeatId::FIRST,
            spot: BidSpot::Truelight,
            value: 0,
            face_up: false,
        }
    }
}

/// The cards of one auction, kept after it is resolved as the public record of what
/// was revealed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Auction {
    pub bids: FixedList<Bid, MAX_BIDS>,
    /// Turned face up at the end of the auction ("1枚ずつ表にしていきます").
    pub revealed: bool,
    /// The auction has begun (its record is shown).
    pub started: bool,
}

impl Auction {
    pub fn bids(&self) -> &[Bid] {
        self.bids.as_slice()
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Player {
    /// Bidding cards in hand, as counts by value (index 1..=10).
    pub hand: [u8; 11],
    pub hand_n: u8,
    /// Bit `v` set when `hand[v] > 0` (kept in step with `hand`).
    pub held: u16,
    /// The cards under the character card, for round 2.
    pub aside: [u8; 11],
    pub aside_n: u8,
    /// Cards paid or lost to the box (public: every bid is revealed before it goes).
    pub paid: [u8; 11],
    /// Round 1 only: per value, how many distinct cards everyone knows were not set
    /// aside (they were seen on the table in round 1). Keeps `determinize` honest.
    pub r1_known: [u8; 11],
    /// Declaration tokens left: ghost, painting, double-faced.
    pub tokens: [u8; 3],
    pub passed: bool,
    /// Has bid on Mrs. Truelight in this information auction (needed to pass).
    pub on_truelight: bool,
}

impl Player {
    /// Bit `v` set when the hand holds at least one card of value `v`.
    #[inline]
    pub(crate) fn held(&self) -> u16 {
        self.held
    }

    /// The hand holds a card of `value` (a value past the bits is no card).
    #[inline]
    pub(crate) fn holds(&self, value: u8) -> bool {
        u32::from(self.held)
            .checked_shr(u32::from(value))
            .is_some_and(|b| b & 1 != 0)
    }

    /// Recomputes `held` after the hand was rewritten.
    pub(crate) fn refresh_held(&mut self) {
        let mut mask = 0u16;
        for (v, &c) in self.hand.iter().enumerate() {
            mask |= u16::from(c > 0) << v;
        }
        self.held = mask;
    }

    /// Takes one card of `value` (held) out of the hand.
    #[inline]
    pub(crate) fn take(&mut self, value: usize) {
        if let Some(c) = self.hand.get_mut(value) {
            *c -= 1;
            self.hand_n -= 1;
            if *c == 0 {
                self.held &= !(1 << value);
            }
        }
    }

    /// Puts one card of `value` into the hand.
    #[inline]
    pub(crate) fn give(&mut self, value: usize) {
        if let Some(c) = self.hand.get_mut(value) {
            *c += 1;
            self.hand_n += 1;
            self.held |= 1 << value;
        }
    }
}

/// A game of Ghost for Sale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GhostForSale {
    pub(crate) options: Options,
    pub(crate) n: u8,
    pub(crate) rng: GameRng,
    /// Score tables of the 12 properties (manors 0..6, castles 6..12).
    pub(crate) points: [[u8; 5]; PropertyId::COUNT],
    pub(crate) high_marks: u16,
    /// 0: manors, 1: castles.
    pub(crate) round: u8,
    pub(crate) phase: Phase,
    /// Who must decide now: a function of the rest of the state, cached.
    pub(crate) pending: SeatSet,
    /// The first player of each round.
    pub(crate) first: [SeatId; 2],
    pub(crate) turn: SeatId,
    /// Cards placed so far in the current auction turn (0 or 1).
    pub(crate) placed: u8,
    /// The spot chosen for the card being placed (public), awaiting the card.
    pub(crate) pending_target: Option<BidSpot>,
    /// The last-player rule is in force: the one seat still holding cards may play one.
    pub(crate) last_call: bool,
    /// Seats holding at least one bidding card (bit = seat), kept in step with the
    /// hands: the auctions' turn order reads it on every turn.
    pub(crate) holding: u8,
    /// Seats that passed in the current auction (bit = seat), kept in step with
    /// `Player::passed`.
    pub(crate) passed: u8,
    pub(crate) players: SeatMap<Player, MAX_PLAYERS>,
    /// The "?" card each seat played, per round.
    pub(crate) card: [SeatMap<Option<QuestionCard>, MAX_PLAYERS>; 2],
    /// Auctions by round * 2 + (0 information, 1 property).
    pub(crate) auctions: [Auction; 4],
    /// Mrs. Truelight: `looks[round][looker]` is the seat whose "?" card it saw.
    pub(crate) looks: [SeatMap<Option<SeatId>, MAX_PLAYERS>; 2],
    /// Mrs. Truelight's ranking per round (the chain of looks), best first.
    pub(crate) chain: [[SeatId; MAX_PLAYERS]; 2],
    pub(crate) chain_len: [u8; 2],
    /// Who saw the unused "?" cards, per round.
    pub(crate) pile_seer: [Option<SeatId>; 2],
    /// Declaration tokens per property, per seat, per face.
    pub(crate) decl: [SeatMap<[u8; 2], MAX_PLAYERS>; PropertyId::COUNT],
    pub(crate) owner: [Option<SeatId>; PropertyId::COUNT],
    /// The property was resolved (bought or sent to the box).
    pub(crate) resolved: [bool; PropertyId::COUNT],
    pub(crate) special: [Option<Special>; PropertyId::COUNT],
    /// Properties of the current round with Too dark or Ancient legend (bit = lot).
    pub(crate) restrictions: u8,
    /// Special cards not placed on a property, per round (bit = `Special::index`).
    pub(crate) spare: [u8; 2],
    pub(crate) mirror_removed: [Option<SeatId>; PropertyId::COUNT],
    pub(crate) crypt_added: [bool; PropertyId::COUNT],
    pub(crate) crystal_guess: [Option<u8>; PropertyId::COUNT],
    /// Ghosts actually seen, once the "?" cards are revealed.
    pub(crate) ghosts: [Option<u8>; PropertyId::COUNT],
    pub(crate) crystal_owner: Option<SeatId>,
    pub(crate) portrait_owner: Option<SeatId>,
    pub(crate) scores: SeatMap<i64, MAX_PLAYERS>,
}

impl GhostForSale {
    #[inline]
    pub(crate) fn n(&self) -> usize {
        usize::from(self.n)
    }

    /// `seat` if it sits at this table.
    #[inline]
    pub(crate) fn seated(&self, seat: Seat) -> Option<SeatId> {
        SeatId::check(seat, self.n())
    }

    /// The seats of this table, clockwise from seat 0.
    #[inline]
    pub(crate) fn seats(&self) -> impl Iterator<Item = SeatId> + Clone {
        SeatId::all(self.n())
    }

    pub(crate) fn mark(&self, value: u8) -> Mark {
        if value <= 10 && self.high_marks & (1 << value) != 0 {
            Mark::High
        } else {
            Mark::Low
        }
    }

    /// Property `lot` of the current round.
    #[inline]
    pub(crate) fn property(&self, lot: Lot) -> PropertyId {
        PropertyId::new(self.round, lot)
    }

    /// The special card on property `lot` of the current round.
    #[inline]
    pub(crate) fn special_on(&self, lot: Lot) -> Option<Special> {
        self.special[self.property(lot).index()]
    }

    #[inline]
    pub(crate) fn auction_index(&self, kind: AuctionKind) -> usize {
        usize::from(self.round) * 2 + usize::from(kind == AuctionKind::Property)
    }

    /// The auction whose cards are on the table now, if any.
    pub(crate) fn live_auction(&self) -> Option<usize> {
        match self.phase {
            Phase::Auction(kind) => Some(self.auction_index(kind)),
            _ => None,
        }
    }

    /// "3人プレイの場合、(2)のオークションは開催されません。"
    #[inline]
    pub(crate) fn has_pile(&self) -> bool {
        self.n >= 4
    }

    /// The card now being played goes face up: its spot is a property with the Open
    /// auction card ("公開オークション"). The one answer for the effect
    /// (`rules::auction`) and both logs.
    #[inline]
    pub(crate) fn play_is_face_up(&self) -> bool {
        match (self.phase, self.pending_target) {
            (Phase::Auction(AuctionKind::Property), Some(BidSpot::Property(lot))) => {
                self.special_on(lot) == Some(Special::OpenAuction)
            }
            _ => false,
        }
    }

    /// Points of a property for its ghosts: "目撃された幽霊の数が0、もしくは5以上だった
    /// 場合、その館の価値はゼロになる".
    pub(crate) fn property_points(&self, g: PropertyId) -> Option<u8> {
        let ghosts = self.ghosts[g.index()]?;
        let table = self.points[g.index()];
        Some(table.get(usize::from(ghosts)).copied().unwrap_or(0))
    }

    /// Declaration tokens on a property, all seats and faces.
    pub(crate) fn tokens_on(&self, g: PropertyId) -> u8 {
        self.decl[g.index()]
            .first(self.n())
            .iter()
            .map(|f| f[GHOST] + f[PAINTING])
            .sum()
    }

    /// The "?" cards of round `r` are on the table face up.
    pub(crate) fn round_revealed(&self, r: usize) -> bool {
        r < usize::from(self.round) || self.phase == Phase::Over
    }

    /// The seats that must decide now (kept in `pending`, refreshed after every action).
    #[inline]
    pub(crate) fn compute_pending(&self) -> SeatSet {
        let n = self.n();
        let mut bits = 0u16;
        match self.phase {
            Phase::SetAside => {
                for (s, p) in self.players.first(n).iter().enumerate() {
                    bits |= u16::from(p.aside_n < SET_ASIDE) << s;
                }
            }
            Phase::Choose => {
                let r = usize::from(self.round);
                for (s, c) in self.card[r].first(n).iter().enumerate() {
                    bits |= u16::from(c.is_none()) << s;
                }
            }
            Phase::Declare | Phase::Auction(_) | Phase::Special(_) => {
                bits = 1 << self.turn.index();
            }
            Phase::Over => {}
        }
        SeatSet::from_bits(bits)
    }

    /// `compute_pending` after `seat` acted: while every seat sets cards aside at once,
    /// only the acting seat can have finished, so the others' bits stand (no pass over
    /// the table on each of those steps).
    #[inline]
    pub(crate) fn next_pending(&self, seat: SeatId) -> SeatSet {
        match self.phase {
            Phase::Declare | Phase::Auction(_) | Phase::Special(_) => {
                SeatSet::from_bits(1 << self.turn.index())
            }
            Phase::SetAside => SeatSet::from_bits(self.set_aside_left(seat)),
            // After a "?" card only its player is done. When no one else was pending,
            // the step just opened this phase (the last card set aside, or round 2
            // begun by a special-card decision), and everyone must choose.
            Phase::Choose => match self.pending.bits() & !(1 << seat.index()) {
                0 => self.compute_pending(),
                left => SeatSet::from_bits(left),
            },
            Phase::Over => SeatSet::EMPTY,
        }
    }

    /// The seats still setting cards aside, from `pending` before `seat`'s card was
    /// counted and `seat`'s count now.
    #[inline]
    pub(crate) fn set_aside_left(&self, seat: SeatId) -> u16 {
        let done = u16::from(self.players[seat].aside_n >= SET_ASIDE);
        self.pending.bits() & !(done << seat.index())
    }

    /// Properties bought by `seat` among the castles (the first tie-break counts them).
    pub(crate) fn castles(&self, seat: SeatId) -> usize {
        self.owner[PER_ROUND..]
            .iter()
            .filter(|o| **o == Some(seat))
            .count()
    }

    /// The sum of the values in `seat`'s hand (the second tie-break).
    pub(crate) fn hand_total(&self, seat: SeatId) -> u32 {
        self.players[seat]
            .hand
            .iter()
            .enumerate()
            .map(|(v, &c)| v as u32 * u32::from(c))
            .sum()
    }

    /// Direct access for tests and bots: a seat's hand as counts by value (all zero for
    /// a seat not at the table).
    pub fn hand(&self, seat: Seat) -> [u8; 11] {
        self.seated(seat)
            .map(|s| self.players[s].hand)
            .unwrap_or_default()
    }

    /// The round being played (1 or 2).
    pub fn round(&self) -> u8 {
        self.round + 1
    }
}
