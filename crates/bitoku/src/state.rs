//! The state of a game of Bitoku: the board, the players' boards, the flow of the
//! year, and the effects being resolved. Components are referred to by small ids
//! (their index in the component set), never by their strings.

use crate::types::{Step, TileKind};
use crate::Components;
use takuge_engine::{FixedList, GameRng};

pub const MAX_PLAYERS: usize = 4;
pub const REGIONS: usize = 5;
pub const SLOTS: usize = 4;
pub const DICE: usize = 3;
pub const SOCKETS: usize = 4;
pub const SETTLEMENT: usize = 4;
pub const HILLS: usize = 4;
/// A region's die spaces on the large side (the small side uses fewer).
pub const FOREST_SPACES: usize = 3;
pub const ABODE: usize = 4;
pub const DISPLAY: usize = 4;
/// The seat number the solo automa's dice carry on the board (no player's).
pub const TENGU: u8 = 7;
/// No region: an effect outside a forest or building action.
pub const NO_REGION: u8 = u8::MAX;

/// Options: Bitoku has no variants yet.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Options {}

/// Where a die stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DieAt {
    /// 赤スペース: on the player board, not released.
    #[default]
    Red,
    /// 緑スペース: released (解放済み), ready to be placed.
    Green,
    Forest(u8),
    Abode(u8),
    Hill(u8),
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Die {
    pub value: u8,
    pub at: DieAt,
}

/// What stands on a settlement space (居住地).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Settled {
    #[default]
    Empty,
    /// 古代の建物: nobody owns it.
    Ancient(u8),
    /// A building tile and the seat whose marker is on it.
    Building { tile: u8, owner: u8 },
}

/// One of the two tile rows of a kind: its stack and the display beside it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Row {
    pub stack: FixedList<u8, 16>,
    /// Index 0 lies next to the stack; the last is the farthest (removed at snow).
    pub display: [Option<u8>; DISPLAY],
}

/// A hill space (光の丘): its cards, the Hikaru markers, the dice on it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hill {
    pub yokai: Option<u8>,
    pub bitoku: Option<u8>,
    /// 光の丘マーカー on yokai, Bitoku, effect.
    pub taken: [bool; 3],
    pub dice: u8,
}

/// A player's goods: resources (wood, stone, jade, sake) and amulet tokens of value
/// 1, 2, 3.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Goods {
    pub res: [u8; 4],
    pub amulets: [u8; 3],
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Player {
    pub hand: FixedList<u8, 40>,
    /// Face down; the top is the end of the list.
    pub deck: FixedList<u8, 40>,
    /// Face up (public).
    pub discard: FixedList<u8, 40>,
    pub slots: [Option<u8>; SLOTS],
    pub retired: FixedList<u8, 40>,
    pub dice: [Die; DICE],
    /// 木霊: the space on each region's track (0 = the start).
    pub kodama: [u8; REGIONS],
    /// Awake pilgrims available (目覚め).
    pub awake: u8,
    /// Bit n set: the pilgrim on crystal-area space n still sleeps.
    pub asleep: u8,
    /// Building markers placed (建物コマ), uncovering the building area in order.
    pub built: u8,
    pub built_kinds: [u8; 4],
    pub crystals: [Option<u8>; SOCKETS],
    pub mitama: FixedList<u8, 24>,
    pub mitama_taken: u8,
    /// 蜻蛉 and whether each was used this year.
    pub dragonflies: FixedList<u8, 3>,
    pub dragonflies_used: u8,
    pub visions: FixedList<u8, 28>,
    /// Bitoku cards on the path of virtue (美徳の道).
    pub bitoku: FixedList<u8, 24>,
    /// The path marker's space (0 = start).
    pub path: u8,
    /// 岩倉タイル, and whether the table has seen it (after a swap).
    pub rock: u8,
    pub rock_public: bool,
    pub goods: Goods,
    /// 美徳点 (the spirit path).
    pub virtue: i32,
    /// A raise (`raise_die`) waiting for the next die this player places.
    pub raise: u8,
    pub passed: bool,
}

impl Player {
    pub fn owned_yokai(&self) -> usize {
        self.hand.len() + self.deck.len() + self.discard.len() + self.slots.iter().flatten().count()
    }

    pub fn resources(&self) -> u32 {
        self.goods.res.iter().map(|&r| u32::from(r)).sum()
    }
}

/// The solo automa (天狗, takuge's own): its card deck, the dice it has placed this
/// summer (their values), its kodama.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tengu {
    pub deck: FixedList<u8, 16>,
    pub discard: FixedList<u8, 16>,
    pub dice: [u8; DICE],
    pub placed: u8,
    pub kodama: [u8; REGIONS],
}

