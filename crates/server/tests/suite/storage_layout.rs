//! Storage lives in `src/store/`: no other file of the server names sqlx or writes
//! SQL. (The store's pool and its statement runner are private to `store/`, so the
//! compiler keeps a handler from reaching the database any other way.)

use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// What in `text` is storage: sqlx named, or a statement in a string literal.
fn storage_in(text: &str) -> Option<String> {
    const STATEMENTS: [&str; 4] = ["\"SELECT ", "\"INSERT INTO ", "\"UPDATE ", "\"DELETE FROM "];
    text.lines()
        .map(str::trim_start)
        .filter(|l| !l.starts_with("//"))
        .find(|l| l.contains("sqlx") || STATEMENTS.iter().any(|s| l.contains(s)))
        .map(str::to_string)
}

#[test]
fn only_the_store_speaks_sql() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offending = Vec::new();
    for path in &files {
        let rel = path
            .strip_prefix(&src)
            .expect("under src")
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("store/") {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("read a source file");
        if let Some(line) = storage_in(&text) {
            offending.push(format!("{rel}: {line}"));
        }
    }
    assert!(
        offending.is_empty(),
        "SQL outside src/store/ (put the query in a store/<resource>.rs method):\n{}",
        offending.join("\n")
    );
}

#[test]
fn the_guard_sees_sqlx_and_statements_but_not_comments() {
    assert!(storage_in("    let r = sqlx::query(q);").is_some());
    assert!(storage_in("        \"SELECT id FROM users\",").is_some());
    assert!(storage_in("    .execute(\"DELETE FROM sessions WHERE x = $1\", v)").is_some());
    assert!(storage_in("/// The UPDATE a batch makes; sqlx prepares it.").is_none());
    assert!(storage_in("let status = \"open\";").is_none());
}
