//! Scenario tests: one per rule, named after it, quoting the rule of the seed
//! (seeds/001; the decisions where it is silent are in docs/games/art-heist.md).
//!
//! Seats are given colours in turn order (seat 0 red ... seat 4 white), so the default
//! components apply: cheques red 3/10/15/22, blue 4/11/14/21, green 5/12/13/20, purple
//! 6/8/17/19, white 7/9/16/18 (thousands); thieves red 1/10, blue 2/9, green 3/8,
//! purple 4/7, white 5/6; castle 5|3 at the start; goal 30; final exhibit +8/+4.

use takuge_art_heist::testing::*;
use takuge_art_heist::{
    Action, ActionCard, ArtCard, ArtHeist, ArtSet, Colour, Letter, Options, Pile, Place, Reject,
    Step, PLAYERS,
};
use takuge_engine::{ActionError, Game, GameRng, Seat, Viewer};

// ---- setup ----

#[test]
fn the_game_is_always_played_by_five() {
    // 「必ず、5人でゲームは行う。」
    for n in [0, 1, 4, 6, 8] {
        assert!(ArtHeist::validate(&Options::default(), n).is_err());
        assert!(ArtHeist::new(&Options::default(), n, 1).is_err());
    }
    assert!(ArtHeist::new(&Options::default(), 5, 1).is_ok());
}

#[test]
fn seat_order_is_drawn_from_the_five_colours_one_cards() {
    // 「5色の「1」のカードをランダムにシャッフルし、カードを引くことで順番を決める。」
    // 「1番手:赤、2番手:青、3番手:緑、4番手:紫、5番手:白」
    let mut reds = [0u32; PLAYERS];
    for seed in 0..200 {
        let g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
        let mut sorted = colours(&g);
        sorted.sort();
        assert_eq!(sorted, Colour::ALL);
        for p in 0..PLAYERS {
            let c = colours(&g)[p];
            assert_eq!(seat_of(&g)[c.index()], p);
            // Each seat starts with its colour's eight action cards.
            assert_eq!(cards(&g, p).count_ones(), 8);
            assert!(ids(cards(&g, p)).all(|id| ActionCard(id).colour() == c));
        }
        reds[seat_of(&g)[0]] += 1;
    }
    assert!(
        reds.iter().all(|&n| n > 20),
        "red is drawn by every seat: {reds:?}"
    );
}

#[test]
fn each_player_holds_four_art_cards_and_the_rest_form_two_piles_one_larger_tops_face_up() {
    // 「各プレイヤーは、4枚の美術品カードを保有する。」
    // 「残りの美術品は半分になるように(奇数の為、どちらかのヤマは+1)して、指定の場所に
    // 置き、1番上のカードはオープンする。」
    let g = ArtHeist::new(&Options::default(), PLAYERS, 9).expect("setup");
    assert!(all_art(&g).iter().all(|a| a.count_ones() == 4));
    assert_eq!(
        (pile(&g, Pile::Left).len(), pile(&g, Pile::Right).len()),
        (13, 12)
    );
    let mut all = all_art(&g).iter().fold(0u64, |m, a| m | a);
    for side in Pile::BOTH {
        for a in pile(&g, side) {
            assert_eq!(all & a.bit(), 0, "a card in two places");
            all |= a.bit();
        }
    }
    assert_eq!(all, rules(&g).all_art());
    // Only the two tops are public; every player sees them, nobody sees the rest.
    let tops = Pile::BOTH
        .iter()
        .filter_map(|&side| pile_top(&g, side))
        .fold(0, |m, t| m | t.bit());
    assert_eq!(public_art(&g), tops);
    let v = g.view(Viewer::Spectator);
    assert!(v.piles.iter().all(|p| p.top.is_some()));
    assert!(v
        .players
        .iter()
        .all(|p| p.art.is_empty() && p.hidden_art == 4));
    let own = g.view(Viewer::Seat(Seat(2)));
    assert_eq!(own.players[2].art.len(), 4);
    assert_eq!(own.players[3].hidden_art, 4);
}

// ---- the turn: 「1」 then 「2」 ----

#[test]
fn places_are_chosen_in_secret_and_revealed_together() {
    // 「まず、「1」のカードを秘密裏にセットする。(このターンを、オークション会場か城、
    // どちらでプレイするかを選択する。)」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "AB");
    begin(&mut g);
    assert_eq!(pending(&g), vec![0, 1, 2, 3, 4]);
    act(&mut g, RED, Action::Go(Place::AuctionHouse));
    let others = g.view(Viewer::Seat(Seat(1)));
    assert!(others.players[RED].has_chosen);
    assert_eq!(
        others.players[RED].place, None,
        "what was chosen stays hidden"
    );
    assert_eq!(g.view(Viewer::Spectator).players[RED].place, None);
    let own = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(own.players[RED].place, Some(Place::AuctionHouse));
    assert_eq!(pending(&g), vec![1, 2, 3, 4]);
    for p in 1..PLAYERS {
        act(&mut g, p, Action::Go(Place::Castle));
    }
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.players[RED].place, Some(Place::AuctionHouse));
    assert_eq!(v.players[WHITE].place, Some(Place::Castle));
}

