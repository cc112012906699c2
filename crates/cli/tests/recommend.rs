//! `takuge recommend synth` and `takuge recommend eval` as a user runs them.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_takuge"))
        .args(args)
        .output()
        .expect("the takuge binary runs")
}

fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("takuge-rec-{}-{name}", std::process::id()))
}

/// `name  precision@10 P  recall@10 R  ndcg@10 N  coverage C` → (name, [P, R, N, C]).
fn parse(line: &str) -> (String, Vec<f64>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let numbers = words
        .iter()
        .skip(2)
        .step_by(2)
        .filter_map(|w| w.parse().ok())
        .collect();
    (words.first().unwrap_or(&"").to_string(), numbers)
}

#[test]
fn takuge_beats_popularity_on_precision_and_recall_on_a_synthetic_file() {
    let file = temp_file("synth.csv");
    let path = file.to_str().expect("utf-8 path");
    let o = run(&[
        "recommend",
        "synth",
        "--users",
        "500",
        "--games",
        "250",
        "--seed",
        "3",
        "--out",
        path,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(&["recommend", "eval", "--ratings", path, "--seed", "3"]);
    let _ = std::fs::remove_file(&file);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let lines: Vec<(String, Vec<f64>)> = text.lines().map(parse).collect();
    let names: Vec<&str> = lines.iter().map(|l| l.0.as_str()).collect();
    assert_eq!(names, ["takuge", "popularity", "random"], "{text}");
    assert!(lines.iter().all(|l| l.1.len() == 4), "{text}");
    let (takuge, popularity) = (&lines[0].1, &lines[1].1);
    assert!(takuge[0] > popularity[0], "precision@10:\n{text}");
    assert!(takuge[1] > popularity[1], "recall@10:\n{text}");
}

#[test]
fn a_bad_ratings_line_is_named() {
    let file = temp_file("bad.csv");
    std::fs::write(&file, "user_id,game_id,rating\n1,13,7\n2,822,eleven\n").expect("write");
    let o = run(&[
        "recommend",
        "eval",
        "--ratings",
        file.to_str().expect("utf-8"),
    ]);
    let _ = std::fs::remove_file(&file);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("line 3: rating \"eleven\""), "{err}");
}
