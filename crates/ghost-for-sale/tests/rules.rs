//! Scenario tests, one per rule, each quoting the Japanese rule it checks (the rules
//! are in docs/games/ghost-for-sale.md).

// Card counts are indexed by card value; ranges over values read best here.
#![allow(clippy::needless_range_loop)]

mod common;
use common::*;

// ---------------------------------------------------------------- setup

#[test]
fn double_faced_tokens_depend_on_player_count() {
    // "3人プレイの場合:両面の宣言トークンを各3個ずつ使用します / 4人プレイの場合:
    // 両面の宣言トークンを各2個ずつ / 5人プレイの場合:両面の宣言トークンを各1個ずつ"
    // "宣言トークンの内訳は全て幽霊2個、絵画2個、両面3個".
    for (players, double) in [(3, 3), (4, 2), (5, 1)] {
        let g = new_game(players, false);
        for s in 0..players {
            assert_eq!(ins(&g).players[s].tokens, [2, 2, double]);
            let tokens = view(&g, 0).seats[s].tokens_left;
            assert_eq!(
                (tokens.ghost, tokens.painting, tokens.double_faced),
                (2, 2, double)
            );
        }
    }
}

#[test]
fn each_player_has_twelve_bidding_cards() {
    // "賭け金カードの内訳は全て1.2.3.3.4.5.6.7.8.8.9.10となっております"
    let g = new_game(4, false);
    for s in 0..4u8 {
        assert_eq!(
            view(&g, s).me.unwrap().hand,
            vec![1, 2, 3, 3, 4, 5, 6, 7, 8, 8, 9, 10]
        );
    }
}

#[test]
fn four_bidding_cards_are_set_aside_in_secret_for_round_two() {
    // "12枚の賭け金カードの中で、4枚の賭け金カードをキャラクターカードの下に裏向きにして
    // 隠します。隠した4枚の賭け金カードは1ラウンド目の館のオークションでは使用できず、
    // 2ラウンド目の城のオークションの際に使用します。"
    let mut g = new_game(3, false);
    assert_eq!(
        g.to_move(),
        SeatSet::first(3),
        "everyone sets aside at once"
    );
    for v in [10, 9, 8, 8] {
        act(&mut g, 1, Action::SetAside { value: v });
    }
    assert!(!g.to_move().contains(Seat(1)));
    assert_eq!(
        refused(&g, 1, Action::SetAside { value: 1 }),
        ActionError::NotYourTurn(Seat(1))
    );
    let other = view(&g, 0);
    assert_eq!(other.seats[1].set_aside_count, 4);
    assert_eq!(other.seats[1].hand_count, 8);
    let mine = view(&g, 1).me.unwrap();
    assert_eq!(mine.set_aside, vec![8, 8, 9, 10]);
    for s in [0, 2] {
        for v in [1, 2, 3, 3] {
            act(&mut g, s, Action::SetAside { value: v });
        }
    }
    assert_eq!(step(&g), Step::TruthOrLie);
    // Round 1 cannot use them.
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    assert_eq!(turn(&g), 0);
    bid(&mut g, 0, Target::Truelight, 4);
    act(&mut g, 0, Action::Done);
    act(
        &mut g,
        1,
        Action::Bid {
            target: Target::Truelight,
        },
    );
    assert_eq!(
        refused(&g, 1, Action::Play { value: 10 }),
        ActionError::Illegal(Reject::NoSuchCard(10))
    );
    assert!(!legal(&g, 1).contains(&Action::Play { value: 8 }));
    assert!(legal(&g, 1).contains(&Action::Play { value: 7 }));
}

#[test]
fn manors_are_laid_out_in_alphabetical_order() {
    // "館カード6枚をアルファベット順にテーブルの中央に並べます。"
    let v = view(&new_game(3, false), 0);
    let names: Vec<&str> = v.properties.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), PER_ROUND);
    assert_eq!(names[0], "Algernon");
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    assert!(v
        .properties
        .iter()
        .all(|p| p.kind == takuge_ghost_for_sale::PropertyKind::Manor));
}

#[test]
fn the_first_player_acts_first_in_every_step_of_the_round() {
    // "一番幽霊に見えるプレイヤーが最初のプレイヤーとなります。このプレイヤーは1ラウンドの
    // すべてのステップで最初に行動します。"
    let mut g = GhostForSale::new(
        &Options {
            special_cards: false,
            first_player: Some(2),
        },
        4,
        1,
    )
    .unwrap();
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, T, T]);
    assert_eq!(turn(&g), 2, "declarations start with the first player");
    let mut order = Vec::new();
    while step(&g) == Step::Declarations {
        order.push(turn(&g));
        place(&mut g, ALGERNON, Face::Ghost);
    }
    // "最初のプレイヤーから時計回りの順で宣言トークンを1個ずつ置く ... すべてのプレイヤーが
    // すべての宣言トークンを置くまで"
    assert_eq!(&order[..8], &[2, 3, 0, 1, 2, 3, 0, 1]);
    assert_eq!(order.len(), 4 * 6);
    assert_eq!(
        turn(&g),
        2,
        "the information auction starts with the first player"
    );
    minimal_info_auction(&mut g);
    assert_eq!(
        turn(&g),
        2,
        "the property auction starts with the first player"
    );
    assert_eq!(view(&g, 0).first_player, Seat(2));
}

#[test]
fn a_random_first_player_comes_from_the_seed() {
    // The table chooses "一番幽霊に見えるプレイヤー"; without a choice, chance does.
    let mut seen = [false; 5];
    for seed in 0..50 {
        let g = GhostForSale::new(&Options::default(), 5, seed).unwrap();
        seen[usize::from(ins(&g).first[0])] = true;
        assert_eq!(g, GhostForSale::new(&Options::default(), 5, seed).unwrap());
    }
    assert!(seen.iter().all(|&s| s));
    assert!(GhostForSale::validate(
        &Options {
            special_cards: false,
            first_player: Some(3)
        },
        3
    )
    .is_err());
}

// ---------------------------------------------------------------- ① truth or lie

