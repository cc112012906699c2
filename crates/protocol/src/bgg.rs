//! The BoardGameGeek collection export (the CSV a person downloads from their BGG
//! collection), decoded for `POST /api/collections/import`. The whole file is checked
//! before anything is used: any fault refuses it with the line and the reason.
//!
//! Columns are found by name in the header (BGG adds and reorders columns over the
//! years); `objectname` and `objectid` are required, the others read when present:
//! `own`, `prevowned`, `want`, `wanttobuy`, `wanttoplay`, `wishlist`,
//! `wishlistpriority`, `rating`, `numplays`, `comment`, `minplayers`, `maxplayers`,
//! `bggbestplayers`, `playingtime`, `minplaytime`, `maxplaytime`, `yearpublished`,
//! `bggrecagerange`, `originalname`; any other column is ignored.

use crate::Refusal;
use serde::Serialize;

/// Most games one file may hold.
pub const MAX_ROWS: usize = 10_000;

/// One game of the file.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct BggRow {
    /// The line of the file it starts on (the header is line 1).
    pub line: u64,
    pub bgg_id: u32,
    pub name: String,
    /// `originalname`, when BGG has one and it differs from `name` (often Japanese).
    pub original_name: Option<String>,
    pub own: bool,
    pub prev_owned: bool,
    pub want_to_play: bool,
    /// `wishlist`, or `want` (in trade) or `wanttobuy`.
    pub wishlist: bool,
    pub wishlist_priority: Option<u8>,
    /// Tenths, 10..=100.
    pub rating: Option<i64>,
    pub num_plays: u32,
    pub comment: String,
    pub min_players: Option<u32>,
    pub max_players: Option<u32>,
    pub best_players: Vec<u32>,
    pub min_minutes: Option<u32>,
    pub max_minutes: Option<u32>,
    pub year: Option<u32>,
    pub min_age: Option<u32>,
}

fn refuse(line: u64, message: impl std::fmt::Display) -> Refusal {
    Refusal::new("invalid_csv", format!("line {line}: {message}"))
}

/// The line (1-based) that byte `at` of `bytes` is on.
fn line_of(bytes: &[u8], at: usize) -> u64 {
    1 + bytes[..at.min(bytes.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count() as u64
}

/// Whether non-UTF-8 `bytes` read as Shift_JIS: every byte above 0x7F is a valid
/// lead byte followed by a valid trail byte, or a half-width katakana.
fn looks_like_shift_jis(bytes: &[u8]) -> bool {
    let mut i = 0;
    let mut pairs = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            0x00..=0x7f | 0xa1..=0xdf => i += 1,
            0x81..=0x9f | 0xe0..=0xfc => {
                let Some(&t) = bytes.get(i + 1) else {
                    return false;
                };
                if !matches!(t, 0x40..=0x7e | 0x80..=0xfc) {
                    return false;
                }
                pairs += 1;
                i += 2;
            }
            _ => return false,
        }
    }
    pairs > 0
}

/// The file as text: UTF-8 (a byte-order mark is dropped), or a clear refusal.
fn as_text(bytes: &[u8]) -> Result<&str, Refusal> {
    if bytes.starts_with(&[0xff, 0xfe]) || bytes.starts_with(&[0xfe, 0xff]) {
        return Err(Refusal::new(
            "invalid_encoding",
            "the file is UTF-16; save it as UTF-8 (BoardGameGeek's own export is UTF-8)",
        ));
    }
    let bytes = bytes.strip_prefix(&[0xef, 0xbb, 0xbf]).unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let line = line_of(bytes, e.valid_up_to());
        let what = if looks_like_shift_jis(bytes) {
            "the file is Shift_JIS, not UTF-8 (a spreadsheet program saved it so); save it as UTF-8 (CSV UTF-8) and import it again"
        } else {
            "the file is not UTF-8 text; BoardGameGeek's export is UTF-8: import that file as downloaded"
        };
        Refusal::new("invalid_encoding", format!("line {line}: {what}"))
    })
}

/// The columns this decoder reads, found by name.
struct Columns {
    at: std::collections::HashMap<String, usize>,
}

