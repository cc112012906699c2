//! Bots for Bitoku. The rule bot plays greedily on the points it can see: for each
//! choice it plays the rest of its own turn with a plain policy (take what is offered,
//! spend no amulet) and values the result by its virtue points, what the Awakening
//! would give it now, and a little for what it holds (resources, amulets, cards,
//! awake pilgrims, dice still to place). It only ever sees its determinized world.

use crate::state::{Bitoku, DieAt, Phase};
use crate::types::Action;
use takuge_engine::{Bot, BotFactory, Determinized, Game, GameRng, RandomBot, Seat};

/// The game's bots, the default first.
pub fn bots() -> Vec<(&'static str, BotFactory<Bitoku>)> {
    vec![
        ("rule", RuleBot::boxed),
        ("random", RandomBot::<Bitoku>::boxed),
    ]
}

#[derive(Default)]
pub struct RuleBot {
    legal: Vec<Action>,
    scratch: Vec<Action>,
}

impl RuleBot {
    pub fn boxed() -> Box<dyn Bot<Bitoku>> {
        Box::new(RuleBot::default())
    }
}

/// What a state is worth to `me`.
pub(crate) fn value(g: &Bitoku, me: u8) -> f64 {
    let p = g.player(usize::from(me));
    let mut v = f64::from(p.virtue) + f64::from(g.awakening(me).total());
    if g.phase() != Phase::Over {
        v += 0.3 * f64::from(p.resources());
        v += 0.6
            * p.goods
                .amulets
                .iter()
                .enumerate()
                .map(|(k, &a)| f64::from(a) * (k as f64 + 1.0))
                .sum::<f64>();
        v += 0.8 * p.hand.len() as f64;
        v += 0.5 * f64::from(p.awake);
        v += 0.6 * p.mitama.len() as f64;
        for d in p.dice.iter() {
            v += match d.at {
                DieAt::Green => 1.5,
                DieAt::Forest(_) => 0.5,
                _ => 0.0,
            };
        }
    }
    v
}

impl RuleBot {
    /// Plays `me`'s pending choices after `first` with the plain policy.
    fn finish_turn(&mut self, g: &mut Bitoku, me: u8, first: &Action) {
        g.apply_legal(Seat(me), first);
        for _ in 0..24 {
            if g.to_move().first_seat() != Some(Seat(me)) || !g.busy() {
                return;
            }
            g.legal_actions(Seat(me), &mut self.scratch);
            let pick = self
                .scratch
                .iter()
                .find(|a| !matches!(a, Action::Skip | Action::Amulet { .. }))
                .or_else(|| self.scratch.first())
                .copied();
            match pick {
                Some(a) => g.apply_legal(Seat(me), &a),
                None => return,
            }
        }
    }
}

impl Bot<Bitoku> for RuleBot {
    fn name(&self) -> &'static str {
        "rule"
    }

    fn choose(&mut self, world: &Determinized<Bitoku>, rng: &mut GameRng) -> Option<Action> {
        let g = world.state();
        let me = world.seat();
        let mut legal = std::mem::take(&mut self.legal);
        g.legal_actions(me, &mut legal);
        let mut best: Option<(f64, Action)> = None;
        if legal.len() > 1 {
            for a in legal.iter() {
                let mut s = g.clone();
                self.finish_turn(&mut s, me.0, a);
                // A little noise breaks ties between equal choices.
                let mut v = value(&s, me.0) + f64::from(rng.below(100)) / 1000.0;
                if *a == Action::Pass {
                    v -= 0.2;
                }
                if best.as_ref().is_none_or(|(b, _)| v > *b) {
                    best = Some((v, *a));
                }
            }
        }
        let pick = best.map(|(_, a)| a).or_else(|| legal.first().copied());
        self.legal = legal;
        pick
    }
}
