//! The game state and its rules. Fixed arrays only: a state is a few kilobytes that
//! clone with one copy, and no step allocates.

use crate::data::{self, PER_ROUND};
use crate::{Action, Face, Mark, Options, QuestionCard, Reject, Special, Target, Token};
use takuge_engine::{
    ActionError, Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer,
};

pub(crate) const MAX_PLAYERS: usize = 5;
/// Every card of every player at most once on the table in one auction.
pub(crate) const MAX_BIDS: usize = MAX_PLAYERS * 12;
/// Per player: "賭け金カードの内訳は全て1.2.3.3.4.5.6.7.8.8.9.10", as counts by value.
pub(crate) const FULL_SET: [u8; 11] = [0, 1, 1, 2, 1, 1, 1, 1, 2, 1, 1];
/// "4枚の賭け金カードをキャラクターカードの下に裏向きにして隠します".
pub(crate) const SET_ASIDE: u8 = 4;
/// Bid targets, as stored: properties 0..6 of the round, then these two.
pub(crate) const T_TRUELIGHT: u8 = 6;
pub(crate) const T_PILE: u8 = 7;
pub(crate) const GHOST: usize = 0;
pub(crate) const PAINTING: usize = 1;

/// Which auction of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum AuctionKind {
    /// ③ 情報を得るオークション: Mrs. Truelight and the "?" pile.
    Info,
    /// ④ 館(城)のオークション.
    Property,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Phase {
    /// Setup: every seat secretly sets four bidding cards aside, all at once.
    SetAside,
    /// ① 真実か嘘か: every seat secretly plays a "?" card, all at once.
    Choose,
    /// ② 宣言: one token per turn, clockwise from the first player.
    Declare,
    Auction(AuctionKind),
    /// The buyer of this property (global id) decides on its special card.
    Special(u8),
    Over,
}

/// One bidding card on the table, in the order it was placed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Bid {
    pub seat: u8,
    /// 0..6 a property of the round, `T_TRUELIGHT`, `T_PILE`.
    pub target: u8,
    pub value: u8,
    /// Placed face up (Open auction): everyone sees the value at once.
    pub face_up: bool,
}

/// The cards of one auction, kept after it is resolved as the public record of what
/// was revealed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Auction {
    pub bids: [Bid; MAX_BIDS],
    pub len: u8,
    /// Turned face up at the end of the auction ("1枚ずつ表にしていきます").
    pub revealed: bool,
    /// The auction has begun (its record is shown).
    pub started: bool,
}

impl Auction {
    const EMPTY: Auction = Auction {
        bids: [Bid {
            seat: 0,
            target: 0,
            value: 0,
            face_up: false,
        }; MAX_BIDS],
        len: 0,
        revealed: false,
        started: false,
    };

