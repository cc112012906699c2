//! Golden records (`tests/golden/*.json`): recorded games whose every view, pending
//! set, legal-action set and outcome must replay identically. A refactor leaves them
//! alone; a rules change raises `RULES_VERSION` and re-records them
//! (`TAKUGE_BLESS=1 cargo test -p takuge-bitoku --test golden`; see
//! `takuge_engine::golden`).

#[test]
fn golden_records_replay_with_the_same_views_legal_actions_and_outcome() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    takuge_engine::golden::check_dir::<takuge_bitoku::Bitoku>(&dir);
}