/// An effect waiting to be resolved, in an order the seat chooses (任意の順番).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Task {
    #[default]
    None,
    /// These steps, with the region of a forest or building action (or none).
    Effect(&'static [Step], u8),
    /// The building action of the region for a die of this value: pick a building.
    Building { region: u8, value: u8 },
}

/// An effect being resolved: its steps, the next one, repetitions left of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Frame {
    pub steps: &'static [Step],
    pub at: u8,
    /// Repetitions of the current step still to do (0: not started).
    pub left: u8,
    pub region: u8,
}

/// A purchase in progress: the tile, the region (buildings), the cost still owed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Buy {
    pub kind: Kind,
    /// The display slot (row × display + position).
    pub slot: u8,
    pub region: u8,
    pub cost: [u8; 4],
    pub discount: u8,
}

/// A tile kind as the state stores it (`TileKind` is the data's).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Kind {
    #[default]
    Building,
    Crystal,
    Mitama,
    Dragonfly,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Building, Kind::Crystal, Kind::Mitama, Kind::Dragonfly];

    pub fn of(kind: TileKind) -> Kind {
        match kind {
            TileKind::Building => Kind::Building,
            TileKind::Crystal => Kind::Crystal,
            TileKind::Mitama => Kind::Mitama,
            TileKind::Dragonfly => Kind::Dragonfly,
        }
    }

    pub fn index(self) -> usize {
        self as usize
    }
}

/// A decision inside an effect that is not a step of its own.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Sub {
    #[default]
    None,
    /// After placing a die: spend amulets on it, one token at a time.
    Amulets { die: u8 },
    /// A building tile chosen outside a forest action: which region.
    BuildRegion(Buy),
    /// Which resource the discount takes off.
    Discount(Buy),
    /// A crystal bought: which socket.
    Socket { crystal: u8 },
    /// Two visions drawn: keep one.
    Keep { a: u8, b: u8 },
    /// The building action of the region for a die of this value: which building.
    Building { region: u8, value: u8 },
}

/// Where the year is (仏塔マーカー on the phase track).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// 春 A: the player `order[i]` discards down to three.
    SpringDiscard {
        i: u8,
    },
    /// 春 B: the purple crystals of `order[i]`.
    SpringIncome {
        i: u8,
    },
    /// 夏: the turn of `order[turn]`; `acted` once its action is taken.
    Summer {
        turn: u8,
        acted: bool,
    },
    /// 冬 A: `order[i]` puts its dice back.
    WinterArrange {
        i: u8,
    },
    /// 冬 B: `order[i]` may retire a yokai.
    WinterRetire {
        i: u8,
    },
    /// 覚醒 A: the purple crystals of `order[i]`.
    AwakeningIncome {
        i: u8,
    },
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bitoku {
    pub(crate) options: Options,
    pub(crate) players: u8,
    /// Seats in turn order (手番順トラック).
    pub(crate) order: [u8; MAX_PLAYERS],
    pub(crate) p: [Player; MAX_PLAYERS],
    /// 大精霊マーカー: the year, 1-based.
    pub(crate) year: u8,
    pub(crate) phase: Phase,
    /// Small board side (1–2 players).
    pub(crate) small: bool,
    pub(crate) forest: [FixedList<(u8, u8), FOREST_SPACES>; REGIONS],
    pub(crate) settlements: [[Settled; SETTLEMENT]; REGIONS],
    /// The abode's spaces, topmost first: (seat, die).
    pub(crate) abode: [Option<(u8, u8)>; ABODE],
    pub(crate) hills: [Hill; HILLS],
    /// 湖の財宝 on each region.
    pub(crate) lake: [u8; REGIONS],
    /// 2 players: the unused colour's kodama on each track.
    pub(crate) neutral: bool,
    /// 鳥居 A and B.
    pub(crate) torii: [u8; 2],
    /// The solo automa: in play with one player only.
    pub(crate) solo: bool,
    pub(crate) tengu: Tengu,
    pub(crate) rows: [[Row; 2]; 4],
    pub(crate) face_up_rocks: [Option<u8>; 2],
    pub(crate) boxed_rocks: FixedList<u8, 16>,
    pub(crate) vision_deck: FixedList<u8, 28>,
    pub(crate) vision_discard: FixedList<u8, 28>,
    pub(crate) bitoku_deck: FixedList<u8, 24>,
    pub(crate) bitoku_discard: FixedList<u8, 24>,
    pub(crate) yokai_deck: FixedList<u8, 40>,
    pub(crate) yokai_discard: FixedList<u8, 40>,
    /// The seat resolving effects (frames, tasks, sub).
    pub(crate) actor: u8,
    pub(crate) frames: FixedList<Frame, 16>,
    pub(crate) tasks: FixedList<Task, 4>,
    pub(crate) sub: Sub,
    pub(crate) rng: GameRng,
}