#[test]
fn auction_house_players_play_their_action_first_and_castle_players_after_the_sale() {
    // 「「1」のカードをオープンしたら、まず、オークション会場を選択したプレイヤーから
    // 「2」のアクションにいく。」「続いて城のアクションに移る。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "ABC");
    places(&mut g, &[RED, BLUE]);
    assert_eq!(
        pending(&g),
        vec![RED, BLUE],
        "castle players wait for the sale"
    );
    // 「「2」のアクションも、「1」同様に秘密裏に行うこと。」
    act(&mut g, RED, Action::Play(cheque(RED, 3)));
    let v = g.view(Viewer::Seat(Seat(2)));
    assert!(v.players[RED].has_chosen);
    assert_eq!(v.players[RED].played, None);
    act(&mut g, BLUE, Action::Play(cheque(BLUE, 0)));
    // The sale is over (one pile: no choice) and the castle players see it.
    assert_eq!(pending(&g), vec![GREEN, PURPLE, WHITE]);
    let v = g.view(Viewer::Seat(Seat(2)));
    let sale = v.auction.expect("the sale is public");
    assert_eq!(sale.winner, Seat(0));
    assert_eq!(v.players[BLUE].played.map(|c| c.id), Some(cheque(BLUE, 0)));
}

#[test]
fn the_highest_bid_takes_a_face_up_art_card_and_its_money_goes_to_the_safe() {
    // 「お金は必ず1枚だけ出す。最も高い値を付けたプレイヤーが、2枚のヤマの内、どちらかを
    // 落札し、金庫に入れる。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "AB");
    lay_pile(&mut g, Pile::Right, "CD");
    let (b, d) = (
        pile_top(&g, Pile::Left).unwrap(),
        pile_top(&g, Pile::Right).unwrap(),
    );
    places(&mut g, &[RED, GREEN]);
    act(&mut g, RED, Action::Play(cheque(RED, 1))); // 10,000
    act(&mut g, GREEN, Action::Play(cheque(GREEN, 1))); // 12,000
    assert_eq!(step(&g), Step::ChoosePile { winner: Seat(2) });
    let mut legal = Vec::new();
    g.legal_actions(Seat(GREEN as u8), &mut legal);
    assert_eq!(
        legal,
        vec![Action::Take(Pile::Left), Action::Take(Pile::Right)]
    );
    act(&mut g, GREEN, Action::Take(Pile::Right));
    assert_ne!(art(&g, GREEN) & d.bit(), 0);
    assert_eq!(pile_top(&g, Pile::Left), Some(b));
    assert_eq!(safe(&g), vec![cheque(GREEN, 1)]);
    assert!(!holds(&g, GREEN, cheque(GREEN, 1)));
    // The next card of the pile is turned face up; the card bought is public.
    let c = pile_top(&g, Pile::Right).unwrap();
    assert_ne!(public_art(&g) & c.bit(), 0);
    assert_ne!(public_art(&g) & d.bit(), 0);
}

#[test]
fn with_one_pile_left_the_winner_takes_from_it() {
    // 「ヤマが一つになった場合は、一つから選択する。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Right, "E");
    places(&mut g, &[WHITE]);
    act(&mut g, WHITE, Action::Play(cheque(WHITE, 0)));
    assert_eq!(art(&g, WHITE).count_ones(), 1);
    assert_eq!(step(&g), Step::CastleCards);
}

#[test]
fn losing_bids_return_to_their_owners_hand() {
    // 「お金を出したプレイヤーで、落札できなかったプレイヤーは、そのお金を自分の手札に戻す。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE, PURPLE]);
    act(&mut g, RED, Action::Play(cheque(RED, 3))); // 22
    act(&mut g, BLUE, Action::Play(cheque(BLUE, 3))); // 21
    act(&mut g, PURPLE, Action::Play(cheque(PURPLE, 3))); // 19
    assert!(!holds(&g, RED, cheque(RED, 3)));
    assert!(holds(&g, BLUE, cheque(BLUE, 3)));
    assert!(holds(&g, PURPLE, cheque(PURPLE, 3)));
    assert_eq!(cards(&g, BLUE).count_ones(), 8);
}

#[test]
fn a_lone_thief_steals_the_winning_money_into_its_hand() {
    // 「泥棒を選択したプレイヤーは、落札したお金を盗み、自分の持ち札とする。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE]);
    act(&mut g, RED, Action::Play(cheque(RED, 2))); // 15
    act(&mut g, BLUE, Action::Play(thief(BLUE, 0)));
    assert!(holds(&g, BLUE, cheque(RED, 2)), "the money is the thief's");
    assert!(holds(&g, BLUE, thief(BLUE, 0)), "the thief comes back");
    assert!(safe(&g).is_empty());
    assert_eq!(
        art(&g, RED).count_ones(),
        1,
        "the winner still buys the art"
    );
    let sale = auction(&g).expect("sale");
    assert_eq!(sale.stolen_by, Some(Seat(1)));
    // A cheque may then be bid by its new holder.
    assert_eq!(cards(&g, BLUE).count_ones(), 9);
}

#[test]
fn two_thieves_or_more_cancel_out() {
    // 「泥棒が場に2枚以上だされた場合は、相殺される。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED, BLUE, GREEN]);
    act(&mut g, RED, Action::Play(cheque(RED, 2)));
    act(&mut g, BLUE, Action::Play(thief(BLUE, 0)));
    act(&mut g, GREEN, Action::Play(thief(GREEN, 1)));
    assert_eq!(safe(&g), vec![cheque(RED, 2)]);
    assert!(holds(&g, BLUE, thief(BLUE, 0)) && holds(&g, GREEN, thief(GREEN, 1)));
    assert_eq!(cards(&g, BLUE).count_ones(), 8);
}

