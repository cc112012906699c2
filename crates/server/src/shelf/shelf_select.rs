//! A shelf's filters, sort and page applied in memory to its rows (`shelf_cache`),
//! giving what the SQL of `store::shelf::catalog::{game_filters, order_by, page}` gives on the
//! database: NULLs fail a comparison and sort last in either direction, ties go by the
//! English sort key then the id, text keys compare byte by byte (SQLite's BINARY,
//! PostgreSQL's "C"). Words (`q`) match ASCII letters in any case, as SQLite's LIKE
//! does (PostgreSQL's LIKE did not for the raw Japanese name; the query documents "any
//! case").

use super::collection::ShelfEntry;
use super::kana;
use super::shelf_cache::Held;
use crate::error::ApiError;
use std::cmp::Ordering;
use takuge_protocol::{Order, ShelfQuery, SortBy};

/// What `q` asks for, worked out once for every row.
struct Filter {
    words: Option<[String; 3]>,
    status: Option<fn(&ShelfEntry) -> bool>,
    min_rating: Option<i64>,
}

fn status_of(s: takuge_protocol::Status) -> fn(&ShelfEntry) -> bool {
    use takuge_protocol::Status::*;
    match s {
        Own => |e| e.own,
        PrevOwned => |e| e.prev_owned,
        WantToPlay => |e| e.want_to_play,
        Wishlist => |e| e.wishlist,
        Played => |e| e.played,
        Favourite => |e| e.favourite,
    }
}

/// Whether `hay` holds `needle`, ASCII letters in any case.
fn contains_ci(hay: &str, needle: &str) -> bool {
    let (h, n) = (hay.as_bytes(), needle.as_bytes());
    n.is_empty() || h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
}

/// `a <= b` as SQL has it: false when either is NULL.
fn at_most(a: Option<i64>, b: i64) -> bool {
    a.is_some_and(|a| a <= b)
}

impl Filter {
    fn of(q: &ShelfQuery) -> Result<Filter, ApiError> {
        let words =
            q.q.as_deref()
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(|w| [kana::sort_en(w), kana::sort_ja(w, "", ""), w.to_string()]);
        let min_rating = q
            .min_rating
            .map(|r| takuge_protocol::rating_tenths(r.clamp(1.0, 10.0)))
            .transpose()?;
        Ok(Filter {
            words,
            status: q.status.map(status_of),
            min_rating,
        })
    }

    fn keeps(&self, h: &Held, q: &ShelfQuery) -> bool {
        let g = &h.entry.game;
        let n = |v: Option<u32>| v.map(i64::from);
        self.status.is_none_or(|on| on(&h.entry))
            && self
                .min_rating
                .is_none_or(|t| h.rating.is_some_and(|r| r >= t))
            && self.words.as_ref().is_none_or(|[en, ja, raw]| {
                contains_ci(&h.sort_en, en)
                    || contains_ci(&h.sort_ja, ja)
                    || contains_ci(&g.name_ja, raw)
            })
            && n(q.players)
                .is_none_or(|p| at_most(g.min_players, p) && g.max_players.is_some_and(|m| m >= p))
            && n(q.best).is_none_or(|b| g.best_players.contains(&b))
            && n(q.max_minutes).is_none_or(|m| at_most(g.max_minutes, m))
            && n(q.age).is_none_or(|a| at_most(g.min_age, a))
            && n(q.year_from).is_none_or(|y| g.year.is_some_and(|v| v >= y))
            && n(q.year_to).is_none_or(|y| at_most(g.year, y))
    }
}

/// The sort key of `h`; `None` sorts last.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
enum Key<'a> {
    Text(&'a str),
    Int(i64),
}

fn key(h: &Held, by: SortBy) -> Option<Key<'_>> {
    let g = &h.entry.game;
    match by {
        SortBy::NameEn => Some(Key::Text(&h.sort_en)),
        SortBy::NameJa => Some(Key::Text(&h.sort_ja)),
        SortBy::Year => g.year.map(Key::Int),
        SortBy::Players => g.min_players.map(Key::Int),
        SortBy::Minutes => g.max_minutes.map(Key::Int),
        SortBy::Age => g.min_age.map(Key::Int),
        SortBy::Rating => h.rating.map(Key::Int),
        SortBy::Updated => Some(Key::Int(h.entry.updated_at)),
    }
}

fn compare(a: &Held, b: &Held, by: SortBy, order: Order) -> Ordering {
    let by_key = match (key(a, by), key(b, by)) {
        (None, None) => Ordering::Equal,
        (None, Some(_)) => Ordering::Greater,
        (Some(_), None) => Ordering::Less,
        (Some(x), Some(y)) => match order {
            Order::Asc => x.cmp(&y),
            Order::Desc => y.cmp(&x),
        },
    };
    by_key
        .then_with(|| a.sort_en.cmp(&b.sort_en))
        .then_with(|| a.entry.game.id.cmp(&b.entry.game.id))
}

/// The rows of `rows` that the filters of `q` keep, in its order (no page).
pub fn sorted<'a>(rows: &'a [Held], q: &ShelfQuery) -> Result<Vec<&'a ShelfEntry>, ApiError> {
    let filter = Filter::of(q)?;
    let mut kept: Vec<&Held> = rows.iter().filter(|h| filter.keeps(h, q)).collect();
    let (by, order) = (q.sort.unwrap_or_default(), q.order.unwrap_or_default());
    kept.sort_unstable_by(|a, b| compare(a, b, by, order));
    Ok(kept.into_iter().map(|h| &h.entry).collect())
}

/// The page of `rows` that `q` asks for, and how many rows match its filters.
pub fn select<'a>(
    rows: &'a [Held],
    q: &ShelfQuery,
) -> Result<(Vec<&'a ShelfEntry>, i64), ApiError> {
    let mut kept = sorted(rows, q)?;
    let total = kept.len() as i64;
    let limit = q.limit.unwrap_or(100).clamp(1, 2000) as usize;
    let offset = (q.offset.unwrap_or(0) as usize).min(kept.len());
    kept.drain(..offset);
    kept.truncate(limit);
    Ok((kept, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_ascii_letters_in_any_case_and_kana_exactly() {
        assert!(contains_ci("Love Letter", "letter"));
        assert!(contains_ci("ラブレター", "レター"));
        assert!(!contains_ci("ラブレター", "れたー"));
        assert!(contains_ci("x", ""));
        assert!(!contains_ci("", "x"));
    }

    #[test]
    fn missing_values_sort_last_in_either_direction_then_by_english_key_and_id() {
        let held = |id: i64, year: Option<i64>, en: &str| {
            let mut entry = crate::shelf::collection::tests::entry(id);
            entry.game.year = year;
            Held {
                entry,
                sort_ja: String::new(),
                sort_en: en.to_string(),
                rating: None,
            }
        };
        let rows = [
            held(1, None, "a"),
            held(2, Some(2000), "b"),
            held(3, Some(2010), "c"),
            held(4, Some(2000), "a"),
            held(5, Some(2000), "a"),
        ];
        let ids = |order| {
            let q = ShelfQuery {
                sort: Some(SortBy::Year),
                order: Some(order),
                ..ShelfQuery::default()
            };
            let (page, total) = select(&rows, &q).expect("a page");
            assert_eq!(total, 5);
            page.iter().map(|e| e.game.id).collect::<Vec<_>>()
        };
        assert_eq!(ids(Order::Asc), [4, 5, 2, 3, 1]);
        assert_eq!(ids(Order::Desc), [3, 4, 5, 2, 1]);
    }
}