/// The component set; a game is only ever set up once it loaded (`new` refuses
/// otherwise), so the rules code may rely on it.
pub(crate) fn c() -> &'static Components {
    match crate::components() {
        Ok(c) => c,
        // `Bitoku::new` fails first when the data does not load, and the crate's
        // tests load it: no state exists without it.
        Err(e) => panic!("the Bitoku component set does not load: {e}"),
    }
}

impl Bitoku {
    pub fn players_usize(&self) -> usize {
        usize::from(self.players)
    }

    pub fn player(&self, seat: usize) -> &Player {
        &self.p[seat.min(MAX_PLAYERS - 1)]
    }

    pub(crate) fn pl(&mut self, seat: u8) -> &mut Player {
        &mut self.p[usize::from(seat).min(MAX_PLAYERS - 1)]
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    pub fn year(&self) -> u8 {
        self.year
    }

    pub fn order(&self) -> &[u8] {
        self.order.get(..self.players_usize()).unwrap_or(&[])
    }

    pub(crate) fn seat_at(&self, i: u8) -> u8 {
        self.order.get(usize::from(i)).copied().unwrap_or(0)
    }

    /// Whether effects are being resolved (the actor decides).
    pub(crate) fn busy(&self) -> bool {
        !self.frames.is_empty() || !self.tasks.is_empty() || self.sub != Sub::None
    }

    /// Die spaces a forest region has on this side.
    pub(crate) fn forest_spaces(&self) -> usize {
        let side = &c().board.side;
        let s = if self.small { &side.small } else { &side.large };
        usize::from(s.forest_dice_spaces).min(FOREST_SPACES)
    }

    pub(crate) fn abode_spaces(&self) -> usize {
        let side = &c().board.side;
        let s = if self.small { &side.small } else { &side.large };
        usize::from(s.abode_spaces).min(ABODE)
    }

    pub(crate) fn display_len() -> usize {
        usize::from(c().board.display_spaces).min(DISPLAY)
    }

    /// The value of a die on the board (seat, die index).
    pub(crate) fn die_value(&self, seat: u8, die: u8) -> u8 {
        if seat == TENGU {
            return self.tengu.dice.get(usize::from(die)).copied().unwrap_or(0);
        }
        self.player(usize::from(seat))
            .dice
            .get(usize::from(die))
            .map_or(0, |d| d.value)
    }

    /// The kodama track's last space (only the first to arrive may stand there).
    pub(crate) fn track_end() -> u8 {
        c().board.kodama.track_length
    }

    /// Whether `seat`'s kodama may move one space on `region`'s track.
    pub(crate) fn kodama_can_move(&self, seat: u8, region: usize) -> bool {
        let end = Self::track_end();
        let Some(&at) = self.player(usize::from(seat)).kodama.get(region) else {
            return false;
        };
        if at >= end {
            return false;
        }
        if at + 1 == end {
            let taken =
                (0..self.players_usize()).any(|s| self.p[s].kodama.get(region) == Some(&end));
            return !taken;
        }
        true
    }

    /// The tile on a display slot of a kind.
    pub(crate) fn display_tile(&self, kind: Kind, slot: u8) -> Option<u8> {
        let d = Self::display_len();
        let (row, pos) = (usize::from(slot) / d, usize::from(slot) % d);
        self.rows
            .get(kind.index())?
            .get(row)?
            .display
            .get(pos)
            .copied()
            .flatten()
    }

    pub(crate) fn take_display(&mut self, kind: Kind, slot: u8) -> Option<u8> {
        let d = Self::display_len();
        let (row, pos) = (usize::from(slot) / d, usize::from(slot) % d);
        self.rows
            .get_mut(kind.index())?
            .get_mut(row)?
            .display
            .get_mut(pos)?
            .take()
    }

    /// The resource cost of a tile.
    pub(crate) fn tile_cost(kind: Kind, tile: u8) -> [u8; 4] {
        let t = &c().tiles;
        let b = match kind {
            Kind::Building => t.building.get(usize::from(tile)).map(|b| b.cost),
            Kind::Crystal => t.crystal.get(usize::from(tile)).map(|c| c.cost),
            Kind::Mitama | Kind::Dragonfly => None,
        }
        .unwrap_or_default();
        [b.wood, b.stone, b.jade, b.sake]
    }
}

/// How many of `cost` are missing from `have`.
pub(crate) fn shortfall(have: &[u8; 4], cost: &[u8; 4]) -> u8 {
    have.iter()
        .zip(cost)
        .map(|(h, c)| c.saturating_sub(*h))
        .sum()
}
