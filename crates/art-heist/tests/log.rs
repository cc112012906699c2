//! The log a player can follow: every secret choice is told to everyone as soon as it is
//! public — the places once all are chosen, the 「2」 cards once a place's are revealed,
//! the exhibits at 「せーの!」 — so that the log, and the replay after the game, tell
//! the whole story (`Game::revealed_in`, `news.rs`).

use takuge_art_heist::testing::*;
use takuge_art_heist::{Action, ArtHeist, Options, Pile, Place, PLAYERS};
use takuge_engine::{Game, GameRng, Lang, Seat, Viewer};

fn news(after: &ArtHeist, before: &ArtHeist) -> Option<String> {
    after.revealed_in(before, Lang::En)
}

#[test]
fn the_places_are_told_once_every_one_card_is_chosen() {
    // 「まず、「1」のカードを秘密裏にセットする。」 — and then shown together.
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "AB");
    begin(&mut g);
    for p in 0..PLAYERS - 1 {
        let before = g.clone();
        let place = if p < 2 {
            Place::AuctionHouse
        } else {
            Place::Castle
        };
        act(&mut g, p, Action::Go(place));
        assert_eq!(news(&g, &before), None, "seat {p}'s place is still secret");
    }
    let before = g.clone();
    act(&mut g, PLAYERS - 1, Action::Go(Place::Castle));
    assert_eq!(
        news(&g, &before).as_deref(),
        Some(
            "Places revealed — seat 1: auction house; seat 2: auction house; seat 3: castle; \
             seat 4: castle; seat 5: castle"
        )
    );
    assert_eq!(
        g.revealed_in(&before, Lang::Ja).as_deref(),
        Some("「1」のカードを公開 — 1番席: オークション会場、2番席: オークション会場、3番席: 城、4番席: 城、5番席: 城")
    );
}

#[test]
fn the_castle_cards_are_told_when_they_are_turned_over_even_as_the_turn_ends() {
    // 「「2」のアクションも、「1」同様に秘密裏に行うこと。」 Five detectives at the castle:
    // nothing happens, and the turn is over with the last card — the log still says
    // what was played.
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "AB");
    places(&mut g, &[]);
    let cards: [_; PLAYERS] = std::array::from_fn(detective);
    let before_last = {
        let mut g2 = g.clone();
        for (p, &c) in cards.iter().enumerate().take(PLAYERS - 1) {
            act(&mut g2, p, Action::Play(c));
        }
        g2
    };
    let mut after = before_last.clone();
    act(&mut after, PLAYERS - 1, Action::Play(cards[PLAYERS - 1]));
    let line = news(&after, &before_last).expect("the cards are revealed");
    assert!(
        line.starts_with("Cards at the castle revealed — seat 1: red detective"),
        "{line}"
    );
    assert!(line.ends_with("seat 5: white detective"), "{line}");
}

/// Every action of a whole game, as a spectator reads the log: each line, then what the
/// action revealed.
fn spectator_log(seed: u64) -> Vec<(usize, Action, Option<String>, Option<String>)> {
    let mut g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
    let mut rng = GameRng::from_seed(seed);
    let mut out = Vec::new();
    let mut legal = Vec::new();
    while !g.is_over() {
        let seats: Vec<Seat> = g.to_move().iter().collect();
        let seat = seats[rng.index(seats.len())];
        g.legal_actions(seat, &mut legal);
        let action = *rng.pick(&legal).expect("a pending seat has a move");
        let line = g.describe_for(seat, &action, Viewer::Spectator);
        let before = g.clone();
        g.apply(seat, &action).expect("legal");
        out.push((seat.index(), action, line, news(&g, &before)));
    }
    out
}

#[test]
fn after_the_game_the_log_tells_a_spectator_every_place_and_card() {
    for seed in 0..20 {
        let log = spectator_log(seed);
        let mut told = 0;
        for (i, (p, action, line, _)) in log.iter().enumerate() {
            let expect = match action {
                Action::Go(Place::AuctionHouse) => format!("seat {}: auction house", p + 1),
                Action::Go(Place::Castle) => format!("seat {}: castle", p + 1),
                Action::Play(_) => format!("seat {}: ", p + 1),
                _ => continue,
            };
            assert_eq!(*line, None, "a secret choice is not told when it is made");
            let later = log[i..].iter().find_map(|(_, _, _, news)| news.as_ref());
            let later =
                later.unwrap_or_else(|| panic!("seed {seed}: {action:?} of seat {p} never told"));
            assert!(
                later.contains(&expect),
                "seed {seed}: {action:?} of seat {p}: {later}"
            );
            told += 1;
        }
        assert!(
            told > 20,
            "seed {seed}: only {told} secret choices in a game"
        );
    }
}

#[test]
fn every_exhibit_is_told_when_shown() {
    // 「「せーの!」で展示する美術品を公開する。」
    let mut exhibits = 0;
    for seed in 0..20 {
        for (_, _, _, news) in spectator_log(seed) {
            if let Some(line) =
                news.filter(|l| l.starts_with("Exhibits shown") || l.starts_with("Final exhibits"))
            {
                assert!(
                    line.contains("art ") || line.contains("no exhibit"),
                    "{line}"
                );
                exhibits += 1;
            }
        }
    }
    assert!(exhibits >= 20, "{exhibits} exhibits told in 20 games");
}