#[test]
fn the_safe_shows_its_top_card_and_players_remember_the_rest() {
    // 「金庫の情報は一番上の情報だけ公開で、前の情報は、記憶を辿ることで推測する。」
    // Every cheque in the safe was shown when it was bid; the view shows the top one and
    // the safe's size, and players remember the rest (the memory aid option lists them:
    // tests/secrecy.rs).
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "ABC");
    for (before, bidder) in [(0, RED), (1, BLUE)] {
        places(&mut g, &[bidder]);
        act(&mut g, bidder, Action::Play(cheque(bidder, 0)));
        for p in (0..PLAYERS).filter(|&p| p != bidder) {
            act(&mut g, p, Action::Play(detective(p)));
        }
        assert_eq!(turn(&g), before + 2);
    }
    let v = g.view(Viewer::Seat(Seat(4)));
    let safe: Vec<ActionCard> = v.safe.iter().map(|c| c.id).collect();
    assert_eq!(safe, vec![cheque(BLUE, 0)]);
    assert_eq!(v.safe_size, 2);
    assert_eq!(v.safe.last().and_then(|c| c.value), Some(4000));
}

#[test]
fn when_the_art_runs_out_everyone_plays_at_the_castle() {
    // 「ゲームが長引き、美術品が枯れた場合は、全員、城のみでのプレイになる。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    places(&mut g, &[RED]);
    act(&mut g, RED, Action::Play(cheque(RED, 0)));
    for p in 1..PLAYERS {
        act(&mut g, p, Action::Play(detective(p)));
    }
    // Turn 2: no art left, no place to choose — everyone is at the castle.
    assert_eq!(turn(&g), 2);
    assert_eq!(step(&g), Step::CastleCards);
    assert_eq!(pending(&g), vec![0, 1, 2, 3, 4]);
    assert_eq!(
        g.view(Viewer::Spectator).players[RED].place,
        Some(Place::Castle)
    );
}

#[test]
fn a_card_with_no_use_where_it_is_played_is_a_wasted_turn() {
    // 「「2」のアクションでその場所で出せないカードを誤って出してしまった場合は、そのまま
    // ミスとしてゲームを進める。」
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "A");
    deal(&mut g, GREEN, "ABC");
    places(&mut g, &[RED, BLUE]);
    // A detective or exhibition card at the auction house is a legal, wasted choice.
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    assert!(legal.contains(&Action::Play(detective(RED))));
    assert!(legal.contains(&Action::Play(exhibition(RED))));
    act(&mut g, RED, Action::Play(detective(RED)));
    act(&mut g, BLUE, Action::Play(exhibition(BLUE)));
    assert!(pile_top(&g, Pile::Left).is_some(), "no bid, no sale");
    // A cheque at the castle is wasted too, and comes back.
    act(&mut g, GREEN, Action::Play(cheque(GREEN, 3)));
    act(&mut g, PURPLE, Action::Play(cheque(PURPLE, 0)));
    act(&mut g, WHITE, Action::Play(cheque(WHITE, 1)));
    assert_eq!(turn(&g), 2);
    assert!((0..PLAYERS).all(|p| cards(&g, p).count_ones() == 8));
    assert_eq!(position(&g), [0; PLAYERS]);
    assert!(safe(&g).is_empty());
}

// ---- the castle: exhibits ----

