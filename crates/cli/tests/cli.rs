//! The `takuge` binary as a user runs it: exit codes, what it prints, files it writes.
//!
//! The happy paths run against the first game of the shipped catalog (Secret Moon);
//! error cases need no game at all.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use takuge_engine::Registry;

fn takuge() -> Command {
    Command::new(env!("CARGO_BIN_EXE_takuge"))
}

fn run(args: &[&str]) -> Output {
    run_with_input(args, "")
}

/// Runs the binary with `input` on stdin (written from a thread, so a large input
/// cannot deadlock against a full stdout pipe).
fn run_with_input(args: &[&str], input: &str) -> Output {
    let mut child = takuge()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the takuge binary runs");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        // The game may end before all input is read: a broken pipe is fine.
        let _ = stdin.write_all(input.as_bytes());
    });
    let output = child.wait_with_output().expect("takuge finishes");
    let _ = writer.join();
    output
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn assert_ok(o: &Output) {
    assert!(
        o.status.success(),
        "exit {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        stdout(o),
        stderr(o)
    );
}

/// Asserts a non-zero exit with `message` on stderr.
fn assert_fails_with(o: &Output, message: &str) {
    assert!(!o.status.success(), "expected failure, got:\n{}", stdout(o));
    assert!(
        stderr(o).contains(message),
        "stderr lacks {message:?}:\n{}",
        stderr(o)
    );
}

/// A scratch file path unique to this test process.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("takuge-cli-{}-{name}", std::process::id()))
}

/// The first game of the catalog and its smallest table.
fn first_game() -> Option<(&'static str, usize)> {
    let registry: Registry = takuge_games::registry();
    let id = *takuge_games::game_ids().first()?;
    let meta = registry.get(id)?.meta();
    Some((id, meta.min_players))
}

macro_rules! with_game {
    () => {
        match first_game() {
            Some(game) => game,
            None => panic!("the catalog has no games"),
        }
    };
}

#[test]
fn games_lists_the_catalog() {
    let o = run(&["games"]);
    assert_ok(&o);
    for id in takuge_games::game_ids() {
        assert!(stdout(&o).contains(id), "{id} missing:\n{}", stdout(&o));
    }
}

#[test]
fn bots_play_a_whole_game_which_saves_and_replays() {
    let (id, players) = with_game!();
    let save = temp_file("bots.json");
    let n = players.to_string();
    let save_arg = save.to_string_lossy().into_owned();
    let o = run(&[
        "play",
        id,
        "--players",
        &n,
        "--all-bots",
        "--bot",
        "random",
        "--seed",
        "7",
        "--save",
        &save_arg,
    ]);
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.contains("seed 7"), "{text}");
    assert!(text.contains("Game over after"), "{text}");
    assert!(text.contains("Outcome:") && text.contains("rank"), "{text}");

    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("the record was saved"))
            .expect("the record is JSON");
    assert_eq!(record["format"], 1);
    assert_eq!(record["game"], id);
    assert_eq!(record["seed"], 7);
    assert_eq!(record["seats"].as_array().map(Vec::len), Some(players));
    assert_eq!(record["seats"][0]["bot"], "random");
    assert!(record["actions"].as_array().is_some_and(|a| !a.is_empty()));

    let o = run(&["replay", &save_arg, "--seat", "1"]);
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.contains("Showing seat 1's view."), "{text}");
    assert!(text.contains("#1 seat "), "{text}");
    assert!(text.contains("Game over. Outcome:"), "{text}");

    let o = run(&["replay", &save_arg]);
    assert_ok(&o);
    assert!(stdout(&o).contains("the spectator's view"));
    let _ = std::fs::remove_file(&save);
}

#[test]
fn a_human_seat_plays_from_piped_input_and_is_asked_again_after_a_bad_line() {
    let (id, players) = with_game!();
    let n = players.to_string();
    // A bad line, then always the first choice, more than any game needs.
    let input = format!("banana\n{}", "1\n".repeat(5_000));
    let save = temp_file("human.json");
    let save_arg = save.to_string_lossy().into_owned();
    let o = run_with_input(
        &[
            "play", id, "-p", &n, "--bot", "random", "--seed", "3", "--save", &save_arg,
        ],
        &input,
    );
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.contains("You play seat 1"), "{text}");
    assert!(text.contains("seat 1: your view"), "{text}");
    assert!(text.contains("Your choices:\n   1. "), "{text}");
    assert!(
        text.contains("\"banana\" is not one of the choices"),
        "{text}"
    );
    assert!(text.contains("Outcome:"), "{text}");
    // Views are rendered for people, not dumped as JSON.
    assert!(!text.contains("\":"), "raw JSON in the output:\n{text}");
    let record = std::fs::read_to_string(&save).expect("the record was saved");
    assert!(record.contains("\"name\": \"player 1\""), "{record}");
    let o = run(&["replay", &save_arg]);
    assert_ok(&o);
    let _ = std::fs::remove_file(&save);
}

