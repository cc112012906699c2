//! Table options and the numbers of the game.

use serde::{Deserialize, Serialize};
use takuge_engine::SetupError;

/// The most players the documents cover (the thief variant recommends eight).
pub const MAX_PLAYERS: usize = 8;
pub const MIN_PLAYERS: usize = 3;
/// Eight character cards, nine with the thief.
pub const MAX_CARDS: usize = 9;
/// Action-order cards (行動順カード) numbered 1..=ORDER_CARDS. The text never says how
/// many exist; eight lets every seat of the largest table hold one. See
/// docs/games/secret-moon.md.
pub const ORDER_CARDS: usize = 8;
/// 1ゲームは3ラウンドで構成されています。
pub const ROUNDS: u8 = 3;
/// The thief may only join a table of at least this many (盗賊を加える場合は6人以上).
pub const THIEF_MIN_PLAYERS: usize = 6;

/// How many games a match lasts: 「3ゲームマッチ、5ゲームマッチを選べます」.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub enum MatchLength {
    #[default]
    One,
    Three,
    Five,
}

impl MatchLength {
    pub const fn games(self) -> u8 {
        match self {
            MatchLength::One => 1,
            MatchLength::Three => 3,
            MatchLength::Five => 5,
        }
    }
}

impl TryFrom<u8> for MatchLength {
    type Error = String;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        match n {
            1 => Ok(MatchLength::One),
            3 => Ok(MatchLength::Three),
            5 => Ok(MatchLength::Five),
            _ => Err(format!("a match is 1, 3 or 5 games, not {n}")),
        }
    }
}

impl From<MatchLength> for u8 {
    fn from(m: MatchLength) -> u8 {
        m.games()
    }
}

/// Options chosen when the table is created (テーブル作成時のオプション).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Options {
    pub games: MatchLength,
    /// Add the thief card (追加カード:盗賊); six players or more.
    pub thief: bool,
    /// Play the order cards openly, as takuge did before rules version 3: the number
    /// of the card being played is shown to everyone and played cards are discarded
    /// face up. Off by default, as the text says 「行動順カードによる順番は公開されません」:
    /// each player sees only their own number. Absent from options stored before it
    /// existed, which read as off.
    pub public_order: bool,
}

impl Options {
    /// Every option set: each match length, with and without the thief, with the
    /// order secret and public.
    pub fn all() -> Vec<Options> {
        let mut sets = Vec::new();
        for games in [MatchLength::One, MatchLength::Three, MatchLength::Five] {
            for thief in [false, true] {
                for public_order in [false, true] {
                    sets.push(Options {
                        games,
                        thief,
                        public_order,
                    });
                }
            }
        }
        sets
    }

    pub fn validate(&self, players: usize) -> Result<(), SetupError> {
        <crate::SecretMoon as takuge_engine::Game>::meta().check_players(players)?;
        if self.thief && players < THIEF_MIN_PLAYERS {
            return Err(SetupError::InvalidOptions {
                reason: format!(
                    "the thief needs at least {THIEF_MIN_PLAYERS} players (盗賊を加える場合は6人以上), not {players}"
                ),
            });
        }
        Ok(())
    }
}