#[test]
fn the_unused_question_cards_form_the_pile() {
    // "使わなかったカードは、誰もその内容を見ないようにすべてミセス・トゥルーライトの脇に
    // まとめよく切ります。" Four players: two lie, so the pile holds two lie cards (from
    // the truth-tellers) and two truth cards.
    let mut g = new_game(4, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, L, T, L]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    // Seat 0: 4 on Mrs. Truelight and 5 on the pile; seat 2 outbids it with a 6.
    bid(&mut g, 0, Target::Truelight, 4);
    bid(&mut g, 0, Target::Pile, 5);
    bid(&mut g, 1, Target::Truelight, 4);
    act(&mut g, 1, Action::Done);
    bid(&mut g, 2, Target::Truelight, 4);
    bid(&mut g, 2, Target::Pile, 6);
    bid(&mut g, 3, Target::Truelight, 4);
    act(&mut g, 3, Action::Done);
    all_pass_info(&mut g);
    let seer = view(&g, 2);
    assert_eq!(seer.pile.len(), 1);
    assert_eq!(seer.pile[0].seer, Seat(2));
    assert_eq!(
        seer.pile[0].seen,
        Some(takuge_ghost_for_sale::PileCounts { truth: 2, lie: 2 })
    );
    for s in [0, 1, 3] {
        assert_eq!(
            view(&g, s).pile[0].seen,
            None,
            "only the winner sees the pile"
        );
    }
}

// ---------------------------------------------------------------- ② declarations

#[test]
fn any_number_of_tokens_may_go_on_one_property_one_per_turn() {
    // "どのプレイヤーも、どの館にどのトークンを置くかは自由です。つまり、1つの館に
    // 置かれるトークンの数に上限はありません。ただし、ターンが回ってくる度に1枚の
    // 宣言トークンしか置けません。"
    let mut g = new_game(5, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T; 5]);
    let before = turn(&g);
    place(&mut g, CULZEAN, Face::Ghost);
    assert_ne!(turn(&g), before, "one token per turn");
    declare(&mut g, |_, k| {
        (
            CULZEAN,
            if k < 2 || k == 4 {
                Face::Ghost
            } else {
                Face::Painting
            },
        )
    });
    let on_culzean: u8 = ins(&g).decl[usize::from(CULZEAN)]
        .iter()
        .map(|f| f[0] + f[1])
        .sum();
    assert_eq!(on_culzean, 25);
    assert_eq!(step(&g), Step::InformationAuction);
}

#[test]
fn a_double_faced_token_counts_as_the_face_it_was_placed_on() {
    // "両面のトークンを置く場合は、どちらのトークンを上にしておいてもかまいません。一度
    // 置かれた宣言トークンは、上にした面の宣言トークンとしてみなされます。"
    let mut g = scenario_declared();
    // Seat 0 placed its three double-faced tokens painting up on Dunmore.
    assert_eq!(ins(&g).players[0].tokens, [0, 0, 0]);
    assert_eq!(ins(&g).decl[usize::from(DUNMORE)][0], [0, 5]);
    assert_eq!(
        refused(
            &g,
            0,
            Action::Declare {
                property: 0,
                token: Token::DoubleGhost
            }
        ),
        ActionError::Illegal(Reject::WrongStep)
    );
    all_pass(&mut g);
    assert_eq!(ins(&g).ghosts[usize::from(DUNMORE)], Some(0));
}

#[test]
fn a_lie_card_reverses_every_declaration() {
    // "「嘘」カードを選択したプレイヤーの置いた宣言トークンはすべて逆の結果となります
    // (「絵画」が置かれた館で実際には幽霊を見て「幽霊」が置かれた館で実際には幽霊を
    // 見なかったことになります)"
    let g = scenario_round_one();
    let ghosts = |p: u8| ins(&g).ghosts[usize::from(p)];
    assert_eq!(ghosts(ALGERNON), Some(0), "the liar's five ghosts are none");
    assert_eq!(ghosts(BLACKWOOD), Some(1), "the liar's painting is a ghost");
    assert_eq!(
        ghosts(CULZEAN),
        Some(3),
        "2 true ghosts + the liar's painting"
    );
    assert_eq!(ghosts(DUNMORE), Some(0));
    assert_eq!(ghosts(EVERLEIGH), Some(2));
    assert_eq!(ghosts(FAIRHOLME), Some(0));
    // Everyone's cards are revealed at the end of the round.
    let v = view(&g, 0);
    assert_eq!(v.seats[1].revealed_cards, vec![L]);
}

#[test]
fn culzean_scores_one_three_four_for_one_two_three_ghosts() {
    // "culzean館の場合、目撃された幽霊の数が1なら1点、2なら3点、3なら4点になります。
    // その他の数の場合残念ながらculzean館は何も価値のない館になります。"
    let g = scenario_round_one();
    let c = usize::from(CULZEAN);
    assert_eq!(ins(&g).points[c], [0, 1, 3, 4, 0]);
    assert_eq!(ins(&g).property_points[c], Some(4));
    assert_eq!(ins(&g).owner[c], Some(0));
    assert_eq!(ins(&g).score[0], 4);
    let mut h = g.clone();
    for (ghosts, points) in [(0, 0), (1, 1), (2, 3), (3, 4), (4, 0), (5, 0), (9, 0)] {
        testing::set_ghosts(&mut h, c, ghosts);
        assert_eq!(ins(&h).property_points[c], Some(points));
    }
}

#[test]
fn zero_or_five_and_more_ghosts_score_nothing() {
    // "どの館にも共通のルールがあります。それは、目撃された幽霊の数が0、もしくは5以上
    // だった場合、その館の価値はゼロになると言うことです。"
    let mut g = new_game(3, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |s, k| match (s, k) {
        (0, 2..=3) => (FAIRHOLME, Face::Painting),
        (0, _) => (ALGERNON, Face::Ghost),
        (_, 0..=1) => (BLACKWOOD, Face::Ghost),
        _ => (DUNMORE, Face::Painting),
    });
    minimal_info_auction(&mut g);
    bid(&mut g, 0, prop(ALGERNON), 5);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, prop(DUNMORE), 5);
    act(&mut g, 1, Action::Done);
    all_pass(&mut g);
    assert_eq!(ins(&g).ghosts[usize::from(ALGERNON)], Some(5));
    assert_eq!(
        ins(&g).points[usize::from(ALGERNON)][4],
        1,
        "4 ghosts would score"
    );
    assert_eq!(ins(&g).property_points[usize::from(ALGERNON)], Some(0));
    assert_eq!(ins(&g).ghosts[usize::from(DUNMORE)], Some(0));
    assert_eq!(ins(&g).property_points[usize::from(DUNMORE)], Some(0));
    assert_eq!(ins(&g).ghosts[usize::from(BLACKWOOD)], Some(4));
    assert_eq!(ins(&g).score[0], 0);
    assert_eq!(ins(&g).score[1], 0);
}

