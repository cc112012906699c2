//! What each seat may and may not see: face-down discards, the defence question asked
//! whether or not the target holds a cat, and determinization.

use takuge_engine::{Game, GameRng, Lang, Seat, Viewer};
use takuge_ghost_at_home::cards::Card;
use takuge_ghost_at_home::testing::*;
use takuge_ghost_at_home::{Action, Floor, GhostAtHome, Options, PhaseView};

use Card::*;
use Floor::*;

/// Secrets: a target without a cat is asked all the same, so the pause reveals nothing.
#[test]
fn defence_is_offered_even_without_a_cat() {
    let mut g = game(
        &[H::default(), H::default().rooms(First, &[Floor1Bulbs0])],
        &[&[Ghost], &[Floor1Bulbs1]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    assert_eq!(legal(&g, S1), vec![Action::NoDefence]);
    refused(&mut g, S1, Action::DefendWithCat);
}

/// 手札から1枚以上のカードを捨て、山札から同じ枚数のカードを引きます。
/// 捨て札がなんだったかは他のプレイヤーには秘密です。
#[test]
fn discard_any_number_then_draw_as_many_and_others_see_only_the_count() {
    let mut g = game(
        &[H::default(), H::default()],
        &[&[Ghost, Floor3Bulbs2, Cat], &[]],
        &[Floor2Bulbs1, Floor2Bulbs1, Floor2Bulbs1],
    );
    play(&mut g, S0, Action::Discard);
    assert_eq!(g.view(Viewer::Seat(S1)).phase, PhaseView::Discarding);
    play(&mut g, S0, discard(&[Floor3Bulbs2, Ghost]));
    assert_eq!(hand(&g, S0), hand_list(&[Cat, Floor2Bulbs1, Floor2Bulbs1]));
    assert_eq!(active(&g), S1, "discarding and drawing is the whole turn");
    let mine = g.view(Viewer::Seat(S0));
    let theirs = g.view(Viewer::Seat(S1));
    assert_eq!(mine.my_secret_discards, Some(vec![Floor3Bulbs2, Ghost]));
    assert_eq!(theirs.my_secret_discards, Some(vec![]));
    assert_eq!(theirs.secret_discard_counts, vec![2, 0]);
    assert!(theirs.discards.is_empty());
    assert_eq!(g.view(Viewer::Spectator).hand, None);
}

/// Discarding is one of the six actions; the cards are then chosen together: every
/// distinct part of the hand is one choice (7 for three different cards, fewer with a
/// face held twice), and the others read only how many cards went
/// (捨て札がなんだったかは他のプレイヤーには秘密です).
#[test]
fn discard_is_one_choice_among_the_parts_of_the_hand_and_the_log_hides_them() {
    let count_discards = |hand: &[Card]| {
        let mut g = game(&[H::default(), H::default()], &[hand, &[]], &filler_deck());
        let turn = legal(&g, S0);
        assert_eq!(
            turn.iter().filter(|a| **a == Action::Discard).count(),
            1,
            "one choice in the turn"
        );
        play(&mut g, S0, Action::Discard);
        let parts = legal(&g, S0);
        assert!(parts
            .iter()
            .all(|a| matches!(a, Action::DiscardCards { .. })));
        parts.len()
    };
    assert_eq!(count_discards(&[Ghost, Cat, Floor3Bulbs2]), 7);
    assert_eq!(count_discards(&[Ghost, Ghost, Cat]), 5);
    assert_eq!(count_discards(&[Ghost, Ghost, Ghost]), 3);
    assert_eq!(count_discards(&[Ghost, Cat]), 3);

    let g = game(
        &[H::default(), H::default()],
        &[&[Ghost, Floor3Bulbs2, Cat], &[Ghost, Cat, Cat]],
        &filler_deck(),
    );
    let action = discard(&[Ghost, Floor3Bulbs2]);
    let theirs = g.describe_for(S0, &action, Viewer::Seat(S1));
    assert_eq!(
        theirs.as_deref(),
        Some("discard 2 cards face down and draw as many")
    );
    let mine = g
        .describe_for(S0, &action, Viewer::Seat(S0))
        .expect("a line");
    assert!(mine.contains("ghost"), "{mine}");
}

/// `determinize` keeps what the seat knows and redraws the rest.
#[test]
fn determinize_keeps_own_hand_and_public_cards_and_redraws_the_rest() {
    let mut g = GhostAtHome::new(
        &Options {
            special_cards: true,
        },
        4,
        5,
    )
    .expect("setup");
    let mut rng = GameRng::from_seed(3);
    let mut buf = Vec::new();
    takuge_engine::bot::random_playout(&mut g, &mut rng, &mut buf, 60);
    let mut changed = false;
    for _ in 0..20 {
        let w = g.determinize(S1, &mut rng);
        assert_eq!(hand(&w, S1), hand(&g, S1));
        assert_eq!(
            w.view(Viewer::Spectator).houses,
            g.view(Viewer::Spectator).houses
        );
        assert_eq!(public_discards(&w), public_discards(&g));
        assert_eq!(w.view(Viewer::Seat(S1)), g.view(Viewer::Seat(S1)));
        for s in Seat::all(4) {
            assert_eq!(hand(&w, s).len(), hand(&g, s).len());
        }
        assert_eq!(deck(&w).len(), deck(&g).len());
        changed |= Seat::all(4).any(|s| hand(&w, s) != hand(&g, s)) || deck(&w) != deck(&g);
    }
    assert!(changed);
    // Every card is still somewhere.
    let w = g.determinize(S2, &mut rng);
    let count = |x: &GhostAtHome| {
        let mut n = deck(x).len() + pile_len(x);
        for s in Seat::all(4) {
            n += hand(x, s).len();
            n += Floor::ALL
                .iter()
                .map(|&f| floor(x, s, f))
                .map(|f| usize::from(f.room_count() + f.cats + u8::from(f.ghost)))
                .sum::<usize>();
        }
        n
    };
    assert_eq!(count(&w), 53);
    assert_eq!(count(&g), 53);
}

/// Plays seeded games until a seat is about to discard cards face down.
fn before_a_face_down_discard() -> (GhostAtHome, Seat, Action) {
    let mut legal = Vec::new();
    for seed in 0..50 {
        let mut g = GhostAtHome::new(&Options::default(), 3, seed).expect("a game");
        for step in 0..400 {
            let Some(seat) = g.to_move().first_seat() else {
                break;
            };
            g.legal_actions(seat, &mut legal);
            if let Some(a) = legal
                .iter()
                .find(|a| matches!(a, Action::DiscardCards { .. }))
            {
                return (g, seat, *a);
            }
            let pick = legal
                .iter()
                .find(|a| matches!(a, Action::Discard))
                .copied()
                .unwrap_or(legal[step % legal.len()]);
            g.apply(seat, &pick).expect("a legal action");
        }
    }
    panic!("no face-down discard in 50 games");
}

/// 捨て札がなんだったかは他のプレイヤーには秘密です: in Japanese too, only the
/// discarding seat reads which cards went; the others and spectators read how many.
#[test]
fn face_down_discards_are_named_only_to_the_discarder_in_japanese() {
    let (g, actor, action) = before_a_face_down_discard();
    let Action::DiscardCards { cards: cs } = action else {
        unreachable!()
    };
    let n = cs.len();
    let mine = g
        .describe_for_in(actor, &action, Viewer::Seat(actor), Lang::Ja)
        .expect("a line");
    assert_eq!(mine, format!("{}を伏せて捨て、{n}枚引く", cards_ja(&cs)));
    let others = Seat::all(3)
        .filter(|s| *s != actor)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator]);
    for viewer in others {
        assert_eq!(
            g.describe_for_in(actor, &action, viewer, Lang::Ja),
            Some(format!("カードを{n}枚伏せて捨て、{n}枚引く")),
            "{viewer:?}"
        );
    }
    assert_eq!(
        g.describe_for_in(actor, &action, Viewer::Spectator, Lang::En),
        g.describe_for(actor, &action, Viewer::Spectator)
    );
}
