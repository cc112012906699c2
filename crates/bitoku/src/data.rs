//! Loading and checking the component set (`data/*.toml`).
//!
//! The files are compiled in; [`components`] parses them once and checks every count
//! the rules rely on and every effect, so a typo or a bad number is a clear error that
//! names the file, the component and the step, found by the crate's tests before any
//! game is played.

use crate::types::*;
use std::collections::HashSet;
use std::sync::OnceLock;

pub const BOARD_TOML: &str = include_str!("../data/board.toml");
pub const TILES_TOML: &str = include_str!("../data/tiles.toml");
pub const CARDS_TOML: &str = include_str!("../data/cards.toml");

/// The retail game's counts (../shared/research/bitoku.md): the shape our component set
/// keeps, and what the rules assume.
pub mod counts {
    pub const REGIONS: usize = 5;
    pub const DIE_VALUES: usize = 6;
    pub const BUILDINGS: usize = 24;
    pub const BUILDINGS_PER_KIND: usize = 6;
    pub const ANCIENT_BUILDINGS: usize = 6;
    pub const CRYSTALS: usize = 32;
    pub const MITAMA: usize = 24;
    /// ara, nigi, saki, kushi, shinigami.
    pub const MITAMA_BY_KIND: [usize; 5] = [5, 5, 5, 5, 4];
    pub const DRAGONFLIES: usize = 32;
    pub const TORII_PER_SIDE: usize = 8;
    pub const LAKE_TREASURES: usize = 5;
    pub const IWAKURA: usize = 13;
    pub const START_YOKAI: usize = 5;
    pub const DECK_YOKAI: usize = 29;
    pub const BITOKU_CARDS: usize = 24;
    pub const VISIONS: usize = 28;
    pub const HILLS: usize = 4;
    /// 光の丘マーカー: three effects on each hill space.
    pub const HIKARU_MARKERS: usize = 12;
    pub const PILGRIMS: usize = 11;
    pub const SLEEPING_PILGRIMS: usize = 8;
    pub const BUILDING_MARKERS: usize = 6;
    pub const DICE: usize = 3;
    pub const MAX_PLAYERS: usize = 4;
    /// The solo automa's cards (takuge's own: the retail game has 10 Tengu cards).
    pub const TENGU_CARDS: usize = 10;
    /// Face-up Iwakura rocks on the board.
    pub const IWAKURA_FACE_UP: usize = 2;
}

/// The whole component set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Components {
    pub board: Board,
    pub tiles: Tiles,
    pub cards: Cards,
}

/// What is wrong with a data file, and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}: {what}")]
pub struct DataError {
    pub file: &'static str,
    pub what: String,
}

/// The component set from the files compiled in, checked once per process.
pub fn components() -> Result<&'static Components, DataError> {
    static PARSED: OnceLock<Result<Components, DataError>> = OnceLock::new();
    PARSED
        .get_or_init(|| Components::parse(BOARD_TOML, TILES_TOML, CARDS_TOML))
        .as_ref()
        .map_err(Clone::clone)
}

fn parse<T: serde::de::DeserializeOwned>(file: &'static str, text: &str) -> Result<T, DataError> {
    toml::from_str(text).map_err(|e| DataError {
        file,
        what: e.to_string(),
    })
}

impl Components {
    /// Parses and checks a component set (the three files' texts).
    pub fn parse(board: &str, tiles: &str, cards: &str) -> Result<Components, DataError> {
        let parsed = Components {
            board: parse("board.toml", board)?,
            tiles: parse("tiles.toml", tiles)?,
            cards: parse("cards.toml", cards)?,
        };
        parsed.check()?;
        Ok(parsed)
    }

    fn check(&self) -> Result<(), DataError> {
        check_board(&self.board, self.cards.bitoku_kind.len()).map_err(|what| DataError {
            file: "board.toml",
            what,
        })?;
        check_tiles(&self.tiles).map_err(|what| DataError {
            file: "tiles.toml",
            what,
        })?;
        check_cards(&self.cards).map_err(|what| DataError {
            file: "cards.toml",
            what,
        })
    }