#[test]
fn exhibits_are_three_cards_or_more_with_connected_letters() {
    // 「展示品は必ず3枚以上を出さなければならない。」「美術品は、アルファベットが
    // 繋がっていなければならない。」 AAA○ AAB○ ABC○ AAC× ABD×
    // Each hand below can show exactly what the rule allows.
    let mut legal = Vec::new();
    for (hand, showable) in [
        ("AAA", true),
        ("AAB", true),
        ("ABC", true),
        ("BCDEF", true),
        ("AAC", false),
        ("ABD", false),
        ("ACE", false),
        ("AB", false),
    ] {
        let mut g = fixture();
        deal(&mut g, RED, hand);
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
        assert_eq!(step(&g), Step::Exhibiting);
        g.legal_actions(Seat(0), &mut legal);
        let runs = legal
            .iter()
            .filter(|a| matches!(a, Action::Exhibit { .. }))
            .count();
        assert_eq!(runs > 0, showable, "{hand}: {legal:?}");
        assert!(
            legal.contains(&Action::ShowNothing),
            "showing nothing is always allowed"
        );
        if showable {
            let all = art(&g, RED);
            show(&mut g, RED, all);
            assert_eq!(position(&g)[RED], 5);
        }
    }
    // The letters come first, and must be a run the hand can show: with A, B, B and D,
    // only A–B is offered; B–D and A–D are refused, and so is showing before choosing.
    let mut g = fixture();
    let hand = deal(&mut g, RED, "ABBD");
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
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(
        legal,
        vec![
            Action::ShowNothing,
            Action::Exhibit {
                from: Letter::of('A'),
                to: Letter::of('B')
            }
        ]
    );
    let before = g.clone();
    for (from, to) in [('B', 'D'), ('A', 'D'), ('D', 'D'), ('B', 'A'), ('Z', 'Z')] {
        assert_eq!(
            g.apply(
                Seat(0),
                &Action::Exhibit {
                    from: Letter::of(from),
                    to: Letter::of(to)
                }
            ),
            Err(ActionError::Illegal(Reject::NoSuchRun)),
            "{from}-{to}"
        );
    }
    assert_eq!(
        g.apply(Seat(0), &Action::Cards(ArtSet::of(hand))),
        Err(ActionError::Illegal(Reject::NoExhibitYet))
    );
    assert_eq!(g, before);
    // Then the cards, a letter at a time: one or more of each, 3 cards in all. With
    // A B B: the A, then both Bs (one B would leave 2 cards).
    act(
        &mut g,
        RED,
        Action::Exhibit {
            from: Letter::of('A'),
            to: Letter::of('B'),
        },
    );
    assert_eq!(exhibit(&g, RED), 0);
    let components = rules(&g);
    let (a, b) = (
        hand & components.series_range(0, 0),
        hand & components.series_range(1, 1),
    );
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::Cards(ArtSet::of(a))]);
    act(&mut g, RED, Action::Cards(ArtSet::of(a)));
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::Cards(ArtSet::of(b))]);
    let one_b = b & b.wrapping_neg();
    assert_eq!(
        g.apply(Seat(0), &Action::Cards(ArtSet::of(one_b))),
        Err(ActionError::Illegal(Reject::NotThoseCards))
    );
    act(&mut g, RED, Action::Cards(ArtSet::of(b)));
    assert_eq!(position(&g)[RED], 5, "a valid exhibit of 3");
    // With A A B B C and the letters A–B, any one or both As, then the Bs needed for 3.
    let mut g = fixture();
    let hand = deal(&mut g, RED, "AABBC");
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
            to: Letter::of('B'),
        },
    );
    let components = rules(&g);
    let (a, b) = (
        hand & components.series_range(0, 0),
        hand & components.series_range(1, 1),
    );
    let (a1, a2) = (a & a.wrapping_neg(), a & (a - 1));
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(
        legal,
        vec![
            Action::Cards(ArtSet::of(a1)),
            Action::Cards(ArtSet::of(a2)),
            Action::Cards(ArtSet::of(a))
        ]
    );
    act(&mut g, RED, Action::Cards(ArtSet::of(a2)));
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::Cards(ArtSet::of(b))], "one A: both Bs");
    assert_eq!(
        g.apply(Seat(0), &Action::Cards(ArtSet::of(a1))),
        Err(ActionError::Illegal(Reject::NotThoseCards)),
        "the As are done"
    );
    act(&mut g, RED, Action::Cards(ArtSet::of(b)));
    assert_eq!(art(&g, RED), hand, "exhibited cards stay in hand");
    assert_eq!(position(&g)[RED], 5);
}