// ---------------------------------------------------------------- ③ information

#[test]
fn no_pile_auction_with_three_players() {
    // "※3人プレイの場合、(2)のオークションは開催されません。使わなかった「?」カードは、
    // 誰も見ることなく箱に戻してください。"
    let mut g = new_game(3, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, L]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    assert_eq!(
        legal(&g, 0),
        vec![Action::Bid {
            target: Target::Truelight
        }]
    );
    assert_eq!(
        refused(
            &g,
            0,
            Action::Bid {
                target: Target::Pile
            }
        ),
        ActionError::Illegal(Reject::NoPileAuction)
    );
    minimal_info_auction(&mut g);
    assert!(view(&g, 0).pile.is_empty());
    assert_eq!(ins(&g).pile_seer[0], None);
}

#[test]
fn a_turn_places_one_or_two_cards_on_one_or_two_targets() {
    // "1枚か2枚の賭け金カードを「ミセス・トゥルーライト」か「?カード」のどちらか、もしくは
    // 両方に裏向きに置く"
    let mut g = new_game(4, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T; 4]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    // Each card in two steps: where, then which.
    act(
        &mut g,
        0,
        Action::Bid {
            target: Target::Truelight,
        },
    );
    assert!(legal(&g, 0)
        .iter()
        .all(|a| matches!(a, Action::Play { .. })));
    assert_eq!(
        refused(&g, 0, Action::Done),
        ActionError::Illegal(Reject::CardPending)
    );
    assert_eq!(
        view(&g, 1).turn.unwrap().placing_on,
        Some(Target::Truelight),
        "where the card goes is public"
    );
    assert_eq!(
        refused(&g, 1, Action::Play { value: 4 }),
        ActionError::NotYourTurn(Seat(1))
    );
    // Two cards on two targets.
    act(&mut g, 0, Action::Play { value: 4 });
    assert!(legal(&g, 0).contains(&Action::Done));
    assert!(!legal(&g, 0).contains(&Action::Pass));
    bid(&mut g, 0, Target::Pile, 5);
    assert_eq!(turn(&g), 1, "the turn ends after two cards");
    // Two cards on one target.
    bid(&mut g, 1, Target::Truelight, 4);
    bid(&mut g, 1, Target::Truelight, 5);
    assert_eq!(turn(&g), 2);
    // One card.
    bid(&mut g, 2, Target::Pile, 9);
    act(&mut g, 2, Action::Done);
    assert_eq!(turn(&g), 3);
    assert_eq!(
        refused(&g, 3, Action::Done),
        ActionError::Illegal(Reject::NothingPlaced)
    );
}

#[test]
fn a_pass_ends_a_players_part_in_the_auction() {
    // "パスを選んだプレイヤーは、もうオークションに参加することができなくなります。"
    // "オークションは全てのプレイヤーがパスをしたときに終了します。"
    let mut g = scenario_declared();
    act(&mut g, 0, Action::Pass);
    assert!(view(&g, 1).seats[0].passed);
    bid(&mut g, 1, prop(ALGERNON), 5);
    act(&mut g, 1, Action::Done);
    bid(&mut g, 2, prop(ALGERNON), 6);
    act(&mut g, 2, Action::Done);
    assert_eq!(turn(&g), 1, "seat 0 is skipped");
    act(&mut g, 1, Action::Pass);
    assert_eq!(turn(&g), 2, "the last one in goes on alone");
    bid(&mut g, 2, prop(BLACKWOOD), 7);
    act(&mut g, 2, Action::Done);
    assert_eq!(turn(&g), 2);
    act(&mut g, 2, Action::Pass);
    assert_ne!(step(&g), Step::PropertyAuction);
}

#[test]
fn no_pass_before_a_bid_on_mrs_truelight() {
    // "ただし、ミセス・トゥルーライトに1枚も賭け金カードを置いていないプレイヤーは
    // パスを選ぶことはできません。"
    let mut g = new_game(4, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T; 4]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    assert!(!legal(&g, 0).contains(&Action::Pass));
    assert_eq!(
        refused(&g, 0, Action::Pass),
        ActionError::Illegal(Reject::MustBidOnTruelight)
    );
    bid(&mut g, 0, Target::Pile, 4);
    act(&mut g, 0, Action::Done);
    for s in 1..4 {
        bid(&mut g, s, Target::Truelight, 4);
        act(&mut g, s, Action::Done);
    }
    assert!(
        !legal(&g, 0).contains(&Action::Pass),
        "a pile bid is not enough"
    );
    bid(&mut g, 0, Target::Truelight, 5);
    act(&mut g, 0, Action::Done);
    for s in 1..4 {
        act(&mut g, s, Action::Pass);
    }
    assert!(legal(&g, 0).contains(&Action::Pass));
    act(&mut g, 0, Action::Pass);
    // The property auction has no such condition.
    assert_eq!(step(&g), Step::PropertyAuction);
    assert!(legal(&g, turn(&g)).contains(&Action::Pass));
}

