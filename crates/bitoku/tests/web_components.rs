//! The web board (`web/app/games/bitoku/components.js`) names and describes the pieces
//! the view gives by id (a yokai card, a tile, a region...) from the component set: the
//! three data files as one JSON object, the ids being positions in their lists. This
//! test keeps it in step with `data/`: after editing the data, write it again with
//! `TAKUGE_BLESS=1 cargo test -p takuge-bitoku --test web_components`.

use takuge_bitoku::{BOARD_TOML, CARDS_TOML, TILES_TOML};

/// `v` with every object's keys in sorted order: the file must not depend on whether
/// serde_json keeps insertion order (its `preserve_order` feature, which another crate of
/// the workspace may turn on in a workspace build).
fn sorted(v: serde_json::Value) -> serde_json::Value {
    match v {
        serde_json::Value::Object(m) => {
            let mut entries: Vec<(String, serde_json::Value)> = m.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        serde_json::Value::Array(a) => {
            serde_json::Value::Array(a.into_iter().map(sorted).collect())
        }
        other => other,
    }
}

fn expected() -> String {
    let mut all = serde_json::Map::new();
    for (name, text) in [
        ("board", BOARD_TOML),
        ("tiles", TILES_TOML),
        ("cards", CARDS_TOML),
    ] {
        let table: toml::Table = toml::from_str(text).expect("the data parses");
        all.insert(name.into(), serde_json::to_value(&table).expect("as JSON"));
    }
    format!(
        "// Generated from crates/bitoku/data/*.toml by crates/bitoku/tests/web_components.rs\n\
         // (TAKUGE_BLESS=1 cargo test -p takuge-bitoku --test web_components): do not edit.\n\
         export default {};\n",
        serde_json::to_string(&sorted(serde_json::Value::Object(all))).expect("JSON")
    )
}

#[test]
fn the_web_boards_component_file_matches_the_data() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../web/app/games/bitoku/components.js");
    let want = expected();
    if std::env::var_os("TAKUGE_BLESS").is_some() {
        std::fs::write(&path, &want).expect("write components.js");
        return;
    }
    let got = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        got == want,
        "{} is out of date: TAKUGE_BLESS=1 cargo test -p takuge-bitoku --test web_components",
        path.display()
    );
}
