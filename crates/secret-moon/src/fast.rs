//! The second copies, kept because random playouts (every bot's search, every
//! benchmark) live here — and each built from legal.rs's [`TurnTargets`], never from a
//! rule of its own:
//! - [`SecretMoon::sample`]: a uniform legal action drawn by counting the targets
//!   instead of listing them;
//! - [`SecretMoon::is_legal_fast`]: membership in the targets instead of in the list;
//! - [`SecretMoon::playout`]: the sampler and `apply_legal`, without the provided
//!   `apply`'s list-and-look check.
//!
//! The conformance suite holds each to legal.rs: `is_legal` against the list on near
//! misses, the sampler's uniformity by chi-square, and the playout against
//! `takuge_engine::bot::checked_random_playout` (same actions, state and RNG).

use crate::cards::Slot;
use crate::legal::has;
use crate::state::{Deal, Phase};
use crate::types::Action;
use crate::SecretMoon;
use takuge_engine::{bits, GameRng, Seat};

impl SecretMoon {
    /// A uniformly random legal action: one draw over the number of legal actions,
    /// then the action at that place in `collect_legal`'s order (the kinds in list
    /// order, each kind's targets lowest slot first), so it draws exactly what picking
    /// from the list would.
    #[inline]
    pub(crate) fn sample(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let actor = match self.phase {
            Phase::Turn { actor, .. } if actor == seat => actor,
            // Answers and order cards: a handful, listed.
            _ => {
                self.collect_legal(seat, buf);
                return rng.pick(buf).copied();
            }
        };
        let t = self.turn_targets(actor);
        let roles = t.roles.len() as u32;
        let count = bits::count16;
        let hidden = count(t.observe);
        let sizes = [
            hidden,
            count(t.question),
            hidden * roles,
            count(t.protect),
            count(t.sabotage),
            count(t.capture),
            1,
        ];
        let mut k = rng.below(sizes.iter().sum());
        let card =
            |mask: u16, k: u32| bits::nth(u64::from(mask), k).map(|b| self.deal.card_ref(Slot(b)));
        let seat_at = |mask: u16, k: u32| bits::nth(u64::from(mask), k).map(Seat);
        for (kind, &size) in sizes.iter().enumerate() {
            if k >= size {
                k -= size;
                continue;
            }
            // `k < size` = the number of that kind's targets: `nth` finds one.
            return match kind {
                0 => card(t.observe, k).map(|card| Action::Observe { card }),
                1 => seat_at(t.question, k).map(|target| Action::Question { target }),
                2 => card(t.nominate, k / roles).and_then(|card| {
                    let role = *t.roles.get((k % roles) as usize)?;
                    Some(Action::Nominate { card, role })
                }),
                3 => card(t.protect, k).map(|card| Action::Protect { card }),
                4 => seat_at(t.sabotage, k).map(|target| Action::Sabotage { target }),
                5 => card(t.capture, k).map(|card| Action::Capture { card }),
                _ => Some(Action::Pass),
            };
        }
        Some(Action::Pass)
    }

    /// `collect_legal(seat).contains(action)`, read from the turn's targets without
    /// listing (a turn offers up to 89 actions; the server and the bots ask per action).
    #[inline]
    pub(crate) fn is_legal_fast(&self, seat: Seat, action: &Action) -> bool {
        match (self.phase, *action) {
            (Phase::Turn { actor, .. }, a) if actor == seat => {
                let t = self.turn_targets(actor);
                let slot = |card| self.deal.slot(card);
                let on = |mask: u16, s: Option<Slot>| s.is_some_and(|s| has(mask, s));
                let player = |target: Seat| {
                    (target.0 < self.deal.players).then_some(Deal::seat_slot(target))
                };
                match a {
                    Action::Observe { card } => on(t.observe, slot(card)),
                    Action::Question { target } => on(t.question, player(target)),
                    Action::Nominate { card, role } => {
                        on(t.nominate, slot(card)) && t.roles.contains(&role)
                    }
                    Action::Protect { card } => on(t.protect, slot(card)),
                    Action::Sabotage { target } => on(t.sabotage, player(target)),
                    Action::Capture { card } => on(t.capture, slot(card)),
                    Action::Pass => true,
                    Action::TakeOrderCard { .. } | Action::Answer { .. } => false,
                }
            }
            // A handful of actions: list and look.
            _ => {
                let mut legal = Vec::new();
                self.collect_legal(seat, &mut legal);
                legal.contains(action)
            }
        }
    }

    /// The checked random playout, without the check: the sampler's actions are
    /// legal by construction, so they go straight to `apply_legal`, which draws from
    /// the game's RNG exactly as the provided `apply` would (the engine's loop).
    #[inline]
    pub(crate) fn playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        takuge_engine::bot::sampled_random_playout(self, rng, buf, max_steps)
    }
}
