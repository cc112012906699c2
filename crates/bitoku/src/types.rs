//! Bitoku's vocabulary: resources, the effect language, and the component kinds, as
//! the data files write them.

use serde::Deserialize;

/// A bundle of goods: a cost, or a gain. Resources (資源): wood 木材, stone 石材, jade
/// 翡翠, sake 酒; virtue points (美徳点); amulet tokens (御守) of value 1, 2 and 3 —
/// tokens, not change: "「御守マーカー」は、小さい御守に分割できない".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Bundle {
    #[serde(skip_serializing_if = "is_zero")]
    pub wood: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub stone: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub jade: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub sake: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub virtue: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub amulet1: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub amulet2: u8,
    #[serde(skip_serializing_if = "is_zero")]
    pub amulet3: u8,
}

fn is_zero(n: &u8) -> bool {
    *n == 0
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
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
/// Serialized as the data files write it (the view's `decision` carries steps).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, Deserialize)]
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

/// A card of the solo automa, the Tengu (天狗, takuge's own): where it puts a die and
/// what the die shows; its kodama steps on that region's track.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TenguCard {
    pub region: String,
    pub value: u8,
}

/// `board.toml`.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Board {
    pub years: u8,
    pub draw_to: u8,
    pub keep: u8,
    /// Face-up display spaces beside each tile stack (リザーブ).
    pub display_spaces: u8,
    /// Die spaces on each hill space.
    pub hill_dice_spaces: u8,
    /// Solo: the final score a searching bot counts as perfect (`Game::search_reward`).
    pub solo_search_scale: u16,
    pub side: Sides,
    pub abode: Vec<AbodeSpace>,
    pub region: Vec<Region>,
    pub kodama: KodamaTracks,
    pub hill: Vec<Hill>,
    pub virtue_path: VirtuePath,
    pub bitoku_kinds: KindPoints,
    pub player_board: PlayerBoard,
    /// The solo automa's cards.
    pub tengu: Vec<TenguCard>,
    /// The solo score-attack table: the least score of each title, ascending.
    pub solo_titles: Vec<SoloTitle>,
}

/// A title of the solo score attack.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SoloTitle {
    pub score: u16,
    pub name_ja: String,
    pub name_en: String,
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

// ---------------------------------------------------------------------------------
// The vocabulary of play: actions and refusals.
// ---------------------------------------------------------------------------------

/// A resource (資源): 0 wood 木材, 1 stone 石材, 2 jade 翡翠, 3 sake 酒.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Res {
    Wood,
    Stone,
    Jade,
    Sake,
}

impl Res {
    pub const ALL: [Res; 4] = [Res::Wood, Res::Stone, Res::Jade, Res::Sake];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn en(self) -> &'static str {
        ["wood", "stone", "jade", "sake"][self.index()]
    }

    pub fn ja(self) -> &'static str {
        ["木材", "石材", "翡翠", "酒"][self.index()]
    }
}

/// Where a die is placed (夏 B): a forest region below the river (森エリア), or a space of
/// the Great Spirit's abode (大精霊の住み家), 0 the topmost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Spot {
    Forest(u8),
    Abode(u8),
}

/// The three effects of a hill space (光の丘), each taken once a year under a Hikaru
/// marker: its yokai card, its Bitoku card, its printed effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HillPart {
    Yokai,
    Bitoku,
    Effect,
}

impl HillPart {
    pub const ALL: [HillPart; 3] = [HillPart::Yokai, HillPart::Bitoku, HillPart::Effect];

    pub fn index(self) -> usize {
        self as usize
    }
}

/// One decision of one seat. A turn's big choices are split into small ones so that
/// every list stays short: placing a die, then its amulets one token at a time; taking
/// an effect, then each of its steps' choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// 春 A: discard this yokai (a card kind) from the hand.
    Discard { yokai: u8 },
    /// 夏 A: play this yokai from the hand into the empty slot.
    Play { yokai: u8, slot: u8 },
    /// 夏 B: place this die (0..3, left to right on the board) — released, or
    /// unreleased by sacrificing an awake pilgrim (巡礼者を除外).
    Place { die: u8, at: Spot },
    /// 夏 B: spend an amulet token (御守) of this value on the die just placed.
    Amulet { value: u8 },
    /// 夏 B: no more amulets on the die just placed.
    Done,
    /// 夏 C: cross the river (川を渡る) with this die to this hill, taking this part.
    Cross { die: u8, hill: u8, take: HillPart },
    /// 御魂: use this mitama tile (index among the seat's), a free action in summer.
    Mitama { index: u8 },
    /// 蜻蛉: use this dragonfly (index among the seat's), once a year, a free action.
    Dragonfly { index: u8 },
    /// 夏 D: pass for the rest of the summer.
    Pass,
    /// Resolve this pending effect next (任意の順番: crystals, resonance, forest and
    /// building actions).
    Next { task: u8 },
    /// Do not take this step (効果の発動は任意).
    Skip,
    /// Pay the cost of a `pay` step.
    Pay,
    /// Take this option of a `choose` step.
    Choose { option: u8 },
    /// Move a kodama (木霊) one space on this region's track.
    Track { region: u8 },
    /// Wake the sleeping pilgrim on this crystal-area space.
    Pilgrim { space: u8 },
    /// Take the tile on this display space (row × display + position) of the kind the
    /// step names.
    Tile { slot: u8 },
    /// Build in this region's settlement.
    Region { region: u8 },
    /// Let the discount take off one of this resource.
    Discount { resource: Res },
    /// Put the crystal just taken into this socket.
    Socket { socket: u8 },
    /// Swap the secret Iwakura rock for the face-up one on this board space.
    Swap { rock: u8 },
    /// Retire this yokai (card kind) from the hand or discard pile for its virtue.
    Retire { yokai: u8 },
    /// Keep this vision card (of the two drawn).
    Keep { vision: u8 },
    /// Use the building on this settlement space of the region where the die stands.
    UseBuilding { space: u8 },
    /// 冬 B: retire the yokai in this slot of the player board (精霊の美徳).
    RetireSlot { slot: u8 },
    /// 冬 A: the dice back on the red spaces with these values, left to right.
    Arrange { dice: [u8; 3] },
}

/// Why an action is refused, in words the seat may read.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reject(pub String);

impl std::fmt::Display for Reject {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}
