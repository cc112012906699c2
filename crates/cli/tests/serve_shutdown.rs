//! SIGTERM stops `takuge serve` within 5 s, always, after the commits under way (issue
//! 20, item 6). Under bots playing flat out, the server once logged "shutting down:
//! finishing commits in flight" and ran on for 15–90 s (once 9 minutes): the shutdown
//! was a command at the back of every table's mailbox, behind hundreds of bot moves that
//! were each a commit, and the tables were stopped one after another.

mod common;

use common::Served;
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
    sigterm_exits_within_five_seconds_and_keeps_every_table(None);
}

/// A helper saw the server run on for over 10 minutes after SIGTERM following a load
/// run with `normal` bots: searching bots (ISMCTS, about 0.2 s a move, queued on a
/// few threads) must not hold the stop back either.
#[test]
fn sigterm_while_searching_bots_think_exits_within_five_seconds_and_keeps_every_table() {
    sigterm_exits_within_five_seconds_and_keeps_every_table(Some("normal"));
}

fn sigterm_exits_within_five_seconds_and_keeps_every_table(bot: Option<&str>) {
    let mut served = Served::start(&LIMITS);
    let tables = served.bot_tables(14);
    served.fill_with_bots_and_start(&tables, bot);
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