    pub fn bids(&self) -> &[Bid] {
        &self.bids[..usize::from(self.len).min(MAX_BIDS)]
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

/// An auction summed up per target (0..6 properties, 6 Mrs. Truelight, 7 the pile)
/// and seat, as one comparable key per seat: greater is better, 0 means no bid.
pub(crate) struct Tally {
    /// "合計 ... 一番高い額を賭けていたプレイヤーから順に順位がつけられます。もしも同額
    /// だった場合は、賭けたカードの中でそれぞれ1番高い賭け金カードの額面で競います。
    /// それでもまだ同額だった場合は、その1番高い賭け金カードを先に出していたプレイヤーが
    /// 上位となります。" Packed: total << 16 | highest card << 8 | (255 − the highest
    /// card's index in placing order). Indices are distinct and below `MAX_BIDS`, so
    /// the keys of two bidders never tie and a bidder's key is never 0.
    /// Eight seats wide so that a seat masked to three bits indexes it with no check
    /// (seats 5..8 never bid).
    key: [[u32; 8]; 8],
}

impl Tally {
    /// The seats that bid on `target`, best first.
    pub(crate) fn ranking(&self, target: u8, n: usize) -> ([u8; MAX_PLAYERS], usize) {
        let keys = &self.key[usize::from(target & 7)];
        let mut order = [0u8; MAX_PLAYERS];
        let mut len = 0;
        for (s, &k) in keys.iter().enumerate().take(n) {
            if k != 0 {
                // Insertion into the (at most five) already ranked seats.
                let mut j = len;
                while j > 0 && keys[usize::from(order[j - 1] & 7)] < k {
                    order[j] = order[j - 1];
                    j -= 1;
                }
                order[j] = s as u8;
                len += 1;
            }
        }
        (order, len)
    }

    /// The best bidder on `target`, if anyone bid.
    pub(crate) fn winner(&self, target: u8, n: usize) -> Option<u8> {
        let keys = &self.key[usize::from(target & 7)];
        let mut best = 0u32;
        let mut who = 0u8;
        for (s, &k) in keys.iter().enumerate().take(n) {
            if k > best {
                best = k;
                who = s as u8;
            }
        }
        (best != 0).then_some(who)
    }
}

/// A game of Ghost for Sale.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GhostForSale {
    pub(crate) options: Options,
    pub(crate) n: u8,
    pub(crate) rng: GameRng,
    /// Score tables of the 12 properties (manors 0..6, castles 6..12).
    pub(crate) points: [[u8; 5]; 12],
    pub(crate) high_marks: u16,
    /// 0: manors, 1: castles.
    pub(crate) round: u8,
    pub(crate) phase: Phase,
    /// Who must decide now: a function of the rest of the state, cached.
    pub(crate) pending: SeatSet,
    /// The first player of each round.
    pub(crate) first: [u8; 2],
    pub(crate) turn: u8,
    /// Cards placed so far in the current auction turn (0 or 1).
    pub(crate) placed: u8,
    /// The target chosen for the card being placed (public), awaiting the card.
    pub(crate) pending_target: Option<u8>,
    /// The last-player rule is in force: the one seat still holding cards may play one.
    pub(crate) last_call: bool,
    /// Seats holding at least one bidding card (bit = seat), kept in step with the
    /// hands: the auctions' turn order reads it on every turn.
    pub(crate) holding: u8,
    /// Seats that passed in the current auction (bit = seat), kept in step with
    /// `Player::passed`.
    pub(crate) passed: u8,
    pub(crate) players: [Player; MAX_PLAYERS],
    /// The "?" card each seat played, per round.
    pub(crate) card: [[Option<QuestionCard>; MAX_PLAYERS]; 2],
    /// Auctions by round * 2 + (0 information, 1 property).
    pub(crate) auctions: [Auction; 4],
    /// Mrs. Truelight: `looks[round][looker]` is the seat whose "?" card it saw.
    pub(crate) looks: [[Option<u8>; MAX_PLAYERS]; 2],
    /// Mrs. Truelight's ranking per round (the chain of looks), best first.
    pub(crate) chain: [[u8; MAX_PLAYERS]; 2],
    pub(crate) chain_len: [u8; 2],
    /// Who saw the unused "?" cards, per round.
    pub(crate) pile_seer: [Option<u8>; 2],
    /// Declaration tokens per property (global id), per seat, per face.
    pub(crate) decl: [[[u8; 2]; MAX_PLAYERS]; 12],
    pub(crate) owner: [Option<u8>; 12],
    /// The property was resolved (bought or sent to the box).
    pub(crate) resolved: [bool; 12],
    pub(crate) special: [Option<Special>; 12],
    /// Properties of the current round with Too dark or Ancient legend (bit = index).
    pub(crate) restrictions: u8,
    /// Special cards not placed on a property, per round (bit = `Special::index`).
    pub(crate) spare: [u8; 2],
    pub(crate) mirror_removed: [Option<u8>; 12],
    pub(crate) crypt_added: [bool; 12],
    pub(crate) crystal_guess: [Option<u8>; 12],
    /// Ghosts actually seen, once the "?" cards are revealed.
    pub(crate) ghosts: [Option<u8>; 12],
    pub(crate) crystal_owner: Option<u8>,
    pub(crate) portrait_owner: Option<u8>,
    pub(crate) scores: [i64; MAX_PLAYERS],
}

static META: GameMeta = GameMeta {
    id: "ghost-for-sale",
    name_en: "Ghost for Sale",
    name_ja: "ゴースト売ります",
    min_players: 3,
    max_players: 5,
    minutes: (40, 40),
    min_age: 8,
    year: 2007,
    teams: &[],
};

/// Bits set in each byte value: the default x86-64 target has no POPCNT instruction,
/// and counting is on the playout hot path.
const ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// Bits set in `mask`.
#[inline]
fn ones(mask: u16) -> u32 {
    u32::from(ONES[usize::from(mask & 0xff)]) + u32::from(ONES[usize::from(mask >> 8)])
}

/// `NTH[b][k]`: the place of the `k`-th set bit (from the lowest) of byte `b`, 8 if it
/// has fewer bits. Drawing a card or a token picks a set bit at random on most steps;
/// clearing bits one by one cost a few instructions per card held.
const NTH: [[u8; 8]; 256] = {
    let mut t = [[8u8; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 8 {
            if b & (1 << bit) != 0 {
                t[b][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        b += 1;
    }
    t
};

/// The value of the `n`-th set bit (from the lowest) of `mask`.
#[inline]
fn nth_bit(mask: u16, n: u32) -> Option<u8> {
    let low = usize::from(mask & 0xff);
    let in_low = u32::from(ONES[low]);
    let (byte, k, base) = if n < in_low {
        (low, n, 0)
    } else {
        (usize::from(mask >> 8), n - in_low, 8)
    };
    let at = *NTH[byte].get(k as usize)?;
    (at < 8).then_some(at + base)
}

/// Per hand, as its `held` bits of values 1..=10 shifted down by one: the number of
/// distinct values, then those values in increasing order (0 after them). One look-up
/// gives both numbers a card draw needs (about half a game's steps draw a card).
const CARDS: [[u8; 11]; 1024] = {
    let mut t = [[0u8; 11]; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 10 {
            if m & (1 << bit) != 0 {
                t[m][1 + k] = bit as u8 + 1;
                k += 1;
            }
            bit += 1;
        }
        t[m][0] = k as u8;
        m += 1;
    }
    t
};

/// A value drawn uniformly among those `held` has (`held`: bit `v` for value `v`);
/// the same draw as `nth_bit(held, rng.below(ones(held)))`.
#[inline]
fn draw_card(held: u16, rng: &mut GameRng) -> Option<u8> {
    let row = CARDS.get(usize::from(held >> 1))?;
    let k = rng.below(u32::from(row[0]));
    row.get(1 + k as usize).copied().filter(|&v| v != 0)
}

/// "3人プレイの場合:両面の宣言トークンを各3個ずつ ... 4人 ... 2個 ... 5人 ... 1個".
pub(crate) fn double_tokens(players: usize) -> u8 {
    match players {
        3 => 3,
        4 => 2,
        _ => 1,
    }
}

impl Player {
    /// Bit `v` set when the hand holds at least one card of value `v`.
    #[inline]
    pub(crate) fn held(&self) -> u16 {
        self.held
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
    fn take(&mut self, value: usize) {
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
    fn give(&mut self, value: usize) {
        if let Some(c) = self.hand.get_mut(value) {
            *c += 1;
            self.hand_n += 1;
            self.held |= 1 << value;
        }
    }
}

impl GhostForSale {
    #[inline]
    pub(crate) fn n(&self) -> usize {
        usize::from(self.n)
    }

    pub(crate) fn mark(&self, value: u8) -> Mark {
        if value <= 10 && self.high_marks & (1 << value) != 0 {
            Mark::High
        } else {
            Mark::Low
        }
    }

    /// Global id of local property `i` of the current round.
    #[inline]
    pub(crate) fn global(&self, i: u8) -> usize {
        usize::from(self.round) * PER_ROUND + usize::from(i)
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

    #[inline]
    fn has_pile(&self) -> bool {
        // "3人プレイの場合、(2)のオークションは開催されません。"
        self.n >= 4
    }

    /// Points of a property for its ghosts: "目撃された幽霊の数が0、もしくは5以上だった
    /// 場合、その館の価値はゼロになる".
    pub(crate) fn property_points(&self, g: usize) -> Option<u8> {
        let ghosts = self.ghosts.get(g).copied().flatten()?;
        let table = self.points.get(g)?;
        Some(table.get(usize::from(ghosts)).copied().unwrap_or(0))
    }

    pub(crate) fn tokens_on(&self, g: usize) -> u8 {
        self.decl
            .get(g)
            .map(|seats| seats.iter().map(|f| f[GHOST] + f[PAINTING]).sum())
            .unwrap_or(0)
    }

    fn face_allowed(&self, g: usize, face: Face) -> bool {
        match (self.special.get(g).copied().flatten(), face) {
            // 暗すぎる: "「絵画」面が上になったトークンしか配置できない".
            (Some(Special::TooDark), Face::Ghost) => false,
            // 古来からの伝説: "「幽霊」面が上になったトークンしか配置できない".
            (Some(Special::AncientLegend), Face::Painting) => false,
            _ => true,
        }
    }

    /// The tokens a property takes, as bits over `Token::ALL` (ghost, painting, double
    /// ghost up, double painting up).
    fn tokens_allowed(&self, g: usize) -> u8 {
        match self.special.get(g).copied().flatten() {
            Some(Special::TooDark) => 0b1010,
            Some(Special::AncientLegend) => 0b0101,
            _ => 0b1111,
        }
    }

    fn targets(&self, kind: AuctionKind) -> &'static [Target] {
        const INFO3: [Target; 1] = [Target::Truelight];
        const INFO: [Target; 2] = [Target::Truelight, Target::Pile];
        const PROPS: [Target; 6] = [
            Target::Property(0),
            Target::Property(1),
            Target::Property(2),
            Target::Property(3),
            Target::Property(4),
            Target::Property(5),
        ];
        match kind {
            AuctionKind::Info if self.has_pile() => &INFO,
            AuctionKind::Info => &INFO3,
            AuctionKind::Property => &PROPS,
        }
    }

    /// A target as stored, if it belongs to this auction.
    #[inline]
    fn target_code(&self, kind: AuctionKind, target: Target) -> Result<u8, Reject> {
        match (kind, target) {
            (AuctionKind::Info, Target::Truelight) => Ok(T_TRUELIGHT),
            (AuctionKind::Info, Target::Pile) if self.has_pile() => Ok(T_PILE),
            (AuctionKind::Info, Target::Pile) => Err(Reject::NoPileAuction),
            (AuctionKind::Property, Target::Property(i)) if usize::from(i) < PER_ROUND => Ok(i),
            (AuctionKind::Property, Target::Property(i)) => Err(Reject::NoSuchProperty(i)),
            _ => Err(Reject::WrongTarget),
        }
    }

    #[inline]
    fn player(&self, seat: usize) -> &Player {
        &self.players[seat.min(MAX_PLAYERS - 1)]
    }

    #[inline]
    fn holds(&self, seat: usize, value: u8) -> bool {
        // `held` mirrors the hand; a value past its bits is no card.
        u32::from(self.player(seat).held)
            .checked_shr(u32::from(value))
            .is_some_and(|b| b & 1 != 0)
    }

    /// `sample_action` outside the auctions (setting aside, "?" cards, declarations and
    /// the special cards). Inline too: a third of a game's steps are these.
    #[inline]
    fn sample_outside_auction(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let p = self.player(seat.index());
        match self.phase {
            Phase::SetAside => {
                let value = draw_card(p.held(), rng)?;
                Some(Action::SetAside { value })
            }
            Phase::Choose => Some(Action::Choose {
                card: if rng.below(2) == 0 {
                    QuestionCard::Truth
                } else {
                    QuestionCard::Lie
                },
            }),
            Phase::Declare => self.sample_declaration(p, rng),
            Phase::Auction(_) | Phase::Special(_) | Phase::Over => {
                self.legal_actions(seat, buf);
                rng.pick(buf).copied()
            }
        }
    }

    /// A uniformly drawn legal declaration.
    #[inline]
    fn sample_declaration(&self, p: &Player, rng: &mut GameRng) -> Option<Action> {
        // Bits over `Token::ALL`: ghost, painting, double ghost up, double painting up.
        let [ghost, painting, double] = p.tokens.map(|t| u16::from(t > 0));
        let held = ghost | (painting << 1) | (double * 0b1100);
        if self.restrictions == 0 {
            // No Too dark or Ancient legend this round: every property takes every token.
            let c = ones(held);
            let pick = rng.below(c * PER_ROUND as u32);
            let k = nth_bit(held, pick % c)?;
            return Some(Action::Declare {
                property: (pick / c) as u8,
                token: *Token::ALL.get(usize::from(k))?,
            });
        }
        let mut masks = [0u16; PER_ROUND];
        let mut total = 0;
        for (i, m) in masks.iter_mut().enumerate() {
            *m = held & u16::from(self.tokens_allowed(self.global(i as u8)));
            total += ones(*m);
        }
        let mut pick = rng.below(total);
        for (property, m) in masks.into_iter().enumerate() {
            let c = ones(m);
            if pick < c {
                let k = nth_bit(m, pick)?;
                let token = *Token::ALL.get(usize::from(k))?;
                return Some(Action::Declare {
                    property: property as u8,
                    token,
                });
            }
            pick -= c;
        }
        None
    }

    /// Plays an action of a pending seat and refreshes `pending`: each arm checks
    /// everything first and only then changes the state, so a refusal leaves it
    /// untouched. In an auction, `pending` changes only when the turn ends (see
    /// `end_turn`): choosing a target or a first card leaves it as it was.
    #[inline]
    fn play(&mut self, seat: usize, action: Action) -> Result<(), Reject> {
        match self.phase {
            Phase::Auction(kind) => self.play_auction(seat.min(MAX_PLAYERS - 1), kind, action),
            _ => {
                self.play_outside_auction(seat, action)?;
                self.pending = self.next_pending(seat);
                Ok(())
            }
        }
    }

    /// `play` in an auction: the hot path of playouts.
    #[inline]
    fn play_auction(
        &mut self,
        seat: usize,
        kind: AuctionKind,
        action: Action,
    ) -> Result<(), Reject> {
        match action {
            Action::Bid { .. } | Action::Done | Action::Pass if self.pending_target.is_some() => {
                return Err(Reject::CardPending);
            }
            Action::Bid { target } => {
                let code = self.target_code(kind, target)?;
                if self.players[seat].hand_n == 0 {
                    return Err(Reject::NoSuchCard(0));
                }
                self.pending_target = Some(code);
            }
            Action::Play { value } => {
                let Some(code) = self.pending_target else {
                    return Err(Reject::NoTargetChosen);
                };
                if !self.holds(seat, value) {
                    return Err(Reject::NoSuchCard(value));
                }
                let a = self.auction_index(kind);
                let slot = usize::from(self.auctions[a].len);
                if slot >= MAX_BIDS {
                    // Cannot happen: every card is on the table at most once.
                    return Err(Reject::NoSuchCard(value));
                }
                self.pending_target = None;
                let face_up = kind == AuctionKind::Property
                    && self.special[self.global(code)] == Some(Special::OpenAuction);
                let auction = &mut self.auctions[a];
                auction.bids[slot] = Bid {
                    seat: seat as u8,
                    target: code,
                    value,
                    face_up,
                };
                auction.len += 1;
                let p = &mut self.players[seat];
                p.take(usize::from(value));
                p.on_truelight |= code == T_TRUELIGHT;
                let empty = p.hand_n == 0;
                if empty {
                    self.holding &= !(1 << seat);
                }
                if face_up {
                    self.observe(seat, a);
                }
                self.placed += 1;
                // "1枚か2枚": a turn ends after the second card, when the hand is empty,
                // and after the single card of the last-player rule.
                if self.placed >= 2 || empty || self.last_call {
                    self.end_turn();
                }
            }
            Action::Done => {
                if self.placed == 0 {
                    return Err(Reject::NothingPlaced);
                }
                self.end_turn();
            }
            Action::Pass => {
                if self.placed != 0 {
                    return Err(Reject::PassOnlyAtTurnStart);
                }
                // "ミセス・トゥルーライトに1枚も賭け金カードを置いていないプレイヤーは
                // パスを選ぶことはできません。"
                if kind == AuctionKind::Info && !self.players[seat].on_truelight {
                    return Err(Reject::MustBidOnTruelight);
                }
                // "パスを選んだプレイヤーは、もうオークションに参加することができなくなります。"
                self.players[seat].passed = true;
                self.passed |= 1 << seat;
                self.end_turn();
            }
            _ => return Err(Reject::WrongStep),
        }
        Ok(())
    }

    /// `play` outside the auctions.
    #[inline]
    fn play_outside_auction(&mut self, seat: usize, action: Action) -> Result<(), Reject> {
        let r = usize::from(self.round);
        let n = self.n();
        let seat = seat.min(MAX_PLAYERS - 1);
        match (self.phase, action) {
            (Phase::SetAside, Action::SetAside { value }) => {
                if !self.holds(seat, value) {
                    return Err(Reject::NoSuchCard(value));
                }
                let v = usize::from(value);
                let p = &mut self.players[seat];
                p.take(v);
                p.aside[v] += 1;
                p.aside_n += 1;
                if self.set_aside_left(seat) == 0 {
                    self.phase = Phase::Choose;
                }
            }
            (Phase::Choose, Action::Choose { card }) => {
                self.card[r][seat] = Some(card);
                if self.card[r][..n].iter().all(Option::is_some) {
                    // ② starts with the first player of the round.
                    self.phase = Phase::Declare;
                    self.turn = self.first[r];
                }
            }
            (Phase::Declare, Action::Declare { property, token }) => {
                if usize::from(property) >= PER_ROUND {
                    return Err(Reject::NoSuchProperty(property));
                }
                if self.players[seat].tokens[token.supply()] == 0 {
                    return Err(Reject::NoToken);
                }
                let g = self.global(property);
                if !self.face_allowed(g, token.face()) {
                    return Err(Reject::FaceForbidden);
                }
                self.players[seat].tokens[token.supply()] -= 1;
                let face = match token.face() {
                    Face::Ghost => GHOST,
                    Face::Painting => PAINTING,
                };
                self.decl[g][seat][face] += 1;
                // "時計回りの順で宣言トークンを1個ずつ ... すべてのプレイヤーがすべての
                // 宣言トークンを置くまで": everyone has as many tokens and places one per
                // turn, so when the next seat has none left, everyone is done.
                let next = self.next_seat(self.turn);
                if self.player(usize::from(next)).tokens == [0, 0, 0] {
                    self.start_auction(AuctionKind::Info);
                } else {
                    self.turn = next;
                }
            }
            (Phase::Special(g), action) => {
                let g = usize::from(g).min(11);
                match (self.special[g], action) {
                    (Some(Special::MagicMirror), Action::RemoveGhost { owner }) => {
                        let o = owner.index();
                        if o >= n || self.decl[g][o.min(MAX_PLAYERS - 1)][GHOST] == 0 {
                            return Err(Reject::NoGhostToken);
                        }
                        self.decl[g][o][GHOST] -= 1;
                        self.mirror_removed[g] = Some(owner.0);
                    }
                    (Some(Special::MagicMirror | Special::SecretCrypt), Action::Decline) => {}
                    (Some(Special::SecretCrypt), Action::AddGhost) => {
                        self.crypt_added[g] = true;
                    }
                    (Some(Special::CrystalBall), Action::Guess { ghosts }) => {
                        if ghosts > self.tokens_on(g) {
                            return Err(Reject::GuessOutOfRange);
                        }
                        self.crystal_guess[g] = Some(ghosts);
                    }
                    _ => return Err(Reject::WrongStep),
                }
                self.next_special(g + 1);
            }
            _ => return Err(Reject::WrongStep),
        }
        Ok(())
    }

    /// The seats that must decide now (kept in `pending`, refreshed after every action).
    #[inline]
    fn compute_pending(&self) -> SeatSet {
        let n = self.n();
        let mut bits = 0u16;
        match self.phase {
            Phase::SetAside => {
                for (s, p) in self.players[..n].iter().enumerate() {
                    bits |= u16::from(p.aside_n < SET_ASIDE) << s;
                }
            }
            Phase::Choose => {
                let r = usize::from(self.round);
                for (s, c) in self.card[r][..n].iter().enumerate() {
                    bits |= u16::from(c.is_none()) << s;
                }
            }
            Phase::Declare | Phase::Auction(_) | Phase::Special(_) => {
                bits = 1 << self.turn;
            }
            Phase::Over => {}
        }
        SeatSet::from_bits(bits)
    }

    /// `compute_pending` after `seat` acted: while every seat sets cards aside at once,
    /// only the acting seat can have finished, so the others' bits stand (no pass over
    /// the table on each of those steps).
    #[inline]
    fn next_pending(&self, seat: usize) -> SeatSet {
        match self.phase {
            Phase::Declare | Phase::Auction(_) | Phase::Special(_) => {
                SeatSet::from_bits(1 << self.turn)
            }
            Phase::SetAside => SeatSet::from_bits(self.set_aside_left(seat)),
            // After a "?" card only its player is done. When no one else was pending,
            // the step just opened this phase (the last card set aside, or round 2
            // begun by a special-card decision), and everyone must choose.
            Phase::Choose => match self.pending.bits() & !(1 << seat) {
                0 => self.compute_pending(),
                left => SeatSet::from_bits(left),
            },
            Phase::Over => SeatSet::EMPTY,
        }
    }

    /// The seats still setting cards aside, from `pending` before `seat`'s card was
    /// counted and `seat`'s count now.
    #[inline]
    fn set_aside_left(&self, seat: usize) -> u16 {
        let done = u16::from(self.player(seat).aside_n >= SET_ASIDE);
        self.pending.bits() & !(done << seat)
    }

    /// Round 1: remember which of `seat`'s cards everyone has now seen on the table in
    /// this round, so `determinize` never sets such a card aside.
    pub(crate) fn observe(&mut self, seat: usize, auction: usize) {
        if self.round != 0 {
            return;
        }
        let mut seen = self.players[seat].paid;
        let a = &self.auctions[auction];
        for b in a.bids() {
            if usize::from(b.seat) == seat && (a.revealed || b.face_up) {
                seen[usize::from(b.value)] += 1;
            }
        }
        let known = &mut self.players[seat].r1_known;
        for (k, s) in known.iter_mut().zip(seen) {
            *k = (*k).max(s);
        }
    }

    fn start_auction(&mut self, kind: AuctionKind) {
        self.phase = Phase::Auction(kind);
        let a = self.auction_index(kind);
        self.auctions[a].started = true;
        self.passed = 0;
        for p in &mut self.players[..usize::from(self.n)] {
            p.passed = false;
            p.on_truelight = false;
        }
        self.placed = 0;
        self.last_call = false;
        // "最初のプレイヤーから時計回りで順番にターンが回ってきます".
        self.assign_turn(self.first[usize::from(self.round)]);
    }

    #[inline]
    fn end_turn(&mut self) {
        self.placed = 0;
        if self.last_call {
            // "そこから1枚だけ賭け金カードをプレイできます。そしてオークションが終了します。"
            self.finish_auction();
        } else {
            self.assign_turn(self.next_seat(self.turn));
        }
        self.pending = match self.phase {
            Phase::Auction(_) => SeatSet::from_bits(1 << self.turn),
            _ => self.compute_pending(),
        };
    }

    /// Gives the turn to the next seat clockwise from `from` that is still in the
    /// auction, or ends the auction.
    #[inline]
    fn assign_turn(&mut self, from: u8) {
        let n = self.n();
        let holders = u16::from(self.holding);
        let active = holders & !u16::from(self.passed);
        // "オークションは全てのプレイヤーがパスをしたときに終了します。" A seat with no
        // card left can do nothing more and counts as out.
        if active == 0 {
            self.finish_auction();
            return;
        }
        // "もし、誰か1人のプレイヤーを残して、他のプレイヤーの賭け金カードが0枚になった
        // 場合、カードを持っている、その残った1人のプレイヤーは、そこから1枚だけ賭け金
        // カードをプレイできます。"
        if holders & holders.wrapping_sub(1) == 0 {
            self.last_call = true;
            self.turn = holders.trailing_zeros() as u8;
            return;
        }
        // The first active seat clockwise from `from`: the mask doubled, so seats past
        // the end of the table wrap round (no division on this hot path).
        let from = u32::from(from).min(n as u32 - 1);
        let ring = (active | (active << n)) >> from;
        let s = from + ring.trailing_zeros();
        self.turn = (if s >= n as u32 { s - n as u32 } else { s }) as u8;
    }

    /// The next seat clockwise.
    #[inline]
    fn next_seat(&self, seat: u8) -> u8 {
        if usize::from(seat) + 1 >= self.n() {
            0
        } else {
            seat + 1
        }
    }

    /// One pass over auction `a`: per target and seat, the total, the highest card
    /// and when that card was placed.
    pub(crate) fn tally(&self, a: usize) -> Tally {
        let mut t = Tally { key: [[0; 8]; 8] };
        for (i, b) in self.auctions[a].bids().iter().enumerate() {
            let k = &mut t.key[usize::from(b.target & 7)][usize::from(b.seat & 7)];
            let v = u32::from(b.value);
            // Strictly greater: of two equal highest cards, the first one counts.
            if v > (*k >> 8) & 0xff {
                *k = (*k & 0xffff_0000) | (v << 8) | (255 - i as u32);
            }
            *k += v << 16;
        }
        t
    }

    /// Turns the auction's cards face up, then pays or takes back every one: a card goes
    /// to the box when `pays(target, seat)`, else back to its owner's hand. One pass
    /// over the cards does both.
    fn reveal_and_settle(&mut self, a: usize, pays: impl Fn(u8, u8) -> bool) {
        self.auctions[a].revealed = true;
        let mut back = [[0u8; 11]; MAX_PLAYERS];
        let len = usize::from(self.auctions[a].len).min(MAX_BIDS);
        for i in 0..len {
            let b = self.auctions[a].bids[i];
            let seat = usize::from(b.seat).min(MAX_PLAYERS - 1);
            let p = &mut self.players[seat];
            let v = usize::from(b.value).min(10);
            if pays(b.target, b.seat) {
                p.paid[v] += 1;
            } else {
                p.give(v);
                self.holding |= 1 << b.seat;
                back[seat][v] += 1;
            }
        }
        if self.round != 0 {
            return;
        }
        // Round 1: everyone has now seen each of these cards (see `observe`); a seat's
        // cards seen are the ones it paid, earlier or just now, and the ones it took back.
        for (p, back) in self.players.iter_mut().zip(back) {
            for ((k, &paid), back) in p.r1_known.iter_mut().zip(&p.paid).zip(back) {
                *k = (*k).max(paid + back);
            }
        }
    }

    fn finish_auction(&mut self) {
        let r = usize::from(self.round);
        self.last_call = false;
        self.placed = 0;
        match self.phase {
            Phase::Auction(AuctionKind::Info) => {
                let a = self.auction_index(AuctionKind::Info);
                // (1) "1位だったプレイヤーは2位のプレイヤーの「?カード」を見ることができ
                // ます ... 最下位のプレイヤーは誰の「?カード」も見ることができません。
                // ただし、最下位のプレイヤーはミセス・トゥルーライトにかけた賭け金カードを
                // 全て手元に戻すことができます。その後、使われた賭け金カードは箱の中に戻します。"
                let tally = self.tally(a);
                let (chain, len) = tally.ranking(T_TRUELIGHT, self.n());
                for w in chain[..len].windows(2) {
                    self.looks[r][usize::from(w[0])] = Some(w[1]);
                }
                self.chain[r] = chain;
                self.chain_len[r] = len as u8;
                let last = if len > 0 { Some(chain[len - 1]) } else { None };
                // (2) "最も高い額を賭けていたプレイヤーは、使用されていなかった「?カード」を
                // 見ることができます。そして、そのプレイヤーは賭け金カードを支払い、残りの
                // プレイヤーは賭けた賭け金カード手元に戻します。"
                let pile_winner = tally.winner(T_PILE, self.n());
                self.pile_seer[r] = pile_winner;
                self.reveal_and_settle(a, |target, seat| match target {
                    T_TRUELIGHT => Some(seat) != last,
                    _ => Some(seat) == pile_winner,
                });
                self.start_auction(AuctionKind::Property);
            }
            Phase::Auction(AuctionKind::Property) => {
                let a = self.auction_index(AuctionKind::Property);
                // "館のオークションはアルファベット順に処理していきます ... 最高額をかけた
                // プレイヤーは賭け金を支払い、他のプレイヤーは賭け金を戻します。"
                let tally = self.tally(a);
                let mut winners = [None; PER_ROUND];
                for (i, w) in winners.iter_mut().enumerate() {
                    let g = r * PER_ROUND + i;
                    // "賭け金カードが置かれなかった方は箱に戻してください。"
                    *w = tally.winner(i as u8, self.n());
                    self.owner[g] = *w;
                    self.resolved[g] = true;
                    // "この館(城)を競り落としたプレイヤーは、一緒にこのカードも獲得する。"
                    if w.is_some() && self.special[g] == Some(Special::FamilyPortrait) {
                        self.portrait_owner = *w;
                    }
                }
                self.reveal_and_settle(a, |target, seat| {
                    winners.get(usize::from(target)).copied().flatten() == Some(seat)
                });
                self.next_special(r * PER_ROUND);
            }
            _ => {}
        }
    }

    /// Walks the round's properties from `g` in alphabetical order and stops at the
    /// first bought one whose special card asks its buyer to decide; at the end the
    /// "?" cards are revealed.
    fn next_special(&mut self, from: usize) {
        let end = (usize::from(self.round) + 1) * PER_ROUND;
        for g in from..end {
            let Some(buyer) = self.owner[g] else {
                continue;
            };
            let decide = match self.special[g] {
                // With no ghost-face token there is nothing the mirror could remove.
                Some(Special::MagicMirror) => self.decl[g].iter().any(|f| f[GHOST] > 0),
                Some(Special::SecretCrypt | Special::CrystalBall) => true,
                _ => false,
            };
            if decide {
                self.phase = Phase::Special(g as u8);
                self.turn = buyer;
                return;
            }
        }
        self.end_round();
    }

    /// "すべてのプレイヤーは「?カード」を表にし ... それぞれの館の幽霊の数を計算し、得点を見ます。"
    fn end_round(&mut self) {
        let r = usize::from(self.round);
        // "「嘘」カードを選択したプレイヤーの置いた宣言トークンはすべて逆の結果": the face
        // that counts as a ghost, per seat, read once for the six properties.
        let counted = self.card[r].map(|c| match c {
            Some(QuestionCard::Lie) => PAINTING,
            _ => GHOST,
        });
        for g in r * PER_ROUND..(r + 1) * PER_ROUND {
            let mut ghosts = u8::from(self.crypt_added[g]);
            for (faces, &face) in self.decl[g][..self.n()].iter().zip(&counted) {
                ghosts += faces[face & 1];
            }
            self.ghosts[g] = Some(ghosts);
            if self.special[g] == Some(Special::CrystalBall)
                && self.owner[g].is_some()
                && self.crystal_guess[g] == Some(ghosts)
            {
                self.crystal_owner = self.owner[g];
            }
        }
        if r == 0 {
            self.start_round_two();
        } else {
            self.final_scoring();
        }
    }

    fn start_round_two(&mut self) {
        // "獲得された館をアルファベット順で並べたときに最初に来る館を獲得していたプレイヤー".
        // If no manor was bought, the first player of round 1 starts again.
        self.first[1] = self.owner[..PER_ROUND]
            .iter()
            .find_map(|o| *o)
            .unwrap_or(self.first[0]);
        self.round = 1;
        let double = double_tokens(self.n());
        self.passed = 0;
        self.holding = 0;
        for (s, p) in self.players[..usize::from(self.n)].iter_mut().enumerate() {
            // "1ラウンド目が終わってから残った賭け金カードと、ゲーム開始時にキャラクター
            // カードの下に入れていた賭け金カードを合わせたもの".
            for v in 0..11 {
                p.hand[v] += p.aside[v];
            }
            p.hand_n += p.aside_n;
            self.holding |= u8::from(p.hand_n > 0) << s;
            p.refresh_held();
            p.aside = [0; 11];
            p.aside_n = 0;
            p.tokens = [2, 2, double];
            p.passed = false;
            p.on_truelight = false;
        }
        if self.options.special_cards {
            // "1ラウンド目で使用しなかったスペシャルカードも混ぜてよく切り ... 「水晶球」
            // 「家族の肖像画」はプレイヤーが獲得するものなので、獲得された場合はこの中には
            // 戻しません。"
            let mut deck = [Special::PerfectlyNormal; 8];
            let mut len = 0;
            for s in Special::ALL {
                let kept = match s {
                    Special::CrystalBall => self.crystal_owner.is_some(),
                    Special::FamilyPortrait => self.portrait_owner.is_some(),
                    _ => false,
                };
                if !kept {
                    deck[len] = s;
                    len += 1;
                }
            }
            self.deal_specials(1, &mut deck[..len]);
        }
        self.phase = Phase::Choose;
    }

    /// Shuffles `deck` and lays one card face up on each property of `round`.
    fn deal_specials(&mut self, round: usize, deck: &mut [Special]) {
        self.rng.shuffle(deck);
        let mut spare = 0u8;
        for (i, s) in deck.iter().enumerate() {
            if i < PER_ROUND {
                self.special[round * PER_ROUND + i] = Some(*s);
            } else {
                spare |= 1 << s.index();
            }
        }
        self.spare[round] = spare;
        self.refresh_restrictions();
    }

    /// Recomputes `restrictions` for the current round's special cards.
    pub(crate) fn refresh_restrictions(&mut self) {
        let base = usize::from(self.round) * PER_ROUND;
        self.restrictions = 0;
        for i in 0..PER_ROUND {
            if self.tokens_allowed(base + i) != 0b1111 {
                self.restrictions |= 1 << i;
            }
        }
    }

    /// Every seat's `score`, in one pass over the properties.
    fn final_scoring(&mut self) {
        self.phase = Phase::Over;
        let mut total = [0i64; MAX_PLAYERS];
        let mut zero = [0i64; MAX_PLAYERS];
        for g in 0..12 {
            if let Some(o) = self.owner[g] {
                let o = usize::from(o).min(MAX_PLAYERS - 1);
                let pts = self.property_points(g).unwrap_or(0);
                total[o] += i64::from(pts);
                zero[o] += i64::from(pts == 0);
            }
        }
        if let Some(o) = self.crystal_owner {
            total[usize::from(o).min(MAX_PLAYERS - 1)] += 2;
        }
        if let Some(o) = self.portrait_owner {
            let o = usize::from(o).min(MAX_PLAYERS - 1);
            total[o] += zero[o];
        }
        self.scores = total;
    }

    /// Points of a seat: its properties, the Crystal ball ("2点として扱う") and the
    /// Family portrait ("獲得した0点の館(城) 1つにつき1点").
    pub(crate) fn score(&self, seat: usize) -> i64 {
        let mut total = 0i64;
        let mut zero = 0i64;
        for g in 0..12 {
            if self.owner[g] == Some(seat as u8) {
                let pts = self.property_points(g).unwrap_or(0);
                total += i64::from(pts);
                if pts == 0 {
                    zero += 1;
                }
            }
        }
        if self.crystal_owner == Some(seat as u8) {
            total += 2;
        }
        if self.portrait_owner == Some(seat as u8) && self.phase == Phase::Over {
            total += zero;
        }
        total
    }

    pub(crate) fn castles(&self, seat: usize) -> usize {
        self.owner[PER_ROUND..]
            .iter()
            .filter(|o| **o == Some(seat as u8))
            .count()
    }

    pub(crate) fn hand_total(&self, seat: usize) -> u32 {
        self.player(seat)
            .hand
            .iter()
            .enumerate()
            .map(|(v, &c)| v as u32 * u32::from(c))
            .sum()
    }

    /// Direct access for tests and bots: a seat's hand as counts by value.
    pub fn hand(&self, seat: Seat) -> [u8; 11] {
        self.player(seat.index()).hand
    }

    /// The round being played (1 or 2).
    pub fn round(&self) -> u8 {
        self.round + 1
    }
}

impl Game for GhostForSale {
    type Options = Options;
    type Action = Action;
    type View = crate::view::View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        META.check_players(players)?;
        if let Some(f) = options.first_player {
            if usize::from(f) >= players {
                return Err(SetupError::InvalidOptions {
                    reason: format!("first_player {f} is not a seat of a {players}-player table"),
                });
            }
        }
        Ok(())
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        let data = data::data().map_err(|e| SetupError::InvalidOptions {
            reason: format!("the property data is broken: {e}"),
        })?;
        let mut points = [[0u8; 5]; 12];
        for (dst, src) in points.iter_mut().zip(&data.properties) {
            *dst = src.points;
        }
        let mut rng = GameRng::from_seed(seed);
        let first = match options.first_player {
            Some(f) => f,
            None => rng.below(players as u32) as u8,
        };
        let player = Player {
            hand: FULL_SET,
            hand_n: 12,
            held: 0b111_1111_1110,
            tokens: [2, 2, double_tokens(players)],
            ..Player::default()
        };
        let mut game = GhostForSale {
            options: options.clone(),
            n: players as u8,
            rng,
            points,
            high_marks: data.high_marks,
            round: 0,
            phase: Phase::SetAside,
            pending: SeatSet::first(players),
            first: [first, first],
            turn: first,
            placed: 0,
            pending_target: None,
            last_call: false,
            holding: ((1u16 << players) - 1) as u8,
            passed: 0,
            players: [player; MAX_PLAYERS],
            card: [[None; MAX_PLAYERS]; 2],
            auctions: [Auction::EMPTY; 4],
            looks: [[None; MAX_PLAYERS]; 2],
            chain: [[0; MAX_PLAYERS]; 2],
            chain_len: [0; 2],
            pile_seer: [None; 2],
            decl: [[[0; 2]; MAX_PLAYERS]; 12],
            owner: [None; 12],
            resolved: [false; 12],
            special: [None; 12],
            restrictions: 0,
            spare: [0; 2],
            mirror_removed: [None; 12],
            crypt_added: [false; 12],
            crystal_guess: [None; 12],
            ghosts: [None; 12],
            crystal_owner: None,
            portrait_owner: None,
            scores: [0; MAX_PLAYERS],
        };
        for p in &mut game.players[players..] {
            *p = Player::default();
        }
        if options.special_cards {
            // "スペシャルカードをよく切り、各館カードの上に1枚ずつ表にして配置します。
            // 2枚のスペシャルカードが余りますが、これは2ラウンド目に使用します。"
            let mut deck = Special::ALL;
            game.deal_specials(0, &mut deck);
        }
        Ok(game)
    }

    fn option_sets() -> Vec<Options> {
        vec![
            Options::default(),
            Options {
                special_cards: true,
                first_player: None,
            },
        ]
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        self.n()
    }

    #[inline]
    fn to_move(&self) -> SeatSet {
        self.pending
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        if !self.to_move().contains(seat) {
            return;
        }
        let s = seat.index();
        let p = self.player(s);
        match self.phase {
            Phase::SetAside => {
                let mut held = p.held();
                while held != 0 {
                    let value = held.trailing_zeros() as u8;
                    held &= held - 1;
                    out.push(Action::SetAside { value });
                }
            }
            Phase::Choose => {
                out.push(Action::Choose {
                    card: QuestionCard::Truth,
                });
                out.push(Action::Choose {
                    card: QuestionCard::Lie,
                });
            }
            Phase::Declare => {
                // Bit k: the seat still holds a token for `Token::ALL[k]`.
                let mut held = 0u8;
                for (k, t) in Token::ALL.iter().enumerate() {
                    held |= u8::from(p.tokens[t.supply()] > 0) << k;
                }
                // Built on the stack and copied out at once: 25 of these steps a round.
                let mut buf = [Action::Done; PER_ROUND * 4];
                let mut k = 0;
                for property in 0..PER_ROUND as u8 {
                    let mut m = held & self.tokens_allowed(self.global(property));
                    while m != 0 {
                        let i = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if let (Some(slot), Some(&token)) = (buf.get_mut(k), Token::ALL.get(i)) {
                            *slot = Action::Declare { property, token };
                            k += 1;
                        }
                    }
                }
                out.extend_from_slice(&buf[..k.min(PER_ROUND * 4)]);
            }
            Phase::Auction(kind) => {
                if self.pending_target.is_some() {
                    let mut held = p.held();
                    while held != 0 {
                        let value = held.trailing_zeros() as u8;
                        held &= held - 1;
                        out.push(Action::Play { value });
                    }
                    return;
                }
                if self.placed == 0 {
                    if kind == AuctionKind::Property || p.on_truelight {
                        out.push(Action::Pass);
                    }
                } else {
                    out.push(Action::Done);
                }
                for &target in self.targets(kind) {
                    out.push(Action::Bid { target });
                }
            }
            Phase::Special(g) => {
                let g = usize::from(g);
                match self.special[g] {
                    Some(Special::MagicMirror) => {
                        out.push(Action::Decline);
                        for (o, f) in self.decl[g][..self.n()].iter().enumerate() {
                            if f[GHOST] > 0 {
                                out.push(Action::RemoveGhost {
                                    owner: Seat(o as u8),
                                });
                            }
                        }
                    }
                    Some(Special::SecretCrypt) => {
                        out.push(Action::AddGhost);
                        out.push(Action::Decline);
                    }
                    Some(Special::CrystalBall) => {
                        for ghosts in 0..=self.tokens_on(g) {
                            out.push(Action::Guess { ghosts });
                        }
                    }
                    _ => {}
                }
            }
            Phase::Over => {}
        }
    }

    /// Draws uniformly among the legal actions without listing them: the hot path of
    /// random playouts (the special-card decisions, rare, list as usual). Inline, like
    /// `apply`, so that both compile into the engine's `random_playout` loop in the
    /// caller's crate (no call, no result through memory).
    #[inline]
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        if !self.to_move().contains(seat) {
            return None;
        }
        let p = self.player(seat.index());
        let Phase::Auction(kind) = self.phase else {
            return self.sample_outside_auction(seat, rng, buf);
        };
        if self.pending_target.is_some() {
            let value = draw_card(p.held(), rng)?;
            return Some(Action::Play { value });
        }
        // The options in `legal_actions` order: the stop (`Done` after a card, `Pass`
        // when allowed), then the targets.
        let (stop, targets) = match kind {
            AuctionKind::Property => (1, PER_ROUND as u32),
            AuctionKind::Info => (
                u32::from(self.placed != 0 || p.on_truelight),
                1 + u32::from(self.has_pile()),
            ),
        };
        let k = rng.below(targets + stop);
        if k < stop {
            return Some(if self.placed != 0 {
                Action::Done
            } else {
                Action::Pass
            });
        }
        let i = k - stop;
        Some(Action::Bid {
            target: match kind {
                AuctionKind::Property => Target::Property(i as u8),
                AuctionKind::Info if i == 0 => Target::Truelight,
                AuctionKind::Info => Target::Pile,
            },
        })
    }

    /// Declarations, targets, passes and special-card decisions are public; which card
    /// was set aside, which "?" card was played and a face-down card's value are not
    /// (its back mark is).
    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        if viewer == Viewer::Seat(actor) {
            return Some(self.describe(action));
        }
        match *action {
            Action::SetAside { .. } => Some("set a card aside for round 2".into()),
            Action::Choose { .. } => Some("play a \"?\" card face down".into()),
            Action::Play { value } => {
                let face_up = match (self.phase, self.pending_target) {
                    (Phase::Auction(AuctionKind::Property), Some(code)) => {
                        self.special.get(self.global(code)).copied().flatten()
                            == Some(Special::OpenAuction)
                    }
                    _ => false,
                };
                if face_up {
                    Some(format!("play a {value}, face up"))
                } else {
                    Some(match self.mark(value) {
                        Mark::High => "play a card face down (high mark)".into(),
                        Mark::Low => "play a card face down (low mark)".into(),
                    })
                }
            }
            _ => Some(self.describe(action)),
        }
    }

    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Action,
        viewer: Viewer,
        lang: takuge_engine::Lang,
    ) -> Option<String> {
        match lang {
            takuge_engine::Lang::En => self.describe_for(actor, action, viewer),
            takuge_engine::Lang::Ja => crate::log_ja::describe_for(self, actor, action, viewer),
        }
    }

    #[inline]
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError<Reject>> {
        // A pending seat is a seat of the table in a game not over, so one test admits
        // every legal move; which refusal it is gets worked out only on the way out.
        if !self.pending.contains(seat) {
            return Err(if self.phase == Phase::Over {
                ActionError::GameOver
            } else if seat.index() >= self.n() {
                ActionError::NoSuchSeat(seat)
            } else {
                ActionError::NotYourTurn(seat)
            });
        }
        let s = seat.index().min(MAX_PLAYERS - 1);
        self.play(s, *action).map_err(ActionError::Illegal)
    }

    fn view(&self, viewer: Viewer) -> crate::view::View {
        crate::view::build(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let n = self.n();
        let scores: Vec<i64> = self.scores[..n].to_vec();
        // "同点だった場合は、獲得した城の数が少ないにもかかわらず、高得点を獲得している
        // プレイヤーが勝ちます。それでも同点だった場合、手札にある賭け金カードの合計が
        // 高い方が勝ちます。"
        let keys: Vec<(i64, std::cmp::Reverse<usize>, u32)> = (0..n)
            .map(|s| {
                (
                    self.scores[s],
                    std::cmp::Reverse(self.castles(s)),
                    self.hand_total(s),
                )
            })
            .collect();
        Some(Outcome::from_keys(scores, &keys, vec![None; n]))
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        crate::determinize::determinize(self, seat, rng)
    }

    fn describe(&self, action: &Action) -> String {
        let prop = |i: u8| data::property_name(self.global(i));
        match *action {
            Action::SetAside { value } => format!("set a {value} aside for round 2"),
            Action::Choose { card } => match card {
                QuestionCard::Truth => "play the truth card".into(),
                QuestionCard::Lie => "play the lie card".into(),
            },
            Action::Declare { property, token } => {
                let what = match token {
                    Token::Ghost => "a ghost token",
                    Token::Painting => "a painting token",
                    Token::DoubleGhost => "a double-faced token, ghost up",
                    Token::DoublePainting => "a double-faced token, painting up",
                };
                format!("declare {what} on {}", prop(property))
            }
            Action::Bid { target } => {
                let on = match target {
                    Target::Truelight => "Mrs. Truelight".to_string(),
                    Target::Pile => "the \"?\" pile".to_string(),
                    Target::Property(i) => prop(i),
                };
                format!("bid on {on}")
            }
            Action::Play { value } => format!("play a {value}"),
            Action::Done => "end the turn".into(),
            Action::Pass => "pass".into(),
            Action::RemoveGhost { owner } => {
                format!(
                    "Magic mirror: remove a ghost token of seat {}",
                    u16::from(owner.0) + 1
                )
            }
            Action::AddGhost => "Secret crypt: add a ghost".into(),
            Action::Decline => "do not use the special card".into(),
            Action::Guess { ghosts } => format!("Crystal ball: guess {ghosts} ghosts"),
        }
    }
}