#[test]
fn the_last_player_holding_cards_may_play_one_card() {
    // "もし、誰か1人のプレイヤーを残して、他のプレイヤーの賭け金カードが0枚になった場合、
    // カードを持っている、その残った1人のプレイヤーは、そこから1枚だけ賭け金カードを
    // プレイできます。そしてオークションが終了します。"
    let mut g = new_game(3, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    // Seat 0 plays one card a turn; seats 1 and 2 two, until they have none.
    let mut singles = [4u8, 5, 6, 7].into_iter();
    while ins(&g).players[1].hand_n + ins(&g).players[2].hand_n > 0 {
        let s = turn(&g);
        if s == 0 {
            let v = singles.next().unwrap();
            bid(&mut g, 0, Target::Truelight, v);
            act(&mut g, 0, Action::Done);
        } else {
            let p = ins(&g).players[usize::from(s)];
            let v = (1..=10u8).find(|&v| p.hand[usize::from(v)] > 0).unwrap();
            bid(&mut g, s, Target::Truelight, v);
        }
    }
    assert_eq!(ins(&g).players[0].hand_n, 4);
    assert_eq!(turn(&g), 0);
    let v = view(&g, 1);
    assert!(v.turn.unwrap().last_card, "the last-player rule is public");
    bid(&mut g, 0, Target::Truelight, 8);
    assert_eq!(
        step(&g),
        Step::PropertyAuction,
        "one card, and the auction is over"
    );
    assert_eq!(ins(&g).auctions[0].1.len(), 4 + 8 + 8 + 1);
    // Seats 1 and 2 outbid seat 0 and lose their cards to the box; seat 0, Mrs.
    // Truelight's last, takes its five back.
    assert_eq!(ins(&g).players[0].hand_n, 8);
    assert_eq!(ins(&g).players[1].hand_n + ins(&g).players[2].hand_n, 0);
    // "賭け金カードを持っているのが誰か1人のプレイヤーのみになった際オークションは終了
    // します": the property auction opens with only seat 0 holding cards, so it may
    // play one card and no more.
    assert!(view(&g, 2).turn.unwrap().last_card);
    bid(&mut g, 0, prop(ALGERNON), 4);
    assert_eq!(g.round(), 2);
    assert_eq!(ins(&g).owner[usize::from(ALGERNON)], Some(0));
    assert_eq!(ins(&g).players[0].paid[4], 1);
}

#[test]
fn ranking_is_by_total_then_highest_card_then_who_played_it_first() {
    // "それぞれのプレイヤーが出した賭け金カードの合計を計算し、一番高い額を賭けていた
    // プレイヤーから順に順位がつけられます。もしも同額だった場合は、賭けたカードの中で
    // それぞれ1番高い賭け金カードの額面で競います。それでもまだ同額だった場合は、その
    // 1番高い賭け金カードを先に出していたプレイヤーが上位となります。"
    let mut g = new_game(4, false);
    set_aside(&mut g, [8, 8, 9, 10]);
    choose(&mut g, &[T, L, T, L]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 5);
    bid(&mut g, 0, Target::Truelight, 3); // 8, highest 5
    bid(&mut g, 1, Target::Truelight, 7);
    bid(&mut g, 1, Target::Truelight, 1); // 8, highest 7
    bid(&mut g, 2, Target::Truelight, 6);
    bid(&mut g, 2, Target::Truelight, 2); // 8, highest 6
    bid(&mut g, 3, Target::Truelight, 4);
    bid(&mut g, 3, Target::Truelight, 3); // 7
    all_pass_info(&mut g);
    assert_eq!(&ins(&g).chain[0][..4], &[1, 2, 0, 3]);

    // Equal totals and equal highest cards: the highest card played first wins, even
    // if the other seat began bidding earlier.
    let mut g = new_game(3, false);
    set_aside(&mut g, [8, 8, 9, 10]);
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 2);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, Target::Truelight, 7);
    act(&mut g, 1, Action::Done);
    bid(&mut g, 2, Target::Truelight, 1);
    act(&mut g, 2, Action::Done);
    bid(&mut g, 0, Target::Truelight, 7);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, Target::Truelight, 2);
    act(&mut g, 1, Action::Done);
    all_pass_info(&mut g);
    assert_eq!(&ins(&g).chain[0][..3], &[1, 0, 2]);
}

#[test]
fn a_revealed_auction_s_view_ranks_each_spot_s_bidders_as_the_rules_do() {
    let mut g = new_game(4, false);
    set_aside(&mut g, [8, 8, 9, 10]);
    choose(&mut g, &[T, L, T, L]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 5);
    bid(&mut g, 0, Target::Truelight, 3);
    bid(&mut g, 1, Target::Truelight, 7);
    bid(&mut g, 1, Target::Truelight, 1);
    bid(&mut g, 2, Target::Truelight, 6);
    bid(&mut g, 2, Target::Truelight, 2);
    // Before the reveal nobody is ranked: the cards are face down.
    assert!(view(&g, 3).auctions[0].ranking.is_empty());
    bid(&mut g, 3, Target::Truelight, 4);
    bid(&mut g, 3, Target::Truelight, 3);
    all_pass_info(&mut g);
    let ranking = &view(&g, 3).auctions[0].ranking;
    assert_eq!(ranking.len(), 1);
    assert_eq!(ranking[0].target, Target::Truelight);
    let order: Vec<(u8, u32)> = ranking[0]
        .bidders
        .iter()
        .map(|b| (b.seat.0, b.total))
        .collect();
    assert_eq!(order, [(1, 8), (2, 8), (0, 8), (3, 7)]);
    // The same order as the rules' chain.
    assert_eq!(&ins(&g).chain[0][..4], &[1, 2, 0, 3]);
}

#[test]
fn every_view_tells_the_back_mark_of_each_bidding_card_value() {
    let g = new_game(3, false);
    let marks = view(&g, 0).card_marks;
    for value in 1..=10u8 {
        assert_eq!(
            marks[usize::from(value) - 1],
            mark(&g, value),
            "card {value}"
        );
    }
    assert_eq!(view(&g, 1).card_marks, marks);
}

#[test]
fn mrs_truelight_first_looks_at_second_and_so_on_down_the_chain() {
    // "1位だったプレイヤーは2位のプレイヤーの「?カード」を見ることができます。2位の
    // プレイヤーは3位の、3位プレイヤーは4位の、と同じことを繰り返します。最下位の
    // プレイヤーは誰の「?カード」も見ることができません。"
    // "「?カード」を見たプレイヤーは、誰のカードを見たか忘れないために、見た相手の色の
    // 「虫眼鏡トークン」を受け取り、手元に置いておきます。"
    let mut g = new_game(4, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, L, T, L]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 10);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, Target::Truelight, 4);
    act(&mut g, 1, Action::Done);
    bid(&mut g, 2, Target::Truelight, 5);
    act(&mut g, 2, Action::Done);
    bid(&mut g, 3, Target::Truelight, 9);
    act(&mut g, 3, Action::Done);
    all_pass_info(&mut g);
    // Ranking: 0 (10), 3 (9), 2 (5), 1 (4).
    assert_eq!(ins(&g).looks[0], [Some(3), None, Some(1), Some(2)]);
    let v0 = view(&g, 0);
    let looks: Vec<(Seat, Seat, Option<QuestionCard>)> = v0
        .looks
        .iter()
        .map(|l| (l.looker, l.looked_at, l.seen))
        .collect();
    assert_eq!(
        looks,
        vec![
            (Seat(0), Seat(3), Some(L)),
            (Seat(3), Seat(2), None),
            (Seat(2), Seat(1), None)
        ]
    );
    let v1 = view(&g, 1);
    assert!(
        v1.looks.iter().all(|l| l.seen.is_none()),
        "the last sees nothing"
    );
    let v2 = view(&g, 2);
    assert_eq!(v2.looks[2].seen, Some(L));
}