    pub fn start_yokai(&self) -> impl Iterator<Item = &Yokai> {
        self.cards.yokai.iter().filter(|y| y.start)
    }

    pub fn deck_yokai(&self) -> impl Iterator<Item = &Yokai> {
        self.cards.yokai.iter().filter(|y| !y.start)
    }
}

fn expect_len(what: &str, got: usize, want: usize) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{got} {what}, the component set has {want}"))
    }
}

/// Every step of an effect: amounts of at least 1, nothing empty, choices between at
/// least two options, nesting at most three deep.
pub fn check_effect(effect: &Effect, depth: u8) -> Result<(), String> {
    if depth > 3 {
        return Err("effects nest at most three deep".into());
    }
    for (i, step) in effect.iter().enumerate() {
        check_step(step, depth).map_err(|e| format!("step {}: {e}", i + 1))?;
    }
    Ok(())
}

fn check_step(step: &Step, depth: u8) -> Result<(), String> {
    let amount = |n: u8, name: &str| {
        if n == 0 {
            Err(format!("{name} 0: an amount is at least 1"))
        } else {
            Ok(())
        }
    };
    match step {
        Step::Gain(b) if b.is_empty() => Err("gain of nothing".into()),
        Step::Gain(_) => Ok(()),
        Step::Pay { cost, then } => {
            if cost.is_empty() {
                return Err("pay nothing: write the steps without `pay`".into());
            }
            if cost.virtue > 0 {
                return Err("virtue points are never paid".into());
            }
            if then.is_empty() {
                return Err("pay for nothing".into());
            }
            check_effect(then, depth + 1)
        }
        Step::Choose(options) => {
            if options.len() < 2 {
                return Err("a choice needs two options or more".into());
            }
            for (i, option) in options.iter().enumerate() {
                if option.is_empty() {
                    return Err(format!("option {} is empty", i + 1));
                }
                check_effect(option, depth + 1).map_err(|e| format!("option {}: {e}", i + 1))?;
            }
            Ok(())
        }
        Step::Kodama(n) => amount(*n, "kodama"),
        Step::DrawYokai(n) => amount(*n, "draw_yokai"),
        Step::WakePilgrim(n) => amount(*n, "wake_pilgrim"),
        Step::VirtuePath(n) => amount(*n, "virtue_path"),
        Step::TakeTile { discount, .. } | Step::Build { discount } if *discount > 3 => {
            Err(format!("a discount of {discount}: at most 3"))
        }
        Step::TakeTile { .. } | Step::Build { .. } => Ok(()),
        Step::TakeBitoku(n) => amount(*n, "take_bitoku"),
        Step::Vision(n) => amount(*n, "vision"),
        Step::SwapIwakura(n) => amount(*n, "swap_iwakura"),
        Step::RaiseDie(n) if *n > 5 => Err(format!("raise_die {n}: a die goes from 1 to 6")),
        Step::RaiseDie(n) => amount(*n, "raise_die"),
        Step::RetireYokai(n) => amount(*n, "retire_yokai"),
    }
}

fn named(what: String, effect: &Effect) -> Result<(), String> {
    check_effect(effect, 0).map_err(|e| format!("{what}: {e}"))
}

