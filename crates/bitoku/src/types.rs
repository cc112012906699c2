//! Bitoku's vocabulary: resources, the effect language, and the component kinds, as
//! the data files write them.

use serde::Deserialize;

/// A bundle of goods: a cost, or a gain. Resources (資源): wood 木材, stone 石材, jade
/// 翡翠, sake 酒; virtue points (美徳点); amulet tokens (御守) of value 1, 2 and 3 —
/// tokens, not change: "「御守マーカー」は、小さい御守に分割できない".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bundle {
    pub wood: u8,
    pub stone: u8,
    pub jade: u8,
    pub sake: u8,
    pub virtue: u8,
    pub amulet1: u8,
    pub amulet2: u8,
    pub amulet3: u8,
}

impl Bundle {
    pub fn is_empty(&self) -> bool {
        *self == Bundle::default()
    }

    /// Resources only (wood, stone, jade, sake).
    pub fn resources(&self) -> u32 {
        u32::from(self.wood) + u32::from(self.stone) + u32::from(self.jade) + u32::from(self.sake)
    }
}

/// The tiles that lie in displays beside their stacks (リザーブ).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TileKind {
    /// 建物タイル
    Building,
    /// 水晶タイル
    Crystal,
    /// 御魂タイル
    Mitama,
    /// 蜻蛉タイル
    Dragonfly,
}

/// One step of an effect. An effect is a list of steps, done in order; every effect of
/// a yokai, a crystal, a tile or a space is optional as a whole ("効果の発動は任意"),
/// and a step that cannot be done (nothing left to take, no room) is skipped.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Take goods from the supply.
    Gain(Bundle),
    /// Pay `cost`, then do `then`; without the cost, nothing.
    Pay { cost: Bundle, then: Vec<Step> },
    /// Do exactly one of the options.
    Choose(Vec<Vec<Step>>),
    /// Move one of your kodama (木霊) one space along a kodama track, this many times:
    /// the region's track for a forest or building action, any track otherwise.
    Kodama(u8),
    /// Draw yokai cards from your deck into your hand.
    DrawYokai(u8),
    /// Wake sleeping pilgrims (巡礼者) of your choice on your crystal area.
    WakePilgrim(u8),
    /// Move your marker along your path of virtue (美徳の道).
    VirtuePath(u8),
    /// Take a tile of the kind from its display, paying its cost less `discount`
    /// resources of your choice.
    TakeTile {
        kind: TileKind,
        #[serde(default)]
        discount: u8,
    },
    /// Build: a building tile from the display into the region's settlement (any
    /// region outside a forest action), paying its cost less `discount`.
    Build {
        #[serde(default)]
        discount: u8,
    },
    /// Take Bitoku (virtue) cards from the top of their deck.
    TakeBitoku(u8),
    /// Draw vision cards (幻視カード); keep one of those drawn for each.
    Vision(u8),
    /// Swap your secret Iwakura rock for one face up on the board.
    SwapIwakura(u8),
    /// Raise the die you place this turn (no amulet needed; never above 6).
    RaiseDie(u8),
    /// Retire a yokai from your hand or discard pile for its virtue points.
    RetireYokai(u8),
}

/// An effect: the steps, in order.
pub type Effect = Vec<Step>;

/// 水晶タイルの色.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CrystalColour {
    /// 夢の水晶 (紫色): its effect every spring and at the Awakening.
    Purple,
    /// 創造力の水晶 (桃色): resonance when a yokai is played into a slot it touches.
    Pink,
    /// takuge's name for the third colour (橙色): its effect once, and end-game points.
    Orange,
}

/// 建物の種類.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BuildingKind {
    /// 寺
    Temple,
    /// 温泉
    Onsen,
    /// 田畑
    Farm,
    /// 旅館
    Ryokan,
}

impl BuildingKind {
    pub const ALL: [BuildingKind; 4] = [
        BuildingKind::Temple,
        BuildingKind::Onsen,
        BuildingKind::Farm,
        BuildingKind::Ryokan,
    ];
}