#[test]
fn how_many_steps_an_exhibit_takes_depends_only_on_the_exhibit_shown() {
    // 「「せーの!」で展示する美術品を公開する。」 Exhibits are put together in secret:
    // everyone sees each step taken, so the steps must not tell what else is in hand.
    // The letters, then one step per letter: A B C takes 4 steps from A B C and from
    // A A B B C C alike, and the player stays pending until the last.
    for hand in ["ABC", "AABBCC"] {
        let mut g = fixture();
        let cards = deal(&mut g, RED, hand);
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
        let components = rules(&g);
        let shown: Vec<u64> = (0..3)
            .map(|s| {
                let of = cards & components.series_range(s, s);
                of & of.wrapping_neg()
            })
            .collect();
        act(
            &mut g,
            RED,
            Action::Exhibit {
                from: Letter::of('A'),
                to: Letter::of('C'),
            },
        );
        for (i, &one) in shown.iter().enumerate() {
            assert_eq!(pending(&g), vec![RED], "{hand}: step {i}");
            act(&mut g, RED, Action::Cards(ArtSet::of(one)));
        }
        assert_eq!(position(&g)[RED], 5, "{hand}");
    }
    // Sets of cards travel as lists of ids (of one letter), letters as letters.
    let json = serde_json::to_string(&Action::Cards(ArtSet::of(0b11))).unwrap();
    assert_eq!(json, r#"{"cards":[0,1]}"#);
    let back: Action = serde_json::from_str(&json).unwrap();
    assert_eq!(back, Action::Cards(ArtSet::of(0b11)));
    assert!(serde_json::from_str::<Action>(r#"{"cards":[64]}"#).is_err());
    assert!(serde_json::from_str::<Action>(r#"{"cards":[0,8]}"#).is_err());
    let exhibit = Action::Exhibit {
        from: Letter::of('A'),
        to: Letter::of('C'),
    };
    let json = serde_json::to_string(&exhibit).unwrap();
    assert_eq!(json, r#"{"exhibit":{"from":"A","to":"C"}}"#);
    assert_eq!(serde_json::from_str::<Action>(&json).unwrap(), exhibit);
}

#[test]
fn a_lone_exhibitor_moves_by_the_first_place_number_of_the_castle_beside_the_leader() {
    // 「展示を出したプレイヤーは、3枚以上連なった美術品を公開し、トップのプレイヤーが
    // いる位置の城に表示された数字の数だけ駒を進める。」「単独の場合は、展示の後、1位の
    // 分だけ駒を進める。」
    let mut g = fixture();
    set_position(&mut g, [0, 12, 3, 0, 0]); // the leader (blue) is beside the 4|2 castle (12-13)
    let cards = deal(&mut g, RED, "CDE");
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
    show(&mut g, RED, cards);
    assert_eq!(position(&g), [4, 12, 3, 0, 0]);
    // The exhibit is revealed to all, and its cards stay with their owner.
    assert_eq!(public_art(&g) & cards, cards);
    assert_eq!(art(&g, RED), cards);
}

#[test]
fn with_several_exhibitors_the_most_cards_come_first_and_only_first_and_second_move() {
    // 「複数のプレイヤーがいた場合は、展示品のバトルになり、多くの展示品を出したプレイヤー
    // から順に、そのターンの1位、2位を決め、1位と2位だけが指定された数字の分、駒を進める
    // ことができる。」
    let mut g = fixture();
    let r = deal(&mut g, RED, "AAB");
    let b = deal(&mut g, BLUE, "BCDE");
    let gr = deal(&mut g, GREEN, "EEFF");
    let p = deal(&mut g, PURPLE, "CCCDD");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            exhibition(BLUE),
            exhibition(GREEN),
            exhibition(PURPLE),
            detective(WHITE),
        ],
    );
    // 「プレイヤーは全ての美術品を手に持ったまま、「せーの!」で展示する美術品を公開する。」
    show(&mut g, RED, r);
    show(&mut g, BLUE, b);
    let v = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(
        v.players[BLUE].exhibit, None,
        "exhibits stay hidden until all are shown"
    );
    assert!(v.players[BLUE].has_chosen);
    show(&mut g, GREEN, gr);
    show(&mut g, PURPLE, p);
    // Purple 5 cards first (+5), then blue or green with 4: blue's oldest card decides.
    let components = rules(&g);
    let oldest = |cards: u64| ids(cards).map(|a| components.year(ArtCard(a))).min();
    let second = if oldest(b) < oldest(gr) { BLUE } else { GREEN };
    let mut expected = [0u8; PLAYERS];
    expected[PURPLE] = 5;
    expected[second] = 3;
    assert_eq!(position(&g), expected, "{:?}", components.castle_numbers(0));
}

#[test]
fn equal_exhibits_are_ranked_by_their_oldest_card() {
    // 「同点の場合は、最終の展示の強さで着順を決める。」: the strength of an exhibit is
    // its number of cards, then its oldest card (the published game's tie-break).
    let mut g = fixture();
    let r = deal(&mut g, RED, "BBB"); // takes the three oldest B cards
    let b = deal(&mut g, BLUE, "BBB");
    assert!(r.trailing_zeros() < b.trailing_zeros());
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
    show(&mut g, BLUE, b);
    show(&mut g, RED, r);
    assert_eq!(position(&g)[RED], 5);
    assert_eq!(position(&g)[BLUE], 3);
}

#[test]
fn a_failed_exhibit_moves_back_by_the_inverse_rank_and_skips_the_next_turn() {
    // 「展示の際、3枚以上出せなかったプレイヤーは、そのマイナス順位分後退し(1位のプレイヤー
    // は5マス後退)、次のターンは1回休みとなる。」
    let mut g = fixture();
    set_position(&mut g, [10, 8, 6, 4, 2]);
    deal(&mut g, RED, "AC");
    deal(&mut g, PURPLE, "AAA");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            detective(BLUE),
            detective(GREEN),
            exhibition(PURPLE),
            detective(WHITE),
        ],
    );
    let mut legal = Vec::new();
    g.legal_actions(Seat(0), &mut legal);
    assert_eq!(legal, vec![Action::ShowNothing]);
    act(&mut g, RED, Action::ShowNothing);
    // Purple could show, but declines: the same penalty (nobody can tell the two apart).
    act(&mut g, PURPLE, Action::ShowNothing);
    // Red was 1st: back 5. Purple was 4th: back 2.
    assert_eq!(position(&g), [5, 8, 6, 2, 2]);
    assert_eq!(turn(&g), 2);
    assert_eq!(
        pending(&g),
        vec![BLUE, GREEN, WHITE],
        "red and purple skip this turn"
    );
    let v = g.view(Viewer::Spectator);
    assert!(v.players[RED].resting && v.players[PURPLE].resting);
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    assert_eq!(pending(&g), vec![0, 1, 2, 3, 4], "back in the turn after");
}

#[test]
fn a_pawn_never_moves_back_past_the_start() {
    // 「そのマイナス順位分後退し」: from space 2, back 5 ends on the start.
    let mut g = fixture();
    set_position(&mut g, [2, 0, 0, 0, 0]);
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
    act(&mut g, RED, Action::ShowNothing);
    assert_eq!(position(&g)[RED], 0);
}

// ---- the castle: thieves and detectives ----

#[test]
fn thieves_steal_one_card_from_each_exhibit_highest_number_first() {
    // 「その後、泥棒は、展示された美術品から1枚を盗むことができる。展示者が複数いた場合は、
    // そのどちらからも1枚盗むことができる。」「泥棒が複数いた場合は、泥棒の数字の多い順から
    // 展示品を選ぶ。」
    let mut g = fixture();
    let r = deal(&mut g, RED, "AAAA");
    let b = deal(&mut g, BLUE, "DEF");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            exhibition(BLUE),
            thief(GREEN, 0),
            thief(PURPLE, 1),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, r);
    show(&mut g, BLUE, b);
    // Purple's thief 7 beats green's 3: purple chooses first, from red's (first) exhibit.
    assert!(matches!(step(&g), Step::Stealing { .. }));
    assert_eq!(pending(&g), vec![PURPLE]);
    let v = g.view(Viewer::Spectator);
    assert_eq!(
        v.step,
        Step::Stealing {
            thief: Seat(3),
            from: Seat(0)
        }
    );
    let newest_a = ArtCard(63 - r.leading_zeros() as u8);
    act(&mut g, PURPLE, Action::Steal(newest_a));
    let oldest_d = ArtCard(b.trailing_zeros() as u8);
    act(&mut g, PURPLE, Action::Steal(oldest_d));
    assert_eq!(pending(&g), vec![GREEN]);
    let mut legal = Vec::new();
    g.legal_actions(Seat(2), &mut legal);
    assert_eq!(legal.len(), 3, "three A cards left in red's exhibit");
    let a = match legal[0] {
        Action::Steal(a) => a,
        _ => panic!(),
    };
    act(&mut g, GREEN, Action::Steal(a));
    act(
        &mut g,
        GREEN,
        Action::Steal(ArtCard((b & !oldest_d.bit()).trailing_zeros() as u8)),
    );
    assert_eq!(art(&g, PURPLE), newest_a.bit() | oldest_d.bit());
    assert_eq!(art(&g, GREEN).count_ones(), 2);
    assert_eq!(art(&g, RED).count_ones(), 2);
    assert_eq!(art(&g, BLUE).count_ones(), 1);
    // White's detective then catches both thieves.
    assert_eq!(cage(&g).len(), 2);
}

#[test]
fn a_thief_steals_nothing_when_no_exhibited_card_is_left() {
    // 「もし、盗む展示品がない、もしくはなくなった場合は、その泥棒は盗むことができない。」
    let mut g = fixture();
    let r = deal(&mut g, RED, "ABC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            thief(BLUE, 1),
            thief(GREEN, 1),
            thief(PURPLE, 1),
            thief(WHITE, 1),
        ],
    );
    show(&mut g, RED, r);
    // Thieves 9 (blue), 8 (green), 7 (purple), 6 (white): three cards for four thieves.
    while matches!(step(&g), Step::Stealing { .. }) {
        let p = pending(&g)[0];
        let mut legal = Vec::new();
        g.legal_actions(Seat(p as u8), &mut legal);
        act(&mut g, p, legal[0]);
    }
    assert_eq!(art(&g, RED), 0);
    assert_eq!(
        [art(&g, BLUE), art(&g, GREEN), art(&g, PURPLE)].map(u64::count_ones),
        [1, 1, 1]
    );
    assert_eq!(art(&g, WHITE), 0, "the weakest thief found nothing left");
    assert_eq!(position(&g)[RED], 5, "the exhibitor still moved");
    // Nobody else exhibits: thieves with no exhibit at all steal nothing either.
    castle_turn(
        &mut g,
        [
            detective(RED),
            thief(BLUE, 0),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    assert_eq!(art(&g, BLUE).count_ones(), 1);
}

#[test]
fn a_detective_catches_the_thieves_who_keep_their_loot_and_advances_by_its_own_rank() {
    // 「その後、探偵は、泥棒を捕まえる。泥棒は捕まっても戦利品は没収されない。」
    // 「泥棒を捕まえたプレイヤーは、自分の順位分、駒を進める。(5位ならば、5マス進む。)」
    let mut g = fixture();
    set_position(&mut g, [9, 8, 7, 6, 1]);
    let r = deal(&mut g, RED, "FFF");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            thief(BLUE, 1),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, r);
    let mut legal = Vec::new();
    g.legal_actions(Seat(1), &mut legal);
    act(&mut g, BLUE, legal[0]);
    // Red moved first (9 -> 13, castle 4|2 beside it); ranks are then red 1, blue 2,
    // green 3, purple 4, white 5.
    assert_eq!(position(&g), [13, 8, 7 + 3, 6 + 4, 1 + 5]);
    assert_eq!(art(&g, BLUE).count_ones(), 1, "the loot is not taken back");
    assert_eq!(cage(&g), vec![thief(BLUE, 1)]);
    assert!(!holds(&g, BLUE, thief(BLUE, 1)));
}

#[test]
fn caught_thieves_enter_the_cage_strongest_first_and_those_pushed_out_return_to_their_owners() {
    // 「捕まえられた泥棒は、強い順番に檻に入れられ、檻から溢れた泥棒は、もとのプレイヤーの
    // 元へ返却される。」 Five cells; a newcomer takes cell 1 and pushes the others on.
    let mut g = fixture();
    // Turn 1: blue 9, green 8, purple 7, white 6 caught by red's detective.
    castle_turn(
        &mut g,
        [
            detective(RED),
            thief(BLUE, 1),
            thief(GREEN, 1),
            thief(PURPLE, 1),
            thief(WHITE, 1),
        ],
    );
    assert_eq!(
        cage(&g),
        vec![
            thief(WHITE, 1),
            thief(PURPLE, 1),
            thief(GREEN, 1),
            thief(BLUE, 1)
        ]
    );
    // Turn 2: blue 2 and white 5 caught by red: white 5 enters first, then blue 2; the
    // cage holds five, so blue's 9 (the oldest prisoner) is pushed out and returns.
    castle_turn(
        &mut g,
        [
            detective(RED),
            thief(BLUE, 0),
            detective(GREEN),
            detective(PURPLE),
            thief(WHITE, 0),
        ],
    );
    assert_eq!(
        cage(&g),
        vec![
            thief(BLUE, 0),
            thief(WHITE, 0),
            thief(WHITE, 1),
            thief(PURPLE, 1),
            thief(GREEN, 1)
        ]
    );
    assert!(
        holds(&g, BLUE, thief(BLUE, 1)),
        "pushed out, back to its owner"
    );
    assert!(!holds(&g, BLUE, thief(BLUE, 0)));
}

#[test]
fn a_detective_without_thieves_does_nothing() {
    // 「探偵を出し、泥棒がいない場合は、何も起きない。」
    let mut g = fixture();
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            cheque(WHITE, 0),
        ],
    );
    assert_eq!(position(&g), [0; PLAYERS]);
    assert!(cage(&g).is_empty());
    assert_eq!(turn(&g), 2);
}

