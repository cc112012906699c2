//! Text for people: a view's JSON as an indented outline, outcomes as a table.

use serde_json::Value;
use std::fmt::Write as _;
use takuge_engine::{GameMeta, Outcome};

/// Longest line an inline list may make before it is broken into an outline.
const INLINE_WIDTH: usize = 72;

/// A view's JSON as a readable outline: `snake_case` keys become words, lists of
/// plain values stay on one line, `null` is shown as a dash, booleans as yes/no.
pub fn render_view(view: &Value) -> String {
    let mut out = String::new();
    match view {
        Value::Object(_) | Value::Array(_) if inline(view, 0).is_none() => block(view, 0, &mut out),
        _ => {
            out.push_str(&inline(view, 0).unwrap_or_default());
            out.push('\n');
        }
    }
    out
}

fn label(key: &str) -> String {
    key.replace('_', " ")
}

fn scalar(value: &Value) -> Option<String> {
    match value {
        Value::Null => Some("—".into()),
        Value::Bool(true) => Some("yes".into()),
        Value::Bool(false) => Some("no".into()),
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(label(s)),
        Value::Array(_) | Value::Object(_) => None,
    }
}

/// One line for `value`, if it is simple enough.
fn inline(value: &Value, depth: usize) -> Option<String> {
    if let Some(s) = scalar(value) {
        return Some(s);
    }
    if depth >= 2 {
        return None;
    }
    let text = match value {
        Value::Array(items) if items.is_empty() => "none".to_string(),
        Value::Array(items) => {
            let parts = items
                .iter()
                .map(|item| {
                    let text = inline(item, depth + 1)?;
                    Some(
                        if item.is_array() && item.as_array().is_some_and(|a| a.len() > 1) {
                            format!("({text})")
                        } else {
                            text
                        },
                    )
                })
                .collect::<Option<Vec<_>>>()?;
            parts.join(", ")
        }
        // An enum variant with data, as serde writes it: `{"attack": 2}`.
        Value::Object(map) if map.len() == 1 => {
            let (key, inner) = map.iter().next()?;
            format!("{} {}", label(key), inline(inner, depth + 1)?)
        }
        Value::Object(map) if map.is_empty() => "none".to_string(),
        _ => return None,
    };
    (text.chars().count() <= INLINE_WIDTH).then_some(text)
}

fn block(value: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                match inline(inner, 0) {
                    Some(text) => {
                        let _ = writeln!(out, "{pad}{}: {text}", label(key));
                    }
                    None => {
                        let _ = writeln!(out, "{pad}{}:", label(key));
                        block(inner, indent + 2, out);
                    }
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                match inline(item, 0) {
                    Some(text) => {
                        let _ = writeln!(out, "{pad}- {text}");
                    }
                    None => {
                        // A list item as YAML writes it: the dash on its first line.
                        let mut inner = String::new();
                        block(item, indent + 2, &mut inner);
                        let body = inner.get(indent + 2..).unwrap_or_default();
                        let _ = write!(out, "{pad}- {body}");
                    }
                }
            }
        }
        other => {
            let _ = writeln!(out, "{pad}{}", inline(other, 0).unwrap_or_default());
        }
    }
}

/// Columns a string takes in a terminal: East Asian wide characters take two.
pub fn display_width(text: &str) -> usize {
    text.chars()
        .map(|c| match c as u32 {
            0x1100..=0x115F
            | 0x2E80..=0x303E
            | 0x3041..=0x33FF
            | 0x3400..=0x4DBF
            | 0x4E00..=0x9FFF
            | 0xA000..=0xA4CF
            | 0xAC00..=0xD7A3
            | 0xF900..=0xFAFF
            | 0xFE30..=0xFE4F
            | 0xFF00..=0xFF60
            | 0xFFE0..=0xFFE6 => 2,
            _ => 1,
        })
        .sum()
}

