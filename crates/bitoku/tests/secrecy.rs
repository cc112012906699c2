//! What each seat may see: its own hand and secret Iwakura rock; of the others only
//! how many cards they hold; nobody any deck's order.

mod common;

use common::*;
use takuge_bitoku::testing::*;
use takuge_bitoku::*;
use takuge_engine::{Game, GameRng, Seat, Viewer};

#[test]
fn a_seat_sees_its_own_hand_and_only_the_size_of_the_others() {
    let g = at_summer(3, 21);
    let v = g.view(Viewer::Seat(Seat(1)));
    assert!(v.players[1].hand.is_some());
    assert!(v.players[0].hand.is_none() && v.players[2].hand.is_none());
    assert_eq!(v.players[0].hand_count, 3);
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator
        .players
        .iter()
        .all(|p| p.hand.is_none() && p.rock.is_none()));
}

#[test]
fn another_hand_or_deck_order_changes_nothing_a_seat_sees() {
    let g = at_summer(3, 22);
    let mut h = g.clone();
    let p = player_mut(&mut h, 0);
    let (hand, deck) = (p.hand, p.deck);
    // Swap a hand card with a deck card, and reverse the deck.
    if let (Some(&a), Some(&b)) = (hand.first(), deck.first()) {
        p.hand = hand.iter().map(|&x| if x == a { b } else { x }).collect();
        p.deck = deck
            .iter()
            .map(|&x| if x == b { a } else { x })
            .rev()
            .collect();
    }
    for seat in [1, 2] {
        assert_eq!(
            g.view(Viewer::Seat(Seat(seat))),
            h.view(Viewer::Seat(Seat(seat)))
        );
    }
    assert_ne!(g.view(Viewer::Seat(Seat(0))), h.view(Viewer::Seat(Seat(0))));
}

#[test]
fn the_secret_rock_is_its_owners_until_it_is_swapped() {
    // ⑦「岩倉タイル」を裏向きでシャッフルし、表面を見ずに各プレイヤーへ1枚ずつ配る
    let mut g = summer2();
    let mine = g.player(0).rock;
    assert_eq!(g.view(Viewer::Seat(Seat(0))).players[0].rock, Some(mine));
    assert_eq!(g.view(Viewer::Seat(Seat(1))).players[0].rock, None);
    // Hill 4's effect swaps the rock for a face-up one: the table sees it.
    put_die_in_forest(&mut g, 0, 0, 0, 5);
    play(
        &mut g,
        0,
        Action::Cross {
            die: 0,
            hill: 3,
            take: HillPart::Effect,
        },
    );
    play(&mut g, 0, Action::Swap { rock: 0 });
    let v = g.view(Viewer::Seat(Seat(1)));
    assert!(v.players[0].rock.is_some());
    assert_eq!(v.face_up_rocks[0], Some(mine));
}

#[test]
fn determinize_keeps_what_the_seat_knows_and_redraws_the_rest() {
    let g = at_summer(4, 23);
    let mut rng = GameRng::from_seed(9);
    let mut changed = false;
    for _ in 0..20 {
        let w = g.determinize(Seat(2), &mut rng);
        assert_eq!(w.view(Viewer::Seat(Seat(2))), g.view(Viewer::Seat(Seat(2))));
        assert_eq!(w.player(2).hand, g.player(2).hand);
        assert_eq!(w.player(2).rock, g.player(2).rock);
        changed |= w.player(0).hand != g.player(0).hand || w.player(0).rock != g.player(0).rock;
    }
    assert!(changed, "determinize never redrew another seat's secrets");
}

#[test]
fn every_log_line_is_the_same_for_every_viewer() {
    // Every action is made openly at the table: the line names only what all see.
    let g = at_summer(2, 24);
    let seat = g.to_move().first_seat().unwrap_or(Seat(0));
    for a in legal(&g, seat.0) {
        let lines: Vec<_> = [
            Viewer::Seat(Seat(0)),
            Viewer::Seat(Seat(1)),
            Viewer::Spectator,
        ]
        .into_iter()
        .map(|v| g.describe_for(seat, &a, v))
        .collect();
        assert!(lines.iter().all(|l| l == &lines[0] && l.is_some()));
        let ja = g.describe_for_in(seat, &a, Viewer::Spectator, takuge_engine::Lang::Ja);
        assert!(ja.is_some_and(|l| !l.is_ascii()), "{a:?}");
    }
}
