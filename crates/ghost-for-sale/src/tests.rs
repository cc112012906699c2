//! Scenario tests, one per rule, each quoting the Japanese rule it checks.

// Card counts are indexed by card value; ranges over values read best here.
#![allow(clippy::needless_range_loop)]

use crate::data::{self, PER_ROUND};
use crate::state::{AuctionKind, GhostForSale, Phase, FULL_SET, GHOST};
use crate::{Action, Face, Mark, Options, QuestionCard, Reject, Special, Step, Target, Token};
use takuge_engine::{ActionError, Bot, Determinized, Game, GameRng, Seat, SeatSet, Viewer};

const T: QuestionCard = QuestionCard::Truth;
const L: QuestionCard = QuestionCard::Lie;

// Manors in alphabetical order (data/properties.toml).
const ALGERNON: u8 = 0;
const BLACKWOOD: u8 = 1;
const CULZEAN: u8 = 2;
const DUNMORE: u8 = 3;
const EVERLEIGH: u8 = 4;
const FAIRHOLME: u8 = 5;

fn new_game(players: usize, special: bool) -> GhostForSale {
    GhostForSale::new(
        &Options {
            special_cards: special,
            first_player: Some(0),
        },
        players,
        42,
    )
    .expect("setup")
}

fn act(g: &mut GhostForSale, seat: u8, action: Action) {
    if let Err(e) = g.apply(Seat(seat), &action) {
        panic!(
            "{action:?} of seat {seat} refused: {e} (phase {:?})",
            g.phase
        );
    }
}

fn refused(g: &GhostForSale, seat: u8, action: Action) -> ActionError<Reject> {
    let mut probe = g.clone();
    let err = probe
        .apply(Seat(seat), &action)
        .expect_err("the action should be refused");
    assert_eq!(&probe, g, "a refused action changed the state");
    err
}

fn legal(g: &GhostForSale, seat: u8) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(Seat(seat), &mut out);
    out
}

fn turn(g: &GhostForSale) -> u8 {
    let pending = g.to_move();
    assert_eq!(pending.len(), 1, "one seat to move, not {pending:?}");
    pending.first_seat().map(|s| s.0).unwrap_or(0)
}

fn set_aside(g: &mut GhostForSale, values: [u8; 4]) {
    for s in 0..g.n() as u8 {
        for v in values {
            act(g, s, Action::SetAside { value: v });
        }
    }
}

fn choose(g: &mut GhostForSale, cards: &[QuestionCard]) {
    for (s, &card) in cards.iter().enumerate() {
        act(g, s as u8, Action::Choose { card });
    }
}

/// The current seat places one token with `face` up on `property`: a single-faced
/// token if it has one left, else a double-faced one.
fn place(g: &mut GhostForSale, property: u8, face: Face) {
    let s = turn(g);
    let tokens = g.players[usize::from(s)].tokens;
    // The wanted face if any token can show it, else the other one.
    let token = match face {
        Face::Ghost if tokens[0] > 0 => Token::Ghost,
        Face::Ghost if tokens[2] > 0 => Token::DoubleGhost,
        Face::Painting if tokens[1] > 0 => Token::Painting,
        Face::Painting if tokens[2] > 0 => Token::DoublePainting,
        _ if tokens[0] > 0 => Token::Ghost,
        _ => Token::Painting,
    };
    act(g, s, Action::Declare { property, token });
}

/// Plays all declarations; `plan(seat, k)` says where the seat's k-th token goes.
fn declare(g: &mut GhostForSale, plan: impl Fn(u8, usize) -> (u8, Face)) {
    let mut placed = [0usize; 5];
    while g.phase == Phase::Declare {
        let s = turn(g);
        let (property, face) = plan(s, placed[usize::from(s)]);
        placed[usize::from(s)] += 1;
        place(g, property, face);
    }
}

