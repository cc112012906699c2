//! The engine's conformance suite over every player count (3–5) and option set
//! (basic game, advanced variant with the special cards).

use takuge_engine::conformance::{assert_conforms, Config};
use takuge_ghost_for_sale::GhostForSale;

#[test]
fn conforms_for_every_player_count_and_option_set() {
    let report = assert_conforms::<GhostForSale>(&Config::default());
    assert_eq!(report.setups, 6, "3, 4 and 5 players, basic and advanced");
    eprintln!("{report:?}");
}
