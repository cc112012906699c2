//! What each seat may and may not see: the "?" cards, the cards set aside, the
//! face-down bids, what Mrs. Truelight and the pile showed, the log lines, and the
//! worlds `determinize` redraws.

// Card counts are indexed by card value; ranges over values read best here.
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;
use takuge_engine::Lang;

#[test]
fn truth_or_lie_is_a_simultaneous_secret_choice() {
    // "それぞれのプレイヤーは「?」カードを「真実」か「嘘」のどちらかを選んで裏向きに
    // 自分の前に伏せます。"
    let mut g = new_game(4, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    assert_eq!(g.to_move(), SeatSet::first(4));
    assert_eq!(
        legal(&g, 0),
        vec![Action::Choose { card: T }, Action::Choose { card: L }]
    );
    act(&mut g, 2, Action::Choose { card: L });
    assert_eq!(g.to_move().len(), 3);
    for s in [0, 1, 3] {
        let v = view(&g, s);
        assert!(v.seats[2].has_chosen, "who has chosen is public");
        assert!(v.seats[2].revealed_cards.is_empty(), "what is not");
        assert_eq!(v.me.unwrap().question_card, None);
    }
    assert_eq!(view(&g, 2).me.unwrap().question_card, Some(L));
    // The choice of seat 2 does not change what the others' views show beyond that.
    let mut other = g.clone();
    testing::set_question_card(&mut other, 0, Seat(2), T);
    assert_eq!(view(&g, 0), view(&other, 0));
    assert_eq!(g.view(Viewer::Spectator), other.view(Viewer::Spectator));
}

#[test]
fn bids_are_face_down_with_their_back_mark_visible_in_order() {
    // "賭け金カードを置く際、プレイヤーは裏面のマークがすべてプレイヤーに見えるように
    // 置かなければなりません。また、順番も崩さないように置く必要があります"
    // "最も低額である「1」の裏には高額マークが書かれており、最も高額である「10」の裏には
    // 定額マークが書かれています"
    let mut g = new_game(3, false);
    set_aside(&mut g, [2, 3, 3, 4]);
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 1);
    bid(&mut g, 0, Target::Truelight, 10);
    bid(&mut g, 1, Target::Truelight, 7);
    let other = view(&g, 1);
    let bids = &other.auctions[0].bids;
    assert_eq!(bids.len(), 3);
    assert_eq!(
        (bids[0].seat, bids[0].mark, bids[0].value),
        (Seat(0), Mark::High, None)
    );
    assert_eq!(
        (bids[1].seat, bids[1].mark, bids[1].value),
        (Seat(0), Mark::Low, None)
    );
    assert_eq!(bids[2].value, Some(7), "a seat sees its own bids");
    let own = view(&g, 0);
    assert_eq!(own.auctions[0].bids[0].value, Some(1));
    assert_eq!(own.auctions[0].bids[1].value, Some(10));
    assert_eq!(g.view(Viewer::Spectator).auctions[0].bids[0].value, None);
}

#[test]
fn what_a_seat_saw_stays_in_its_view() {
    // "「?カード」を見たプレイヤーは、誰のカードを見たか忘れないために、見た相手の色の
    // 「虫眼鏡トークン」を受け取り、手元に置いておきます。"
    let g = scenario_declared();
    // Everyone bid a 4: seat 0 (first played) looks at seat 1, seat 1 at seat 2.
    let v0 = view(&g, 0);
    assert_eq!(v0.looks[0].looked_at, Seat(1));
    assert_eq!(v0.looks[0].seen, Some(L));
    assert_eq!(view(&g, 2).looks[0].seen, None);
    let mut g = g;
    all_pass(&mut g);
    // Round 2 and later: still there (and now public, the cards being revealed).
    assert_eq!(view(&g, 0).looks[0].seen, Some(L));
    assert_eq!(view(&g, 2).looks[0].seen, Some(L));
}

