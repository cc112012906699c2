//! The engine's conformance suite over every player count (1–4) and the option set.

use takuge_bitoku::Bitoku;
use takuge_engine::conformance::{assert_conforms, Config};

#[test]
fn conforms_for_every_player_count() {
    let report = assert_conforms::<Bitoku>(&Config {
        games: 60,
        max_steps: 20_000,
        ..Config::default()
    });
    // One option set × 1–4 players.
    assert_eq!(report.setups, 4);
    assert!(report.games >= 240, "{report:?}");
    assert!(report.refusals_checked > 1_000, "{report:?}");
}
