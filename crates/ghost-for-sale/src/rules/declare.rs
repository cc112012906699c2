//! ① 真実か嘘か (the "?" card, all at once) and ② 宣言 (one declaration token per
//! turn).

use crate::state::{GhostForSale, GHOST, PAINTING};
use crate::types::{AuctionKind, Lot, Phase, SeatId};
use crate::{Face, QuestionCard, Token};

impl GhostForSale {
    /// `Choose`: the "?" card lies face down; when every seat has played one, ②
    /// starts with the first player of the round.
    pub(crate) fn choose(&mut self, seat: SeatId, card: QuestionCard) {
        let r = usize::from(self.round);
        self.card[r][seat] = Some(card);
        if self.card[r].first(self.n()).iter().all(Option::is_some) {
            self.phase = Phase::Declare;
            self.turn = self.first[r];
        }
    }

    /// `Declare`: the token goes on the property, by the face it shows.
    pub(crate) fn declare(&mut self, seat: SeatId, lot: Lot, token: Token) {
        let g = self.property(lot);
        let p = &mut self.players[seat];
        if let Some(t) = p.tokens.get_mut(token.supply()) {
            *t -= 1;
        }
        let face = match token.face() {
            Face::Ghost => GHOST,
            Face::Painting => PAINTING,
        };
        self.decl[g.index()][seat][face] += 1;
        // "時計回りの順で宣言トークンを1個ずつ ... すべてのプレイヤーがすべての
        // 宣言トークンを置くまで": everyone has as many tokens and places one per
        // turn, so when the next seat has none left, everyone is done.
        let next = self.turn.next(self.n());
        if self.players[next].tokens == [0, 0, 0] {
            self.start_auction(AuctionKind::Info);
        } else {
            self.turn = next;
        }
    }
}