fn check_board(board: &Board, bitoku_kinds: usize) -> Result<(), String> {
    use counts::*;
    if board.years == 0 {
        return Err("years = 0: a game has at least one year".into());
    }
    if board.keep == 0 || board.keep > board.draw_to {
        return Err(format!(
            "keep = {} with draw_to = {}: a hand keeps at least one card and no more than it drew",
            board.keep, board.draw_to
        ));
    }
    if !(1..=4).contains(&board.display_spaces) || !(1..=3).contains(&board.hill_dice_spaces) {
        return Err("display_spaces is 1 to 4 and hill_dice_spaces 1 to 3".into());
    }
    let mut covered = [false; MAX_PLAYERS + 1];
    for (name, side) in [("small", &board.side.small), ("large", &board.side.large)] {
        for p in &side.players {
            let slot = covered
                .get_mut(usize::from(*p))
                .filter(|_| *p >= 1)
                .ok_or_else(|| format!("side.{name}: {p} players: Bitoku is for 1 to 4"))?;
            if *slot {
                return Err(format!("side.{name}: {p} players is on both sides"));
            }
            *slot = true;
        }
        if side.forest_dice_spaces == 0 || side.abode_spaces == 0 {
            return Err(format!(
                "side.{name}: every region and the abode need a die space"
            ));
        }
        if usize::from(side.abode_spaces) > board.abode.len() {
            return Err(format!(
                "side.{name}: {} abode spaces, but {} abode rewards",
                side.abode_spaces,
                board.abode.len()
            ));
        }
    }
    if let Some(p) = (1..=MAX_PLAYERS).find(|p| !covered[*p]) {
        return Err(format!("no board side for {p} players"));
    }
    for (i, space) in board.abode.iter().enumerate() {
        named(format!("abode space {}", i + 1), &space.reward)?;
    }
    expect_len("regions", board.region.len(), REGIONS)?;
    let mut ids = HashSet::new();
    for region in &board.region {
        if !ids.insert(region.id.as_str()) {
            return Err(format!("region {} twice", region.id));
        }
        expect_len(
            &format!("forest actions in region {}", region.id),
            region.actions.len(),
            DIE_VALUES,
        )?;
        for (v, action) in region.actions.iter().enumerate() {
            named(format!("region {} action {}", region.id, v + 1), action)?;
        }
    }
    // The seed places ancient buildings in these two regions with 3 players.
    for seed_region in ["yomi", "jade-glade"] {
        if !ids.contains(seed_region) {
            return Err(format!(
                "no region {seed_region}: the rules name it (黄泉の地, 翡翠の空き地)"
            ));
        }
    }
    let k = &board.kodama;
    if k.track_length < 2 || k.neutral_space == 0 || k.neutral_space >= k.track_length {
        return Err(format!(
            "kodama: track_length {} and neutral_space {}: the neutral kodama stands inside the track",
            k.track_length, k.neutral_space
        ));
    }
    expect_len("hill spaces", board.hill.len(), HILLS)?;
    if HILLS * 3 != HIKARU_MARKERS {
        return Err("three effects a hill space".into());
    }
    for (i, hill) in board.hill.iter().enumerate() {
        named(format!("hill {}", i + 1), &hill.effect)?;
    }
    let path = &board.virtue_path;
    let len = path.rewards.len();
    if !(1..=len).contains(&usize::from(path.torii_a))
        || !(1..=len).contains(&usize::from(path.torii_b))
        || path.torii_a >= path.torii_b
    {
        return Err(format!(
            "virtue_path: torii A on {} and B on {} must lie on the path (1..={len}), A first",
            path.torii_a, path.torii_b
        ));
    }
    for (i, reward) in path.rewards.iter().enumerate() {
        check_effect(reward, 0).map_err(|e| format!("virtue_path space {}: {e}", i + 1))?;
    }
    expect_len(
        "bitoku_kinds points (0 kinds, 1 kind, ...)",
        board.bitoku_kinds.points.len(),
        bitoku_kinds + 1,
    )?;
    if board.bitoku_kinds.points.windows(2).any(|w| w[0] > w[1]) {
        return Err("bitoku_kinds: more kinds never score less".into());
    }
    let pb = &board.player_board;
    expect_len("dice", pb.dice.len(), DICE)?;
    if usize::from(pb.yokai_slots) < DICE {
        return Err("player_board: every die needs a yokai slot to its left".into());
    }
    if pb.dice.iter().any(|d| !(1..=6).contains(d)) {
        return Err("player_board: dice show 1 to 6".into());
    }
    if pb.crystal_sockets == 0 {
        return Err("player_board: no crystal socket".into());
    }
    expect_len(
        "pilgrim spaces",
        pb.pilgrim_space_points.len(),
        SLEEPING_PILGRIMS,
    )?;
    expect_len(
        "pilgrims",
        usize::from(pb.awake_pilgrims) + SLEEPING_PILGRIMS,
        PILGRIMS,
    )?;
    let mut touching = HashSet::new();
    for t in &pb.iwakura_touches {
        if usize::from(*t) >= SLEEPING_PILGRIMS || !touching.insert(*t) {
            return Err(format!(
                "iwakura_touches: {t} is not a pilgrim space (0..{SLEEPING_PILGRIMS}) or appears twice"
            ));
        }
    }
    expect_len(
        "building spaces",
        pb.building_space_points.len(),
        BUILDING_MARKERS,
    )?;
    named("player_board start".into(), &pb.start)?;
    expect_len("tengu cards", board.tengu.len(), TENGU_CARDS)?;
    for (i, t) in board.tengu.iter().enumerate() {
        if !ids.contains(t.region.as_str()) {
            return Err(format!("tengu card {}: no region {}", i + 1, t.region));
        }
        if !(1..=6).contains(&t.value) {
            return Err(format!("tengu card {}: a die shows 1 to 6", i + 1));
        }
    }
    if board.solo_search_scale == 0 {
        return Err("solo_search_scale: a positive score".into());
    }
    if board.solo_titles.is_empty()
        || board
            .solo_titles
            .windows(2)
            .any(|w| w[0].score >= w[1].score)
    {
        return Err("solo_titles: at least one, scores ascending".into());
    }
    Ok(())
}