/// Every seat bids its smallest card on Mrs. Truelight, then everyone passes.
fn minimal_info_auction(g: &mut GhostForSale) {
    while g.phase == Phase::Auction(AuctionKind::Info) {
        let s = turn(g);
        let p = g.players[usize::from(s)];
        if p.on_truelight {
            act(g, s, Action::Pass);
        } else {
            let v = (1..=10u8).find(|&v| p.hand[usize::from(v)] > 0).unwrap();
            bid(g, s, Target::Truelight, v);
            if g.placed == 1 {
                act(g, s, Action::Done);
            }
        }
    }
}

fn bid(g: &mut GhostForSale, seat: u8, target: Target, value: u8) {
    assert_eq!(turn(g), seat, "whose turn");
    act(g, seat, Action::Bid { target });
    act(g, seat, Action::Play { value });
}

fn prop(i: u8) -> Target {
    Target::Property(i)
}

/// Everyone still in the property auction passes.
fn all_pass(g: &mut GhostForSale) {
    while let Phase::Auction(_) = g.phase {
        let s = turn(g);
        if g.placed == 1 {
            act(g, s, Action::Done);
        } else {
            act(g, s, Action::Pass);
        }
    }
}

fn counts(values: &[u8]) -> [u8; 11] {
    let mut c = [0u8; 11];
    for &v in values {
        c[usize::from(v)] += 1;
    }
    c
}

fn view(g: &GhostForSale, seat: u8) -> crate::View {
    g.view(Viewer::Seat(Seat(seat)))
}

/// The scenario most round-1 tests share (3 players, seat 0 first, all set aside
/// 1,2,3,3). Seat 1 lies. Declarations: seat 0 ghosts on Culzean, paintings on Dunmore;
/// seat 1 ghost faces on Algernon, one painting on Culzean, one on Blackwood; seat 2
/// ghosts on Everleigh, paintings on Fairholme. Everyone bids a 4 on Mrs. Truelight.
fn scenario_declared() -> GhostForSale {
    let mut g = new_game(3, false);
    set_aside(&mut g, [1, 2, 3, 3]);
    choose(&mut g, &[T, L, T]);
    declare(&mut g, |s, k| match (s, k) {
        (0, 0..=1) => (CULZEAN, Face::Ghost),
        (0, _) => (DUNMORE, Face::Painting),
        (1, 0..=1) => (ALGERNON, Face::Ghost),
        (1, 2) => (CULZEAN, Face::Painting),
        (1, 3) => (BLACKWOOD, Face::Painting),
        (1, _) => (ALGERNON, Face::Ghost),
        (_, 0..=1) => (EVERLEIGH, Face::Ghost),
        _ => (FAIRHOLME, Face::Painting),
    });
    minimal_info_auction(&mut g);
    g
}

/// `scenario_declared`, then: seat 0 bids 10 on Culzean; seat 1 bids 5 on Algernon;
/// seat 2 bids 6 on Everleigh and 9 on Culzean; all pass. Round 1 ends.
fn scenario_round_one() -> GhostForSale {
    let mut g = scenario_declared();
    assert_eq!(g.phase, Phase::Auction(AuctionKind::Property));
    bid(&mut g, 0, prop(CULZEAN), 10);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, prop(ALGERNON), 5);
    act(&mut g, 1, Action::Done);
    bid(&mut g, 2, prop(EVERLEIGH), 6);
    bid(&mut g, 2, prop(CULZEAN), 9);
    all_pass(&mut g);
    g
}

// ---------------------------------------------------------------- setup

