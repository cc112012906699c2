//! Bots for Bitoku. The rule bot plays greedily on the points it can see: for each
//! choice it plays the rest of its own turn with a plain policy (take what is offered;
//! spend amulets only where the die's action gets better) and values the result by its
//! virtue points, what the Awakening would give it now, and a little for what it holds
//! (resources, amulets, cards, awake pilgrims, dice still to place). It only ever sees
//! its determinized world.
//!
//! A strategy bot is the same bot with a [`Leaning`]: what its strategy's things are
//! worth to it beyond their points (an investment that pays later: a building's bonus
//! every time it is used, a crystal's income, a yokai to retire next winter), and what
//! it needs to get them (the resources a building or a crystal costs, high dice for the
//! actions of value 4 and 6). It stays a one-turn greedy bot: no search.

use crate::state::{c, Bitoku, DieAt, Phase, Settled, Sub};
use crate::types::{Action, Count};
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
    /// Yokai taken from the hills and retired.
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

/// What a strategy's things are worth to it beyond their points, in virtue points.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Leaning {
    /// Each building owned.
    pub building: f64,
    /// Each crystal set.
    pub crystal: f64,
    /// Each yokai owned beyond the five starting ones (hand, deck, discard, board).
    pub yokai_owned: f64,
    /// Each yokai retired.
    pub yokai_retired: f64,
    /// Each kodama step on the tracks, and each track the seat leads (no kodama
    /// ahead of its own).
    pub kodama: f64,
    pub lead: f64,
    /// Each vision held, each vision met, and each vision's progress towards its
    /// condition.
    pub vision: f64,
    pub vision_met: f64,
    pub vision_progress: f64,
    /// Each Bitoku card on the path.
    pub bitoku: f64,
    /// Each resource (wood, stone, jade, sake) held.
    pub res: [f64; 4],
    /// Each pip of the seat's highest die up to 6 (the actions of value 4 and 6 build
    /// and buy crystals).
    pub high_die: f64,
}

impl Strategy {
    /// The strategy's leaning; the balanced bot has none.
    pub fn leaning(self) -> Leaning {
        let none = Leaning::default();
        match self {
            Strategy::Balanced => none,
            Strategy::Yokai => Leaning {
                yokai_owned: 2.5,
                yokai_retired: 3.0,
                ..none
            },
            Strategy::Buildings => Leaning {
                building: 9.0,
                // Buildings cost wood and stone (temples and onsen stone, farms and
                // ryokan wood), the dearer ones jade or sake too.
                res: [0.5, 0.6, 0.2, 0.2],
                high_die: 0.6,
                ..none
            },
            Strategy::Crystals => Leaning {
                crystal: 6.0,
                res: [0.3, 0.3, 0.5, 0.4],
                high_die: 0.6,
                ..none
            },
            Strategy::Kodama => Leaning {
                kodama: 0.5,
                lead: 1.0,
                ..none
            },
            Strategy::Visions => Leaning {
                vision: 4.0,
                vision_met: 4.0,
                vision_progress: 8.0,
                // The Marsh's 6 draws visions, Old Cedar's 6 takes a Bitoku card.
                high_die: 0.8,
                bitoku: 1.0,
                ..none
            },
        }
    }
}

#[derive(Default)]
pub struct RuleBot {
    strategy: Strategy,
    leaning: Leaning,
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
            leaning: strategy.leaning(),
            ..RuleBot::default()
        })
    }
}

/// The strategy's extra value of a state (only before the game ends: the points
/// decide at the end).
fn leaning(g: &Bitoku, me: u8, l: &Leaning) -> f64 {
    if *l == Leaning::default() {
        return 0.0;
    }
    let count = |what: Count| f64::from(g.count(me, what));
    let p = g.player(usize::from(me));
    let mut v = l.building * count(Count::BuildingsBuilt)
        + l.crystal * count(Count::Crystals)
        + l.yokai_retired * count(Count::YokaiRetired)
        + l.bitoku * count(Count::BitokuCards);
    if l.yokai_owned != 0.0 {
        let starting = c().cards.yokai.iter().filter(|y| y.start).count();
        let taken = (p.owned_yokai() + p.retired.len()).saturating_sub(starting);
        v += l.yokai_owned * taken as f64;
    }
    if l.kodama != 0.0 {
        v += l.kodama * p.kodama.iter().map(|&k| f64::from(k)).sum::<f64>();
    }
    if l.lead != 0.0 {
        v += l.lead * f64::from(g.tracks_led(me));
    }
    if l.vision != 0.0 || l.vision_met != 0.0 || l.vision_progress != 0.0 {
        v += l.vision * p.visions.len() as f64;
        v += l.vision_met * f64::from(g.visions_met(me));
        for &id in p.visions.iter() {
            if let Some(vision) = c().cards.vision.get(usize::from(id)) {
                let need = f64::from(vision.need.max(1));
                v += l.vision_progress * (count(vision.count) / need).min(1.0);
            }
        }
    }
    v += l
        .res
        .iter()
        .zip(p.goods.res)
        .map(|(w, n)| w * f64::from(n.min(4)))
        .sum::<f64>();
    if l.high_die != 0.0 {
        let high = p.dice.iter().map(|d| d.value).max().unwrap_or(0);
        v += l.high_die * f64::from(high);
    }
    v
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
                        let built = c().tiles.building.get(usize::from(tile));
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

/// How many plain moves a turn's rest may take (a turn's effects are short).
const TURN_STEPS: usize = 24;

impl RuleBot {
    /// What `first` is worth: `me`'s pending choices after it played with the plain
    /// policy, and the state valued with the leaning.
    fn worth(&mut self, g: &Bitoku, me: u8, first: &Action, look: bool) -> f64 {
        let mut s = g.clone();
        self.finish_turn(&mut s, me, first, look);
        let mut v = value(&s, me);
        if s.phase() != Phase::Over {
            v += leaning(&s, me, &self.leaning);
        }
        v
    }

    /// Plays `me`'s pending choices after `first` with the plain policy: the first
    /// choice that is not a skip; on the amulets of a die just placed (when `look`),
    /// the token whose action is worth most, one level deep.
    fn finish_turn(&mut self, g: &mut Bitoku, me: u8, first: &Action, look: bool) {
        g.apply_legal(Seat(me), first);
        for _ in 0..TURN_STEPS {
            if g.to_move().first_seat() != Some(Seat(me)) || !g.busy() {
                return;
            }
            let mut options = std::mem::take(&mut self.scratch);
            g.legal_actions(Seat(me), &mut options);
            let pick = if look && matches!(g.sub, Sub::Amulets { .. }) {
                let mut best: Option<(f64, Action)> = None;
                for a in options.iter() {
                    let v = self.worth(g, me, a, false);
                    if best.as_ref().is_none_or(|(b, _)| v > *b) {
                        best = Some((v, *a));
                    }
                }
                best.map(|(_, a)| a)
            } else {
                options
                    .iter()
                    .find(|a| !matches!(a, Action::Skip | Action::Amulet { .. }))
                    .or_else(|| options.first())
                    .copied()
            };
            self.scratch = options;
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
                // A little noise breaks ties between equal choices.
                let mut v = self.worth(g, me.0, a, true) + f64::from(rng.below(100)) / 1000.0;
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
