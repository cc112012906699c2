//! The auction house (オークション会場): the bids revealed, the highest one buying a
//! face-up art card, a lone thief taking the money.

use crate::cards::{Pile, Place};
use crate::news::Shown;
use crate::state::{lowest, seat_bit, seats, ArtHeist, Phase};
use crate::types::{AuctionResult, SeatId};

impl ArtHeist {
    pub(crate) fn resolve_auction(&mut self) {
        self.resolve_auction_of(self.playing(self.at_auction));
    }

    /// The auction, given the kinds of the cards played there (see `playing`).
    pub(crate) fn resolve_auction_of(&mut self, kinds: [u8; 4]) {
        self.revealed |= self.at_auction;
        self.tell(Shown::Cards {
            place: Place::AuctionHouse,
            seats: self.at_auction,
            played: self.played,
        });
        let [money, thieves, _, _] = kinds;
        self.auction_thieves = thieves;
        // 「お金は必ず1枚だけ出す。最も高い値を付けたプレイヤーが、2枚のヤマの内、
        // どちらかを落札し、金庫に入れる。」 (No two cheques have the same value.)
        let mut best: Option<(u8, SeatId)> = None;
        for p in seats(money) {
            let v = self.played[p].map_or(0, |c| self.rules().value(c));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, p));
            }
        }
        match best {
            None => self.start_castle_cards(),
            Some((_, w)) => {
                if !self.piles[0].is_empty() && !self.piles[1].is_empty() {
                    self.phase = Phase::AuctionPile { winner: w };
                    self.pending = seat_bit(w);
                } else {
                    // 「ヤマが一つになった場合は、一つから選択する。」
                    let pile = if self.piles[0].is_empty() {
                        Pile::Right
                    } else {
                        Pile::Left
                    };
                    self.finish_auction(w, pile);
                }
            }
        }
    }

    /// `Action::Take` (or the only pile): the winner takes the pile's face-up card;
    /// its money goes to the safe, or to a lone thief.
    pub(crate) fn finish_auction(&mut self, winner: SeatId, pile: Pile) {
        let taken = self.piles[pile.index()].pop();
        if let Some(a) = taken {
            self.art[winner] |= a.bit();
            self.public_art |= a.bit();
        }
        if let Some(t) = self.piles[pile.index()].last() {
            // The next card of the pile is turned face up.
            self.public_art |= t.bit();
        }
        let Some(money) = self.played[winner] else {
            return self.start_castle_cards();
        };
        self.take_card(winner, money);
        let thieves = self.auction_thieves;
        let lone_thief = (thieves & thieves.wrapping_sub(1) == 0)
            .then(|| lowest(thieves))
            .flatten();
        let stolen_by = if let Some(t) = lone_thief {
            // 「泥棒を選択したプレイヤーは、落札したお金を盗み、自分の持ち札とする。」
            self.give_card(t, money);
            Some(t.seat())
        } else {
            // No thief, or two or more cancelling out (「相殺される」): to the safe.
            // 「お金を出したプレイヤーで、落札できなかったプレイヤーは、そのお金を自分の
            // 手札に戻す。」: the losing bids never left their hands.
            let _ = self.safe.push(money);
            None
        };
        self.auction = Some(AuctionResult {
            winner: winner.seat(),
            art: taken,
            money,
            stolen_by,
        });
        self.start_castle_cards();
    }

    pub(crate) fn start_castle_cards(&mut self) {
        if self.at_castle != 0 {
            self.phase = Phase::CastleCards;
            self.pending = self.at_castle;
        } else {
            self.end_turn();
        }
    }
}
