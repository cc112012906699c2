//! Setting up a game: the options' check and the deal (各プレイヤーに3枚ずつカードを配ります).

use crate::data::{card_data, composition};
use crate::state::{GhostAtHome, Phase};
use crate::types::{Options, PerSeat, Seated, HAND_SIZE};
use takuge_engine::{GameMeta, GameRng, SetupError};

/// The player count, and the card data file (compiled in) must be sound.
pub(crate) fn validate(
    meta: &GameMeta,
    _options: &Options,
    players: usize,
) -> Result<(), SetupError> {
    meta.check_players(players)?;
    card_data().map_err(|reason| SetupError::InvalidOptions {
        reason: format!("the card data file is broken: {reason}"),
    })?;
    Ok(())
}

/// Special cards off (the recommended first game) and on.
pub(crate) fn option_sets() -> Vec<Options> {
    vec![
        Options::default(),
        Options {
            special_cards: true,
        },
    ]
}

impl GhostAtHome {
    /// Empty houses and hands, no deck, seat 0 to play: what the deal (and the tests'
    /// scenarios) start from.
    pub(crate) fn empty(options: &Options, players: usize, seed: u64) -> Self {
        GhostAtHome {
            options: options.clone(),
            players: players as u8,
            rng: GameRng::from_seed(seed),
            houses: PerSeat::default(),
            hands: PerSeat::default(),
            deck: Default::default(),
            pile: Default::default(),
            reshuffles: 0,
            active: Seated::FIRST,
            phase: Phase::Choose,
            turn: 1,
        }
    }

    /// The deck of the options, and three cards to each player, one at a time.
    pub(crate) fn deal(
        meta: &GameMeta,
        options: &Options,
        players: usize,
        seed: u64,
    ) -> Result<Self, SetupError> {
        validate(meta, options, players)?;
        let data = card_data().map_err(|reason| SetupError::InvalidOptions {
            reason: reason.to_string(),
        })?;
        let mut state = Self::empty(options, players, seed);
        for card in composition(data, options.special_cards).cards() {
            let _ = state.deck.push(card);
        }
        // 各プレイヤーに3枚ずつカードを配ります。
        for _ in 0..HAND_SIZE {
            for seat in Seated::all(players) {
                state.draw(seat, 1);
            }
        }
        Ok(state)
    }
}
