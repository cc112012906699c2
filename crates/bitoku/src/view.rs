//! What a viewer sees: the whole board (displays, hills, forest, abode, tracks,
//! scores, visions, discard piles — all face up), each player's own hand and secret
//! Iwakura rock, and of the others only hand and deck sizes. No deck's order.

use crate::state::*;
use serde::Serialize;
use takuge_engine::Viewer;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DieView {
    pub value: u8,
    pub at: DieAt,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    pub seat: u8,
    /// Only the viewer's own hand (yokai card kinds).
    pub hand: Option<Vec<u8>>,
    pub hand_count: usize,
    pub deck_count: usize,
    pub discard: Vec<u8>,
    pub slots: Vec<Option<u8>>,
    pub retired: Vec<u8>,
    pub dice: Vec<DieView>,
    pub kodama: Vec<u8>,
    pub awake_pilgrims: u8,
    /// Bit n: the pilgrim on crystal-area space n sleeps.
    pub asleep: u8,
    pub buildings_built: u8,
    pub crystals: Vec<Option<u8>>,
    pub mitama: Vec<u8>,
    pub dragonflies: Vec<u8>,
    pub dragonflies_used: u8,
    pub visions: Vec<u8>,
    pub bitoku: Vec<u8>,
    pub path: u8,
    /// The Iwakura rock: the viewer's own, or one the table has seen.
    pub rock: Option<u8>,
    pub resources: [u8; 4],
    pub amulets: [u8; 3],
    pub virtue: i32,
    pub raise: u8,
    pub passed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct HillView {
    pub yokai: Option<u8>,
    pub bitoku: Option<u8>,
    pub taken: [bool; 3],
    pub dice: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RowView {
    pub stack: usize,
    pub display: Vec<Option<u8>>,
}

/// A settlement space's tile: `(Some(owner), building tile)` or `(None, ancient id)`.
pub type SettledView = (Option<u8>, u8);

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub viewer: Option<u8>,
    pub year: u8,
    pub phase: String,
    pub order: Vec<u8>,
    pub pending: Option<u8>,
    /// What the pending seat is deciding inside an effect (public at the table).
    pub deciding: Option<String>,
    /// The same, structured for a board: the step, the waiting effects, the purchase.
    pub decision: Option<Decision>,
    pub players: Vec<PlayerView>,
    /// Each region's dice: (seat, die, value).
    pub forest: Vec<Vec<(u8, u8, u8)>>,
    /// Each region's settlement: `None`, an ancient building `(None, id)`, or a
    /// building `(Some(owner), tile)`.
    pub settlements: Vec<Vec<Option<SettledView>>>,
    pub abode: Vec<Option<(u8, u8)>>,
    pub hills: Vec<HillView>,
    pub lake: Vec<u8>,
    pub neutral_kodama: bool,
    pub torii: [u8; 2],
    /// Building, crystal, mitama, dragonfly: two rows each.
    pub rows: Vec<Vec<RowView>>,
    pub face_up_rocks: Vec<Option<u8>>,
    pub vision_deck: usize,
    pub vision_discard: Vec<u8>,
    pub bitoku_deck: usize,
    pub bitoku_discard: Vec<u8>,
    pub yokai_deck: usize,
    pub yokai_discard: Vec<u8>,
    /// The solo automa (天狗): its kodama, cards left, cards turned (the forest lists its
    /// dice under seat 7).
    pub tengu: Option<TenguView>,
    /// Solo, once the game is over: the score attack's title (English, Japanese).
    pub solo_title: Option<(String, String)>,
}

/// A purchase under way: the tile kind (0 building, 1 crystal, 2 mitama, 3
/// dragonfly: the order of `rows`), its display slot (row × display + position), the
/// region (buildings), the cost still owed (wood, stone, jade, sake), the discount left.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BuyView {
    pub kind: u8,
    pub slot: u8,
    pub region: u8,
    pub cost: [u8; 4],
    pub discount: u8,
}

/// An effect waiting to be resolved (`Action::Next` picks one by its index).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum TaskView {
    /// These steps, for a forest or building action of `region` (255: none).
    Effect {
        steps: Vec<crate::types::Step>,
        region: u8,
    },
    /// The building action of `region` for a die of `value`.
    Building { region: u8, value: u8 },
}

/// What the pending seat decides inside an effect: everything here is public.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Decision {
    /// Which waiting effect next.
    Tasks { tasks: Vec<TaskView> },
    /// A step of an effect (`region` 255: none; `left`: repetitions still to do).
    Step {
        step: crate::types::Step,
        region: u8,
        left: u8,
    },
    /// Amulets on the die just placed.
    Amulets { die: u8 },
    /// Which region to build in.
    BuildRegion { buy: BuyView },
    /// Which resource the discount takes off.
    Discount { buy: BuyView },
    /// Which socket for the crystal just taken.
    Socket { crystal: u8 },
    /// Which of the two visions drawn to keep.
    Keep { a: u8, b: u8 },
    /// Which building of the region to use with a die of this value.
    Building { region: u8, value: u8 },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TenguView {
    pub kodama: Vec<u8>,
    pub deck: usize,
    pub discard: Vec<u8>,
}

