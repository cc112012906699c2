//! The component set (`data/*.toml`): complete, well formed, in the retail counts, and
//! every mistake a user could make while editing it is a clear error at load.

use takuge_bitoku::{components, Components, Step, BOARD_TOML, CARDS_TOML, TILES_TOML};

#[test]
fn the_component_set_loads_with_the_retail_counts() {
    let c = match components() {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    // "Yokai cards: 29 in the main deck, 20 starting (5 a player, identical sets)"
    assert_eq!(c.start_yokai().count(), 5);
    assert_eq!(c.deck_yokai().count(), 29);
    assert_eq!(c.cards.bitoku.len(), 24);
    assert_eq!(c.cards.vision.len(), 28);
    assert_eq!(c.tiles.building.len(), 24);
    assert_eq!(c.tiles.crystal.len(), 32);
    assert_eq!(c.tiles.mitama.len(), 24);
    assert_eq!(c.tiles.dragonfly.len(), 32);
    assert_eq!(c.tiles.torii.len(), 16);
    assert_eq!(c.tiles.iwakura.len(), 13);
    assert_eq!(c.tiles.lake_treasure.len(), 5);
    // 「森エリアにある5つの領域」, two of them named by the seed.
    assert_eq!(c.board.region.len(), 5);
    let names: Vec<&str> = c.board.region.iter().map(|r| r.name_ja.as_str()).collect();
    assert!(
        names.contains(&"黄泉の地") && names.contains(&"翡翠の空き地"),
        "{names:?}"
    );
    // ②ダイズ3個を…左から右の順に目を「3」、「2」、「1」とする。
    assert_eq!(c.board.player_board.dice, [3, 2, 1]);
}

fn load_with(file: &str, from: &str, to: &str) -> String {
    let edit = |name: &str, text: &str| {
        if name == file {
            assert!(text.contains(from), "{from:?} is not in {file}");
            text.replacen(from, to, 1)
        } else {
            text.to_string()
        }
    };
    match Components::parse(
        &edit("board", BOARD_TOML),
        &edit("tiles", TILES_TOML),
        &edit("cards", CARDS_TOML),
    ) {
        Ok(_) => panic!("editing {file}: {from:?} → {to:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_unknown_effect_is_an_error_naming_it() {
    let e = load_with("cards", "{ gain = { wood = 1 } }", "{ teleport = 1 }");
    assert!(
        e.starts_with("cards.toml:") && e.contains("teleport"),
        "{e}"
    );
}

#[test]
fn an_unknown_resource_is_an_error_naming_it() {
    let e = load_with(
        "board",
        "{ gain = { sake = 1 } }",
        "{ gain = { rice = 1 } }",
    );
    assert!(e.contains("rice"), "{e}");
}

#[test]
fn a_missing_component_is_a_count_error() {
    let e = load_with("tiles", "[[iwakura]]\nsymbol = \"mitama\"\n", "");
    assert!(
        e.contains("12 Iwakura rocks, the component set has 13"),
        "{e}"
    );
}

#[test]
fn a_zero_amount_is_an_error_naming_the_component_and_step() {
    let e = load_with(
        "board",
        "[{ gain = { sake = 1 } }, { kodama = 1 }],",
        "[{ gain = { sake = 1 } }, { kodama = 0 }],",
    );
    assert!(e.contains("region yomi action 4: step 2: kodama 0"), "{e}");
}

#[test]
fn a_building_value_missing_from_a_kind_is_an_error() {
    let e = load_with(
        "tiles",
        "kind = \"temple\"\nvalue = 6",
        "kind = \"temple\"\nvalue = 5",
    );
    assert!(e.contains("Temple buildings have values"), "{e}");
}

#[test]
fn a_bitoku_card_of_an_unknown_kind_is_an_error() {
    let e = load_with("cards", "kind = \"jin\"", "kind = \"kindness\"");
    assert!(
        e.contains("kind kindness is not one of the bitoku_kind entries"),
        "{e}"
    );
}

#[test]
fn a_torii_off_the_path_is_an_error() {
    let e = load_with("board", "torii_b = 6", "torii_b = 9");
    assert!(e.contains("virtue_path: torii A on 3 and B on 9"), "{e}");
}

#[test]
fn every_effect_kind_of_the_language_is_used_by_some_component() {
    let c = match components() {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    };
    let mut effects: Vec<&Vec<Step>> = Vec::new();
    effects.extend(c.cards.yokai.iter().map(|y| &y.effect));
    effects.extend(c.tiles.mitama.iter().map(|m| &m.effect));
    effects.extend(c.tiles.dragonfly.iter().map(|d| &d.effect));
    effects.extend(c.board.region.iter().flat_map(|r| r.actions.iter()));
    effects.extend(c.board.hill.iter().map(|h| &h.effect));
    let mut seen = std::collections::BTreeSet::new();
    fn walk(steps: &[Step], seen: &mut std::collections::BTreeSet<&'static str>) {
        for s in steps {
            let name = match s {
                Step::Gain(_) => "gain",
                Step::Pay { then, .. } => {
                    walk(then, seen);
                    "pay"
                }
                Step::Choose(options) => {
                    for o in options {
                        walk(o, seen);
                    }
                    "choose"
                }
                Step::Kodama(_) => "kodama",
                Step::DrawYokai(_) => "draw_yokai",
                Step::WakePilgrim(_) => "wake_pilgrim",
                Step::VirtuePath(_) => "virtue_path",
                Step::TakeTile { .. } => "take_tile",
                Step::Build { .. } => "build",
                Step::TakeBitoku(_) => "take_bitoku",
                Step::Vision(_) => "vision",
                Step::SwapIwakura(_) => "swap_iwakura",
                Step::RaiseDie(_) => "raise_die",
                Step::RetireYokai(_) => "retire_yokai",
            };
            seen.insert(name);
        }
    }
    for e in effects {
        walk(e, &mut seen);
    }
    assert_eq!(seen.len(), 14, "{seen:?}");
}