fn check_tiles(tiles: &Tiles) -> Result<(), String> {
    use counts::*;
    expect_len("building tiles", tiles.building.len(), BUILDINGS)?;
    for kind in BuildingKind::ALL {
        let mut values: Vec<u8> = tiles
            .building
            .iter()
            .filter(|b| b.kind == kind)
            .map(|b| b.value)
            .collect();
        values.sort_unstable();
        if values != [1, 2, 3, 4, 5, 6] || values.len() != BUILDINGS_PER_KIND {
            return Err(format!(
                "{kind:?} buildings have values {values:?}: one of each value 1 to 6"
            ));
        }
    }
    for b in &tiles.building {
        let what = format!("{:?} building {}", b.kind, b.value);
        if b.cost.is_empty() || b.cost.virtue > 0 {
            return Err(format!("{what}: a building costs resources"));
        }
        named(format!("{what} action"), &b.action)?;
        named(format!("{what} bonus"), &b.bonus)?;
        if b.bonus.iter().any(|s| !matches!(s, Step::Gain(_))) {
            // The owner takes the bonus at once, during another player's turn: no choices.
            return Err(format!("{what}: an ownership bonus is `gain` steps only"));
        }
        if b.action.is_empty() || b.bonus.is_empty() {
            return Err(format!("{what}: an action and a bonus"));
        }
    }
    expect_len("ancient buildings", tiles.ancient.len(), ANCIENT_BUILDINGS)?;
    for a in &tiles.ancient {
        if !(1..=6).contains(&a.value) {
            return Err(format!("ancient building {}: value 1 to 6", a.id));
        }
        named(format!("ancient building {}", a.id), &a.action)?;
    }
    expect_len("crystal tiles", tiles.crystal.len(), CRYSTALS)?;
    for (i, c) in tiles.crystal.iter().enumerate() {
        let what = format!("crystal {} ({:?})", i + 1, c.colour);
        if c.cost.is_empty() {
            return Err(format!("{what}: a crystal costs something"));
        }
        if c.colour != CrystalColour::Orange && c.points > 0 {
            return Err(format!("{what}: only orange crystals carry points"));
        }
        if c.colour != CrystalColour::Orange && c.effect.is_empty() {
            return Err(format!("{what}: a purple or pink crystal has an effect"));
        }
        named(what, &c.effect)?;
    }
    expect_len("mitama tiles", tiles.mitama.len(), MITAMA)?;
    let kinds = [
        MitamaKind::Ara,
        MitamaKind::Nigi,
        MitamaKind::Saki,
        MitamaKind::Kushi,
        MitamaKind::Shinigami,
    ];
    for (kind, want) in kinds.iter().zip(MITAMA_BY_KIND) {
        let got = tiles.mitama.iter().filter(|m| m.kind == *kind).count();
        expect_len(&format!("{kind:?} mitama"), got, want)?;
    }
    for (i, m) in tiles.mitama.iter().enumerate() {
        named(format!("mitama {} ({:?})", i + 1, m.kind), &m.effect)?;
    }
    expect_len("dragonfly tiles", tiles.dragonfly.len(), DRAGONFLIES)?;
    for (i, d) in tiles.dragonfly.iter().enumerate() {
        named(format!("dragonfly {}", i + 1), &d.effect)?;
    }
    for side in [ToriiSide::A, ToriiSide::B] {
        let of_side: Vec<_> = tiles.torii.iter().filter(|t| t.side == side).collect();
        expect_len(
            &format!("torii {side:?} tiles"),
            of_side.len(),
            TORII_PER_SIDE,
        )?;
        for (i, t) in of_side.iter().enumerate() {
            named(format!("torii {side:?} {}", i + 1), &t.reward)?;
        }
    }
    expect_len("lake treasures", tiles.lake_treasure.len(), LAKE_TREASURES)?;
    for (i, t) in tiles.lake_treasure.iter().enumerate() {
        if t.points.len() < MAX_PLAYERS || t.points.windows(2).any(|w| w[0] < w[1]) {
            return Err(format!(
                "lake treasure {}: points {:?}: one per rank for 4 players, a better rank never scoring less",
                i + 1,
                t.points
            ));
        }
    }
    expect_len("Iwakura rocks", tiles.iwakura.len(), IWAKURA)?;
    if IWAKURA < MAX_PLAYERS + IWAKURA_FACE_UP {
        return Err("not enough Iwakura rocks for 4 players and the board".into());
    }
    Ok(())
}

