//! Golden records: recorded matches with a digest of what every viewer saw at every
//! step, like a chess library's perft files.
//!
//! Each file under a game's `tests/golden/` holds a match record (options, seats, seed,
//! action log) and, for every step, digests of each seat's and the spectator's view,
//! of who was pending and of every seat's legal actions, and at the end of the outcome.
//! Replaying the record must reproduce every digest. A refactor leaves them identical;
//! a change to a rule changes them, and then [`Game::RULES_VERSION`] must rise (old
//! records would not replay) and the files be recorded again:
//!
//! ```text
//! TAKUGE_BLESS=1 cargo test -p takuge-<game> --test golden
//! ```
//!
//! Blessing refuses to overwrite a file recorded under the same `RULES_VERSION` whose
//! record or legal-action digests changed: that is a rules change. A change to what a
//! view contains (a new field, a renamed one) that plays the same game is blessed with
//! `TAKUGE_BLESS=views`, which keeps the record and rewrites only the view digests.
//!
//! Digests are FNV-1a over the JSON the server sends, never `Debug` output, so
//! renaming a Rust type or field that is not serialized changes nothing.

use crate::game::Game;
use crate::record::{LoggedAction, MatchRecord, RECORD_FORMAT};
use crate::rng::GameRng;
use crate::seat::{Seat, Viewer};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One golden file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Golden {
    pub game: String,
    pub rules: u32,
    pub record: MatchRecord,
    /// One entry before each action, and one after the last.
    pub steps: Vec<StepDigest>,
    /// The outcome's JSON, once the game is over.
    pub outcome: serde_json::Value,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepDigest {
    pub to_move: Vec<Seat>,
    /// Each seat's view, then the spectator's: FNV-1a of the JSON, in hex.
    pub views: Vec<String>,
    /// Every seat's legal actions as a set (order-free): one digest.
    pub legal: String,
}

/// FNV-1a, 64 bits: stable forever (no dependency can change it).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        hash ^= u64::from(*b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn digest<T: Serialize>(value: &T) -> Result<String, String> {
    let json = serde_json::to_vec(value).map_err(|e| format!("does not serialize: {e}"))?;
    Ok(format!("{:016x}", fnv1a(&json)))
}

fn step_digest<G: Game>(state: &G, buf: &mut Vec<G::Action>) -> Result<StepDigest, String> {
    let players = state.players();
    let mut views = Vec::with_capacity(players + 1);
    for viewer in Seat::all(players)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
    {
        views.push(digest(&state.view(viewer))?);
    }
    let mut legal: Vec<String> = Vec::new();
    for seat in Seat::all(players) {
        state.legal_actions(seat, buf);
        let mut lines = buf
            .iter()
            .map(|a| serde_json::to_string(a).map_err(|e| e.to_string()))
            .collect::<Result<Vec<_>, _>>()?;
        lines.sort();
        legal.push(format!("{}:{}", seat.0, lines.join(",")));
    }
    Ok(StepDigest {
        to_move: state.to_move().iter().collect(),
        views,
        legal: format!("{:016x}", fnv1a(legal.join("|").as_bytes())),
    })
}

/// Plays a random match (uniform over the legal actions of a random pending seat) and
/// records it with its digests.
pub fn record<G: Game>(options: &G::Options, players: usize, seed: u64) -> Result<Golden, String> {
    let mut state = G::new(options, players, seed).map_err(|e| e.to_string())?;
    let mut rng = GameRng::from_seed(seed ^ 0x601d_e5ee_d000_0000);
    let mut buf = Vec::new();
    let mut actions = Vec::new();
    let mut steps = Vec::new();
    while !state.is_over() {
        if actions.len() > 100_000 {
            return Err("no end after 100 000 actions".into());
        }
        steps.push(step_digest(&state, &mut buf)?);
        let pending = state.to_move();
        let Some(seat) = pending.iter().nth(rng.index(pending.len())) else {
            return Err("nobody pending in a game not over".into());
        };
        state.legal_actions(seat, &mut buf);
        let Some(action) = rng.pick(&buf).cloned() else {
            return Err(format!("{seat} pending with no legal action"));
        };
        state
            .apply(seat, &action)
            .map_err(|e| format!("a legal action was refused: {e}"))?;
        actions.push(LoggedAction {
            seat,
            action: serde_json::to_value(&action).map_err(|e| e.to_string())?,
        });
    }
    steps.push(step_digest(&state, &mut buf)?);
    Ok(Golden {
        game: G::meta().id.to_string(),
        rules: G::RULES_VERSION,
        record: MatchRecord {
            format: RECORD_FORMAT,
            game: G::meta().id.to_string(),
            rules: G::RULES_VERSION,
            options: serde_json::to_value(options).map_err(|e| e.to_string())?,
            seats: vec![Default::default(); players],
            seed,
            actions,
        },
        steps,
        outcome: serde_json::to_value(state.outcome()).map_err(|e| e.to_string())?,
    })
}

/// Replays a golden file's record and recomputes its digests (the record is the input;
/// the digests are what must not change).
pub fn replay<G: Game>(golden: &Golden) -> Result<Golden, String> {
    let typed = golden
        .record
        .typed::<G>()
        .map_err(|e| format!("the record does not fit the game: {e}"))?;
    let players = golden.record.seats.len();
    let mut state = G::new(&typed.options, players, typed.seed).map_err(|e| e.to_string())?;
    let mut buf = Vec::new();
    let mut steps = Vec::with_capacity(typed.actions.len() + 1);
    for (i, logged) in typed.actions.iter().enumerate() {
        steps.push(step_digest(&state, &mut buf)?);
        state
            .apply(logged.seat, &logged.action)
            .map_err(|e| format!("step {i}: {} was refused: {e}", logged.seat))?;
    }
    steps.push(step_digest(&state, &mut buf)?);
    Ok(Golden {
        steps,
        outcome: serde_json::to_value(state.outcome()).map_err(|e| e.to_string())?,
        ..golden.clone()
    })
}