/// 御魂の種類: the four souls, and the reaper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MitamaKind {
    /// 荒魂
    Ara,
    /// 和魂
    Nigi,
    /// 幸魂
    Saki,
    /// 奇魂
    Kushi,
    /// 死神
    Shinigami,
}

/// 鳥居タイル A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToriiSide {
    A,
    B,
}

/// What an Iwakura symbol or a vision counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Count {
    YokaiRetired,
    YokaiOwned,
    BuildingsBuilt,
    BuildingKinds,
    Crystals,
    BitokuCards,
    /// Kodama on the last space of a track.
    KodamaAtEnd,
    Mitama,
    Dragonflies,
    Visions,
    Wood,
    Stone,
    Jade,
    Sake,
    /// Amulet tokens held.
    Amulets,
    PilgrimsAwake,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Yokai {
    pub id: String,
    pub name_ja: String,
    pub name_en: String,
    #[serde(default)]
    pub start: bool,
    pub virtue: u8,
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Building {
    pub kind: BuildingKind,
    pub value: u8,
    pub cost: Bundle,
    pub action: Effect,
    /// 所有権ボーナス: the owner's, when another player uses the building.
    pub bonus: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ancient {
    pub id: String,
    pub name_ja: String,
    pub name_en: String,
    pub value: u8,
    pub action: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Crystal {
    pub colour: CrystalColour,
    pub cost: Bundle,
    #[serde(default)]
    pub points: u8,
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mitama {
    pub kind: MitamaKind,
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Dragonfly {
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Torii {
    pub side: ToriiSide,
    pub reward: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LakeTreasure {
    /// Points by rank on the track: 1st, 2nd, ...
    pub points: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Iwakura {
    pub symbol: Count,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BitokuCard {
    pub kind: String,
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BitokuKind {
    pub id: String,
    pub name_ja: String,
    pub name_en: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Vision {
    pub count: Count,
    pub need: u8,
    pub gain: u8,
    pub loss: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Region {
    pub id: String,
    pub name_ja: String,
    pub name_en: String,
    /// The forest action for each die value 1..=6.
    pub actions: Vec<Effect>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardSide {
    pub players: Vec<u8>,
    pub forest_dice_spaces: u8,
    pub abode_spaces: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Sides {
    pub small: BoardSide,
    pub large: BoardSide,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AbodeSpace {
    pub reward: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hill {
    pub effect: Effect,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KodamaTracks {
    pub track_length: u8,
    pub neutral_space: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VirtuePath {
    pub torii_a: u8,
    pub torii_b: u8,
    /// The reward of each space after the start.
    pub rewards: Vec<Effect>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KindPoints {
    pub points: Vec<u8>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerBoard {
    pub yokai_slots: u8,
    /// The dice on the red spaces at setup, left to right ("3", "2", "1").
    pub dice: Vec<u8>,
    pub crystal_sockets: u8,
    pub pilgrim_space_points: Vec<u8>,
    pub iwakura_touches: Vec<u8>,
    pub awake_pilgrims: u8,
    pub building_space_points: Vec<u8>,
    /// What every player starts with besides the board's pieces.
    pub start: Effect,
}

/// `board.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub years: u8,
    pub draw_to: u8,
    pub keep: u8,
    pub side: Sides,
    pub abode: Vec<AbodeSpace>,
    pub region: Vec<Region>,
    pub kodama: KodamaTracks,
    pub hill: Vec<Hill>,
    pub virtue_path: VirtuePath,
    pub bitoku_kinds: KindPoints,
    pub player_board: PlayerBoard,
}

/// `tiles.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tiles {
    pub building: Vec<Building>,
    pub ancient: Vec<Ancient>,
    pub crystal: Vec<Crystal>,
    pub mitama: Vec<Mitama>,
    pub dragonfly: Vec<Dragonfly>,
    pub torii: Vec<Torii>,
    pub lake_treasure: Vec<LakeTreasure>,
    pub iwakura: Vec<Iwakura>,
}

/// `cards.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cards {
    pub yokai: Vec<Yokai>,
    pub bitoku: Vec<BitokuCard>,
    pub bitoku_kind: Vec<BitokuKind>,
    pub vision: Vec<Vision>,
}