impl Columns {
    fn get<'r>(&self, record: &'r csv::StringRecord, name: &str) -> &'r str {
        self.at
            .get(name)
            .and_then(|&i| record.get(i))
            .map(str::trim)
            .unwrap_or("")
    }
}

/// A 0/1 flag (empty: 0).
fn flag(line: u64, column: &str, v: &str) -> Result<bool, Refusal> {
    match v {
        "" | "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(refuse(line, format!("{column} is {v:?}, not 0 or 1"))),
    }
}

/// A count where BGG writes 0 or nothing for "not known".
fn count(line: u64, column: &str, v: &str, max: u32) -> Result<Option<u32>, Refusal> {
    if v.is_empty() {
        return Ok(None);
    }
    match v.parse::<u32>() {
        Ok(0) => Ok(None),
        Ok(n) if n <= max => Ok(Some(n)),
        _ => Err(refuse(
            line,
            format!("{column} is {v:?}, not a whole number from 0 to {max}"),
        )),
    }
}

fn rating(line: u64, v: &str) -> Result<Option<i64>, Refusal> {
    if v.is_empty() || v.eq_ignore_ascii_case("n/a") || v == "0" {
        return Ok(None);
    }
    let r: f64 = v
        .parse()
        .map_err(|_| refuse(line, format!("rating is {v:?}, not a number from 1 to 10")))?;
    if !(1.0..=10.0).contains(&r) {
        return Err(refuse(line, format!("rating is {v}, not from 1 to 10")));
    }
    Ok(Some((r * 10.0).round() as i64))
}

/// `bggbestplayers`: "4", "3,4", "3–4" or "4+" (as 4).
fn best_players(line: u64, v: &str) -> Result<Vec<u32>, Refusal> {
    let mut out = Vec::new();
    for part in v.split([',', ' ']).filter(|p| !p.is_empty()) {
        let part = part.trim_end_matches('+');
        let (lo, hi) = part.split_once(['-', '–']).unwrap_or((part, part));
        match (lo.parse::<u32>(), hi.parse::<u32>()) {
            (Ok(lo), Ok(hi)) if (1..=99).contains(&lo) && (lo..=99).contains(&hi) => {
                for n in lo..=hi {
                    if !out.contains(&n) {
                        out.push(n);
                    }
                }
            }
            _ => {
                return Err(refuse(
                    line,
                    format!("bggbestplayers is {v:?}, not player counts"),
                ))
            }
        }
    }
    out.sort_unstable();
    out.truncate(20);
    Ok(out)
}

/// `bggrecagerange`: "10+" or "10".
fn min_age(line: u64, v: &str) -> Result<Option<u32>, Refusal> {
    count(line, "bggrecagerange", v.trim_end_matches('+'), 99)
}

fn text(line: u64, column: &str, v: &str, max: usize) -> Result<String, Refusal> {
    if v.chars().count() > max {
        return Err(refuse(
            line,
            format!("{column} is longer than {max} characters"),
        ));
    }
    if v.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
    {
        return Err(refuse(line, format!("{column} holds control characters")));
    }
    Ok(v.to_string())
}

