//! Determinization: redrawing what a seat cannot see.

// ---- determinization ----

use super::state::{seat_bit, seats, ArtHeist, Phase, Stack};
use crate::cards::{bits, ArtCard, MAX_ART, PLAYERS};
use takuge_engine::GameRng;

impl ArtHeist {
    /// Redeals every art card `s` cannot see — other players' unseen cards and the piles
    /// below their face-up tops — keeping how many each holds. Nothing more is known of
    /// them: showing no exhibit is always allowed, so not even a failure tells.
    pub(crate) fn redeal_hidden_art(&mut self, s: usize, rng: &mut GameRng) {
        let hidden = self.rules().all_art() & !self.public_art & !self.art[s];
        let mut pool = Stack::<MAX_ART>::new();
        for a in bits(hidden) {
            pool.push(a);
        }
        rng.shuffle(pool.as_mut_slice());
        let mut next = pool.as_slice().iter().copied();
        for p in (0..PLAYERS).filter(|&p| p != s) {
            let unseen = self.art[p] & !self.public_art;
            let mut fresh = self.art[p] & self.public_art;
            for _ in 0..unseen.count_ones() {
                if let Some(a) = next.next() {
                    fresh |= ArtCard(a).bit();
                }
            }
            self.art[p] = fresh;
        }
        for pile in &mut self.piles {
            let below_top = pile.len().saturating_sub(1);
            for slot in pile.as_mut_slice().iter_mut().take(below_top) {
                if let Some(a) = next.next() {
                    *slot = a;
                }
            }
        }
    }

    /// Redraws the face-down choices of the other seats in the secret choice under way.
    pub(crate) fn redraw_hidden_choices(&mut self, s: usize, rng: &mut GameRng) {
        let others = self.choosing() & !self.pending & !seat_bit(s);
        match self.phase {
            Phase::Location => {
                for p in seats(others) {
                    let bit = seat_bit(p);
                    self.at_auction &= !bit;
                    self.at_castle &= !bit;
                    if rng.chance(1, 2) {
                        self.at_auction |= bit;
                    } else {
                        self.at_castle |= bit;
                    }
                }
            }
            Phase::AuctionCards | Phase::CastleCards => {
                for p in seats(others) {
                    let hand = self.cards[p];
                    let k = rng.below(hand.count_ones());
                    if let Some(c) = bits(hand).nth(k as usize) {
                        self.played[p] = c;
                    }
                }
            }
            Phase::Exhibiting | Phase::FinalExhibit => {
                let choosing = self.choosing() & !seat_bit(s);
                for p in seats(choosing) {
                    self.exhibit[p] = if others & seat_bit(p) != 0 {
                        self.random_exhibit(self.art[p], rng)
                    } else {
                        // Still putting it together: begin again from nothing.
                        0
                    };
                }
            }
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => {}
        }
    }
}