#[test]
fn uncaught_thieves_return_to_their_owners() {
    // Only a detective cages a thief; otherwise the thief card comes back like any other.
    let mut g = fixture();
    castle_turn(
        &mut g,
        [
            thief(RED, 0),
            thief(BLUE, 0),
            exhibition(GREEN),
            cheque(PURPLE, 0),
            cheque(WHITE, 0),
        ],
    );
    act(&mut g, GREEN, Action::ShowNothing);
    assert!(cage(&g).is_empty());
    assert!(holds(&g, RED, thief(RED, 0)) && holds(&g, BLUE, thief(BLUE, 0)));
}

// ---- the end ----

#[test]
fn reaching_the_goal_ends_the_turn_and_starts_the_final_exhibit() {
    // 「コマを進めた後、いずれかのプレイヤーがゴール地点に辿り着いたら、最後の展示を行う。」
    let mut g = fixture();
    set_position(&mut g, [28, 0, 0, 0, 0]);
    let r = deal(&mut g, RED, "ABC");
    castle_turn(
        &mut g,
        [
            exhibition(RED),
            thief(BLUE, 0),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    show(&mut g, RED, r);
    // The turn finishes first (the thief steals, the detectives catch it)...
    act(
        &mut g,
        BLUE,
        Action::Steal(ArtCard(r.trailing_zeros() as u8)),
    );
    assert_eq!(position(&g)[RED], 30);
    assert_eq!(cage(&g).len(), 1);
    // ...then the final exhibit.
    assert_eq!(step(&g), Step::FinalExhibit);
    assert_eq!(g.outcome(), None);
}

#[test]
fn the_final_exhibits_first_and_second_move_and_the_farthest_pawn_wins() {
    // 「最後の展示をして、その展示の1位・2位のプレイヤーの駒を進めた結果、最終的に最も
    // 進んでいるプレイヤーが勝利となる。」 (+8 and +4, the published numbers)
    let mut g = fixture();
    set_position(&mut g, [30, 27, 25, 20, 0]);
    let b = deal(&mut g, BLUE, "ABCD");
    let gr = deal(&mut g, GREEN, "EEF");
    deal(&mut g, RED, "AAC");
    rest_next_turn(&mut g, RED); // resting changes nothing: everyone shows a final exhibit
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    finish_final(&mut g, [0, b, gr, 0, 0]);
    assert_eq!(position(&g), [30, 35, 29, 20, 0]);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners().collect::<Vec<_>>(), vec![Seat(1)]);
    assert_eq!(outcome.ranks, vec![2, 1, 3, 4, 5]);
    assert!(g.to_move().is_empty());
    assert_eq!(
        g.apply(Seat(0), &Action::ShowNothing),
        Err(ActionError::GameOver)
    );
    // At the end every final exhibit is public.
    let v = g.view(Viewer::Seat(Seat(4)));
    assert_eq!(v.players[BLUE].exhibit.as_ref().map(Vec::len), Some(4));
    assert_eq!(v.step, Step::Over);
}

#[test]
fn ties_on_the_track_are_broken_by_the_strength_of_the_final_exhibit() {
    // 「同点の場合は、最終の展示の強さで着順を決める。」
    let mut g = fixture();
    set_position(&mut g, [30, 40, 40, 40, 40]);
    let b = deal(&mut g, BLUE, "AAAA"); // most cards: first (+8)
    let gr = deal(&mut g, GREEN, "BBB"); // oldest of the 3-card exhibits: second (+4)
    let p = deal(&mut g, PURPLE, "FFF");
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    finish_final(&mut g, [0, b, gr, p, 0]);
    assert_eq!(position(&g), [30, 48, 44, 40, 40]);
    // Purple and white tie on 40: purple showed an exhibit, white none.
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.ranks, vec![5, 1, 2, 3, 4]);
    // Two pawns tied without a final exhibit share their place.
    let mut g = fixture();
    set_position(&mut g, [30, 40, 40, 0, 0]);
    castle_turn(
        &mut g,
        [
            detective(RED),
            detective(BLUE),
            detective(GREEN),
            detective(PURPLE),
            detective(WHITE),
        ],
    );
    finish_final(&mut g, [0; PLAYERS]);
    assert_eq!(g.outcome().expect("over").ranks, vec![3, 1, 1, 4, 4]);
}

