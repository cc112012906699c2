//! The engine's conformance suite over art-heist's one setup (5 players, no options).

use takuge_art_heist::ArtHeist;
use takuge_engine::conformance::{assert_conforms, Config};

#[test]
fn art_heist_conforms() {
    let report = assert_conforms::<ArtHeist>(&Config::default());
    assert!(report.games >= 300);
    assert!(report.determinizations > 0 && report.refusals_checked > 0);
}