/// The first difference between a file and its replay, in words.
fn difference(want: &Golden, got: &Golden) -> Option<String> {
    let len = want.steps.len().max(got.steps.len());
    for i in 0..len {
        match (want.steps.get(i), got.steps.get(i)) {
            (Some(w), Some(g)) if w == g => {}
            (Some(w), Some(g)) => {
                let what = if w.to_move != g.to_move {
                    format!("pending seats {:?}, recorded {:?}", g.to_move, w.to_move)
                } else if w.legal != g.legal {
                    "the legal actions".to_string()
                } else {
                    let viewer = w
                        .views
                        .iter()
                        .zip(&g.views)
                        .position(|(a, b)| a != b)
                        .map(|v| {
                            if v + 1 >= w.views.len() {
                                "the spectator's view".to_string()
                            } else {
                                format!("seat {v}'s view")
                            }
                        })
                        .unwrap_or_else(|| "the number of viewers".into());
                    viewer
                };
                return Some(format!("step {i}: {what} changed"));
            }
            _ => {
                return Some(format!(
                    "the game now lasts {} steps, recorded {}",
                    got.steps.len(),
                    want.steps.len()
                ))
            }
        }
    }
    (want.outcome != got.outcome).then(|| {
        format!(
            "the outcome changed: {} (recorded {})",
            got.outcome, want.outcome
        )
    })
}

/// Whether only view digests differ (same record, same pending seats and legal actions).
fn views_only(want: &Golden, got: &Golden) -> bool {
    want.steps.len() == got.steps.len()
        && want.outcome == got.outcome
        && want
            .steps
            .iter()
            .zip(&got.steps)
            .all(|(w, g)| w.to_move == g.to_move && w.legal == g.legal)
}

fn file_name(options_index: usize, players: usize) -> String {
    format!("o{options_index}-p{players}.json")
}

/// Checks every golden file of `G` in `dir` (a game's `tests/golden`); with
/// `TAKUGE_BLESS` set, records them (see the module docs). Panics with a message that
/// says what changed and what to do.
pub fn check_dir<G: Game>(dir: &Path) {
    let bless = std::env::var("TAKUGE_BLESS").ok();
    if let Some(mode) = bless.as_deref() {
        if let Err(e) = bless_dir::<G>(dir, mode == "views") {
            panic!("{}: blessing golden records failed: {e}", G::meta().id);
        }
    }
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(e) => panic!(
            "{}: no golden records in {}: {e}",
            G::meta().id,
            dir.display()
        ),
    };
    files.sort();
    assert!(
        !files.is_empty(),
        "{}: no golden records in {}; record them with TAKUGE_BLESS=1",
        G::meta().id,
        dir.display()
    );
    for path in files {
        let want = read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if want.rules != G::RULES_VERSION {
            panic!(
                "{}: recorded under rules version {}, this build plays {}: re-record with TAKUGE_BLESS=1",
                path.display(),
                want.rules,
                G::RULES_VERSION
            );
        }
        let got = replay::<G>(&want).unwrap_or_else(|e| {
            panic!(
                "{}: the recorded match no longer replays ({e}). A rule changed: raise {}'s RULES_VERSION and re-record with TAKUGE_BLESS=1",
                path.display(),
                G::meta().id
            )
        });
        if let Some(what) = difference(&want, &got) {
            let advice = if views_only(&want, &got) {
                "Only views changed: if the game plays the same and only what a view contains changed, re-record with TAKUGE_BLESS=views; if a rule changed, raise RULES_VERSION and re-record with TAKUGE_BLESS=1"
            } else {
                "A rule changed: raise RULES_VERSION (old records would not replay the same) and re-record with TAKUGE_BLESS=1. A refactor must leave this file identical"
            };
            panic!("{}: {what}. {advice}.", path.display());
        }
    }
}

fn read(path: &Path) -> Result<Golden, String> {
    let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    serde_json::from_str(&text).map_err(|e| e.to_string())
}

fn bless_dir<G: Game>(dir: &Path, views_only_mode: bool) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
    let meta = G::meta();
    for (index, options) in G::option_sets().iter().enumerate() {
        let mut counts = vec![meta.min_players, meta.max_players];
        counts.dedup();
        for players in counts {
            if G::validate(options, players).is_err() {
                continue;
            }
            let path = dir.join(file_name(index, players));
            let new = match read(&path).ok() {
                // Same rules: the recorded match must replay to the same digests (only
                // the views may differ, and only when asked).
                Some(old) if old.rules == G::RULES_VERSION => {
                    let got = replay::<G>(&old)?;
                    if let Some(what) = difference(&old, &got) {
                        if !(views_only_mode && views_only(&old, &got)) {
                            return Err(format!(
                                "{}: {what} under the same RULES_VERSION ({}): raise it first (TAKUGE_BLESS=views re-records a change to the views alone)",
                                path.display(),
                                G::RULES_VERSION
                            ));
                        }
                    }
                    got
                }
                _ => record::<G>(options, players, 1)?,
            };
            let text = serde_json::to_string_pretty(&new).map_err(|e| e.to_string())?;
            std::fs::write(&path, text + "\n").map_err(|e| e.to_string())?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::fnv1a;

    #[test]
    fn fnv1a_is_pinned() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
