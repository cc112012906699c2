//! Sort keys for names, compared byte by byte (SQLite's BINARY, PostgreSQL's "C"), so
//! both databases put names in the same order.
//!
//! Japanese (`sort_ja`): the reading when the game has one (`reading_ja`, for names
//! with kanji), else the name itself; NFKC (half-width katakana become full-width,
//! full-width Latin becomes ASCII), lower case, and katakana folded to hiragana. Code
//! point order of hiragana is the 五十音 order (a voiced kana right after its unvoiced
//! one: か が き ぎ), so カタン and かたん sort together, before names that begin with a
//! kanji (which sort by code point after every kana — give such a game its reading).
//! Latin names sort before kana. A game without a Japanese name sorts by its English
//! name here too.
//!
//! English (`sort_en`): NFKC and lower case.

use unicode_normalization::UnicodeNormalization;

/// Katakana ァ (U+30A1) to ヶ (U+30F6) lie 0x60 above their hiragana.
fn to_hiragana(c: char) -> char {
    match c {
        '\u{30a1}'..='\u{30f6}' => char::from_u32(c as u32 - 0x60).unwrap_or(c),
        _ => c,
    }
}

pub fn sort_en(name: &str) -> String {
    name.trim().nfkc().collect::<String>().to_lowercase()
}

pub fn sort_ja(name_ja: &str, reading_ja: &str, name_en: &str) -> String {
    let base = [reading_ja, name_ja, name_en]
        .into_iter()
        .map(str::trim)
        .find(|s| !s.is_empty())
        .unwrap_or("");
    base.nfkc()
        .collect::<String>()
        .to_lowercase()
        .chars()
        .map(to_hiragana)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn katakana_and_hiragana_sort_as_one_and_in_gojuon_order() {
        assert_eq!(sort_ja("カタン", "", ""), "かたん");
        assert_eq!(sort_ja("ｶﾀﾝ", "", ""), "かたん");
        let mut names = [
            sort_ja("ゴーストアットホーム", "", ""),
            sort_ja("美徳", "びとく", ""),
            sort_ja("アグリコラ", "", ""),
            sort_ja("かたん", "", ""),
            sort_ja("ガイスター", "", ""),
        ];
        names.sort();
        assert_eq!(
            names,
            [
                "あぐりこら",
                "かたん",
                "がいすたー",
                "ごーすとあっとほーむ",
                "びとく"
            ]
        );
    }

    #[test]
    fn english_keys_fold_case_and_width() {
        assert_eq!(sort_en(" Ｃatan "), "catan");
    }
}
