//! Shared by the subcommands: finding a game, reading options, seeds, record files.

use crate::error::CliError;
use serde_json::Value;
use std::hash::{BuildHasher, Hasher};
use std::path::Path;
use std::sync::Arc;
use takuge_engine::record::RECORD_FORMAT;
use takuge_engine::{DynGame, Game, GameRng, MatchRecord, Registry};

/// The error for a game id the catalog does not have, listing the ones it has.
pub fn unknown_game(registry: &Registry, id: &str) -> CliError {
    let known: Vec<&str> = registry.ids().collect();
    if known.is_empty() {
        CliError(format!("unknown game {id:?}: the catalog has no games yet"))
    } else {
        CliError(format!(
            "unknown game {id:?}; the catalog has: {}",
            known.join(", ")
        ))
    }
}

pub fn find_game<'r>(registry: &'r Registry, id: &str) -> Result<&'r Arc<dyn DynGame>, CliError> {
    registry.get(id).ok_or_else(|| unknown_game(registry, id))
}

/// Parses `--options`; no flag means the game's recommended setup (`null`).
pub fn options_json(text: Option<&str>) -> Result<Value, CliError> {
    match text {
        None => Ok(Value::Null),
        Some(text) => serde_json::from_str(text)
            .map_err(|e| CliError(format!("--options is not valid JSON: {e}"))),
    }
}

/// Reads JSON options as game `G`'s; `null` means the default.
pub fn typed_options<G: Game>(options: &Value) -> Result<G::Options, CliError> {
    if options.is_null() {
        return Ok(G::Options::default());
    }
    serde_json::from_value(options.clone())
        .map_err(|e| CliError(format!("options for {}: {e}", G::meta().id)))
}

/// Checks typed options against a player count, with the game's own reason.
pub fn validate_typed<G: Game>(options: &G::Options, players: usize) -> Result<(), CliError> {
    G::validate(options, players).map_err(|e| CliError(format!("{}: {e}", G::meta().id)))
}

/// A seed nobody chose: from the process's random hasher keys (no extra crate).
pub fn fresh_seed() -> u64 {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0),
    );
    hasher.finish()
}

/// The seed of game number `index` in a series: independent of how the series is
/// split across threads, so a simulation's results do not depend on `--threads`.
pub fn series_seed(base: u64, index: u64) -> u64 {
    GameRng::from_seed(base ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

pub fn write_record(path: &Path, record: &MatchRecord) -> Result<(), CliError> {
    let text = serde_json::to_string_pretty(record)
        .map_err(|e| CliError(format!("cannot encode the match record: {e}")))?;
    std::fs::write(path, text + "\n")
        .map_err(|e| CliError(format!("cannot write {}: {e}", path.display())))
}

/// Reads a JSON match record, refusing files that are not one or are too new.
pub fn read_record(path: &Path) -> Result<MatchRecord, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
    let record: MatchRecord = serde_json::from_str(&text).map_err(|e| {
        CliError(format!(
            "{} is not a takuge match record: {e}",
            path.display()
        ))
    })?;
    if record.format > RECORD_FORMAT {
        return Err(CliError(format!(
            "{} has record format {}, newer than this build reads ({RECORD_FORMAT})",
            path.display(),
            record.format
        )));
    }
    Ok(record)
}

/// "3–5" or "4".
pub fn range_text(low: usize, high: usize) -> String {
    if low == high {
        low.to_string()
    } else {
        format!("{low}–{high}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn series_seeds_differ_and_repeat() {
        assert_ne!(series_seed(1, 0), series_seed(1, 1));
        assert_eq!(series_seed(7, 3), series_seed(7, 3));
    }

    #[test]
    fn bad_options_json_is_explained() {
        let e = options_json(Some("{oops")).unwrap_err();
        assert!(e.0.contains("--options is not valid JSON"), "{e}");
        assert_eq!(options_json(None).unwrap(), Value::Null);
    }
}