#[test]
fn end_of_input_leaves_the_game_cleanly() {
    let (id, players) = with_game!();
    let n = players.to_string();
    let o = run_with_input(
        &["play", id, "-p", &n, "--bot", "random", "--seed", "1"],
        "",
    );
    assert_ok(&o);
    assert!(
        stdout(&o).contains("Input ended; leaving the game"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn hotseat_passes_the_device_between_seats() {
    let (id, players) = with_game!();
    let n = players.to_string();
    let input = "\n1\n".repeat(5_000);
    let o = run_with_input(&["play", id, "-p", &n, "--hotseat", "--seed", "2"], &input);
    assert_ok(&o);
    let text = stdout(&o);
    assert!(text.contains("Pass the device to seat"), "{text}");
    assert!(text.contains("Outcome:"), "{text}");
}

#[test]
fn simulate_prints_rates_and_win_rates() {
    let (id, players) = with_game!();
    let n = players.to_string();
    let o = run(&[
        "simulate",
        "--game",
        id,
        "--players",
        &n,
        "--games",
        "40",
        "--threads",
        "2",
        "--seed",
        "5",
    ]);
    assert_ok(&o);
    let text = stdout(&o);
    let rate = |unit: &str| {
        text.lines()
            .find_map(|l| l.strip_suffix(unit))
            .and_then(|n| n.trim().parse::<f64>().ok())
    };
    assert!(rate(" games/s").is_some_and(|r| r > 0.0), "{text}");
    assert!(rate(" actions/s").is_some_and(|r| r > 0.0), "{text}");
    assert!(text.contains("average actions per game: "), "{text}");
    assert!(text.contains("win rate per seat"), "{text}");
    for seat in 1..=players {
        assert!(text.contains(&format!("  seat {seat}: ")), "{text}");
    }
    assert!(text.contains("average score per seat:"), "{text}");
    if id == "secret-moon" {
        // A team game: every seat belongs to a team.
        assert!(text.contains("win rate per team:"), "{text}");
    }
    // The same seed gives the same statistics whatever the thread count.
    let again = run(&[
        "simulate",
        "-g",
        id,
        "-p",
        &n,
        "-n",
        "40",
        "--threads",
        "1",
        "--seed",
        "5",
    ]);
    let stats = |t: &str| -> String {
        t.lines()
            .skip_while(|l| !l.starts_with("average actions"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(stats(&text), stats(&stdout(&again)));
}

#[test]
fn bench_prints_rates() {
    let (id, _) = with_game!();
    let o = run(&["bench", "--game", id, "--seconds", "0.2"]);
    assert_ok(&o);
    assert!(stdout(&o).contains(" games/s\n"), "{}", stdout(&o));
    assert!(stdout(&o).contains(" actions/s\n"), "{}", stdout(&o));
}

#[test]
fn an_unknown_game_is_refused_by_every_command() {
    assert_fails_with(
        &run(&["play", "no-such-game", "-p", "3"]),
        "unknown game \"no-such-game\"",
    );
    assert_fails_with(
        &run(&["simulate", "-g", "no-such-game", "-p", "3", "-n", "1"]),
        "unknown game \"no-such-game\"",
    );
    assert_fails_with(&run(&["bench", "-g", "no-such-game"]), "unknown game");
}

#[test]
fn a_bad_player_count_is_explained() {
    let (id, _) = with_game!();
    assert_fails_with(&run(&["play", id, "-p", "1"]), "not 1");
    assert_fails_with(&run(&["play", id, "-p", "99"]), "99");
    assert_fails_with(&run(&["simulate", "-g", id, "-p", "1", "-n", "1"]), "not 1");
    assert_fails_with(&run(&["play", id, "-p", "abc"]), "invalid value 'abc'");
}

#[test]
fn malformed_options_are_explained() {
    let (id, players) = with_game!();
    let n = players.to_string();
    assert_fails_with(
        &run(&["play", id, "-p", &n, "--options", "{not json"]),
        "--options is not valid JSON",
    );
    assert_fails_with(
        &run(&["simulate", "-g", id, "-p", &n, "--options", "[1,"]),
        "--options is not valid JSON",
    );
    assert_fails_with(
        &run(&["play", id, "-p", &n, "--options", "\"a string\""]),
        &format!("options for {id}"),
    );
}

#[test]
fn a_bad_seat_or_bot_is_explained() {
    let (id, players) = with_game!();
    let n = players.to_string();
    // Seats are numbered from 1, as the web table and every log line number them.
    for seat in ["0".to_string(), (players + 1).to_string()] {
        assert_fails_with(
            &run(&["play", id, "-p", &n, "--seat", &seat]),
            "seats are numbered from 1",
        );
    }
    assert_fails_with(
        &run(&["play", id, "-p", &n, "--bot", "nobody"]),
        "no bot called \"nobody\"",
    );
    assert_fails_with(
        &run(&["simulate", "-g", id, "-p", &n, "-n", "1", "--bot", "nobody"]),
        "no bot called \"nobody\"",
    );
}

#[test]
fn a_corrupt_record_is_refused_clearly() {
    let missing = temp_file("missing.json");
    assert_fails_with(&run(&["replay", &missing.to_string_lossy()]), "cannot read");

    let garbage = temp_file("garbage.json");
    std::fs::write(&garbage, "this is not JSON").expect("temp file");
    assert_fails_with(
        &run(&["replay", &garbage.to_string_lossy()]),
        "is not a takuge match record",
    );

    let wrong_shape = temp_file("shape.json");
    std::fs::write(&wrong_shape, r#"{"format": 1, "game": 3}"#).expect("temp file");
    assert_fails_with(
        &run(&["replay", &wrong_shape.to_string_lossy()]),
        "is not a takuge match record",
    );

    let unknown = temp_file("unknown.json");
    std::fs::write(
        &unknown,
        r#"{"format":1,"game":"chess","options":null,"seats":[{"name":"a"},{"name":"b"}],"seed":1,"actions":[]}"#,
    )
    .expect("temp file");
    assert_fails_with(
        &run(&["replay", &unknown.to_string_lossy()]),
        "unknown game \"chess\"",
    );

    let future = temp_file("future.json");
    std::fs::write(
        &future,
        r#"{"format":99,"game":"chess","options":null,"seats":[],"seed":1,"actions":[]}"#,
    )
    .expect("temp file");
    assert_fails_with(
        &run(&["replay", &future.to_string_lossy()]),
        "record format 99",
    );

    for path in [garbage, wrong_shape, unknown, future] {
        let _ = std::fs::remove_file(path);
    }
}

#[test]
fn a_tampered_record_names_the_refused_action() {
    let (id, players) = with_game!();
    let save = temp_file("tamper.json");
    let save_arg = save.to_string_lossy().into_owned();
    let n = players.to_string();
    let o = run(&[
        "play",
        id,
        "-p",
        &n,
        "--all-bots",
        "--bot",
        "random",
        "--seed",
        "9",
        "--save",
        &save_arg,
    ]);
    assert_ok(&o);
    let mut record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("saved")).expect("JSON");
    // The first action, played by a seat beyond the table.
    record["actions"][0]["seat"] = serde_json::json!(15);
    std::fs::write(&save, record.to_string()).expect("temp file");
    assert_fails_with(&run(&["replay", &save_arg]), "action 0 (seat 16");
    let _ = std::fs::remove_file(&save);
}

#[test]
fn two_human_seats_share_the_device_with_bots_at_the_table() {
    let (id, players) = with_game!();
    let n = players.to_string();
    let input = "\n1\n".repeat(5_000);
    let o = run_with_input(
        &[
            "play", id, "-p", &n, "--seat", "1,2", "--bot", "random", "--seed", "8",
        ],
        &input,
    );
    assert_ok(&o);
    let text = stdout(&o);
    assert!(
        text.contains("Humans play seats 1, 2; the bot random"),
        "{text}"
    );
    assert!(text.contains("Pass the device to seat"), "{text}");
    assert!(text.contains("Outcome:"), "{text}");
}

#[test]
fn every_game_in_the_catalog_plays_to_the_end_with_its_default_bot_and_replays() {
    let registry: Registry = takuge_games::registry();
    for id in takuge_games::game_ids() {
        let Some(game) = registry.get(id) else {
            panic!("{id} is not in the registry");
        };
        let meta = game.meta();
        for players in [meta.min_players, meta.max_players] {
            let save = temp_file(&format!("every-{id}-{players}.json"));
            let save_arg = save.to_string_lossy().into_owned();
            let n = players.to_string();
            let o = run(&[
                "play",
                id,
                "--players",
                &n,
                "--all-bots",
                "--seed",
                "11",
                "--save",
                &save_arg,
            ]);
            assert_ok(&o);
            assert!(
                stdout(&o).contains("Game over after"),
                "{id}: {}",
                stdout(&o)
            );
            let o = run(&["replay", &save_arg]);
            assert_ok(&o);
            assert!(
                stdout(&o).contains("Game over. Outcome:"),
                "{id}: {}",
                stdout(&o)
            );
            let _ = std::fs::remove_file(&save);
        }
    }
}
