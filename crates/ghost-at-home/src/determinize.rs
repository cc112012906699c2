//! Redrawing what a seat cannot see: the other hands, the other players' face-down
//! discards and the deck (and so every future draw).

use crate::cards::Card;
use crate::hand::{Hand, FILLER};
use crate::state::GhostAtHome;
use crate::types::{Owner, Seated, MAX_CARDS};
use takuge_engine::{GameRng, Seat};

impl GhostAtHome {
    pub(crate) fn determinize_for(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut world = self.clone();
        // Everything `seat` has not seen: the other hands, the other players' face-down
        // discards, the deck (and so its order), and the future shuffles.
        let me = self.seated(seat);
        let mut pool = [FILLER; MAX_CARDS];
        let mut n = 0;
        let mut push = |c: Card| {
            if let Some(slot) = pool.get_mut(n) {
                *slot = c;
                n += 1;
            }
        };
        let others = Seated::all(self.players_usize()).filter(|&s| Some(s) != me);
        for other in others.clone() {
            for &c in self.hand(other).list().as_slice() {
                push(c);
            }
        }
        let hidden = |owner: Owner| matches!(owner, Owner::Secret(s) if Some(s) != me);
        for (c, owner) in self.pile.iter() {
            if hidden(owner) {
                push(c);
            }
        }
        for &c in self.deck.as_slice() {
            push(c);
        }
        let pool = pool.get_mut(..n).unwrap_or(&mut []);
        // Sorted first: the pool was gathered where the cards truly are, and a world
        // must depend only on what the seat knows (the same worlds from every state it
        // cannot tell apart).
        pool.sort_unstable();
        rng.shuffle(pool);
        let mut next = pool.iter().copied();
        for other in others {
            let mut hand = Hand::default();
            for _ in 0..self.hand(other).len() {
                if let Some(c) = next.next() {
                    hand.insert(c);
                }
            }
            world.hands[other] = hand;
        }
        for discarded in world.pile.0.as_mut_slice() {
            if hidden(discarded.owner()) {
                if let Some(c) = next.next() {
                    discarded.card = c;
                }
            }
        }
        world.deck.clear();
        for c in next {
            let _ = world.deck.push(c);
        }
        world.rng = rng.fork();
        world
    }
}
