//! `takuge serve` with its default logging stays responsive when log lines come from the
//! runtime's worker threads (issue 13, item 1). The command once held the stdout lock for
//! the server's whole life, so the first log line written from a worker (a clock running
//! out, a client that does not read) blocked that worker for ever, and soon every request.
//! Only the real binary shows this: in-process servers log elsewhere.

mod common;

use common::{json_field, wait_for, Served};
use std::time::Duration;

#[test]
fn two_guests_whose_one_second_clocks_run_out_do_not_freeze_the_server() {
    let served = Served::start(&[]);
    let host = served.guest();
    let other = served.guest();
    let created = served.post(
        "/api/tables",
        Some(&host),
        r#"{"game":"ghost-at-home","players":2,"clock":{"kind":"real_time","per_move_seconds":1,"reserve_seconds":0}}"#,
    );
    assert!(created.starts_with("HTTP/1.1 201"), "{created}");
    let table = json_field(&created, "id");
    let sat = served.post(&format!("/api/tables/{table}/sit"), Some(&other), "{}");
    assert!(sat.starts_with("HTTP/1.1 200"), "{sat}");
    let started = served.post(&format!("/api/tables/{table}/start"), Some(&host), "");
    assert!(started.starts_with("HTTP/1.1 200"), "{started}");
    // Nobody moves: the clock runs out, a worker thread logs it, a bot takes the seat.
    wait_for(&served, "out of time", Duration::from_secs(20));
    served.assert_responsive(Duration::from_secs(4), "after a clock ran out");
    let third = served.post("/api/guest", None, "");
    assert!(third.starts_with("HTTP/1.1 200"), "{third}");
}

#[test]
fn websocket_clients_that_never_read_do_not_freeze_the_server() {
    // Many tables set up quickly from one address: above the default request limits.
    let served = Served::start(&[
        "--rate-per-account",
        "1000/5000",
        "--rate-per-ip",
        "1000/5000",
        "--rate-auth-per-ip",
        "100/100",
    ]);
    let tables = served.bot_tables(14);
    // Two clients of a spectator subscribe to every table and never read a byte.
    let spectator = served.guest();
    let mut sockets = Vec::new();
    for _ in 0..2 {
        let url = format!("ws://{}/ws?token={spectator}", served.addr);
        let (mut socket, _) = tungstenite::connect(url).expect("websocket");
        for (_, table) in &tables {
            socket
                .send(tungstenite::Message::text(format!(
                    r#"{{"type":"subscribe","table":{table}}}"#
                )))
                .expect("subscribe");
        }
        sockets.push(socket);
    }
    std::thread::sleep(Duration::from_millis(300));
    served.fill_with_bots_and_start(&tables, None);
    wait_for(&served, "fell behind", Duration::from_secs(60));
    served.assert_responsive(Duration::from_secs(4), "after clients fell behind");
    drop(sockets);
}

/// Issue 21, item 11: started as a user starts it, with its log on a pipe (not a
/// terminal), `takuge serve` says where to point a browser and writes no ANSI colours.
#[test]
fn serve_says_where_to_open_it_and_writes_no_colours_to_a_pipe() {
    let served = Served::start(&[]);
    let open = format!("open http://{} in a browser", served.addr);
    wait_for(&served, &open, Duration::from_secs(10));
    let log = served.log.lock().expect("log").clone();
    assert!(
        log.iter().all(|l| !l.contains('\u{1b}')),
        "ANSI escapes in a piped log: {log:?}"
    );
}
