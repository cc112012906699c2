//! `takuge loadtest` with no `--server`: the command starts a server of its own in its
//! process, hands its URL to the load clients, and reports the server's figures too.

use takuge::loadtest::{measure_blocking, OwnServer};
use takuge_loadtest::LoadConfig;

#[test]
fn the_load_test_drives_tables_on_its_own_server_and_reports() {
    let load = LoadConfig {
        tables: 3,
        seconds: 1.0,
        options: serde_json::json!({"games": 3}),
        think_ms: 5,
        progress_seconds: Some(0.4),
        ..LoadConfig::new(Vec::new())
    };
    let report = measure_blocking(load, Some(OwnServer::default())).expect("runs");
    assert!(
        report.committed > 0 && report.client_actions > 0,
        "{report}"
    );
    assert_eq!(report.errors, 0, "{report}");
    let text = report.to_string();
    assert!(text.contains("actions/s") && text.contains("p99"), "{text}");
    // Its own server: the process figures include the clients, and say so.
    assert!(report.own_server, "{report}");
    assert!(text.contains("the load clients included"), "{text}");
    // The server's own figures, from its /metrics (issue 20, item 3).
    let p = &report.process;
    assert!(
        p.live_tables >= 1 && p.resident_tables >= p.live_tables,
        "{report}"
    );
    if cfg!(target_os = "linux") {
        assert!(
            p.rss_idle.is_some_and(|r| r > 0) && p.rss_end.is_some_and(|r| r > 0),
            "{report}"
        );
        assert!(p.cpu_seconds.is_some_and(|c| c >= 0.0), "{report}");
        assert!(p.bytes_per_live_table().is_some(), "{report}");
    }
    assert!(text.contains("a live table"), "{text}");
}
