//! What each seat may and may not see: the secret choices (「秘密裏に」), hands of art,
//! the log lines in every language, and the worlds a bot redraws.

use takuge_art_heist::testing::*;
use takuge_art_heist::{
    Action, ActionCard, ArtCard, ArtHeist, ArtSet, Letter, Options, Pile, Place, PLAYERS,
};
use takuge_engine::{Game, GameRng, Lang, Seat, Viewer};

#[test]
fn chosen_cards_stay_hidden_until_revealed_and_hands_of_art_stay_secret() {
    // 「「2」のアクションも、「1」同様に秘密裏に行うこと。」「プレイヤーは全ての美術品を
    // 手に持ったまま」
    let mut g = fixture();
    let r = deal(&mut g, RED, "ABC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    act(
        &mut g,
        RED,
        Action::Exhibit {
            from: Letter::of('A'),
            to: Letter::of('C'),
        },
    );
    let a = r & rules(&g).series_range(0, 0);
    act(&mut g, RED, Action::Cards(ArtSet::of(a)));
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(spectator.players[RED].exhibit, None);
    assert_eq!(spectator.players[RED].exhibit_letters, None);
    assert_eq!(
        g.view(Viewer::Seat(Seat(1))).players[RED].exhibit_letters,
        None
    );
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).players[RED].exhibit_letters,
        Some([Letter::of('A'), Letter::of('C')]),
        "a player sees the letters it chose"
    );
    assert!(
        !spectator.players[RED].has_chosen,
        "still putting it together"
    );
    assert_eq!(spectator.players[RED].hidden_art, 3);
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).players[RED]
            .exhibit
            .as_ref()
            .map(Vec::len),
        Some(1)
    );
    // Played cards: the action card is face down for the others while the phase runs.
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE]);
    act(&mut g, RED, Action::Play(cheque(RED, 0)));
    let v = g.view(Viewer::Seat(Seat(1)));
    assert_eq!(v.players[RED].played, None);
    let own = g.view(Viewer::Seat(Seat(0)));
    assert!(
        own.players[RED]
            .cards
            .iter()
            .any(|c| c.id == cheque(RED, 0)),
        "still held"
    );
    assert_eq!(
        usize::from(v.players[RED].card_count),
        own.players[RED].cards.len(),
        "still counted as held"
    );
    assert!(
        v.players[RED].cards.is_empty(),
        "another's hand is remembered, not shown"
    );
}

