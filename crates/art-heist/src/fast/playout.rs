//! The random playout (`Game::random_playout`), played in place: each secret choice's
//! seats are drawn in one pass, an exhibit is put together letter by letter in a tight
//! loop, piles and steals are drawn and played without building `Action` values.
//!
//! The draws are exactly those of `ArtHeist::sample` (the engine's checked loop asks
//! the lowest pending seat each time, and a seat stays pending until its exhibit is
//! whole), and the effects those of `rules/` (the reveals and resolutions are the same
//! functions), so these are the same games; the conformance suite and
//! tests/conformance.rs play both loops side by side, whole and cut off mid-turn. The
//! state is kept as `apply` would leave it after every step, so the playout can stop
//! anywhere (`max_steps`).

use crate::cards::{ArtCard, Pile, ALL_SEATS, PLAYERS};
use crate::legal::{next_letter_of, NextLetter};
use crate::state::{kind_bit, lowest, seat_bit, ArtHeist, Phase};
use crate::types::SeatId;
use takuge_engine::bits;
use takuge_engine::GameRng;

/// Why an exhibit being put together stopped.
enum Exhibit {
    /// Every letter has its cards, or the seat showed nothing: the seat has chosen.
    Chosen,
    /// Out of steps, or a state no legal play reaches: the playout ends here.
    Stop,
}

impl ArtHeist {
    pub(crate) fn playout_in_place(&mut self, rng: &mut GameRng, max_steps: usize) -> usize {
        let mut steps = 0usize;
        // A turn's phases as tests in their order, not a `match`: one pass of the loop
        // is usually a whole turn, and each test follows from the ones before it. A
        // `match` compiles to a jump table whose target changes at every phase (≈ 190
        // mispredicted indirect jumps a game in cachegrind's model). Each block returns
        // when no seat is pending (only real seats), as at the end of the game.
        loop {
            if self.phase == Phase::Location {
                let rest = self.pending & ALL_SEATS;
                if rest == 0 {
                    return steps;
                }
                // With room for every seat's step, the loop runs without a test of
                // `max_steps` per step.
                let done = if max_steps.saturating_sub(steps) >= PLAYERS {
                    self.places_in_place::<false>(rest, rng, &mut steps, max_steps)
                } else {
                    self.places_in_place::<true>(rest, rng, &mut steps, max_steps)
                };
                if !done {
                    return steps;
                }
                self.after_locations();
            }
            if self.phase == Phase::AuctionCards {
                let pending = self.pending & ALL_SEATS;
                if pending == 0 {
                    return steps;
                }
                let Some(kinds) = self.cards(pending, rng, &mut steps, max_steps) else {
                    return steps;
                };
                self.resolve_auction_of(kinds);
            }
            if let Phase::AuctionPile { .. } = self.phase {
                let Some(p) = lowest(self.pending) else {
                    return steps;
                };
                if steps >= max_steps {
                    return steps;
                }
                let pile = match (self.piles[0].is_empty(), self.piles[1].is_empty()) {
                    (false, false) if rng.below(2) == 0 => Pile::Left,
                    (false, false) | (true, false) => Pile::Right,
                    (false, true) => Pile::Left,
                    (true, true) => return steps,
                };
                self.finish_auction(p, pile);
                steps += 1;
            }
            if self.phase == Phase::CastleCards {
                let pending = self.pending & ALL_SEATS;
                if pending == 0 {
                    return steps;
                }
                let Some(kinds) = self.cards(pending, rng, &mut steps, max_steps) else {
                    return steps;
                };
                self.resolve_castle_cards_of(kinds);
            }
            if matches!(self.phase, Phase::Exhibiting | Phase::FinalExhibit) {
                let mut rest = self.pending & ALL_SEATS;
                if rest == 0 {
                    return steps;
                }
                while let Some(p) = lowest(rest) {
                    match self.exhibit_in_place(p, rng, &mut steps, max_steps) {
                        Exhibit::Chosen => rest &= !seat_bit(p),
                        Exhibit::Stop => {
                            self.pending = rest;
                            return steps;
                        }
                    }
                }
                self.pending = 0;
                self.all_chosen();
            }
            if self.phase == Phase::Stealing {
                let Some(p) = lowest(self.pending) else {
                    return steps;
                };
                if steps >= max_steps {
                    return steps;
                }
                let Some(e) = self.robbed() else {
                    return steps;
                };
                let Some(a) = bits::pick(self.exhibit[e], rng) else {
                    return steps;
                };
                self.steal_chosen(p, ArtCard(a));
                steps += 1;
            }
            if self.phase == Phase::Over {
                return steps;
            }
        }
    }

