//! The shared conformance suite, for every player count (3–8) and option set
//! (1/3/5-game matches, with and without the thief, the order secret or public).

use takuge_engine::conformance::{assert_conforms, Config};
use takuge_secret_moon::SecretMoon;

#[test]
fn secret_moon_conforms_for_every_player_count_and_option_set() {
    let report = assert_conforms::<SecretMoon>(&Config {
        games: 120,
        ..Config::default()
    });
    // 12 option sets; 3–8 players without the thief, 6–8 with it.
    assert_eq!(report.setups, 3 * 2 * (6 + 3));
    assert!(report.games >= 3_000, "{report:?}");
    assert!(report.refusals_checked > 10_000, "{report:?}");
}