#[test]
fn the_game_ends_after_the_turn_limit() {
    // A takuge default (the seed has no limit): after `max_turns` turns the final exhibit
    // is held as if a pawn had reached the goal, so every game ends.
    let mut g = fixture();
    let limit = rules(&g).max_turns;
    begin(&mut g);
    while step(&g) == Step::CastleCards {
        castle_turn(
            &mut g,
            [
                detective(RED),
                detective(BLUE),
                detective(GREEN),
                detective(PURPLE),
                detective(WHITE),
            ],
        );
    }
    assert_eq!(turn(&g), limit);
    assert_eq!(step(&g), Step::FinalExhibit);
}

// ---- bots ----

#[test]
fn every_bot_plays_complete_legal_games() {
    use takuge_engine::bot::bot_move;
    use takuge_engine::MonteCarloBot;
    let mut rng = GameRng::from_seed(11);
    for seed in 0..4 {
        let mut g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
        let mut bots: Vec<Box<dyn takuge_engine::Bot<ArtHeist>>> = takuge_art_heist::bots()
            .iter()
            .take(2)
            .map(|(_, f)| f())
            .cycle()
            .take(4)
            .collect();
        bots.push(Box::new(MonteCarloBot::<ArtHeist>::new(8)));
        let mut steps = 0;
        while let Some(seat) = g.to_move().first_seat() {
            let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).expect("a move");
            g.apply(seat, &a).expect("bots play legal moves");
            steps += 1;
            assert!(steps < 20_000);
        }
        assert!(g.outcome().is_some());
    }
    assert_eq!(
        takuge_art_heist::bots()
            .iter()
            .map(|(n, _)| *n)
            .collect::<Vec<_>>(),
        vec!["collector", "random", "monte-carlo"]
    );
}

