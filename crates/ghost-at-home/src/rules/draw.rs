//! カードを1枚以上捨てる, and drawing: face-down discards, refilling the hand to three
//! and reshuffling the discard pile into a new deck.

use crate::cards::Card;
use crate::hand::Cards;
use crate::state::{GhostAtHome, Phase};
use crate::types::{Owner, Seated, HAND_SIZE};

impl GhostAtHome {
    /// カードを1枚以上捨てる: the cards are chosen next.
    pub(crate) fn start_discard(&mut self) {
        self.phase = Phase::Discarding;
    }

    /// The cards are discarded face down and as many drawn; the turn ends.
    pub(crate) fn discard_cards(&mut self, me: Seated, cards: Cards) {
        // Listed as a part of the hand: the cards are in it.
        self.hands[me].0 -= cards.0 .0;
        for &card in cards.0.list().as_slice() {
            self.pile.push(card, Owner::Secret(me));
        }
        // The discards reach the pile first: a dry deck may hand them back.
        self.draw(me, cards.0.len());
        self.end_turn();
    }

    /// A card discarded face up, seen by everyone.
    pub(crate) fn discard_public(&mut self, card: Card) {
        self.pile.push(card, Owner::Public);
    }

    /// Draws one card, reshuffling the discard pile into a new deck when the deck is
    /// empty (山札がなくなったら、山札をシャッフルしてから補充します).
    ///
    /// The deck is kept unordered and each draw takes a uniformly random card of it,
    /// which deals exactly like shuffling once and drawing from the top, without paying
    /// for a whole shuffle at every reshuffle.
    ///
    /// The removal is `swap_remove(pick)` written as a `pop` and a replace: the same
    /// deck afterwards, without the swap's two bounds checks (about 150 draws a random
    /// 4-player game).
    #[inline]
    pub(crate) fn draw_card(&mut self) -> Option<Card> {
        if self.deck.is_empty() {
            self.reshuffle()?;
        }
        let pick = self.rng.index(self.deck.len());
        let last = self.deck.pop()?;
        Some(match self.deck.get_mut(pick) {
            Some(slot) => std::mem::replace(slot, last),
            None => last,
        })
    }

    /// The discard pile becomes the deck (rare: out of line, off the draw path); `None`
    /// if the pile is empty too.
    #[inline(never)]
    fn reshuffle(&mut self) -> Option<()> {
        if self.pile.len() == 0 {
            return None;
        }
        self.deck.clear();
        for (card, _) in self.pile.iter() {
            let _ = self.deck.push(card);
        }
        self.pile = Default::default();
        self.reshuffles = self.reshuffles.saturating_add(1);
        Some(())
    }

    /// Draws up to `count` cards into `me`'s hand (never past three).
    pub(crate) fn draw(&mut self, me: Seated, count: usize) {
        let wanted = count.min(HAND_SIZE.saturating_sub(self.hands[me].len()));
        for _ in 0..wanted {
            match self.draw_card() {
                Some(card) => {
                    self.hands[me].insert(card);
                }
                None => break,
            }
        }
    }

    /// 最大3枚までカードを補充します.
    pub(crate) fn refill(&mut self, me: Seated) {
        let missing = HAND_SIZE.saturating_sub(self.hand(me).len());
        if missing > 0 {
            self.draw(me, missing);
        }
    }
}
