//! The playout: the sampler's actions are drawn from `legal_actions` and so are
//! legal by construction; they are played with `apply_legal` (no second listing for
//! `is_legal`). The very games of the engine's checked loop (the conformance suite
//! compares them).

use crate::state::Bitoku;
use crate::types::Action;
use takuge_engine::bot::sampled_random_playout;
use takuge_engine::GameRng;

impl Bitoku {
    pub(crate) fn playout(
        &mut self,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        sampled_random_playout(self, rng, buf, max_steps)
    }
}
