//! A table's log as each viewer may read it: one entry per move, with a line per
//! viewer in each language, and the lines of what a move revealed to everyone.

use takuge_engine::{DynState, Lang, Seat};

/// One log entry as each viewer may read it: index = seat, last = spectator.
#[derive(Clone)]
pub(super) struct LogEntry {
    /// The seat that acted; `None` for what an action revealed to everyone
    /// (`Game::revealed_in`), a line of its own after the action's.
    pub seat: Option<Seat>,
    pub lines: Vec<Option<String>>,
    /// The same in Japanese (`text_ja`).
    pub lines_ja: Vec<Option<String>>,
}

/// What the action that turned `before` into `after` revealed to everyone
/// (`Game::revealed_in`), as a log entry of no seat that every viewer reads alike.
pub(super) fn news_entry(
    before: &dyn DynState,
    after: &dyn DynState,
    players: usize,
) -> Option<LogEntry> {
    let en = after.revealed_in(before, Lang::En)?;
    let ja = after
        .revealed_in(before, Lang::Ja)
        .unwrap_or_else(|| en.clone());
    Some(LogEntry {
        seat: None,
        lines: vec![Some(en); players + 1],
        lines_ja: vec![Some(ja); players + 1],
    })
}

/// The line of a viewer who may read nothing of the action but that it happened; the
/// seat numbered from 1, as the table shows it.
pub(super) fn acted(seat: Seat, lang: Lang) -> String {
    let n = u16::from(seat.0) + 1;
    match lang {
        Lang::En => format!("seat {n} acted"),
        Lang::Ja => format!("{n}番席が行動した"),
    }
}