#[test]
fn determinize_keeps_what_the_seat_knows_and_redraws_the_rest() {
    // Hidden from a seat: others' "?" cards, hands, set-aside cards and face-down bid
    // values. Every redraw keeps the marks, the counts, what the seat saw, and (round 1)
    // never sets aside a card seen on the table.
    let mut rng = GameRng::from_seed(11);
    let mut buf = Vec::new();
    let mut changed = 0;
    for seed in 0..60u64 {
        let options = Options {
            special_cards: seed % 2 == 0,
            first_player: None,
        };
        let players = 3 + (seed % 3) as usize;
        let mut g = GhostForSale::new(&options, players, seed).unwrap();
        while let Some(seat) = g.to_move().first_seat() {
            check_real_round_one_knowledge(&g);
            for s in 0..players {
                let w = g.determinize(Seat(s as u8), &mut rng);
                check_world(&g, &w, s);
                let (wi, gi) = (ins(&w), ins(&g));
                changed += usize::from(wi.players != gi.players || wi.cards != gi.cards);
            }
            g.legal_actions(seat, &mut buf);
            let a = *rng.pick(&buf).unwrap();
            g.apply(seat, &a).unwrap();
        }
    }
    assert!(changed > 1000, "determinize redraws ({changed})");
}

fn check_real_round_one_knowledge(g: &GhostForSale) {
    let g = ins(g);
    if g.round != 0 {
        return;
    }
    for p in &g.players {
        for v in 1..=10 {
            assert!(
                p.aside[v] + p.r1_known[v] <= FULL_SET[v],
                "a card seen on the table is never one set aside"
            );
        }
    }
}

fn check_world(real_game: &GhostForSale, world: &GhostForSale, me: usize) {
    assert_eq!(
        real_game.view(Viewer::Seat(Seat(me as u8))),
        world.view(Viewer::Seat(Seat(me as u8)))
    );
    let (real, w) = (ins(real_game), ins(world));
    assert_eq!(real.players[me], w.players[me]);
    for p in 0..real.players.len() {
        let (a, b) = (&real.players[p], &w.players[p]);
        assert_eq!((a.hand_n, a.aside_n, a.paid), (b.hand_n, b.aside_n, b.paid));
        assert_eq!(b.hand.iter().sum::<u8>(), b.hand_n);
        assert_eq!(b.aside.iter().sum::<u8>(), b.aside_n);
        if real.round == 0 {
            for v in 1..=10 {
                assert!(b.aside[v] + b.r1_known[v] <= FULL_SET[v]);
            }
        }
        // Every seat still owns exactly its twelve cards.
        let mut total = [0u8; 11];
        for v in 0..11 {
            total[v] = b.hand[v] + b.aside[v] + b.paid[v];
        }
        if let Some(a) = w.live_auction {
            for bid in &w.auctions[a].1 {
                if usize::from(bid.seat) == p {
                    total[usize::from(bid.value)] += 1;
                }
            }
        }
        assert_eq!(total, FULL_SET, "seat {p}'s cards");
    }
    for ((revealed, ra), (_, wa)) in real.auctions.iter().zip(&w.auctions) {
        for (x, y) in ra.iter().zip(wa) {
            assert_eq!(mark(real_game, x.value), mark(world, y.value));
            if *revealed || x.face_up || usize::from(x.seat) == me {
                assert_eq!(x, y);
            }
        }
    }
    let r = real.round;
    assert_eq!(real.cards[r][me], w.cards[r][me]);
    if let Some(t) = real.looks[r][me] {
        assert_eq!(real.cards[r][usize::from(t)], w.cards[r][usize::from(t)]);
    }
    let truths = |g: &testing::Inside| g.cards[r].iter().filter(|c| **c == Some(T)).count();
    if real.pile_seer[r] == Some(me as u8) && !real.round_revealed[r] {
        assert_eq!(truths(&real), truths(&w));
    }
    assert_eq!(real_game.to_move(), world.to_move());
}

#[test]
fn determinize_respects_cards_seen_in_round_one() {
    // Seat 1 bids its only 9 on the pile, loses and takes it back: everyone now knows the
    // 9 is in its hand and not among the cards set aside for round 2.
    let mut g = new_game(4, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T; 4]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 4);
    bid(&mut g, 0, Target::Pile, 10);
    bid(&mut g, 1, Target::Truelight, 4);
    bid(&mut g, 1, Target::Pile, 9);
    for s in 2..4 {
        bid(&mut g, s, Target::Truelight, 4);
        act(&mut g, s, Action::Done);
    }
    all_pass_info(&mut g);
    assert_eq!(ins(&g).players[1].r1_known[9], 1);
    let mut rng = GameRng::from_seed(5);
    for _ in 0..200 {
        let w = g.determinize(Seat(0), &mut rng);
        assert_eq!(ins(&w).players[1].aside[9], 0);
        assert_eq!(ins(&w).players[1].hand[9], 1);
    }
}

