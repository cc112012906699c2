//! Determinization: redrawing what a seat cannot see.

use crate::cards::{ArtCard, MAX_ART, PLAYERS};
use crate::legal::next_of;
use crate::state::{seat_bit, seats, ArtHeist, Phase};
use crate::types::SeatId;
use takuge_engine::{bits, FixedList, GameRng, Seat, Seated};

impl ArtHeist {
    /// `Game::determinize`.
    pub(crate) fn determinized(&self, seat: Seat, rng: &mut GameRng) -> ArtHeist {
        let mut world = self.clone();
        let Some(s) = Seated::check(seat, PLAYERS) else {
            return world;
        };
        if self.phase == Phase::Over {
            return world;
        }
        world.redeal_hidden_art(s, rng);
        world.redraw_hidden_choices(s, rng);
        world
    }

    /// Redeals every art card `s` cannot see — other players' unseen cards and the piles
    /// below their face-up tops — keeping how many each holds. Nothing more is known of
    /// them: showing no exhibit is always allowed, so not even a failure tells.
    fn redeal_hidden_art(&mut self, s: SeatId, rng: &mut GameRng) {
        let hidden = self.rules().all_art() & !self.public_art & !self.art[s];
        let mut pool = FixedList::<ArtCard, MAX_ART>::new();
        for a in bits::iter(hidden) {
            // At most 64 cards: a 64-bit set.
            let _ = pool.push(ArtCard(a));
        }
        rng.shuffle(pool.as_mut_slice());
        let mut next = pool.iter().copied();
        for p in SeatId::all(PLAYERS).filter(|&p| p != s) {
            let unseen = self.art[p] & !self.public_art;
            let mut fresh = self.art[p] & self.public_art;
            for _ in 0..bits::count(unseen) {
                if let Some(a) = next.next() {
                    fresh |= a.bit();
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
    fn redraw_hidden_choices(&mut self, s: SeatId, rng: &mut GameRng) {
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
                    let k = rng.below(bits::count(hand));
                    if let Some(c) = bits::nth(hand, k) {
                        self.played[p] = Some(crate::cards::ActionCard(c));
                    }
                }
            }
            Phase::Exhibiting | Phase::FinalExhibit => {
                let choosing = self.choosing() & !seat_bit(s);
                for p in seats(choosing) {
                    self.exhibit[p] = if others & seat_bit(p) != 0 {
                        self.random_exhibit(self.art[p], rng)
                    } else {
                        // Still putting it together: begin again from nothing, letters
                        // included — they are as secret as the cards, and the hand they
                        // were chosen from may have been redealt.
                        self.run[p] = None;
                        0
                    };
                }
            }
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => {}
        }
    }

    /// A random valid exhibit from `hand`, put together the way a player does (0 if
    /// the hand has none).
    fn random_exhibit(&self, hand: u64, rng: &mut GameRng) -> u64 {
        let runs = self.rules().runs_of(hand);
        let Some(&run) = rng.pick(runs) else {
            return 0;
        };
        let mut sel = 0;
        while let Some(next) = next_of(hand, sel, run) {
            match next.random_choice(rng) {
                Some(set) => sel |= set,
                None => return 0,
            }
        }
        sel
    }
}