#[test]
fn double_faced_tokens_depend_on_player_count() {
    // "3人プレイの場合:両面の宣言トークンを各3個ずつ使用します / 4人プレイの場合:
    // 両面の宣言トークンを各2個ずつ / 5人プレイの場合:両面の宣言トークンを各1個ずつ"
    // "宣言トークンの内訳は全て幽霊2個、絵画2個、両面3個".
    for (players, double) in [(3, 3), (4, 2), (5, 1)] {
        let g = new_game(players, false);
        for s in 0..players {
            assert_eq!(g.players[s].tokens, [2, 2, double]);
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
    assert_eq!(g.phase, Phase::Choose);
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
        .all(|p| p.kind == crate::PropertyKind::Manor));
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
    while g.phase == Phase::Declare {
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
        seen[usize::from(g.first[0])] = true;
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
    other.card[0][2] = Some(T);
    assert_eq!(view(&g, 0), view(&other, 0));
    assert_eq!(g.view(Viewer::Spectator), other.view(Viewer::Spectator));
}

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
        Some(crate::PileCounts { truth: 2, lie: 2 })
    );
    for s in [0, 1, 3] {
        assert_eq!(
            view(&g, s).pile[0].seen,
            None,
            "only the winner sees the pile"
        );
    }
}

fn all_pass_info(g: &mut GhostForSale) {
    while g.phase == Phase::Auction(AuctionKind::Info) {
        let s = turn(g);
        act(g, s, Action::Pass);
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
    assert_eq!(g.tokens_on(usize::from(CULZEAN)), 25);
    assert_eq!(g.phase, Phase::Auction(AuctionKind::Info));
}

#[test]
fn a_double_faced_token_counts_as_the_face_it_was_placed_on() {
    // "両面のトークンを置く場合は、どちらのトークンを上にしておいてもかまいません。一度
    // 置かれた宣言トークンは、上にした面の宣言トークンとしてみなされます。"
    let mut g = scenario_declared();
    // Seat 0 placed its three double-faced tokens painting up on Dunmore.
    assert_eq!(g.players[0].tokens, [0, 0, 0]);
    assert_eq!(g.decl[usize::from(DUNMORE)][0], [0, 5]);
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
    assert_eq!(g.ghosts[usize::from(DUNMORE)], Some(0));
}

#[test]
fn a_lie_card_reverses_every_declaration() {
    // "「嘘」カードを選択したプレイヤーの置いた宣言トークンはすべて逆の結果となります
    // (「絵画」が置かれた館で実際には幽霊を見て「幽霊」が置かれた館で実際には幽霊を
    // 見なかったことになります)"
    let g = scenario_round_one();
    let ghosts = |p: u8| g.ghosts[usize::from(p)];
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
    assert_eq!(g.points[c], [0, 1, 3, 4, 0]);
    assert_eq!(g.property_points(c), Some(4));
    assert_eq!(g.owner[c], Some(0));
    assert_eq!(g.score(0), 4);
    let mut h = g.clone();
    for (ghosts, points) in [(0, 0), (1, 1), (2, 3), (3, 4), (4, 0), (5, 0), (9, 0)] {
        h.ghosts[c] = Some(ghosts);
        assert_eq!(h.property_points(c), Some(points));
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
    assert_eq!(g.ghosts[usize::from(ALGERNON)], Some(5));
    assert_eq!(
        g.points[usize::from(ALGERNON)][4],
        1,
        "4 ghosts would score"
    );
    assert_eq!(g.property_points(usize::from(ALGERNON)), Some(0));
    assert_eq!(g.ghosts[usize::from(DUNMORE)], Some(0));
    assert_eq!(g.property_points(usize::from(DUNMORE)), Some(0));
    assert_eq!(g.ghosts[usize::from(BLACKWOOD)], Some(4));
    assert_eq!(g.score(0), 0);
    assert_eq!(g.score(1), 0);
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
    assert_eq!(g.pile_seer[0], None);
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
    assert_ne!(g.phase, Phase::Auction(AuctionKind::Property));
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
    assert_eq!(g.phase, Phase::Auction(AuctionKind::Property));
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
    while g.players[1].hand_n + g.players[2].hand_n > 0 {
        let s = turn(&g);
        if s == 0 {
            let v = singles.next().unwrap();
            bid(&mut g, 0, Target::Truelight, v);
            act(&mut g, 0, Action::Done);
        } else {
            let p = g.players[usize::from(s)];
            let v = (1..=10u8).find(|&v| p.hand[usize::from(v)] > 0).unwrap();
            bid(&mut g, s, Target::Truelight, v);
        }
    }
    assert_eq!(g.players[0].hand_n, 4);
    assert_eq!(turn(&g), 0);
    let v = view(&g, 1);
    assert!(v.turn.unwrap().last_card, "the last-player rule is public");
    bid(&mut g, 0, Target::Truelight, 8);
    assert_eq!(
        g.phase,
        Phase::Auction(AuctionKind::Property),
        "one card, and the auction is over"
    );
    assert_eq!(g.auctions[0].bids().len(), 4 + 8 + 8 + 1);
    // Seats 1 and 2 outbid seat 0 and lose their cards to the box; seat 0, Mrs.
    // Truelight's last, takes its five back.
    assert_eq!(g.players[0].hand_n, 8);
    assert_eq!(g.players[1].hand_n + g.players[2].hand_n, 0);
    // "賭け金カードを持っているのが誰か1人のプレイヤーのみになった際オークションは終了
    // します": the property auction opens with only seat 0 holding cards, so it may
    // play one card and no more.
    assert!(view(&g, 2).turn.unwrap().last_card);
    bid(&mut g, 0, prop(ALGERNON), 4);
    assert_eq!(g.round(), 2);
    assert_eq!(g.owner[usize::from(ALGERNON)], Some(0));
    assert_eq!(g.players[0].paid[4], 1);
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
    assert_eq!(&g.chain[0][..4], &[1, 2, 0, 3]);

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
    assert_eq!(&g.chain[0][..3], &[1, 0, 2]);
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
    assert_eq!(g.looks[0], [Some(3), None, Some(1), Some(2), None]);
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
    assert_eq!(g.players[0].paid, counts(&[9]));
    assert_eq!(g.players[1].paid, counts(&[6, 4]));
    assert_eq!(g.players[2].paid, counts(&[]), "the last takes back");
    assert_eq!(g.players[2].hand_n, 8);
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
    assert_eq!(g.pile_seer[0], Some(1));
    assert_eq!(g.players[1].paid[8], 1, "the winner pays");
    assert_eq!(g.players[0].hand[7], 1, "the others take back");
    assert_eq!(g.players[2].hand[5], 1);
    assert_eq!(
        view(&g, 1).pile[0].seen,
        Some(crate::PileCounts { truth: 2, lie: 3 })
    );
}

// ---------------------------------------------------------------- ④ properties

#[test]
fn properties_resolve_in_alphabetical_order_the_winner_pays_the_others_take_back() {
    // "館のオークションはアルファベット順に処理していきます(つまり最初はalgernon館から)
    // これまでのオークションと同様に処理を実行していき、最高額をかけたプレイヤーは
    // 賭け金を支払い、他のプレイヤーは賭け金を戻します。"
    let g = scenario_round_one();
    assert_eq!(g.owner[usize::from(ALGERNON)], Some(1));
    assert_eq!(g.owner[usize::from(CULZEAN)], Some(0));
    assert_eq!(g.owner[usize::from(EVERLEIGH)], Some(2));
    assert_eq!(g.players[0].paid, counts(&[4, 10]));
    assert_eq!(g.players[1].paid, counts(&[4, 5]));
    assert_eq!(
        g.players[2].paid,
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
        assert_eq!(g.owner[usize::from(p)], None);
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
    assert_eq!(g.first[1], 1, "seat 1 bought Algernon");
    assert_eq!(view(&g, 0).first_player, Seat(1));
    // When Algernon is not bought, the next bought manor decides.
    let mut g = scenario_declared();
    bid(&mut g, 0, prop(DUNMORE), 5);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, prop(CULZEAN), 5);
    act(&mut g, 1, Action::Done);
    all_pass(&mut g);
    assert_eq!(g.first[1], 1);
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
        g.first[1], 2,
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
    assert_eq!(g.phase, Phase::Choose);
    assert_eq!(g.to_move(), SeatSet::first(3));
    assert_eq!(g.players[0].tokens, [2, 2, 3], "the tokens come back");
    let v = view(&g, 0);
    assert_eq!(v.properties.len(), 12);
    assert!(v.properties[6..]
        .iter()
        .all(|p| p.kind == crate::PropertyKind::Castle && p.round == 2));
    choose(&mut g, &[L, T, T]);
    assert_eq!(turn(&g), 1, "the new first player declares first");
    declare(&mut g, |_, _| (0, Face::Ghost));
    minimal_info_auction(&mut g);
    assert_eq!(turn(&g), 1);
    bid(&mut g, 1, prop(0), 10);
    act(&mut g, 1, Action::Done);
    all_pass(&mut g);
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(g.owner[PER_ROUND], Some(1));
    assert_eq!(g.castles(1), 1);
    assert!(g.outcome().is_some());
}

#[test]
fn ties_go_to_fewer_castles_then_to_the_higher_hand_total() {
    // "得点計算をし、最も多くの得点を獲得したプレイヤーが勝利します。もしも同点だった
    // 場合は、獲得した城の数が少ないにもかかわらず、高得点を獲得しているプレイヤーが
    // 勝ちます。それでも同点だった場合、手札にある賭け金カードの合計が高い方が勝ちます。"
    let mut g = new_game(4, false);
    g.phase = Phase::Over;
    g.scores = [5, 5, 5, 3, 0];
    g.owner[6] = Some(0); // seat 0: one castle
    g.owner[7] = Some(0); // seat 0: two castles
    g.owner[8] = Some(1); // seat 1: one castle
    g.owner[9] = Some(2); // seat 2: one castle
    g.players[1].hand = counts(&[9]);
    g.players[2].hand = counts(&[3]);
    let o = g.outcome().unwrap();
    assert_eq!(o.scores, vec![5, 5, 5, 3]);
    assert_eq!(o.ranks, vec![3, 1, 2, 4]);
    g.players[2].hand = counts(&[4, 5]);
    assert_eq!(g.outcome().unwrap().ranks, vec![3, 1, 1, 4], "still tied");
}

// ---------------------------------------------------------------- advanced variant

/// A 3-player advanced game with a fixed layout: Algernon Magic mirror, Blackwood
/// Secret crypt, Culzean Crystal ball, Dunmore Family portrait, Everleigh Open
/// auction, Fairholme Too dark; Ancient legend and Perfectly normal spare.
fn special_game() -> GhostForSale {
    let mut g = new_game(3, true);
    let layout = [
        Special::MagicMirror,
        Special::SecretCrypt,
        Special::CrystalBall,
        Special::FamilyPortrait,
        Special::OpenAuction,
        Special::TooDark,
    ];
    for (i, s) in layout.into_iter().enumerate() {
        g.special[i] = Some(s);
    }
    g.spare[0] = 1 << Special::AncientLegend.index() | 1 << Special::PerfectlyNormal.index();
    g.refresh_restrictions();
    set_aside(&mut g, [1, 2, 3, 3]);
    g
}

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
    assert!(basic.special.iter().all(Option::is_none));
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
    let mut g = special_game();
    g.special[usize::from(BLACKWOOD)] = Some(Special::AncientLegend);
    g.refresh_restrictions();
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
    assert_eq!(g.decl[usize::from(BLACKWOOD)][0], [1, 0]);
}

/// The advanced scenario: all tell the truth. Seat 0 ghosts on Algernon, seat 1 on
/// Culzean, seat 2 on Blackwood; all paintings on Fairholme (Too dark). Seat 0 buys
/// Algernon (mirror) and Dunmore (portrait), seat 1 Culzean (crystal ball) and
/// Everleigh (open auction), seat 2 Blackwood (crypt).
fn special_scenario_auction() -> GhostForSale {
    let mut g = special_game();
    choose(&mut g, &[T, T, T]);
    declare(&mut g, |s, k| match (s, k) {
        (0, 0..=1) => (ALGERNON, Face::Ghost),
        (1, 0..=1) => (CULZEAN, Face::Ghost),
        (2, 0..=1) => (BLACKWOOD, Face::Ghost),
        _ => (FAIRHOLME, Face::Painting),
    });
    minimal_info_auction(&mut g);
    bid(&mut g, 0, prop(ALGERNON), 5);
    bid(&mut g, 0, prop(DUNMORE), 6);
    bid(&mut g, 1, prop(CULZEAN), 5);
    bid(&mut g, 1, prop(EVERLEIGH), 7);
    bid(&mut g, 2, prop(BLACKWOOD), 9);
    act(&mut g, 2, Action::Done);
    g
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
    assert_eq!(g.phase, Phase::Special(ALGERNON));
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
    assert_eq!(g.decl[usize::from(ALGERNON)][0][GHOST], 1);
    assert_eq!(view(&g, 2).properties[0].mirror_removed, Some(Seat(0)));
}

#[test]
fn secret_crypt_lets_the_buyer_add_a_ghost() {
    // "「秘密の墓所」この館(城)が競り落とされ、かつ誰かの「?カード」も公開されていない時、
    // 競り落としたプレイヤーはこの館(城)に「幽霊」トークンを1つ追加することを選んでも良い。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    act(&mut g, 0, Action::Decline);
    assert_eq!(g.phase, Phase::Special(BLACKWOOD));
    assert_eq!(turn(&g), 2);
    assert_eq!(legal(&g, 2), vec![Action::AddGhost, Action::Decline]);
    act(&mut g, 2, Action::AddGhost);
    act(&mut g, 1, Action::Guess { ghosts: 2 });
    // Round 1 over: Blackwood has its 2 declared ghosts and the crypt's.
    assert_eq!(g.ghosts[usize::from(BLACKWOOD)], Some(3));
    assert_eq!(g.property_points(usize::from(BLACKWOOD)), Some(4));
    assert_eq!(
        g.ghosts[usize::from(ALGERNON)],
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
    assert_eq!(g.phase, Phase::Special(CULZEAN));
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
    assert_eq!(g.crystal_owner, Some(1));
    assert_eq!(g.score(1), 3 + 2, "Culzean with 2 ghosts, and the ball");
    assert!(view(&g, 0).seats[1].crystal_ball);
    act(&mut wrong, 1, Action::Guess { ghosts: 1 });
    assert_eq!(wrong.crystal_owner, None);
    assert_eq!(wrong.score(1), 3);
}

#[test]
fn family_portrait_scores_a_point_per_zero_point_property() {
    // "「家族の肖像画」この館(城)を競り落としたプレイヤーは、一緒にこのカードも獲得する。
    // 最後の得点計算時に、このカードを持っているプレイヤーは、獲得した0点の館(城) 1つに
    // つき1点を獲得する。"
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    assert_eq!(g.portrait_owner, Some(0));
    act(&mut g, 0, Action::Decline);
    act(&mut g, 2, Action::Decline);
    act(&mut g, 1, Action::Guess { ghosts: 2 });
    // Seat 0: Algernon (2 ghosts: 3 points) and Dunmore (0 ghosts: 0 points).
    assert_eq!(
        g.score(0),
        3,
        "the portrait counts at the final scoring only"
    );
    play_out_round_two_without_bids(&mut g);
    assert_eq!(g.phase, Phase::Over);
    assert_eq!(g.scores[0], 3 + 1);
    assert_eq!(g.scores[1], 3 + 2);
    assert_eq!(g.scores[2], 2, "Blackwood, its crypt declined: 2 ghosts");
}

fn play_out_round_two_without_bids(g: &mut GhostForSale) {
    choose(g, &[T, T, T]);
    while g.phase == Phase::Declare {
        let s = turn(g);
        let first = legal(g, s)[0];
        act(g, s, first);
    }
    minimal_info_auction(g);
    all_pass(g);
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
    let mut castles: Vec<Special> = g.special[6..].iter().map(|s| s.unwrap()).collect();
    castles.sort_by_key(|s| s.index());
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
    assert_eq!(g.spare[1], 0);
    // A wrong guess leaves the ball unclaimed: it returns.
    let mut g = special_scenario_auction();
    all_pass(&mut g);
    act(&mut g, 0, Action::Decline);
    act(&mut g, 2, Action::Decline);
    act(&mut g, 1, Action::Guess { ghosts: 0 });
    let on_castle = g.special[6..].contains(&Some(Special::CrystalBall));
    let spare = g.spare[1] & (1 << Special::CrystalBall.index()) != 0;
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
    assert_eq!(g.owner[usize::from(ALGERNON)], Some(0));
}

#[test]
fn perfectly_normal_changes_nothing() {
    // "「全く以て普通」通常通り、普通の館(城)として扱う。"
    let mut g = special_game();
    g.special[usize::from(FAIRHOLME)] = Some(Special::PerfectlyNormal);
    g.refresh_restrictions();
    choose(&mut g, &[T, T, T]);
    let l = legal(&g, 0);
    for token in Token::ALL {
        assert!(l.contains(&Action::Declare {
            property: FAIRHOLME,
            token
        }));
    }
}

// ---------------------------------------------------------------- secrets

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
                changed += usize::from(w.players != g.players || w.card != g.card);
            }
            g.legal_actions(seat, &mut buf);
            let a = *rng.pick(&buf).unwrap();
            g.apply(seat, &a).unwrap();
        }
    }
    assert!(changed > 1000, "determinize redraws ({changed})");
}