#[test]
fn only_the_last_on_mrs_truelight_takes_back_the_bids() {
    // "ただし、最下位のプレイヤーはミセス・トゥルーライトにかけた賭け金カードを全て手元に
    // 戻すことができます。その後、使われた賭け金カードは箱の中に戻します。"
    let mut g = new_game(3, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 9);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, Target::Truelight, 6);
    bid(&mut g, 1, Target::Truelight, 4);
    bid(&mut g, 2, Target::Truelight, 5);
    bid(&mut g, 2, Target::Truelight, 4);
    all_pass_info(&mut g);
    assert_eq!(ins(&g).players[0].paid, counts(&[9]));
    assert_eq!(ins(&g).players[1].paid, counts(&[6, 4]));
    assert_eq!(ins(&g).players[2].paid, counts(&[]), "the last takes back");
    assert_eq!(ins(&g).players[2].hand_n, 8);
    assert_eq!(view(&g, 0).seats[1].paid, vec![4, 6]);
}

#[test]
fn the_pile_winner_sees_the_unused_cards_and_pays_the_others_take_back() {
    // "最も高い額を賭けていたプレイヤーは、使用されていなかった「?カード」を見ることが
    // できます。そして、そのプレイヤーは賭け金カードを支払い、残りのプレイヤーは賭けた
    // 賭け金カード手元に戻します。"
    let mut g = new_game(5, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, T, L, L]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    bid(&mut g, 0, Target::Truelight, 4);
    bid(&mut g, 0, Target::Pile, 7);
    bid(&mut g, 1, Target::Truelight, 4);
    bid(&mut g, 1, Target::Pile, 8);
    bid(&mut g, 2, Target::Truelight, 4);
    bid(&mut g, 2, Target::Pile, 5);
    for s in 3..5 {
        bid(&mut g, s, Target::Truelight, 4);
        act(&mut g, s, Action::Done);
    }
    all_pass_info(&mut g);
    assert_eq!(ins(&g).pile_seer[0], Some(1));
    assert_eq!(ins(&g).players[1].paid[8], 1, "the winner pays");
    assert_eq!(ins(&g).players[0].hand[7], 1, "the others take back");
    assert_eq!(ins(&g).players[2].hand[5], 1);
    assert_eq!(
        view(&g, 1).pile[0].seen,
        Some(takuge_ghost_for_sale::PileCounts { truth: 2, lie: 3 })
    );
}

// ---------------------------------------------------------------- ④ properties

#[test]
fn properties_resolve_in_alphabetical_order_the_winner_pays_the_others_take_back() {
    // "館のオークションはアルファベット順に処理していきます(つまり最初はalgernon館から)
    // これまでのオークションと同様に処理を実行していき、最高額をかけたプレイヤーは
    // 賭け金を支払い、他のプレイヤーは賭け金を戻します。"
    let g = scenario_round_one();
    assert_eq!(ins(&g).owner[usize::from(ALGERNON)], Some(1));
    assert_eq!(ins(&g).owner[usize::from(CULZEAN)], Some(0));
    assert_eq!(ins(&g).owner[usize::from(EVERLEIGH)], Some(2));
    assert_eq!(ins(&g).players[0].paid, counts(&[4, 10]));
    assert_eq!(ins(&g).players[1].paid, counts(&[4, 5]));
    assert_eq!(
        ins(&g).players[2].paid,
        counts(&[6]),
        "its 9 on Culzean came back"
    );
    let v = view(&g, 2);
    let auction = &v.auctions[1];
    assert!(auction.revealed);
    assert!(auction.bids.iter().all(|b| b.value.is_some()));
}

#[test]
fn properties_nobody_bid_on_go_to_the_box() {
    // "賭け金カードが置かれなかった方は箱に戻してください。"
    let g = scenario_round_one();
    for p in [BLACKWOOD, DUNMORE, FAIRHOLME] {
        assert_eq!(ins(&g).owner[usize::from(p)], None);
        assert!(view(&g, 0).properties[usize::from(p)].boxed);
    }
    assert!(!view(&g, 0).properties[usize::from(ALGERNON)].boxed);
}

#[test]
fn properties_score_by_their_table_for_the_ghosts_seen() {
    // "館の価値は、実際に幽霊が目撃された数によって決まります。それぞれの館には、目撃
    // された幽霊の数によって固有の得点表が明示されています。"
    let g = scenario_round_one();
    let v = view(&g, 0);
    assert_eq!(v.properties[usize::from(EVERLEIGH)].ghosts, Some(2));
    assert_eq!(v.properties[usize::from(EVERLEIGH)].score, Some(2));
    assert_eq!(
        [v.seats[0].score, v.seats[1].score, v.seats[2].score],
        [4, 0, 2]
    );
}

// ---------------------------------------------------------------- round 2

#[test]
fn round_two_starts_with_the_owner_of_the_first_manor_bought() {
    // "2ラウンド目の最初のプレイヤーは、獲得された館をアルファベット順で並べたときに
    // 最初に来る館を獲得していたプレイヤーがなります(通常はalgernon)"
    let g = scenario_round_one();
    assert_eq!(g.round(), 2);
    assert_eq!(ins(&g).first[1], 1, "seat 1 bought Algernon");
    assert_eq!(view(&g, 0).first_player, Seat(1));
    // When Algernon is not bought, the next bought manor decides.
    let mut g = scenario_declared();
    bid(&mut g, 0, prop(DUNMORE), 5);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, prop(CULZEAN), 5);
    act(&mut g, 1, Action::Done);
    all_pass(&mut g);
    assert_eq!(ins(&g).first[1], 1);
    let mut g = GhostForSale::new(
        &Options {
            special_cards: false,
            first_player: Some(2),
        },
        3,
        5,
    )
    .unwrap();
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |_, _| (ALGERNON, Face::Ghost));
    minimal_info_auction(&mut g);
    all_pass(&mut g);
    assert_eq!(
        ins(&g).first[1],
        2,
        "no manor bought: the first player starts again"
    );
}