/// キャラクターカードの下に裏向きに隠す: in Japanese too, only the seat that sets a
/// bidding card aside reads its value; the others and spectators read that a card
/// went under the character card.
#[test]
fn a_card_set_aside_is_named_only_to_its_owner_in_japanese() {
    let g = GhostForSale::new(&Options::default(), 4, 3).expect("a game");
    let actor = Seat(1);
    let mut legal = Vec::new();
    g.legal_actions(actor, &mut legal);
    let action = legal
        .iter()
        .copied()
        .find(|a| matches!(a, Action::SetAside { .. }))
        .expect("setup sets cards aside");
    let Action::SetAside { value } = action else {
        unreachable!()
    };
    assert_eq!(
        g.describe_for_in(actor, &action, Viewer::Seat(actor), Lang::Ja),
        Some(format!(
            "賭け金カード{value}を2ラウンド用にキャラクターカードの下に隠す"
        ))
    );
    let others = Seat::all(4)
        .filter(|s| *s != actor)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator]);
    for v in others {
        let line = g.describe_for_in(actor, &action, v, Lang::Ja);
        assert_eq!(
            line.as_deref(),
            Some("2ラウンド用に賭け金カードを1枚キャラクターカードの下に隠す"),
            "{v:?}"
        );
    }
}

#[test]
fn seats_in_the_log_are_numbered_from_one_as_on_the_table() {
    let g = GhostForSale::new(&Options::default(), 3, 3).expect("a game");
    let mirror = Action::RemoveGhost { owner: Seat(2) };
    assert_eq!(
        g.describe_for_in(Seat(0), &mirror, Viewer::Spectator, Lang::Ja)
            .as_deref(),
        Some("魔法の鏡: 3番席の幽霊トークンを取り除く")
    );
    assert_eq!(
        g.describe(&mirror),
        "Magic mirror: remove a ghost token of seat 3"
    );
}

/// "「公開オークション」この館(城)にかけられる賭け金カードは、表向きで置かれる。": the
/// log names the value of a card played on an Open auction property to everyone, in
/// both languages; on any other property only its back mark.
#[test]
fn open_auction_cards_are_logged_face_up_and_others_by_their_mark() {
    let mut g = special_scenario_auction();
    // Seat 0's turn again: it chooses Everleigh (Open auction), then Culzean.
    assert_eq!(turn(&g), 0);
    act(
        &mut g,
        0,
        Action::Bid {
            target: prop(EVERLEIGH),
        },
    );
    let value = (1..=10u8)
        .rev()
        .find(|&v| g.hand(Seat(0))[usize::from(v)] > 0)
        .expect("seat 0 holds cards");
    let play = Action::Play { value };
    for viewer in [Viewer::Seat(Seat(1)), Viewer::Spectator] {
        assert_eq!(
            g.describe_for_in(Seat(0), &play, viewer, Lang::En),
            Some(format!("play a {value}, face up"))
        );
        assert_eq!(
            g.describe_for_in(Seat(0), &play, viewer, Lang::Ja),
            Some(format!("賭け金カード{value}を表向きに置く"))
        );
    }
    act(&mut g, 0, play);
    act(
        &mut g,
        0,
        Action::Bid {
            target: prop(CULZEAN),
        },
    );
    let other = (1..=10u8)
        .find(|&v| g.hand(Seat(0))[usize::from(v)] > 0)
        .expect("seat 0 holds cards");
    let hidden = g
        .describe_for_in(
            Seat(0),
            &Action::Play { value: other },
            Viewer::Seat(Seat(1)),
            Lang::En,
        )
        .unwrap_or_default();
    assert!(hidden.starts_with("play a card face down"), "{hidden}");
}