fn row(line: u64, c: &Columns, r: &csv::StringRecord) -> Result<BggRow, Refusal> {
    let name = text(
        line,
        "objectname",
        c.get(r, "objectname"),
        crate::shelf::MAX_NAME,
    )?;
    if name.is_empty() {
        return Err(refuse(line, "objectname is empty"));
    }
    let id = c.get(r, "objectid");
    let bgg_id = match id.parse::<u32>() {
        Ok(n) if (1..=999_999_999).contains(&n) => n,
        _ => {
            return Err(refuse(
                line,
                format!("objectid is {id:?}, not a BoardGameGeek id"),
            ))
        }
    };
    let original = c.get(r, "originalname");
    let original_name = (!original.is_empty() && original != name)
        .then(|| text(line, "originalname", original, crate::shelf::MAX_NAME))
        .transpose()?;
    let wishlist = flag(line, "wishlist", c.get(r, "wishlist"))?
        | flag(line, "want", c.get(r, "want"))?
        | flag(line, "wanttobuy", c.get(r, "wanttobuy"))?;
    let priority = count(line, "wishlistpriority", c.get(r, "wishlistpriority"), 5)?;
    let (min_players, max_players) = (
        count(line, "minplayers", c.get(r, "minplayers"), 99)?,
        count(line, "maxplayers", c.get(r, "maxplayers"), 99)?,
    );
    let playing = count(line, "playingtime", c.get(r, "playingtime"), 10_000)?;
    let min_minutes = count(line, "minplaytime", c.get(r, "minplaytime"), 10_000)?.or(playing);
    let max_minutes = count(line, "maxplaytime", c.get(r, "maxplaytime"), 10_000)?.or(playing);
    let ordered = |lo: Option<u32>, hi: Option<u32>| match (lo, hi) {
        (Some(l), Some(h)) if l > h => (Some(h), Some(l)),
        other => other,
    };
    let (min_players, max_players) = ordered(min_players, max_players);
    let (min_minutes, max_minutes) = ordered(min_minutes, max_minutes);
    Ok(BggRow {
        line,
        bgg_id,
        name,
        original_name,
        own: flag(line, "own", c.get(r, "own"))?,
        prev_owned: flag(line, "prevowned", c.get(r, "prevowned"))?,
        want_to_play: flag(line, "wanttoplay", c.get(r, "wanttoplay"))?,
        wishlist,
        wishlist_priority: if wishlist {
            priority.map(|p| p as u8)
        } else {
            None
        },
        rating: rating(line, c.get(r, "rating"))?,
        num_plays: count(line, "numplays", c.get(r, "numplays"), 1_000_000)?.unwrap_or(0),
        comment: text(
            line,
            "comment",
            c.get(r, "comment"),
            crate::shelf::MAX_COMMENT,
        )?,
        min_players,
        max_players,
        best_players: best_players(line, c.get(r, "bggbestplayers"))?,
        min_minutes,
        max_minutes,
        year: count(line, "yearpublished", c.get(r, "yearpublished"), 2100)?,
        min_age: min_age(line, c.get(r, "bggrecagerange"))?,
    })
}