#[test]
fn round_two_hand_is_what_is_left_plus_the_set_aside_cards() {
    // "2ラウンド目で使用可能な賭け金カードは、1ラウンド目が終わってから残った賭け金
    // カードと、ゲーム開始時にキャラクターカードの下に入れていた賭け金カードを合わせた
    // ものになります。"
    let g = scenario_round_one();
    assert_eq!(
        view(&g, 0).me.unwrap().hand,
        vec![1, 2, 3, 3, 5, 6, 7, 8, 8, 9]
    );
    assert_eq!(
        view(&g, 2).me.unwrap().hand,
        vec![1, 2, 3, 3, 4, 5, 7, 8, 8, 9, 10]
    );
    assert!(view(&g, 0).me.unwrap().set_aside.is_empty());
}

#[test]
fn round_two_plays_like_round_one_with_the_castles() {
    // "城を館と同じように並べ、ミセス・トゥルーライトも1ラウンド目と同様に並べます。
    // 2ラウンド目は1ラウンド目と同様に進行していきます。"
    let mut g = scenario_round_one();
    assert_eq!(step(&g), Step::TruthOrLie);
    assert_eq!(g.to_move(), SeatSet::first(3));
    assert_eq!(ins(&g).players[0].tokens, [2, 2, 3], "the tokens come back");
    let v = view(&g, 0);
    assert_eq!(v.properties.len(), 12);
    assert!(v.properties[6..]
        .iter()
        .all(|p| p.kind == takuge_ghost_for_sale::PropertyKind::Castle && p.round == 2));
    choose(&mut g, &[L, T, T]);
    assert_eq!(turn(&g), 1, "the new first player declares first");
    declare(&mut g, |_, _| (0, Face::Ghost));
    minimal_info_auction(&mut g);
    assert_eq!(turn(&g), 1);
    bid(&mut g, 1, prop(0), 10);
    act(&mut g, 1, Action::Done);
    all_pass(&mut g);
    assert_eq!(step(&g), Step::GameOver);
    assert_eq!(ins(&g).owner[PER_ROUND], Some(1));
    assert_eq!(ins(&g).castles[1], 1);
    assert!(g.outcome().is_some());
}

#[test]
fn ties_go_to_fewer_castles_then_to_the_higher_hand_total() {
    // "得点計算をし、最も多くの得点を獲得したプレイヤーが勝利します。もしも同点だった
    // 場合は、獲得した城の数が少ないにもかかわらず、高得点を獲得しているプレイヤーが
    // 勝ちます。それでも同点だった場合、手札にある賭け金カードの合計が高い方が勝ちます。"
    let mut g = new_game(4, false);
    // Seat 0: two castles; seats 1 and 2: one each.
    let castles = [(6, 0), (7, 0), (8, 1), (9, 2)];
    testing::force_game_over(
        &mut g,
        &[5, 5, 5, 3],
        &castles,
        &[(1, counts(&[9])), (2, counts(&[3]))],
    );
    let o = g.outcome().unwrap();
    assert_eq!(o.scores, vec![5, 5, 5, 3]);
    assert_eq!(o.ranks, vec![3, 1, 2, 4]);
    testing::force_game_over(&mut g, &[5, 5, 5, 3], &castles, &[(2, counts(&[4, 5]))]);
    assert_eq!(g.outcome().unwrap().ranks, vec![3, 1, 1, 4], "still tied");
}

// ---------------------------------------------------------------- advanced variant

#[test]
fn special_cards_one_on_each_property_two_spare() {
    // "ゲーム開始時にスペシャルカードをよく切り、各館カードの上に1枚ずつ表にして配置
    // します。2枚のスペシャルカードが余りますが、これは2ラウンド目に使用します。"
    for seed in 0..20 {
        let g = GhostForSale::new(
            &Options {
                special_cards: true,
                first_player: None,
            },
            4,
            seed,
        )
        .unwrap();
        let v = g.view(Viewer::Spectator);
        let mut all: Vec<Special> = v.properties.iter().filter_map(|p| p.special).collect();
        assert_eq!(all.len(), 6);
        assert_eq!(v.spare_special_cards.len(), 2);
        all.extend(v.spare_special_cards.iter().copied());
        for s in Special::ALL {
            assert_eq!(all.iter().filter(|x| **x == s).count(), 1);
        }
    }
    let basic = new_game(4, false);
    assert!(ins(&basic).special.iter().all(Option::is_none));
}

#[test]
fn too_dark_allows_only_painting_faces() {
    // "「暗すぎる」宣言時に、この館(城)の上には「絵画」面が上になったトークンしか配置
    // できない(それが真実か嘘かは別として)"
    let mut g = special_game();
    choose(&mut g, &[T, T, T]);
    for token in [Token::Ghost, Token::DoubleGhost] {
        assert_eq!(
            refused(
                &g,
                0,
                Action::Declare {
                    property: FAIRHOLME,
                    token
                }
            ),
            ActionError::Illegal(Reject::FaceForbidden)
        );
    }
    let l = legal(&g, 0);
    assert!(l.contains(&Action::Declare {
        property: FAIRHOLME,
        token: Token::DoublePainting
    }));
    assert!(!l.contains(&Action::Declare {
        property: FAIRHOLME,
        token: Token::Ghost
    }));
    place(&mut g, FAIRHOLME, Face::Painting);
}

#[test]
fn ancient_legend_allows_only_ghost_faces() {
    // "「古来からの伝説」宣言時に、この館(城)の上には「幽霊」面が上になったトークン
    // しか配置できない(それが真実か嘘かは別として)"
    let mut layout = SPECIAL_LAYOUT;
    layout[usize::from(BLACKWOOD)] = Special::AncientLegend;
    let mut g = special_game_with(layout);

    choose(&mut g, &[T, T, T]);
    for token in [Token::Painting, Token::DoublePainting] {
        assert_eq!(
            refused(
                &g,
                0,
                Action::Declare {
                    property: BLACKWOOD,
                    token
                }
            ),
            ActionError::Illegal(Reject::FaceForbidden)
        );
    }
    place(&mut g, BLACKWOOD, Face::Ghost);
    // Lying does not lift it: a liar's ghost face still is a ghost face.
    assert_eq!(ins(&g).decl[usize::from(BLACKWOOD)][0], [1, 0]);
}

#[test]
fn open_auction_bids_are_face_up() {
    // "「公開オークション」この館(城)にかけられる賭け金カードは、表向きで置かれる。"
    let g = special_scenario_auction();
    for s in [0, 2] {
        let v = view(&g, s);
        let bids = &v.auctions[1].bids;
        let everleigh = bids.iter().find(|b| b.target == prop(EVERLEIGH)).unwrap();
        assert_eq!(everleigh.value, Some(7), "everyone sees it");
        let culzean = bids.iter().find(|b| b.target == prop(CULZEAN)).unwrap();
        assert_eq!(culzean.value, None, "other properties stay face down");
    }
}

