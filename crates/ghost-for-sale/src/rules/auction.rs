//! ③ the information auction (Mrs. Truelight and the "?" pile) and ④ the property
//! auction: placing cards, passing, the turn order, and settling the cards.

use crate::state::{Bid, GhostForSale};
use crate::types::{AuctionKind, BidSpot, Lot, Phase, SeatId, MAX_PLAYERS};
use crate::Special;
use takuge_engine::{Seat, SeatMap, SeatSet};

/// An auction summed up per spot and seat, as one comparable key per seat: greater is
/// better, 0 means no bid.
pub(crate) struct Tally {
    /// "合計 ... 一番高い額を賭けていたプレイヤーから順に順位がつけられます。もしも同額
    /// だった場合は、賭けたカードの中でそれぞれ1番高い賭け金カードの額面で競います。
    /// それでもまだ同額だった場合は、その1番高い賭け金カードを先に出していたプレイヤーが
    /// 上位となります。" Packed: total << 16 | highest card << 8 | (255 − the highest
    /// card's index in placing order). Indices are distinct and below `MAX_BIDS`, so
    /// the keys of two bidders never tie and a bidder's key is never 0.
    key: [SeatMap<u32, MAX_PLAYERS>; BidSpot::COUNT],
}

impl Tally {
    /// The seats that bid on `spot`, best first.
    pub(crate) fn ranking(&self, spot: BidSpot, n: usize) -> ([SeatId; MAX_PLAYERS], usize) {
        let keys = &self.key[spot.index()];
        let mut order = [SeatId::FIRST; MAX_PLAYERS];
        let mut len = 0;
        for (s, &k) in keys.iter(n) {
            if k != 0 {
                // Insertion into the (at most five) already ranked seats.
                let mut j = len;
                while j > 0 && keys[order[j - 1]] < k {
                    order[j] = order[j - 1];
                    j -= 1;
                }
                order[j] = s;
                len += 1;
            }
        }
        (order, len)
    }

    /// A seat's total on `spot` (0: no bid).
    pub(crate) fn total(&self, spot: BidSpot, seat: SeatId) -> u32 {
        self.key[spot.index()][seat] >> 16
    }

    /// The best bidder on `spot`, if anyone bid.
    pub(crate) fn winner(&self, spot: BidSpot, n: usize) -> Option<SeatId> {
        let mut best = 0u32;
        let mut who = None;
        for (s, &k) in self.key[spot.index()].iter(n) {
            if k > best {
                best = k;
                who = Some(s);
            }
        }
        who
    }
}

impl GhostForSale {
    /// `Bid`: the spot of the next card (public at once).
    #[inline]
    pub(crate) fn choose_spot(&mut self, spot: BidSpot) {
        self.pending_target = Some(spot);
    }

    /// `Play`: the card goes on the chosen spot, face down (face up on an Open
    /// auction property); a turn ends after its second card, when the hand is empty,
    /// and after the single card of the last-player rule ("1枚か2枚").
    #[inline]
    pub(crate) fn play_card(&mut self, seat: SeatId, kind: AuctionKind, value: u8) {
        let Some(spot) = self.pending_target else {
            return;
        };
        let face_up = self.play_is_face_up();
        self.pending_target = None;
        let a = self.auction_index(kind);
        let pushed = self.auctions[a].bids.push(Bid {
            seat,
            spot,
            value,
            face_up,
        });
        // Every card is on the table at most once: the record cannot be full.
        debug_assert!(pushed.is_ok());
        let p = &mut self.players[seat];
        p.take(usize::from(value));
        p.on_truelight |= spot == BidSpot::Truelight;
        let empty = p.hand_n == 0;
        if empty {
            self.holding &= !(1 << seat.index());
        }
        if face_up {
            self.observe(seat, a);
        }
        self.placed += 1;
        if self.placed >= 2 || empty || self.last_call {
            self.end_turn();
        }
    }

    /// `Pass`: "パスを選んだプレイヤーは、もうオークションに参加することができなくなります。"
    #[inline]
    pub(crate) fn pass(&mut self, seat: SeatId) {
        self.players[seat].passed = true;
        self.passed |= 1 << seat.index();
        self.end_turn();
    }

    /// Round 1: remember which of `seat`'s cards everyone has now seen on the table in
    /// this round, so `determinize` never sets such a card aside.
    pub(crate) fn observe(&mut self, seat: SeatId, auction: usize) {
        if self.round != 0 {
            return;
        }
        let mut seen = self.players[seat].paid;
        let a = &self.auctions[auction];
        for b in a.bids() {
            if b.seat == seat && (a.revealed || b.face_up) {
                if let Some(s) = seen.get_mut(usize::from(b.value)) {
                    *s += 1;
                }
            }
        }
        let known = &mut self.players[seat].r1_known;
        for (k, s) in known.iter_mut().zip(seen) {
            *k = (*k).max(s);
        }
    }

    pub(crate) fn start_auction(&mut self, kind: AuctionKind) {
        self.phase = Phase::Auction(kind);
        let a = self.auction_index(kind);
        self.auctions[a].started = true;
        self.passed = 0;
        for p in self.players.first_mut(usize::from(self.n)) {
            p.passed = false;
            p.on_truelight = false;
        }
        self.placed = 0;
        self.last_call = false;
        // "最初のプレイヤーから時計回りで順番にターンが回ってきます".
        self.assign_turn(self.first[usize::from(self.round)]);
    }

