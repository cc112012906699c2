//! A finished record stepped through as one viewer saw it (the replay viewer).

use super::log::acted;
use crate::error::ApiError;
use serde_json::{json, Value};
use takuge_engine::{DynGame, Lang, MatchRecord, Viewer};

/// Steps through a finished record: after each action, `viewer`'s view and log line.
pub fn replay_steps(
    game: &dyn DynGame,
    record: &MatchRecord,
    viewer: Viewer,
) -> Result<Vec<Value>, ApiError> {
    // A record of other rules (a table closed on restore, or finished under an older
    // build) is downloadable, but this build cannot show its views.
    record
        .check_rules(game.rules_version())
        .map_err(|e| ApiError::conflict("rules_version", e.to_string()))?;
    let mut state = game.new_game(&record.options, record.players(), record.seed)?;
    let mut steps = vec![json!({ "version": 0, "view": state.view(viewer) })];
    for (i, a) in record.actions.iter().enumerate() {
        let text = state
            .describe_for(a.seat, &a.action, viewer)
            .unwrap_or_else(|| acted(a.seat, Lang::En));
        let text_ja = state
            .describe_for_in(a.seat, &a.action, viewer, Lang::Ja)
            .unwrap_or_else(|| acted(a.seat, Lang::Ja));
        let before = state.box_clone();
        state
            .apply(a.seat, &a.action)
            .map_err(|e| ApiError::internal(format!("replay step {}: {}", i + 1, e.message)))?;
        let mut step = json!({
            "version": i + 1,
            "seat": a.seat,
            "log": text,
            "log_ja": text_ja,
            "view": state.view(viewer),
        });
        // What the step revealed to everyone: the places, cards or exhibits of a reveal.
        if let (Some(news), Some(fields)) =
            (state.revealed_in(&*before, Lang::En), step.as_object_mut())
        {
            let ja = state.revealed_in(&*before, Lang::Ja);
            fields.insert("news".into(), json!(news));
            fields.insert("news_ja".into(), json!(ja.unwrap_or_else(|| news.clone())));
        }
        steps.push(step);
    }
    Ok(steps)
}