    /// The pending seats `rest` choose their places, lowest seat first; `false` if the
    /// playout stops first. `CHECK`: whether a step may reach `max_steps`.
    #[inline(always)]
    fn places_in_place<const CHECK: bool>(
        &mut self,
        mut rest: u8,
        rng: &mut GameRng,
        steps: &mut usize,
        max_steps: usize,
    ) -> bool {
        // Gathered in registers, stored once (a draw may refill the generator, a call the
        // compiler does not see through).
        let (mut castle_seats, mut auction_seats) = (0u8, 0u8);
        if !CHECK && rest == ALL_SEATS {
            // Everyone plays (most turns): five draws in a row, no loop whose end the
            // branch predictor must find.
            for p in 0..PLAYERS {
                castle_seats |= (rng.below(2) as u8) << p;
            }
            self.at_castle |= castle_seats;
            self.at_auction |= ALL_SEATS & !castle_seats;
            self.pending = 0;
            *steps += PLAYERS;
            return true;
        }
        while rest != 0 {
            if CHECK && *steps >= max_steps {
                self.at_castle |= castle_seats;
                self.at_auction |= auction_seats;
                self.pending = rest;
                return false;
            }
            let me = rest & rest.wrapping_neg();
            // Auction house on 0, castle on 1, without a branch on a coin flip (a
            // mispredicted jump half the time).
            let castle = (rng.below(2) as u8).wrapping_neg() & me;
            castle_seats |= castle;
            auction_seats |= me ^ castle;
            rest &= rest - 1;
            *steps += 1;
        }
        self.at_castle |= castle_seats;
        self.at_auction |= auction_seats;
        self.pending = 0;
        true
    }

    /// [`Self::cards_in_place`], without a test of `max_steps` per step when there is
    /// room for every seat's.
    #[inline(always)]
    fn cards(
        &mut self,
        pending: u8,
        rng: &mut GameRng,
        steps: &mut usize,
        max_steps: usize,
    ) -> Option<[u8; 4]> {
        if max_steps.saturating_sub(*steps) >= PLAYERS {
            self.cards_in_place::<false>(pending, rng, steps, max_steps)
        } else {
            self.cards_in_place::<true>(pending, rng, steps, max_steps)
        }
    }

    /// The pending seats set their action cards face down, lowest seat first: the kinds
    /// of the cards played (see `playing`), or `None` if the playout stops first.
    #[inline(always)]
    fn cards_in_place<const CHECK: bool>(
        &mut self,
        pending: u8,
        rng: &mut GameRng,
        steps: &mut usize,
        max_steps: usize,
    ) -> Option<[u8; 4]> {
        // Gathered as they are drawn (those chosen before the playout began, read from
        // the table).
        let mut kinds = u32::from_le_bytes(self.playing(self.choosing() & !pending));
        let mut rest = pending;
        while let Some(p) = lowest(rest) {
            if CHECK && *steps >= max_steps {
                self.pending = rest;
                return None;
            }
            let n = u32::from(self.hand_len[p]);
            // The `k`-th card in bit order, as `sample` draws it, read from the list.
            let Some(card) = self.hand[p].card(rng.below(n)) else {
                self.pending = rest;
                return None;
            };
            self.played[p] = Some(card);
            kinds |= kind_bit(p, card);
            rest &= !seat_bit(p);
            *steps += 1;
        }
        self.pending = 0;
        Some(kinds.to_le_bytes())
    }

    /// Seat `p` puts its exhibit together (or shows nothing), from wherever it is: the
    /// run of letters first, then the cards of each letter in turn.
    #[inline]
    fn exhibit_in_place(
        &mut self,
        p: SeatId,
        rng: &mut GameRng,
        steps: &mut usize,
        max_steps: usize,
    ) -> Exhibit {
        let hand = self.art[p];
        let run = match self.run[p] {
            Some(run) => run,
            None => {
                if *steps >= max_steps {
                    return Exhibit::Stop;
                }
                *steps += 1;
                match self.draw_run(hand, rng) {
                    None => return Exhibit::Chosen,
                    Some(r) => {
                        self.run[p] = Some(r);
                        r
                    }
                }
            }
        };
        let to = run.to();
        let mut sel = self.exhibit[p];
        // Letter by letter from where the exhibit stands (each step shows cards of its
        // letter, so the next is the one after).
        let mut letter = next_letter_of(sel, run.from());
        loop {
            if *steps >= max_steps {
                return Exhibit::Stop;
            }
            let Some(next) = NextLetter::at(hand, sel, letter, to) else {
                return Exhibit::Stop;
            };
            let Some(set) = next.random_choice(rng) else {
                return Exhibit::Stop;
            };
            sel |= set;
            self.exhibit[p] = sel;
            *steps += 1;
            if next.is_last() {
                return Exhibit::Chosen;
            }
            letter += 1;
        }
    }
}
