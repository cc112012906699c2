//! Bots for Bitoku. The rule bot plays greedily on the points it can see: for each
//! choice it plays the rest of its own turn with a plain policy (take what is offered,
//! spend no amulet) and values the result by its virtue points, what the Awakening
//! would give it now, and a little for what it holds (resources, amulets, cards,
//! awake pilgrims, dice still to place). It only ever sees its determinized world.

use crate::state::{Bitoku, DieAt, Phase, Settled};
use crate::types::Action;
use takuge_engine::{Bot, BotFactory, Determinized, Game, GameRng, RandomBot, Seat};

/// The game's bots, the default first: the balanced rule bot, one rule bot per
/// strategy (it values its strategy's things beyond their points), and random.
pub fn bots() -> Vec<(&'static str, BotFactory<Bitoku>)> {
    vec![
        ("rule", RuleBot::boxed),
        ("yokai", || RuleBot::with(Strategy::Yokai)),
        ("builder", || RuleBot::with(Strategy::Buildings)),
        ("crystals", || RuleBot::with(Strategy::Crystals)),
        ("kodama", || RuleBot::with(Strategy::Kodama)),
        ("visions", || RuleBot::with(Strategy::Visions)),
        ("random", RandomBot::<Bitoku>::boxed),
    ]
}

/// What a strategy bot goes after.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Strategy {
    #[default]
    Balanced,
    /// Yokai owned and retired.
    Yokai,
    /// Buildings built.
    Buildings,
    /// Crystals set and pilgrims woken.
    Crystals,
    /// Kodama on the tracks (lake treasures).
    Kodama,
    /// Visions met, Bitoku cards on the path.
    Visions,
}

#[derive(Default)]
pub struct RuleBot {
    strategy: Strategy,
    legal: Vec<Action>,
    scratch: Vec<Action>,
}

impl RuleBot {
    pub fn boxed() -> Box<dyn Bot<Bitoku>> {
        Box::new(RuleBot::default())
    }

    pub fn with(strategy: Strategy) -> Box<dyn Bot<Bitoku>> {
        Box::new(RuleBot {
            strategy,
            ..RuleBot::default()
        })
    }
}

/// The strategy's extra value of a state (only before the game ends: the points
/// decide at the end).
fn leaning(g: &Bitoku, me: u8, strategy: Strategy) -> f64 {
    use crate::types::Count;
    let count = |c: Count| f64::from(g.count(me, c));
    match strategy {
        Strategy::Balanced => 0.0,
        Strategy::Yokai => 1.0 * count(Count::YokaiRetired) + 0.5 * count(Count::YokaiOwned),
        Strategy::Buildings => 1.5 * count(Count::BuildingsBuilt),
        Strategy::Crystals => 1.5 * count(Count::Crystals),
        Strategy::Kodama => {
            0.4 * g
                .player(usize::from(me))
                .kodama
                .iter()
                .map(|&k| f64::from(k))
                .sum::<f64>()
        }
        Strategy::Visions => 1.0 * count(Count::Visions) + 1.0 * count(Count::BitokuCards),
    }
}

/// What a die pip is worth before the end (beyond the Awakening's F step): dice keep
/// their values from year to year, so a raise (an amulet, a mitama, a dragonfly, a
/// yokai) lasts.
const PIP: f64 = 0.6;

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
        // A dragonfly is a free action every year.
        v += 1.0 * p.dragonflies.len() as f64;
        // A raise waiting for the next die (a mitama, a dragonfly, a yokai).
        v += PIP * f64::from(p.raise);
        // A building owned is worth its value: its threshold and its power, for the
        // owner's bonus and its own die's action (without this, only the cheapest
        // buildings were ever built).
        for region in g.settlements.iter() {
            for s in region {
                if let Settled::Building { tile, owner } = *s {
                    if owner == me {
                        let built = crate::state::c().tiles.building.get(usize::from(tile));
                        v += 0.25 * f64::from(built.map_or(0, |b| b.value));
                    }
                }
            }
        }
        for d in p.dice.iter() {
            // A die keeps its value from year to year: a pip is lasting.
            v += PIP * f64::from(d.value);
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
        match self.strategy {
            Strategy::Balanced => "rule",
            Strategy::Yokai => "yokai",
            Strategy::Buildings => "builder",
            Strategy::Crystals => "crystals",
            Strategy::Kodama => "kodama",
            Strategy::Visions => "visions",
        }
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
                if s.phase() != Phase::Over {
                    v += leaning(&s, me.0, self.strategy);
                }
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
