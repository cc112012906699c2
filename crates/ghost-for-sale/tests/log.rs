//! The log a player can follow: every card played face down is told to everyone when it
//! is turned over — an auction's bidding cards at its end (「1枚ずつ表にしていきます」),
//! the "?" cards at the end of a round (「すべてのプレイヤーは「?カード」を表にし」) — so
//! that the log, and the replay after the game, tell the whole story
//! (`Game::revealed_in`, `news.rs`).

use takuge_engine::{Game, GameRng, Lang, Seat, Viewer};
use takuge_ghost_for_sale::{Action, GhostForSale, Options, QuestionCard};

struct Logged {
    seat: usize,
    action: Action,
    line: Option<String>,
    news: Option<String>,
    news_ja: Option<String>,
}

fn spectator_log(players: usize, seed: u64) -> Vec<Logged> {
    let mut g = GhostForSale::new(&Options::default(), players, seed).expect("setup");
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
        out.push(Logged {
            seat: seat.index(),
            action,
            line,
            news: g.revealed_in(&before, Lang::En),
            news_ja: g.revealed_in(&before, Lang::Ja),
        });
    }
    out
}

#[test]
fn every_card_played_face_down_is_told_when_its_auction_turns_the_cards_over() {
    for players in 3..=5 {
        for seed in 0..10 {
            let log = spectator_log(players, seed);
            let mut told = 0;
            for (i, e) in log.iter().enumerate() {
                let Action::Play { value } = e.action else {
                    continue;
                };
                let hidden = e.line.as_deref().is_some_and(|l| l.contains("face down"));
                if !hidden {
                    continue;
                }
                let later = log[i..]
                    .iter()
                    .find_map(|e| {
                        e.news
                            .as_deref()
                            .filter(|n| n.contains("auction, cards turned over"))
                    })
                    .unwrap_or_else(|| {
                        panic!(
                            "{players}p seed {seed}: a {value} of seat {} never told",
                            e.seat
                        )
                    });
                let mine = later
                    .split("; ")
                    .find(|part| part.contains(&format!("seat {}: ", e.seat + 1)))
                    .unwrap_or_else(|| panic!("{later}: no cards of seat {}", e.seat + 1));
                assert!(mine.contains(&format!("{value} on ")), "{mine}: no {value}");
                told += 1;
            }
            assert!(told > 0, "{players}p seed {seed}: no card played face down");
        }
    }
}

#[test]
fn the_question_cards_are_told_at_the_end_of_each_round() {
    for seed in 0..10 {
        let log = spectator_log(4, seed);
        let rounds: Vec<&str> = log
            .iter()
            .filter_map(|e| e.news.as_deref())
            .filter(|n| n.contains("\"?\" cards turned over"))
            .collect();
        assert_eq!(rounds.len(), 2, "seed {seed}: {rounds:?}");
        for (i, e) in log.iter().enumerate() {
            let Action::Choose { card } = e.action else {
                continue;
            };
            let told = log[i..]
                .iter()
                .find_map(|e| {
                    e.news
                        .as_deref()
                        .filter(|n| n.contains("\"?\" cards turned over"))
                })
                .expect("told at the end of the round");
            let word = match card {
                QuestionCard::Truth => "truth",
                QuestionCard::Lie => "lie",
            };
            assert!(
                told.contains(&format!("seat {}: {word}", e.seat + 1)),
                "{told}"
            );
        }
    }
}

#[test]
fn every_reveal_is_told_in_japanese_too() {
    for e in spectator_log(3, 7)
        .iter()
        .filter(|e| e.news.is_some())
        .take(3)
    {
        eprintln!("{:?}\n{:?}", e.news, e.news_ja);
    }
    for e in spectator_log(3, 7) {
        assert_eq!(e.news.is_some(), e.news_ja.is_some());
        if let Some(ja) = e.news_ja {
            assert!(ja.contains("公開"), "{ja}");
        }
    }
}
