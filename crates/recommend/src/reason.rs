//! Why a game is recommended, and the words for it in English and Japanese.

use crate::GameId;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

/// Why a game is recommended.
#[derive(Clone, Debug, PartialEq)]
pub enum Reason {
    /// People who like these games (one or two the person likes, the ones that
    /// contributed most) also like this one.
    Liked(Vec<GameId>),
    /// Like a game the person likes in what it is (players, time, mechanics,
    /// designers), though few shelves link the two yet.
    Similar(GameId),
    /// Popular among the games that pass the filters (with the filters that were
    /// asked for, to say so).
    Popular {
        players: Option<u32>,
        max_minutes: Option<u32>,
    },
}

impl Reason {
    /// The games the reason names.
    pub fn games(&self) -> Vec<GameId> {
        match self {
            Reason::Liked(g) => g.clone(),
            Reason::Similar(g) => vec![*g],
            Reason::Popular { .. } => Vec::new(),
        }
    }

    /// The reason in words, games named by `name`.
    pub fn text(&self, lang: Lang, name: impl Fn(GameId) -> String) -> String {
        match (self, lang) {
            (Reason::Liked(g), Lang::En) => match g.as_slice() {
                [a, b, ..] => format!("Because you like {} and {}", name(*a), name(*b)),
                [a] => format!("Because you like {}", name(*a)),
                [] => "Because of what you like".to_string(),
            },
            (Reason::Liked(g), Lang::Ja) => match g.as_slice() {
                [a, b, ..] => format!("{}と{}が好きなあなたに", name(*a), name(*b)),
                [a] => format!("{}が好きなあなたに", name(*a)),
                [] => "あなたの好みから".to_string(),
            },
            (Reason::Similar(g), Lang::En) => format!("Similar to {}, which you like", name(*g)),
            (Reason::Similar(g), Lang::Ja) => format!("好きな{}に似ています", name(*g)),
            (
                Reason::Popular {
                    players,
                    max_minutes,
                },
                Lang::En,
            ) => match (players, max_minutes) {
                (Some(p), Some(m)) => {
                    format!("Popular with people who play {p}-player games under {m} minutes")
                }
                (Some(p), None) => format!("Popular with people who play {p}-player games"),
                (None, Some(m)) => format!("Popular with people who play games under {m} minutes"),
                (None, None) => "Popular on everyone's shelves".to_string(),
            },
            (
                Reason::Popular {
                    players,
                    max_minutes,
                },
                Lang::Ja,
            ) => match (players, max_minutes) {
                (Some(p), Some(m)) => format!("{m}分以内の{p}人用ゲームを遊ぶ人に人気"),
                (Some(p), None) => format!("{p}人で遊ぶ人に人気"),
                (None, Some(m)) => format!("{m}分以内のゲームを遊ぶ人に人気"),
                (None, None) => "みんなの棚で人気".to_string(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_names_the_liked_games_in_both_languages() {
        let name = |g: GameId| if g == 1 { "Azul" } else { "Hanabi" }.to_string();
        let r = Reason::Liked(vec![1, 2]);
        assert_eq!(r.text(Lang::En, name), "Because you like Azul and Hanabi");
        assert_eq!(r.text(Lang::Ja, name), "AzulとHanabiが好きなあなたに");
        let p = Reason::Popular {
            players: Some(4),
            max_minutes: Some(30),
        };
        assert_eq!(
            p.text(Lang::En, name),
            "Popular with people who play 4-player games under 30 minutes"
        );
        assert_eq!(
            p.text(Lang::Ja, name),
            "30分以内の4人用ゲームを遊ぶ人に人気"
        );
    }
}