fn check_real_round_one_knowledge(g: &GhostForSale) {
    if g.round != 0 {
        return;
    }
    for p in &g.players[..g.n()] {
        for v in 1..=10 {
            assert!(
                p.aside[v] + p.r1_known[v] <= FULL_SET[v],
                "a card seen on the table is never one set aside"
            );
        }
    }
}

fn check_world(real: &GhostForSale, w: &GhostForSale, me: usize) {
    assert_eq!(
        real.view(Viewer::Seat(Seat(me as u8))),
        w.view(Viewer::Seat(Seat(me as u8)))
    );
    assert_eq!(real.players[me], w.players[me]);
    for p in 0..real.n() {
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
        if let Some(a) = w.live_auction() {
            for bid in w.auctions[a].bids() {
                if usize::from(bid.seat) == p {
                    total[usize::from(bid.value)] += 1;
                }
            }
        }
        assert_eq!(total, FULL_SET, "seat {p}'s cards");
    }
    for (ra, wa) in real.auctions.iter().zip(&w.auctions) {
        for (x, y) in ra.bids().iter().zip(wa.bids()) {
            assert_eq!(real.mark(x.value), w.mark(y.value));
            if ra.revealed || x.face_up || usize::from(x.seat) == me {
                assert_eq!(x, y);
            }
        }
    }
    let r = usize::from(real.round);
    assert_eq!(real.card[r][me], w.card[r][me]);
    if let Some(t) = real.looks[r][me] {
        assert_eq!(real.card[r][usize::from(t)], w.card[r][usize::from(t)]);
    }
    let truths = |g: &GhostForSale| g.card[r].iter().filter(|c| **c == Some(T)).count();
    if real.pile_seer[r] == Some(me as u8) && !real.round_revealed(r) {
        assert_eq!(truths(real), truths(w));
    }
    assert_eq!(real.to_move(), w.to_move());
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
    assert_eq!(g.players[1].r1_known[9], 1);
    let mut rng = GameRng::from_seed(5);
    for _ in 0..200 {
        let w = g.determinize(Seat(0), &mut rng);
        assert_eq!(w.players[1].aside[9], 0);
        assert_eq!(w.players[1].hand[9], 1);
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
    assert_eq!(g.mark(1), Mark::High);
    assert_eq!(g.mark(10), Mark::Low);
    let highs = FULL_SET
        .iter()
        .enumerate()
        .filter(|(v, _)| g.mark(*v as u8) == Mark::High)
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
    for (name, factory) in crate::bots() {
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
        let mut appraiser = crate::Appraiser::default();
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