impl Bitoku {
    pub(crate) fn build_view(&self, viewer: Viewer) -> View {
        let me = viewer.seat().map(|s| s.0);
        let players = (0..self.players)
            .map(|s| {
                let p = self.player(usize::from(s));
                let mine = me == Some(s);
                PlayerView {
                    seat: s,
                    hand: mine.then(|| p.hand.iter().copied().collect()),
                    hand_count: p.hand.len(),
                    deck_count: p.deck.len(),
                    discard: p.discard.iter().copied().collect(),
                    slots: p.slots.to_vec(),
                    retired: p.retired.iter().copied().collect(),
                    dice: p
                        .dice
                        .iter()
                        .map(|d| DieView {
                            value: d.value,
                            at: d.at,
                        })
                        .collect(),
                    kodama: p.kodama.to_vec(),
                    awake_pilgrims: p.awake,
                    asleep: p.asleep,
                    buildings_built: p.built,
                    crystals: p.crystals.to_vec(),
                    mitama: p.mitama.iter().copied().collect(),
                    dragonflies: p.dragonflies.iter().copied().collect(),
                    dragonflies_used: p.dragonflies_used,
                    visions: p.visions.iter().copied().collect(),
                    bitoku: p.bitoku.iter().copied().collect(),
                    path: p.path,
                    rock: (mine || p.rock_public).then_some(p.rock),
                    resources: p.goods.res,
                    amulets: p.goods.amulets,
                    virtue: p.virtue,
                    raise: p.raise,
                    passed: p.passed,
                }
            })
            .collect();
        View {
            viewer: me,
            year: self.year,
            phase: format!("{:?}", self.phase),
            order: self.order().to_vec(),
            pending: self.pending_seat(),
            deciding: self.busy().then(|| self.deciding()),
            decision: if self.busy() { self.decision() } else { None },
            players,
            forest: self
                .forest
                .iter()
                .map(|f| {
                    f.iter()
                        .map(|&(s, d)| (s, d, self.die_value(s, d)))
                        .collect()
                })
                .collect(),
            settlements: self
                .settlements
                .iter()
                .map(|s| {
                    s.iter()
                        .map(|x| match *x {
                            Settled::Empty => None,
                            Settled::Ancient(a) => Some((None, a)),
                            Settled::Building { tile, owner } => Some((Some(owner), tile)),
                        })
                        .collect()
                })
                .collect(),
            abode: self
                .abode
                .iter()
                .take(self.abode_spaces())
                .copied()
                .collect(),
            hills: self
                .hills
                .iter()
                .map(|h| HillView {
                    yokai: h.yokai,
                    bitoku: h.bitoku,
                    taken: h.taken,
                    dice: h.dice,
                })
                .collect(),
            lake: self.lake.to_vec(),
            neutral_kodama: self.neutral,
            torii: self.torii,
            rows: self
                .rows
                .iter()
                .map(|rows| {
                    rows.iter()
                        .map(|r| RowView {
                            stack: r.stack.len(),
                            display: r
                                .display
                                .iter()
                                .take(Self::display_len())
                                .copied()
                                .collect(),
                        })
                        .collect()
                })
                .collect(),
            face_up_rocks: self.face_up_rocks.to_vec(),
            vision_deck: self.vision_deck.len(),
            vision_discard: self.vision_discard.iter().copied().collect(),
            bitoku_deck: self.bitoku_deck.len(),
            bitoku_discard: self.bitoku_discard.iter().copied().collect(),
            yokai_deck: self.yokai_deck.len(),
            yokai_discard: self.yokai_discard.iter().copied().collect(),
            tengu: self.solo.then(|| TenguView {
                kodama: self.tengu.kodama.to_vec(),
                deck: self.tengu.deck.len(),
                discard: self.tengu.discard.iter().copied().collect(),
            }),
            solo_title: (self.phase == Phase::Over)
                .then(|| self.solo_title())
                .flatten()
                .map(|t| (t.name_en.clone(), t.name_ja.clone())),
        }
    }

    /// The decision inside an effect, structured (public: the table sees it).
    fn decision(&self) -> Option<Decision> {
        let buy = |b: &Buy| BuyView {
            kind: Kind::ALL.iter().position(|k| *k == b.kind).unwrap_or(0) as u8,
            slot: b.slot,
            region: b.region,
            cost: b.cost,
            discount: b.discount,
        };
        Some(match self.sub {
            Sub::None if self.frames.is_empty() => Decision::Tasks {
                tasks: self
                    .tasks
                    .iter()
                    .map(|t| match *t {
                        Task::Effect(steps, region) => TaskView::Effect {
                            steps: steps.to_vec(),
                            region,
                        },
                        Task::Building { region, value } => TaskView::Building { region, value },
                        Task::None => TaskView::Effect {
                            steps: Vec::new(),
                            region: NO_REGION,
                        },
                    })
                    .collect(),
            },
            Sub::None => {
                let (step, frame) = self.current()?;
                Decision::Step {
                    step: step.clone(),
                    region: frame.region,
                    left: frame.left,
                }
            }
            Sub::Amulets { die } => Decision::Amulets { die },
            Sub::BuildRegion(b) => Decision::BuildRegion { buy: buy(&b) },
            Sub::Discount(b) => Decision::Discount { buy: buy(&b) },
            Sub::Socket { crystal } => Decision::Socket { crystal },
            Sub::Keep { a, b } => Decision::Keep { a, b },
            Sub::Building { region, value } => Decision::Building { region, value },
        })
    }

    /// The decision inside an effect, in words (public: the table sees it).
    fn deciding(&self) -> String {
        match self.sub {
            Sub::None if self.frames.is_empty() => {
                format!("which effect next ({} waiting)", self.tasks.len())
            }
            Sub::None => match self.current() {
                Some((step, _)) => format!("{step:?}"),
                None => String::new(),
            },
            sub => format!("{sub:?}"),
        }
    }
}