fn check_cards(cards: &Cards) -> Result<(), String> {
    use counts::*;
    let mut ids = HashSet::new();
    for y in &cards.yokai {
        if !ids.insert(y.id.as_str()) {
            return Err(format!("yokai {} twice", y.id));
        }
        if y.name_ja.is_empty() || y.name_en.is_empty() {
            return Err(format!("yokai {}: a name in Japanese and in English", y.id));
        }
        named(format!("yokai {}", y.id), &y.effect)?;
    }
    expect_len(
        "starting yokai",
        cards.yokai.iter().filter(|y| y.start).count(),
        START_YOKAI,
    )?;
    expect_len(
        "yokai in the deck",
        cards.yokai.iter().filter(|y| !y.start).count(),
        DECK_YOKAI,
    )?;
    let mut kinds = HashSet::new();
    for k in &cards.bitoku_kind {
        if !kinds.insert(k.id.as_str()) {
            return Err(format!("Bitoku kind {} twice", k.id));
        }
    }
    expect_len("Bitoku cards", cards.bitoku.len(), BITOKU_CARDS)?;
    for (i, b) in cards.bitoku.iter().enumerate() {
        if !kinds.contains(b.kind.as_str()) {
            return Err(format!(
                "Bitoku card {}: kind {} is not one of the bitoku_kind entries",
                i + 1,
                b.kind
            ));
        }
        named(format!("Bitoku card {} ({})", i + 1, b.kind), &b.effect)?;
    }
    expect_len("vision cards", cards.vision.len(), VISIONS)?;
    for (i, v) in cards.vision.iter().enumerate() {
        if v.need == 0 {
            return Err(format!("vision {}: needs at least one thing", i + 1));
        }
    }
    Ok(())
}