#[test]
fn the_collector_beats_random_players() {
    use takuge_engine::bot::bot_move;
    use takuge_engine::RandomBot;
    let mut rng = GameRng::from_seed(5);
    let mut wins = 0;
    let games = 40;
    for seed in 0..games {
        let mut g = ArtHeist::new(&Options::default(), PLAYERS, seed).expect("setup");
        let mut bots: Vec<Box<dyn takuge_engine::Bot<ArtHeist>>> =
            vec![takuge_art_heist::CollectorBot::boxed()];
        bots.extend((1..PLAYERS).map(|_| RandomBot::<ArtHeist>::boxed()));
        while let Some(seat) = g.to_move().first_seat() {
            let a = bot_move(bots[seat.index()].as_mut(), &g, seat, &mut rng).expect("a move");
            g.apply(seat, &a).expect("legal");
        }
        wins += u32::from(g.outcome().expect("over").ranks[0] == 1);
    }
    assert!(wins > games as u32 / 2, "collector won {wins} of {games}");
}

#[test]
fn every_view_lists_the_castles_beside_the_track_as_the_components_set_them() {
    let g = ArtHeist::new(&Options::default(), PLAYERS, 5).expect("a game");
    let components = rules(&g);
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.castles, components.castles.as_slice());
    // The castle beside each space is the one whose numbers the view gives as `castle`
    // when the leading pawn stands there.
    for c in v.castles {
        for space in c.first_space..=c.last_space {
            assert_eq!(components.castle_numbers(space), c.numbers, "space {space}");
        }
    }
    assert_eq!(g.view(Viewer::Seat(Seat(1))).castles, v.castles);
}

/// 「2」: any card may be played; one that does nothing where the player is makes a wasted
/// turn. The legal `play` actions tell the seat which (the web board's "no use here").
#[test]
fn a_play_s_facts_say_whether_the_card_acts_where_the_seat_plays() {
    let mut g = fixture();
    lay_pile(&mut g, Pile::Left, "ABC");
    places(&mut g, &[RED, BLUE]);
    let of_use = |g: &ArtHeist, p: usize, c: ActionCard| {
        takuge_engine::dynamic::facts_value(g, Seat(p as u8), &Action::Play(c))
            .map(|f| f["of_use"].clone())
    };
    // At the auction house: cheques bid and thieves steal; the detective and the
    // exhibition card do nothing.
    assert_eq!(of_use(&g, RED, cheque(RED, 0)), Some(true.into()));
    assert_eq!(of_use(&g, RED, thief(RED, 0)), Some(true.into()));
    assert_eq!(of_use(&g, RED, detective(RED)), Some(false.into()));
    assert_eq!(of_use(&g, RED, exhibition(RED)), Some(false.into()));
    // At the castle: everything but a cheque.
    assert_eq!(of_use(&g, WHITE, cheque(WHITE, 0)), Some(false.into()));
    assert_eq!(of_use(&g, WHITE, thief(WHITE, 1)), Some(true.into()));
    assert_eq!(of_use(&g, WHITE, detective(WHITE)), Some(true.into()));
    assert_eq!(of_use(&g, WHITE, exhibition(WHITE)), Some(true.into()));
    // Other actions carry no facts.
    assert_eq!(
        takuge_engine::dynamic::facts_value(&g, Seat(0), &Action::Go(Place::Castle)),
        None
    );
}