#[test]
fn magic_mirror_lets_the_buyer_remove_a_ghost_token() {
    // "「魔法の鏡」この館(城)が競り落とされ、かつ誰かの「?カード」も公開されていない時、
    // 競り落としたプレイヤーはこの館(城)の上に置かれている「幽霊」トークンを1つ選び、
    // 取り除いても良い。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    assert_eq!(step(&g), special_step(ALGERNON));
    assert_eq!(g.to_move(), SeatSet::single(Seat(0)));
    assert_eq!(
        legal(&g, 0),
        vec![Action::Decline, Action::RemoveGhost { owner: Seat(0) }]
    );
    assert_eq!(
        refused(&g, 0, Action::RemoveGhost { owner: Seat(1) }),
        ActionError::Illegal(Reject::NoGhostToken)
    );
    // "誰かの「?カード」も公開されていない": the cards are still hidden now.
    assert!(view(&g, 1).seats[0].revealed_cards.is_empty());
    act(&mut g, 0, Action::RemoveGhost { owner: Seat(0) });
    assert_eq!(
        ins(&g).decl[usize::from(ALGERNON)][0][0],
        1,
        "one ghost face left"
    );
    assert_eq!(view(&g, 2).properties[0].mirror_removed, Some(Seat(0)));
}

#[test]
fn secret_crypt_lets_the_buyer_add_a_ghost() {
    // "「秘密の墓所」この館(城)が競り落とされ、かつ誰かの「?カード」も公開されていない時、
    // 競り落としたプレイヤーはこの館(城)に「幽霊」トークンを1つ追加することを選んでも良い。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    act(&mut g, 0, Action::Decline);
    assert_eq!(step(&g), special_step(BLACKWOOD));
    assert_eq!(turn(&g), 2);
    assert_eq!(legal(&g, 2), vec![Action::AddGhost, Action::Decline]);
    act(&mut g, 2, Action::AddGhost);
    act(&mut g, 1, Action::Guess { ghosts: 2 });
    // Round 1 over: Blackwood has its 2 declared ghosts and the crypt's.
    assert_eq!(ins(&g).ghosts[usize::from(BLACKWOOD)], Some(3));
    assert_eq!(ins(&g).property_points[usize::from(BLACKWOOD)], Some(4));
    assert_eq!(
        ins(&g).ghosts[usize::from(ALGERNON)],
        Some(2),
        "the mirror was declined"
    );
}

#[test]
fn crystal_ball_right_guess_is_worth_two_points() {
    // "「水晶玉」この館(城)が競り落とされ、かつ誰かの「?カード」も公開されていない時、
    // 競り落としたプレイヤーはこの館(城)に実際にいる「幽霊」の数を予想する。それが正解
    // だった場合、そのプレイヤーはこの「水晶玉」カードを自分の手元に置く。これは2点として
    // 扱う。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    act(&mut g, 0, Action::Decline);
    act(&mut g, 2, Action::Decline);
    assert_eq!(step(&g), special_step(CULZEAN));
    assert_eq!(
        legal(&g, 1),
        vec![
            Action::Guess { ghosts: 0 },
            Action::Guess { ghosts: 1 },
            Action::Guess { ghosts: 2 }
        ]
    );
    let mut wrong = g.clone();
    act(&mut g, 1, Action::Guess { ghosts: 2 });
    assert_eq!(ins(&g).crystal_owner, Some(1));
    assert_eq!(
        ins(&g).score[1],
        3 + 2,
        "Culzean with 2 ghosts, and the ball"
    );
    assert!(view(&g, 0).seats[1].crystal_ball);
    act(&mut wrong, 1, Action::Guess { ghosts: 1 });
    assert_eq!(ins(&wrong).crystal_owner, None);
    assert_eq!(ins(&wrong).score[1], 3);
}

#[test]
fn family_portrait_scores_a_point_per_zero_point_property() {
    // "「家族の肖像画」この館(城)を競り落としたプレイヤーは、一緒にこのカードも獲得する。
    // 最後の得点計算時に、このカードを持っているプレイヤーは、獲得した0点の館(城) 1つに
    // つき1点を獲得する。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    assert_eq!(ins(&g).portrait_owner, Some(0));
    act(&mut g, 0, Action::Decline);
    act(&mut g, 2, Action::Decline);
    act(&mut g, 1, Action::Guess { ghosts: 2 });
    // Seat 0: Algernon (2 ghosts: 3 points) and Dunmore (0 ghosts: 0 points).
    assert_eq!(
        ins(&g).score[0],
        3,
        "the portrait counts at the final scoring only"
    );
    play_out_round_two_without_bids(&mut g);
    assert_eq!(step(&g), Step::GameOver);
    assert_eq!(ins(&g).scores[0], 3 + 1);
    assert_eq!(ins(&g).scores[1], 3 + 2);
    assert_eq!(
        ins(&g).scores[2],
        2,
        "Blackwood, its crypt declined: 2 ghosts"
    );
}

#[test]
fn crystal_ball_and_family_portrait_do_not_return_for_round_two() {
    // "2ラウンド目は、1ラウンド目で使用しなかったスペシャルカードも混ぜてよく切り、同様に
    // 城の上に置いていきます。「水晶球」「家族の肖像画」はプレイヤーが獲得するものなので、
    // 獲得された場合はこの中には戻しません。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    act(&mut g, 0, Action::RemoveGhost { owner: Seat(0) });
    act(&mut g, 2, Action::AddGhost);
    act(&mut g, 1, Action::Guess { ghosts: 2 });
    assert_eq!(g.round(), 2);
    let mut castles: Vec<Special> = ins(&g).special[6..].iter().map(|s| s.unwrap()).collect();
    castles.sort_by_key(|s| Special::ALL.iter().position(|x| x == s));
    assert_eq!(
        castles,
        vec![
            Special::TooDark,
            Special::AncientLegend,
            Special::OpenAuction,
            Special::MagicMirror,
            Special::SecretCrypt,
            Special::PerfectlyNormal
        ],
        "the used mirror and crypt come back; the ball and the portrait do not"
    );
    assert!(g.view(Viewer::Spectator).spare_special_cards.is_empty());
    // A wrong guess leaves the ball unclaimed: it returns.
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    act(&mut g, 0, Action::Decline);
    act(&mut g, 2, Action::Decline);
    act(&mut g, 1, Action::Guess { ghosts: 0 });
    let on_castle = ins(&g).special[6..].contains(&Some(Special::CrystalBall));
    let spare = g
        .view(Viewer::Spectator)
        .spare_special_cards
        .contains(&Special::CrystalBall);
    assert!(on_castle || spare);
}