#[test]
fn determinize_redraws_only_what_the_seat_cannot_see() {
    let mut g = ArtHeist::new(&Options::default(), PLAYERS, 5).expect("setup");
    for p in 0..PLAYERS {
        act(&mut g, p, Action::Go(Place::Castle));
    }
    let card = ActionCard(colours(&g)[1].index() as u8 * 8 + 7); // its exhibition card
    act(&mut g, 1, Action::Play(card));
    let mut rng = GameRng::from_seed(3);
    let mut changed = false;
    for _ in 0..50 {
        let w = g.determinize(Seat(0), &mut rng);
        assert_eq!(art(&w, 0), art(&g, 0), "own hand is known");
        assert_eq!(public_art(&w), public_art(&g));
        for p in 0..PLAYERS {
            assert_eq!(art(&w, p) & public_art(&g), art(&g, p) & public_art(&g));
            assert_eq!(art(&w, p).count_ones(), art(&g, p).count_ones());
            assert_eq!(
                cards(&w, p),
                cards(&g, p),
                "action cards are public knowledge"
            );
        }
        for side in Pile::BOTH {
            assert_eq!(pile(&w, side).len(), pile(&g, side).len());
            assert_eq!(pile_top(&w, side), pile_top(&g, side));
        }
        assert_eq!(w.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
        assert_eq!(w.to_move(), g.to_move());
        changed |= all_art(&w) != all_art(&g) || played(&w, 1) != played(&g, 1);
    }
    assert!(changed);
}

#[test]
fn the_log_shows_secret_choices_only_to_their_maker_and_open_choices_to_all() {
    // 「秘密裏に」: places, action cards and exhibits are secret until revealed; the
    // winner's pile and a thief's loot are chosen in the open.
    let g = fixture();
    let red = Seat(0);
    let go = Action::Go(Place::Castle);
    assert!(g.describe_for(red, &go, Viewer::Seat(red)).is_some());
    assert_eq!(g.describe_for(red, &go, Viewer::Seat(Seat(1))), None);
    assert_eq!(g.describe_for(red, &go, Viewer::Spectator), None);
    let play = Action::Play(cheque(RED, 3));
    assert_eq!(g.describe_for(red, &play, Viewer::Seat(Seat(2))), None);
    let take = Action::Take(Pile::Left);
    assert!(g.describe_for(red, &take, Viewer::Spectator).is_some());
    let steal = Action::Steal(ArtCard(0));
    assert_eq!(
        g.describe_for(red, &steal, Viewer::Seat(Seat(4)))
            .as_deref(),
        Some("steal art A (1431)")
    );
    assert_eq!(g.describe(&play), "play red cheque 22,000");
}

/// 「1」のカードを秘密裏にセットする / 「2」のアクションも秘密裏に: in Japanese too,
/// the place and the action card reach only the seat that chose them; the pile
/// taken and the art stolen reach everyone.
#[test]
fn secret_choices_reach_only_their_maker_in_japanese_and_open_ones_everyone() {
    let g = ArtHeist::new(&Options::default(), PLAYERS, 1).expect("setup");
    let actor = Seat(0);
    let others: Vec<Viewer> = Seat::all(PLAYERS)
        .skip(1)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    let go = Action::Go(Place::Castle);
    let play = Action::Play(cheque(RED, 3));
    let line = |a: &Action, v: Viewer| g.describe_for_in(actor, a, v, Lang::Ja);
    assert_eq!(line(&go, Viewer::Seat(actor)).as_deref(), Some("城へ行く"));
    assert_eq!(
        line(&play, Viewer::Seat(actor)).as_deref(),
        Some("「2」のカード: 赤のお金 22,000を伏せて出す")
    );
    for &v in &others {
        assert_eq!(line(&go, v), None, "{v:?}");
        assert_eq!(line(&play, v), None, "{v:?}");
    }
    let take = Action::Take(Pile::Left);
    let steal = Action::Steal(ArtCard(0));
    for v in others.iter().copied().chain([Viewer::Seat(actor)]) {
        assert_eq!(
            line(&take, v).as_deref(),
            Some("左のヤマの表向きの美術品を落札")
        );
        assert_eq!(line(&steal, v).as_deref(), Some("美術品A(1431年)を盗む"));
    }
}

/// 「「せーの!」で展示する美術品を公開する。」: the letters an exhibitor chose are as
/// secret as its cards, so a world redrawn for another seat does not keep them — the
/// exhibitor still putting its exhibit together starts again, letters first.
#[test]
fn determinize_forgets_the_letters_another_exhibitor_chose() {
    let mut g = fixture();
    deal(&mut g, RED, "ABC");
    deal(&mut g, BLUE, "DEF");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            exhibition(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    act(
        &mut g,
        BLUE,
        Action::Exhibit {
            from: Letter::of('D'),
            to: Letter::of('F'),
        },
    );
    let mut rng = GameRng::from_seed(7);
    let mut legal = Vec::new();
    for _ in 0..20 {
        let w = g.determinize(Seat(0), &mut rng);
        w.legal_actions(Seat(1), &mut legal);
        assert!(legal.contains(&Action::ShowNothing), "{legal:?}");
        assert_eq!(w.view(Viewer::Seat(Seat(0))), g.view(Viewer::Seat(Seat(0))));
    }
    // The real table keeps them, of course.
    g.legal_actions(Seat(1), &mut legal);
    assert!(!legal.contains(&Action::ShowNothing));
}

/// Plays seeded random games until the safe holds at least two cheques; the state then.
fn with_two_cheques_in_the_safe(options: &Options) -> ArtHeist {
    for seed in 1..50 {
        let mut g = ArtHeist::new(options, PLAYERS, seed).expect("setup");
        let mut rng = GameRng::from_seed(seed);
        let mut buf = Vec::new();
        while !g.is_over() {
            if g.view(Viewer::Spectator).safe_size >= 2 {
                return g;
            }
            let seat = g.to_move().iter().next().expect("someone is pending");
            let action = g
                .sample_action(seat, &mut rng, &mut buf)
                .expect("a legal action");
            g.apply(seat, &action).expect("legal");
        }
    }
    panic!("no game put two cheques in the safe");
}

#[test]
fn only_the_top_card_of_the_safe_is_public_unless_the_memory_aid_is_on() {
    // 「金庫の情報は一番上の情報だけ公開で、前の情報は、記憶を辿ることで推測する。」
    let g = with_two_cheques_in_the_safe(&Options::default());
    let size = g.view(Viewer::Spectator).safe_size;
    for viewer in [
        Viewer::Spectator,
        Viewer::Seat(Seat(0)),
        Viewer::Seat(Seat(3)),
    ] {
        let v = g.view(viewer);
        assert_eq!(v.safe_size, size);
        assert_eq!(
            v.safe.len(),
            1,
            "only the top cheque is shown to {viewer:?}"
        );
    }

    // The memory aid (a table option, off by default) lists the whole safe, the top last.
    let aided = with_two_cheques_in_the_safe(&Options { memory_aid: true });
    let v = aided.view(Viewer::Spectator);
    assert_eq!(v.safe.len(), usize::from(v.safe_size));
    assert!(v.safe.len() >= 2);
    // The option changes what is shown, never the game: the same seed plays the same
    // cheques, and the one card shown without the aid is the aided list's top.
    assert_eq!(v.safe_size, size);
    assert_eq!(v.safe.last(), g.view(Viewer::Spectator).safe.last());
}
