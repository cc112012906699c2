//! The engine's conformance suite over every player count (2–4) and both option sets
//! (special cards off — the default — and on).

use takuge_engine::conformance::{assert_conforms, Config};
use takuge_engine::Game;
use takuge_ghost_at_home::GhostAtHome;

#[test]
fn option_sets_cover_special_cards_on_and_off() {
    let sets = GhostAtHome::option_sets();
    assert!(sets.iter().any(|o| o.special_cards));
    assert!(sets.iter().any(|o| !o.special_cards));
    assert!(!takuge_ghost_at_home::Options::default().special_cards);
}

#[test]
fn conforms_for_every_player_count_and_option_set() {
    let report = assert_conforms::<GhostAtHome>(&Config::default());
    // 2 option sets × 3 player counts.
    assert_eq!(report.setups, 6);
}