    /// `Done`, `Pass` and a turn's last card end the turn.
    #[inline]
    pub(crate) fn end_turn(&mut self) {
        self.placed = 0;
        if self.last_call {
            // "そこから1枚だけ賭け金カードをプレイできます。そしてオークションが終了します。"
            self.finish_auction();
        } else {
            self.assign_turn(self.turn.next(self.n()));
        }
        self.pending = match self.phase {
            Phase::Auction(_) => SeatSet::from_bits(1 << self.turn.index()),
            _ => self.compute_pending(),
        };
    }

    /// Gives the turn to the next seat clockwise from `from` that is still in the
    /// auction, or ends the auction.
    #[inline]
    fn assign_turn(&mut self, from: SeatId) {
        let n = self.n() as u32;
        let holders = u32::from(self.holding);
        let active = holders & !u32::from(self.passed);
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
            if let Some(last) = self.seated(Seat(holders.trailing_zeros() as u8)) {
                self.turn = last;
            }
            return;
        }
        // The first active seat clockwise from `from`: the mask doubled, so seats past
        // the end of the table wrap round (no division on this hot path).
        let ring = (active | (active << n)) >> from.index();
        self.turn = from.after(ring.trailing_zeros() as usize, self.n());
    }

    /// One pass over auction `a`: per spot and seat, the total, the highest card and
    /// when that card was placed.
    pub(crate) fn tally(&self, a: usize) -> Tally {
        let mut t = Tally {
            key: [SeatMap::default(); BidSpot::COUNT],
        };
        for (i, b) in self.auctions[a].bids().iter().enumerate() {
            let k = &mut t.key[b.spot.index()][b.seat];
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
    /// to the box when `pays(spot, seat)`, else back to its owner's hand. One pass over
    /// the cards does both.
    fn reveal_and_settle(&mut self, a: usize, pays: impl Fn(BidSpot, SeatId) -> bool) {
        self.auctions[a].revealed = true;
        let mut back: SeatMap<[u8; 11], MAX_PLAYERS> = SeatMap::default();
        for b in self.auctions[a].bids.iter() {
            let p = &mut self.players[b.seat];
            // A card's value is 1..=10 (it came from a hand): every `get_mut` finds it.
            let v = usize::from(b.value);
            if pays(b.spot, b.seat) {
                if let Some(c) = p.paid.get_mut(v) {
                    *c += 1;
                }
            } else {
                p.give(v);
                self.holding |= 1 << b.seat.index();
                if let Some(c) = back[b.seat].get_mut(v) {
                    *c += 1;
                }
            }
        }
        if self.round != 0 {
            return;
        }
        // Round 1: everyone has now seen each of these cards (see `observe`); a seat's
        // cards seen are the ones it paid, earlier or just now, and the ones it took back.
        let n = self.n();
        for (p, back) in self.players.first_mut(n).iter_mut().zip(back.first(n)) {
            for ((k, &paid), back) in p.r1_known.iter_mut().zip(&p.paid).zip(back) {
                *k = (*k).max(paid + back);
            }
        }
    }

    pub(crate) fn finish_auction(&mut self) {
        let r = usize::from(self.round);
        let n = self.n();
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
                let (chain, len) = tally.ranking(BidSpot::Truelight, n);
                let ranked = &chain[..len];
                for w in ranked.windows(2) {
                    self.looks[r][w[0]] = Some(w[1]);
                }
                self.chain[r] = chain;
                self.chain_len[r] = len as u8;
                let last = ranked.last().copied();
                // (2) "最も高い額を賭けていたプレイヤーは、使用されていなかった「?カード」を
                // 見ることができます。そして、そのプレイヤーは賭け金カードを支払い、残りの
                // プレイヤーは賭けた賭け金カード手元に戻します。"
                let pile_winner = tally.winner(BidSpot::Pile, n);
                self.pile_seer[r] = pile_winner;
                self.reveal_and_settle(a, |spot, seat| match spot {
                    BidSpot::Truelight => Some(seat) != last,
                    _ => Some(seat) == pile_winner,
                });
                self.start_auction(AuctionKind::Property);
            }
            Phase::Auction(AuctionKind::Property) => {
                let a = self.auction_index(AuctionKind::Property);
                // "館のオークションはアルファベット順に処理していきます ... 最高額をかけた
                // プレイヤーは賭け金を支払い、他のプレイヤーは賭け金を戻します。"
                let tally = self.tally(a);
                let mut winners = [None; Lot::ALL.len()];
                for (w, lot) in winners.iter_mut().zip(Lot::ALL) {
                    let g = self.property(lot).index();
                    // "賭け金カードが置かれなかった方は箱に戻してください。"
                    *w = tally.winner(BidSpot::Property(lot), n);
                    self.owner[g] = *w;
                    self.resolved[g] = true;
                    // "この館(城)を競り落としたプレイヤーは、一緒にこのカードも獲得する。"
                    if w.is_some() && self.special[g] == Some(Special::FamilyPortrait) {
                        self.portrait_owner = *w;
                    }
                }
                self.reveal_and_settle(a, |spot, seat| match spot {
                    BidSpot::Property(lot) => winners[lot.index()] == Some(seat),
                    _ => false,
                });
                self.next_special(0);
            }
            _ => {}
        }
    }
}
