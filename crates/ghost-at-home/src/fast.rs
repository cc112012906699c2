//! The second copies, clearly second: what must stay fast for random playouts (the
//! Monte Carlo bot and every benchmark run through here). Each is built from the
//! predicates of `legal.rs` and checked against `legal_actions` by the conformance
//! suite (`tests/conformance.rs`: the fast `is_legal` equals membership of the list on
//! near misses, `sample_action` is uniform over the list, and `random_playout` plays
//! exactly the games of the engine's checked loop) and by `tests/rules.rs`.
//!
//! - [`GhostAtHome::sample_action`]: a uniform draw over `legal_actions` without
//!   listing them in the two-way questions, the discard step and most turns
//!   (`sample_turn`: count the actions by kind, draw one number, build that action).
//! - [`GhostAtHome::is_legal_fast`]: the turn's actions asked one by one
//!   ([`GhostAtHome::turn_action_fits`]), the discard step by
//!   [`GhostAtHome::discard_fits`]; the short lists are walked.
//! - [`GhostAtHome::random_playout_fast`]: the drawn actions are played with `play`,
//!   the effect `apply_legal` performs, without `apply`'s check.

use crate::cards::{Card, Floor};
use crate::hand::{CardList, Cards, Hand, FILLER, SPECIAL_ACTION_BITS};
use crate::legal::{light_set, rooms_fit, NO_SPACE};
use crate::state::{GhostAtHome, Phase};
use crate::types::{Action, Seated, HAND_SIZE};
use takuge_engine::{bits, GameRng, Seat};

/// The positions (bit 0 = first card of a hand's list) among the first `len` where
/// the card has some property.
#[inline]
fn positions(a: bool, b: bool, c: bool, len: usize) -> u32 {
    let all = (1u32 << len.min(HAND_SIZE)) - 1;
    (u32::from(a) | u32::from(b) << 1 | u32::from(c) << 2) & all
}

/// The parts (bit `i` = the part taking the positions of `i + 1`) that take only
/// positions in `allowed`.
#[inline]
fn subsets(allowed: u32) -> u32 {
    const SUBSETS: [u32; 8] = {
        let mut table = [0; 8];
        let mut allowed = 0;
        while allowed < 8 {
            let mut i = 0;
            while i < 7 {
                if (i + 1) & !allowed == 0 {
                    table[allowed as usize] |= 1 << i;
                }
                i += 1;
            }
            allowed += 1;
        }
        table
    };
    SUBSETS[(allowed & 7) as usize]
}

/// The parts of two or three cards (positions 0b011, 0b101, 0b110, 0b111).
const SEVERAL_CARDS: u32 = 0b111_0100;

/// The `k`-th set bit of a small mask (`bits::nth`), as a `u32` position (32 for none,
/// which no caller reaches: `k` is always drawn below the mask's count).
#[inline]
fn nth(mask: u32, k: u32) -> u32 {
    bits::nth(u64::from(mask), k).map_or(32, u32::from)
}

/// The number of set bits of a small mask (`bits::count`: a table, not a library call).
#[inline]
fn count(mask: u32) -> u32 {
    bits::count(u64::from(mask))
}

