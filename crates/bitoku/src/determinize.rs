//! Redrawing what a seat cannot see: the other players' hands and decks (each
//! player's own pool: what it holds and what it will draw), the other players' secret
//! Iwakura rocks (with the boxed ones), the order of every deck and tile stack (the
//! seat's own deck included), and the future shuffles.

use crate::state::*;
use takuge_engine::{FixedList, GameRng, Seat};

/// Sorted, then shuffled: a world must depend only on what the seat knows (the same
/// worlds from every state it cannot tell apart).
fn reshuffle<const N: usize>(list: &mut FixedList<u8, N>, rng: &mut GameRng) {
    list.as_mut_slice().sort_unstable();
    rng.shuffle(list.as_mut_slice());
}

impl Bitoku {
    pub(crate) fn redeal_hidden(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut w = self.clone();
        let me = seat.index();
        for (s, p) in w.p.iter_mut().enumerate().take(self.players_usize()) {
            if s == me {
                reshuffle(&mut p.deck, rng);
                continue;
            }
            let mut pool: FixedList<u8, 80> = p.hand.iter().chain(p.deck.iter()).copied().collect();
            reshuffle(&mut pool, rng);
            let mut next = pool.iter().copied();
            let hand = p.hand.len();
            p.hand = next.by_ref().take(hand).collect();
            p.deck = next.collect();
        }
        // Secret rocks: the others' unseen ones and the boxed ones.
        let hidden = |s: usize, p: &Player| s != me && !p.rock_public;
        let mut rocks: FixedList<u8, 20> = w.boxed_rocks.iter().copied().collect();
        for (s, p) in w.p.iter().enumerate().take(self.players_usize()) {
            if hidden(s, p) {
                let _ = rocks.push(p.rock);
            }
        }
        reshuffle(&mut rocks, rng);
        let mut next = rocks.iter().copied();
        for (s, p) in w.p.iter_mut().enumerate().take(self.players_usize()) {
            if hidden(s, p) {
                p.rock = next.next().unwrap_or(p.rock);
            }
        }
        w.boxed_rocks = next.collect();
        reshuffle(&mut w.vision_deck, rng);
        reshuffle(&mut w.bitoku_deck, rng);
        reshuffle(&mut w.yokai_deck, rng);
        reshuffle(&mut w.tengu.deck, rng);
        for rows in w.rows.iter_mut() {
            let [a, b] = rows;
            let mut pool: FixedList<u8, 32> =
                a.stack.iter().chain(b.stack.iter()).copied().collect();
            reshuffle(&mut pool, rng);
            let mut next = pool.iter().copied();
            let n = a.stack.len();
            a.stack = next.by_ref().take(n).collect();
            b.stack = next.collect();
        }
        w.rng = rng.fork();
        w
    }
}
