//! `takuge games`: the catalog.

use crate::error::CliError;
use crate::render::table;
use crate::setup::range_text;
use std::io::Write;
use takuge_engine::Registry;

pub fn list(registry: &Registry, out: &mut dyn Write) -> Result<(), CliError> {
    let mut rows = vec![vec![
        "id".to_string(),
        "name".into(),
        "名前".into(),
        "players".into(),
        "minutes".into(),
        "bots".into(),
    ]];
    for game in registry.games() {
        let meta = game.meta();
        rows.push(vec![
            meta.id.to_string(),
            meta.name_en.to_string(),
            meta.name_ja.to_string(),
            range_text(meta.min_players, meta.max_players),
            range_text(meta.minutes.0 as usize, meta.minutes.1 as usize),
            game.bot_names().join(", "),
        ]);
    }
    if rows.len() == 1 {
        writeln!(out, "The catalog has no games yet.")?;
        return Ok(());
    }
    write!(out, "{}", table(&rows, ""))?;
    Ok(())
}