/// `text` padded with spaces to `width` terminal columns.
pub fn pad(text: &str, width: usize) -> String {
    let mut padded = text.to_string();
    padded.extend(std::iter::repeat_n(
        ' ',
        width.saturating_sub(display_width(text)),
    ));
    padded
}

/// Rows as aligned columns, each line indented by `indent`.
pub fn table(rows: &[Vec<String>], indent: &str) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|s| display_width(s))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row.iter().zip(&widths).map(|(c, w)| pad(c, *w)).collect();
        let _ = writeln!(out, "{indent}{}", cells.join("  ").trim_end());
    }
    out
}

/// A team's name in both languages, or its number if the game does not name it.
pub fn team_name(meta: &GameMeta, team: u8) -> String {
    match meta.teams.get(usize::from(team)) {
        Some(t) => format!("{} ({})", t.en, t.ja),
        None => format!("team {team}"),
    }
}

/// The final table: seat, player, team (for team games), score, rank.
pub fn render_outcome(outcome: &Outcome, meta: &GameMeta, names: &[String]) -> String {
    let has_teams = outcome.teams.iter().any(Option::is_some);
    let mut rows: Vec<Vec<String>> = vec![{
        let mut head = vec!["seat".to_string(), "player".into()];
        if has_teams {
            head.push("team".into());
        }
        head.extend(["score".into(), "rank".into()]);
        head
    }];
    for (i, score) in outcome.scores.iter().enumerate() {
        let mut row = vec![
            i.to_string(),
            names.get(i).cloned().unwrap_or_else(|| format!("seat {i}")),
        ];
        if has_teams {
            row.push(match outcome.teams.get(i).copied().flatten() {
                Some(t) => team_name(meta, t),
                None => "—".into(),
            });
        }
        row.push(score.to_string());
        row.push(
            outcome
                .ranks
                .get(i)
                .map_or_else(|| "—".into(), |r| r.to_string()),
        );
        rows.push(row);
    }
    let mut out = table(&rows, "  ");
    if let Some(team) = outcome.winning_team {
        let _ = writeln!(out, "Winning team: {}", team_name(meta, team));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_view_reads_as_an_outline() {
        let view = json!({
            "round": 2,
            "hand_sizes": [3, 2, 4],
            "my_card": null,
            "committed": [true, false],
            "last_action": {"attack": 1},
            "revealed": [[5, 5, 2], [1, 3, 4]],
            "players": [{"name": "a", "score": 1}, {"name": "b", "score": 2}],
        });
        let text = render_view(&view);
        assert!(text.contains("round: 2\n"), "{text}");
        assert!(text.contains("hand sizes: 3, 2, 4\n"), "{text}");
        assert!(text.contains("my card: —\n"), "{text}");
        assert!(text.contains("committed: yes, no\n"), "{text}");
        assert!(text.contains("last action: attack 1\n"), "{text}");
        assert!(text.contains("revealed: (5, 5, 2), (1, 3, 4)\n"), "{text}");
        assert!(
            text.contains("players:\n  - name: a\n    score: 1\n  - name: b\n"),
            "{text}"
        );
        assert!(!text.contains('{') && !text.contains('"'), "{text}");
    }

    #[test]
    fn the_outcome_table_lists_every_seat() {
        static META: GameMeta = GameMeta {
            id: "t",
            name_en: "T",
            name_ja: "T",
            min_players: 2,
            max_players: 2,
            minutes: (1, 1),
            min_age: 1,
            year: 2026,
            teams: &[takuge_engine::TeamName {
                en: "Moon",
                ja: "月",
            }],
        };
        let outcome = Outcome::from_scores(vec![3, 1], vec![Some(0), None]).with_winning_team(0);
        let text = render_outcome(&outcome, &META, &["you".into(), "bot".into()]);
        assert!(
            text.contains("seat  player  team       score  rank"),
            "{text}"
        );
        assert!(text.contains("0     you     Moon (月)  3      1"), "{text}");
        assert!(text.contains("Winning team: Moon (月)"), "{text}");
    }
}
