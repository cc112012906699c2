//! SIGTERM stops `takuge serve` within 5 s, always, after the commits under way (issue
//! 20, item 6). Under bots playing flat out, the server once logged "shutting down:
//! finishing commits in flight" and ran on for 15–90 s (once 9 minutes): the shutdown
//! was a command at the back of every table's mailbox, behind hundreds of bot moves that
//! were each a commit, and the tables were stopped one after another.

mod common;

use common::{json_field, Served};
use std::time::Duration;

/// Request limits raised so one address can set up many tables quickly.
const LIMITS: [&str; 6] = [
    "--rate-per-account",
    "1000/5000",
    "--rate-per-ip",
    "1000/5000",
    "--rate-auth-per-ip",
    "100/100",
];

#[test]
fn sigterm_under_bots_playing_flat_out_exits_within_five_seconds_and_keeps_every_table() {
    let mut served = Served::start(&LIMITS);
    // Tables bots play as fast as they can (no bot delay), five games each; a guest may
    // hold only three tables not yet started, so fourteen hosts set them up.
    let mut tables = Vec::new();
    for _ in 0..14 {
        let host = served.guest();
        for _ in 0..3 {
            let created = served.post(
                "/api/tables",
                Some(&host),
                r#"{"game":"secret-moon","players":5,"sit":false,"options":{"games":5}}"#,
            );
            assert!(created.starts_with("HTTP/1.1 201"), "{created}");
            tables.push((host.clone(), json_field(&created, "id")));
        }
    }
    for (host, table) in &tables {
        let filled = served.post(&format!("/api/tables/{table}/bots"), Some(host), "{}");
        assert!(filled.starts_with("HTTP/1.1 200"), "{filled}");
        let started = served.post(&format!("/api/tables/{table}/start"), Some(host), "");
        assert!(started.starts_with("HTTP/1.1 200"), "{started}");
    }
    std::thread::sleep(Duration::from_secs(2));

    let (took, status) = served
        .terminate(Duration::from_secs(60))
        .expect("takuge serve exits after SIGTERM");
    assert!(
        took <= Duration::from_secs(5),
        "SIGTERM took {took:?} to stop the server (at most 5 s)"
    );
    assert!(status.success(), "exit status {status}");
    assert!(served.logged("stopped"), "the server logs that it stopped");

    // What was committed is whole: a new server on the same database restores every
    // table from its record, and each one answers.
    let again = Served::start_in(served.dir.clone(), &LIMITS);
    for (host, table) in &tables {
        let addr = &again.addr;
        let answer = again
            .request(
                &format!(
                    "GET /api/tables/{table} HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {host}\r\nConnection: close\r\n\r\n"
                ),
                Duration::from_secs(20),
            )
            .unwrap_or_else(|| panic!("no answer for table {table}"));
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "table {table}: {answer}"
        );
    }
    assert!(
        !again.logged("cannot restore"),
        "{:?}",
        again.log.lock().expect("log")
    );
}