/// The games of a BGG collection export, or the first fault with its line: not UTF-8
/// (`invalid_encoding`, naming Shift_JIS when it is that), no `objectname`/`objectid`
/// column, a row of another length than the header, a bad value, a game twice, more
/// than `max_rows` games (`invalid_csv`).
pub fn decode_bgg_csv(bytes: &[u8], max_rows: usize) -> Result<Vec<BggRow>, Refusal> {
    let text = as_text(bytes)?;
    if text.trim().is_empty() {
        return Err(refuse(
            1,
            "the file is empty; it needs BoardGameGeek's header line",
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(false)
        .from_reader(text.as_bytes());
    let header = reader
        .headers()
        .map_err(|e| refuse(1, format!("the header does not read as CSV: {e}")))?
        .clone();
    let mut at = std::collections::HashMap::new();
    for (i, name) in header.iter().enumerate() {
        let name = name.trim().to_ascii_lowercase();
        if at.insert(name.clone(), i).is_some() && !name.is_empty() {
            return Err(refuse(1, format!("the column {name:?} is there twice")));
        }
    }
    let missing: Vec<&str> = ["objectname", "objectid"]
        .into_iter()
        .filter(|c| !at.contains_key(*c))
        .collect();
    if !missing.is_empty() {
        return Err(refuse(
            1,
            format!(
                "not a BoardGameGeek collection export: no column {} (the header has {})",
                missing.join(", "),
                header.iter().take(8).collect::<Vec<_>>().join(", ")
            ),
        ));
    }
    let columns = Columns { at };
    let mut rows: Vec<BggRow> = Vec::new();
    let mut seen: std::collections::HashMap<u32, u64> = std::collections::HashMap::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, |p| p.line());
            match e.kind() {
                csv::ErrorKind::UnequalLengths {
                    expected_len, len, ..
                } => refuse(
                    line,
                    format!("{len} fields where the header has {expected_len}"),
                ),
                _ => refuse(line, format!("not CSV: {e}")),
            }
        })?;
        let line = record.position().map_or(0, |p| p.line());
        if record.iter().all(|f| f.trim().is_empty()) {
            continue;
        }
        if rows.len() >= max_rows {
            return Err(refuse(
                line,
                format!("more than {max_rows} games; split the file"),
            ));
        }
        let r = row(line, &columns, &record)?;
        if let Some(first) = seen.insert(r.bgg_id, line) {
            return Err(refuse(
                line,
                format!(
                    "objectid {} ({}) is already on line {first}",
                    r.bgg_id, r.name
                ),
            ));
        }
        rows.push(r);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "objectname,objectid,rating,numplays,own,prevowned,want,wanttoplay,wishlist,wishlistpriority,comment,minplayers,maxplayers,playingtime,yearpublished,bggbestplayers\n";

    fn decode(body: &str) -> Result<Vec<BggRow>, Refusal> {
        decode_bgg_csv(format!("{HEAD}{body}").as_bytes(), MAX_ROWS)
    }

    #[test]
    fn a_bgg_export_reads_with_its_statuses_and_facts() {
        let rows = decode(
            "Catan,13,7.5,3,1,0,0,0,0,,\"<b>fun</b>, long\",3,4,120,1995,4\n\
             Hanabi,98778,N/A,0,0,0,0,1,1,2,,2,5,25,2010,\"3,4\"\n",
        )
        .unwrap_or_default();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].line, 2);
        assert_eq!(rows[0].rating, Some(75));
        assert_eq!(rows[0].comment, "<b>fun</b>, long");
        assert_eq!(rows[0].best_players, vec![4]);
        assert_eq!(
            (rows[0].min_minutes, rows[0].max_minutes),
            (Some(120), Some(120))
        );
        assert_eq!(rows[1].rating, None);
        assert!(rows[1].wishlist && rows[1].want_to_play);
        assert_eq!(rows[1].wishlist_priority, Some(2));
        assert_eq!(rows[1].best_players, vec![3, 4]);
    }

    #[test]
    fn a_rating_out_of_range_names_its_line() {
        let e =
            decode("Catan,13,7.5,0,1,0,0,0,0,,,3,4,120,1995,\nGo,188,11,0,1,0,0,0,0,,,2,2,60,0,\n");
        let e = e.err().unwrap_or_else(|| Refusal::new("", ""));
        assert_eq!(e.code, "invalid_csv");
        assert!(e.message.starts_with("line 3: rating"), "{}", e.message);
    }

    #[test]
    fn shift_jis_is_named() {
        // "カタン" in Shift_JIS.
        let mut bytes = HEAD.as_bytes().to_vec();
        bytes.extend_from_slice(&[0x83, 0x4a, 0x83, 0x5e, 0x83, 0x93]);
        bytes.extend_from_slice(b",13,,,,,,,,,,,,,,\n");
        let e = decode_bgg_csv(&bytes, MAX_ROWS).err();
        let e = e.unwrap_or_else(|| Refusal::new("", ""));
        assert_eq!(e.code, "invalid_encoding");
        assert!(
            e.message.contains("line 2") && e.message.contains("Shift_JIS"),
            "{}",
            e.message
        );
    }

    #[test]
    fn wrong_columns_duplicates_short_rows_and_too_many_rows_are_refused() {
        let no_id = decode_bgg_csv(b"name,id\nCatan,13\n", MAX_ROWS).err();
        assert!(no_id.is_some_and(|e| e.message.contains("objectid")));
        let twice = decode("A,1,,,,,,,,,,,,,,\nB,1,,,,,,,,,,,,,,\n").err();
        assert!(
            twice.is_some_and(|e| e.message.starts_with("line 3") && e.message.contains("line 2"))
        );
        let short = decode("A,1,\n").err();
        assert!(short.is_some_and(|e| e.message.starts_with("line 2")));
        let many = decode_bgg_csv(b"objectname,objectid\nA,1\nB,2\nC,3\n", 2).err();
        assert!(many.is_some_and(|e| e.message.starts_with("line 4")));
        let bom = decode_bgg_csv(b"\xef\xbb\xbfobjectname,objectid\nA,1\n", 2);
        assert_eq!(bom.map(|r| r.len()), Ok(1));
    }
}