#[test]
fn magic_mirror_without_ghost_tokens_asks_nothing() {
    // "「幽霊」トークンを1つ選び、取り除いても良い": with none there is no choice.
    let mut g = special_game();
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |s, k| match (s, k) {
        (_, 0..=1) => (CULZEAN, Face::Ghost),
        _ => (FAIRHOLME, Face::Painting),
    });
    minimal_info_auction(&mut g);
    bid(&mut g, 0, prop(ALGERNON), 5);
    act(&mut g, 0, Action::Done);
    all_pass(&mut g);
    assert_eq!(g.round(), 2, "nothing to decide: the round ended");
    assert_eq!(ins(&g).owner[usize::from(ALGERNON)], Some(0));
}

#[test]
fn perfectly_normal_changes_nothing() {
    // "「全く以て普通」通常通り、普通の館(城)として扱う。"
    let mut layout = SPECIAL_LAYOUT;
    layout[usize::from(FAIRHOLME)] = Special::PerfectlyNormal;
    let mut g = special_game_with(layout);

    choose(&mut g, &[T, T, T]);
    let l = legal(&g, 0);
    for token in Token::ALL {
        assert!(l.contains(&Action::Declare {
            property: FAIRHOLME,
            token
        }));
    }
}

// ---------------------------------------------------------------- data and bots

#[test]
fn data_file_is_valid() {
    let d = data::parse(data::PROPERTIES_TOML).expect("the shipped data file is valid");
    assert_eq!(d.properties.len(), 12);
    assert_eq!(d.properties[0].name, "Algernon");
    assert_eq!(d.properties[2].name, "Culzean");
    assert_eq!(d.properties[2].points, [0, 1, 3, 4, 0]);
    let g = new_game(3, false);
    assert_eq!(mark(&g, 1), Mark::High);
    assert_eq!(mark(&g, 10), Mark::Low);
    let highs = FULL_SET
        .iter()
        .enumerate()
        .filter(|(v, _)| mark(&g, *v as u8) == Mark::High)
        .map(|(_, c)| *c)
        .sum::<u8>();
    assert_eq!(highs, 6, "the research note's six/six split");
}

#[test]
fn data_validation_rejects_what_the_text_forbids() {
    let bad_peak = data::PROPERTIES_TOML.replace("[0, 2, 3, 2, 1]", "[0, 2, 1, 2, 1]");
    assert!(data::parse(&bad_peak).unwrap_err().contains("rises again"));
    let bad_zero = data::PROPERTIES_TOML.replace("[0, 2, 3, 2, 1]", "[1, 2, 3, 2, 1]");
    assert!(data::parse(&bad_zero).is_err());
    let bad_culzean = data::PROPERTIES_TOML.replace("[0, 1, 3, 4, 0]", "[0, 1, 3, 4, 1]");
    assert!(data::parse(&bad_culzean).unwrap_err().contains("Culzean"));
    let bad_marks = data::PROPERTIES_TOML.replace("high = [1, 6, 7, 8, 9]", "high = [6, 7, 8, 9]");
    assert!(data::parse(&bad_marks).is_err());
    let swapped = data::PROPERTIES_TOML.replace("Blackwood", "Zennor");
    assert!(data::parse(&swapped).unwrap_err().contains("alphabetical"));
}

#[test]
fn bots_play_complete_games() {
    let mut rng = GameRng::from_seed(99);
    for (name, factory) in takuge_ghost_for_sale::bots() {
        for players in 3..=5 {
            for special in [false, true] {
                let options = Options {
                    special_cards: special,
                    first_player: None,
                };
                let mut g = GhostForSale::new(&options, players, rng.next_u64()).unwrap();
                let mut bots: Vec<Box<dyn Bot<GhostForSale>>> =
                    (0..players).map(|_| factory()).collect();
                if name == "monte-carlo" {
                    // Full strength is slow for a test; a handful of iterations still
                    // exercises it.
                    bots = (0..players)
                        .map(|_| {
                            Box::new(takuge_engine::MonteCarloBot::<GhostForSale>::new(8))
                                as Box<dyn Bot<GhostForSale>>
                        })
                        .collect();
                }
                let mut steps = 0;
                while let Some(seat) = g.to_move().first_seat() {
                    let world = Determinized::sample(&g, seat, &mut rng);
                    let a = bots[seat.index()]
                        .choose(&world, &mut rng)
                        .unwrap_or_else(|| panic!("{name} has no move"));
                    g.apply(seat, &a)
                        .unwrap_or_else(|e| panic!("{name} played {a:?}: {e}"));
                    steps += 1;
                    assert!(steps < 5_000);
                }
                assert!(g.outcome().is_some());
            }
        }
    }
}

#[test]
fn the_appraiser_beats_random_players() {
    let mut rng = GameRng::from_seed(2024);
    let mut wins = 0;
    let games = 40;
    for i in 0..games {
        let mut g = GhostForSale::new(&Options::default(), 4, i).unwrap();
        let mut appraiser = takuge_ghost_for_sale::Appraiser::default();
        let mut random = takuge_engine::RandomBot::<GhostForSale>::boxed();
        while let Some(seat) = g.to_move().first_seat() {
            let world = Determinized::sample(&g, seat, &mut rng);
            let a = if seat.0 == 0 {
                appraiser.choose(&world, &mut rng)
            } else {
                random.choose(&world, &mut rng)
            }
            .unwrap();
            g.apply(seat, &a).unwrap();
        }
        wins += usize::from(g.outcome().unwrap().ranks[0] == 1);
    }
    assert!(
        wins * 4 > games as usize * 2,
        "appraiser won {wins} of {games}"
    );
}

#[test]
fn views_serialize_and_name_the_step() {
    let g = special_scenario_auction();
    let v = view(&g, 0);
    assert_eq!(v.step, Step::PropertyAuction);
    let json = serde_json::to_string(&v).unwrap();
    assert!(json.contains("\"Algernon\""));
    assert!(json.contains("magic_mirror"));
}