impl GhostAtHome {
    /// Uniform over `legal_actions`, without listing them in the frequent two-way
    /// questions and in most turns (`sample_turn`).
    pub(crate) fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let me = self.seated(seat)?;
        let hand = self.hand(me);
        let either = |rng: &mut GameRng, a: Action, b: Action| {
            if rng.below(2) == 0 {
                a
            } else {
                b
            }
        };
        match self.phase {
            Phase::Defence { target, .. } if me == target => Some(if hand.contains(Card::Cat) {
                either(rng, Action::NoDefence, Action::DefendWithCat)
            } else {
                Action::NoDefence
            }),
            Phase::Escape { asking, .. } if me == asking => Some(if hand.contains(Card::Ghost) {
                either(rng, Action::LetEscape, Action::StopEscape)
            } else {
                Action::LetEscape
            }),
            Phase::Discarding if me == self.active => Self::sample_discard(hand, rng),
            Phase::Choose if me == self.active => match self.sample_turn(me, rng) {
                Some(action) => Some(action),
                None => self.sample_listed(seat, rng, buf),
            },
            _ => self.sample_listed(seat, rng, buf),
        }
    }

    /// One part of the hand to discard face down, uniformly (the list's
    /// `Hand::for_each_part`). Always inline: called out of line from the playout it
    /// cost about 530 instructions a 4-player game (callgrind), most of a random game's
    /// steps being discards.
    #[inline(always)]
    fn sample_discard(hand: Hand, rng: &mut GameRng) -> Option<Action> {
        let list = hand.list();
        let i = bits::pick(u64::from(Hand::part_mask(&list)), rng)?;
        let part = Hand::part(&list, u32::from(i));
        Some(Action::DiscardCards { cards: Cards(part) })
    }

    /// One of `turn_actions`, drawn uniformly without listing them (most steps of a
    /// random game): the actions are counted by kind, one number is drawn, and only that
    /// action is built. `None` if the hand holds a special card other than a wild room
    /// (rare; the caller lists the actions then).
    fn sample_turn(&self, me: Seated, rng: &mut GameRng) -> Option<Action> {
        let hand = self.hand(me);
        if hand.len() == 0 {
            return Some(Action::Pass);
        }
        if hand.0 & SPECIAL_ACTION_BITS != 0 {
            return None;
        }
        let house = self.house(me);
        // One-card actions: a ghost at each target (bit = seat), a cat on each floor.
        let mut ghost_targets = 0u32;
        if hand.contains(Card::Ghost) {
            for (seat, h) in self.houses.iter(self.players_usize()) {
                ghost_targets |= u32::from(h.ghost_floor().is_some()) << seat.index();
            }
            ghost_targets &= !(1 << me.index());
        }
        let ghosts = count(ghost_targets);
        let (mut cat_floors, mut cats) = (0u32, 0u32);
        if hand.contains(Card::Cat) {
            for floor in Floor::ALL {
                if house.room_for_cat(floor) {
                    cat_floors |= 1 << floor.index();
                    cats += 1;
                }
            }
        }
        // Parts of the hand that may be played as rooms or may light, named by the
        // positions they take in `list` (bit 0 = its first card). Only worked out when
        // the hand could do either.
        let spaces = house.room_spaces();
        // A room play needs a room of the open floor or a wild room (the cards fill the
        // open floor first); it is made of rooms only.
        let open_byte = spaces[1] & !NO_SPACE;
        // `&` and `|`, not `&&` and `||`: both sides are a few bit operations, and as
        // jumps they went either way at random (a mispredicted branch every few turns).
        let rooms_possible = (spaces[1] & NO_SPACE == 0)
            & ((hand.rooms_per_floor() & (open_byte * 0xFF) != 0) | hand.contains(Card::WildRoom));
        // A light is 2 or 3 printed rooms.
        let light_floors = if hand.bulbs() >= 5 {
            u32::from(house.light_mask())
        } else {
            0
        };
        let list = if rooms_possible || light_floors != 0 {
            hand.list()
        } else {
            CardList {
                cards: [FILLER; HAND_SIZE],
                len: 0,
            }
        };
        let [a, b, c] = list.cards;
        let part_mask = Hand::part_mask(&list);
        let room_candidates = if rooms_possible {
            let is_room = |card: Card| card.is_printed_room() || card == Card::WildRoom;
            let rooms = positions(is_room(a), is_room(b), is_room(c), list.len);
            part_mask & subsets(rooms)
        } else {
            0
        };
        let light_candidates = if light_floors != 0 {
            let printed = positions(
                a.is_printed_room(),
                b.is_printed_room(),
                c.is_printed_room(),
                list.len,
            );
            part_mask & subsets(printed) & SEVERAL_CARDS
        } else {
            0
        };
        let ghosts_cats = ghosts + cats;
        let rooms = count(room_candidates);
        let per_set = count(light_floors);
        let lights = count(light_candidates) * per_set;
        // Rejection sampling: a uniform draw over every candidate; a candidate that
        // turns out not to be legal (a room set that does not fit, cards that do not
        // light) is drawn again, which leaves every legal action equally likely while
        // checking only the candidates drawn.
        let total = ghosts_cats + rooms + lights + 1;
        for _ in 0..64 {
            let mut r = rng.below(total);
            if r < ghosts {
                let target = self.seated(Seat(nth(ghost_targets, r) as u8))?;
                return Some(Action::PlayGhost {
                    target: target.seat(),
                });
            }
            r -= ghosts;
            if r < cats {
                let floor = Floor::from_index(nth(cat_floors, r) as usize)?;
                return Some(Action::PlayCat { floor });
            }
            r -= cats;
            if r < rooms {
                if let Some(part) = Self::rooms_part(&list, &spaces, nth(room_candidates, r)) {
                    return Some(Action::PlayRooms { cards: Cards(part) });
                }
                continue;
            }
            r -= rooms;
            if r < lights {
                if let Some(part) = Self::light_part(&list, nth(light_candidates, r / per_set)) {
                    let floor = Floor::from_index(nth(light_floors, r % per_set) as usize)?;
                    return Some(Action::Light {
                        cards: Cards(part),
                        floor,
                    });
                }
                continue;
            }
            return Some(Action::Discard);
        }
        // Practically never (discarding is always legal, so each draw has a fair
        // chance): the caller lists the actions, uniform as well.
        None
    }

    /// Part `i` of the hand `list`, if it can be played as rooms now. Kept out of line:
    /// inlined, its set-up is hoisted to the start of `sample_turn`, where most turns
    /// (a discard, a ghost, a cat) pay for it without using it.
    #[inline(never)]
    fn rooms_part(list: &CardList, spaces: &[u32; HAND_SIZE + 1], i: u32) -> Option<Hand> {
        let part = Hand::part(list, i);
        rooms_fit(spaces, part).then_some(part)
    }

    /// Part `i` of the hand `list`, if discarding it turns on a light (out of line, as
    /// [`GhostAtHome::rooms_part`]).
    #[inline(never)]
    fn light_part(list: &CardList, i: u32) -> Option<Hand> {
        let part = Hand::part(list, i);
        light_set(part).then_some(part)
    }

    /// A uniform draw from the listed legal actions: on the stack, and only a rare long
    /// list (special cards) goes to `buf`.
    fn sample_listed(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let mut list = [Action::Pass; 32];
        let mut n = 0;
        self.for_each_legal(seat, |a| {
            if let Some(slot) = list.get_mut(n) {
                *slot = a;
            }
            n += 1;
        });
        if n == 0 {
            None
        } else if n <= list.len() {
            list.get(rng.below(n as u32) as usize).copied()
        } else {
            buf.clear();
            self.for_each_legal(seat, |a| buf.push(a));
            buf.get(rng.index(buf.len())).copied()
        }
    }

    /// Whether `seat` may play `action` now, without listing the turn's actions: each
    /// asked of the predicate `turn_actions` lists by; the short lists are walked.
    pub(crate) fn is_legal_fast(&self, seat: Seat, action: &Action) -> bool {
        let Some(me) = self.seated(seat) else {
            return false;
        };
        let hand = self.hand(me);
        match (self.phase, *action) {
            (Phase::Choose, action) if me == self.active && hand.len() > 0 => {
                self.turn_action_fits(me, hand, action)
            }
            (Phase::Discarding, Action::DiscardCards { cards }) if me == self.active => {
                Self::discard_fits(hand, cards)
            }
            _ => {
                let mut listed = false;
                self.for_each_legal(seat, |a| listed |= a == *action);
                listed
            }
        }
    }

    /// Random actions until the game ends or `max_steps` were played: the games the
    /// engine's checked loop plays (`sample_action`, then `apply`), with the drawn
    /// actions played by `play` (what `apply_legal` does) since they are legal.
    pub(crate) fn random_playout_fast(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        let mut steps = 0;
        while steps < max_steps {
            // The two steps of a discard, most of a random game's actions, drawn as
            // `sample_action` draws them but without asking who moves and matching the
            // phase again: the active seat.
            let (me, action) = match self.phase {
                Phase::Choose => match self.sample_turn(self.active, rng) {
                    Some(Action::Discard) => {
                        self.start_discard();
                        steps += 1;
                        continue;
                    }
                    Some(action) => (self.active, action),
                    None => match self.sample_listed(self.active.seat(), rng, buf) {
                        Some(action) => (self.active, action),
                        None => break,
                    },
                },
                Phase::Discarding => match Self::sample_discard(self.hand(self.active), rng) {
                    Some(action) => (self.active, action),
                    None => break,
                },
                Phase::Defence { target: me, .. } | Phase::Escape { asking: me, .. } => {
                    match self.sample_action(me.seat(), rng, buf) {
                        Some(action) => (me, action),
                        None => break,
                    }
                }
                Phase::Over { .. } => break,
            };
            self.play(me, action);
            steps += 1;
        }
        steps
    }
}
