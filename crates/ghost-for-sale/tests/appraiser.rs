//! The appraiser (the rule bot) plays the same moves after every speed change: its
//! choices over seeded all-appraiser games, digested per game, must equal the digests
//! recorded in `tests/golden/appraiser.txt` (taken before the bot was sped up).
//!
//! The digest covers every choice and, through the shared generator, every draw the
//! bot makes: a change that consumes the generator differently changes the worlds of
//! all later decisions and so the digest.
//!
//! To re-record after a deliberate change of play: `BLESS=1 cargo test -p
//! takuge-ghost-for-sale --test appraiser`.

use takuge_engine::bot::bot_move;
use takuge_engine::{Game, GameRng};
use takuge_ghost_for_sale::{bots, GhostForSale, Options};

const GOLDEN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/appraiser.txt");

/// FNV-1a: stable across Rust releases, unlike `DefaultHasher`.
fn fnv(hash: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *hash ^= u64::from(b);
        *hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
}

/// One line per game: options, players, seed, decisions, digest of the choices.
fn play(special: bool, players: usize, seed: u64) -> String {
    let options = Options {
        special_cards: special,
        first_player: None,
    };
    let Ok(mut game) = GhostForSale::new(&options, players, seed) else {
        return format!("special={special} players={players} seed={seed} invalid");
    };
    let mut bot = bots()[0].1();
    assert_eq!(bot.name(), "appraiser");
    let mut rng = GameRng::from_seed(seed ^ 0x5eed);
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    let mut decisions = 0u32;
    while let Some(seat) = game.to_move().first_seat() {
        let Some(action) = bot_move(bot.as_mut(), &game, seat, &mut rng) else {
            panic!("the appraiser found no move at seed {seed}");
        };
        fnv(&mut hash, format!("{}:{action:?};", seat.0).as_bytes());
        decisions += 1;
        if let Err(e) = game.apply(seat, &action) {
            panic!("the appraiser chose an illegal {action:?} at seed {seed}: {e:?}");
        }
    }
    format!(
        "special={special} players={players} seed={seed} decisions={decisions} digest={hash:016x}"
    )
}

#[test]
fn appraiser_makes_the_recorded_choices_in_seeded_games() {
    let mut lines = Vec::new();
    for special in [false, true] {
        for players in 3..=5 {
            for seed in 0..8 {
                lines.push(play(special, players, seed));
            }
        }
    }
    let got = lines.join("\n") + "\n";
    if std::env::var_os("BLESS").is_some() {
        if let Err(e) = std::fs::write(GOLDEN, &got) {
            panic!("cannot write {GOLDEN}: {e}");
        }
        return;
    }
    let want = std::fs::read_to_string(GOLDEN).unwrap_or_default();
    assert!(
        !want.is_empty(),
        "{GOLDEN} is missing: record it with BLESS=1"
    );
    for (g, w) in got.lines().zip(want.lines()) {
        assert_eq!(g, w, "the appraiser's choices changed");
    }
    assert_eq!(got.lines().count(), want.lines().count());
}
