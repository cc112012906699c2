//! One scenario per rule of docs/games/secret-moon.md, named after the rule, quoting
//! the text (002_faf54c4fe3ea920f.txt, the newer version) it checks.

use takuge_engine::{ActionError, Game, Lang, Seat, SetupError, Viewer};
use takuge_secret_moon::{
    Action, Answer, CardRef, CardStatus, EndReason, MatchLength, Options, PartnerView, Phase,
    PhaseView, Reject, Role, SecretMoon, Side,
};

use Role::*;

fn p(seat: u8) -> CardRef {
    CardRef::Player(Seat(seat))
}

fn play(g: &mut SecretMoon, seat: u8, action: Action) {
    if let Err(e) = g.apply(Seat(seat), &action) {
        panic!("seat {seat} could not {action}: {e}");
    }
}

fn nominate(g: &mut SecretMoon, seat: u8, card: CardRef, role: Role) {
    play(g, seat, Action::Nominate { card, role });
}

/// Six players with the thief in the box, turn order = seat order.
fn six_with_thief(cards: &[Role]) -> SecretMoon {
    let thief = Options {
        thief: true,
        ..Options::default()
    };
    SecretMoon::with_cards(thief, cards, &[1, 2, 3, 4, 5, 6], 1).expect("valid test setup")
}

/// パス, then take order card `number` from the discard pile (when there is a next round).
fn pass_taking(g: &mut SecretMoon, seat: u8, number: u8) {
    play(g, seat, Action::Pass);
    if let Phase::TakeOrderCard { .. } = g.phase() {
        play(g, seat, Action::TakeOrderCard { number });
    }
}

fn refuse(g: &mut SecretMoon, seat: u8, action: Action) -> ActionError<Reject> {
    let before = g.clone();
    let err = g
        .apply(Seat(seat), &action)
        .expect_err("action should be refused");
    assert_eq!(*g, before, "a refused action changed the state");
    err
}

fn actor(g: &SecretMoon) -> u8 {
    match g.phase() {
        Phase::Turn { actor, .. } => actor.0,
        other => panic!("not a turn: {other:?}"),
    }
}

/// Five players, turn order = seat order: 0 princess, 1 traveller, 2 minister, 3 soldier,
/// 4 monk; centre: soldier, soldier, soldier.
fn five(options: Options) -> SecretMoon {
    SecretMoon::with_cards(
        options,
        &[
            Princess, Traveller, Minister, Soldier, Monk, Soldier, Soldier, Soldier,
        ],
        &[1, 2, 3, 4, 5],
        1,
    )
    .expect("valid test setup")
}

fn winner(g: &SecretMoon) -> Option<Side> {
    g.results().last().map(|r| r.winner)
}

// 「人物カードの内訳は姫・旅人・大臣・僧侶は1枚ずつ、兵士が4枚です」「残りのカードは全て中央に置かれます」
#[test]
fn eight_character_cards_one_to_each_player_and_the_rest_to_the_centre() {
    for players in [3, 4, 6, 7, 8] {
        for seed in 0..50 {
            let g = SecretMoon::new(&Options::default(), players, seed).expect("valid");
            assert_eq!(usize::from(g.npc_cards()) + players, 8);
            let mut roles: Vec<Role> = (0..players as u8)
                .map(|s| g.role_of(p(s)).expect("card"))
                .chain((0..g.npc_cards()).map(|i| g.role_of(CardRef::Npc(i)).expect("card")))
                .collect();
            roles.sort();
            assert_eq!(
                roles,
                vec![Princess, Traveller, Minister, Monk, Soldier, Soldier, Soldier, Soldier]
            );
        }
    }
}

// (5人プレイの場合)「4枚の兵士と1枚の僧侶カードがシャッフルされ、その中からランダムに1枚が取り除かれます。
// 残った4枚のカードに大臣、旅人、姫を加えて7枚の人物カード」
#[test]
fn five_players_remove_one_random_card_of_the_soldiers_and_monk() {
    let mut monk_removed = 0;
    for seed in 0..200 {
        let g = SecretMoon::new(&Options::default(), 5, seed).expect("valid");
        assert_eq!(g.npc_cards(), 2);
        let roles: Vec<Role> = (0..5)
            .map(|s| g.role_of(p(s)).expect("card"))
            .chain((0..2).map(|i| g.role_of(CardRef::Npc(i)).expect("card")))
            .collect();
        for must in [Princess, Traveller, Minister] {
            assert!(roles.contains(&must));
        }
        if !roles.contains(&Monk) {
            monk_removed += 1;
        }
        let view = g.view(Viewer::Spectator);
        assert!(view.card_removed);
    }
    // One card in five is the monk.
    assert!((20..=60).contains(&monk_removed), "{monk_removed}");
}

// 盗賊 (6人でプレイする場合)「盗賊、僧侶、4枚の兵士カードがシャッフルされ、その中からランダムに1枚が取り除かれます」
// (7人以上でプレイする場合)「全ての人物カードがシャッフルされ」
#[test]
fn thief_variant_removes_one_card_with_six_players_and_none_with_seven_or_more() {
    let thief = Options {
        thief: true,
        ..Options::default()
    };
    for seed in 0..50 {
        let six = SecretMoon::new(&thief, 6, seed).expect("valid");
        assert_eq!(six.npc_cards(), 2, "9 cards less one removed, 6 players");
        let seven = SecretMoon::new(&thief, 7, seed).expect("valid");
        assert_eq!(seven.npc_cards(), 2);
        let eight = SecretMoon::new(&thief, 8, seed).expect("valid");
        assert_eq!(eight.npc_cards(), 1);
        let has_thief = (0..8).any(|s| eight.role_of(p(s)) == Some(Thief))
            || eight.role_of(CardRef::Npc(0)) == Some(Thief);
        assert!(has_thief);
    }
}

// 「兵士を加える場合は6人以上でなければいけません」(the thief needs six players or more)
#[test]
fn the_thief_needs_at_least_six_players() {
    let thief = Options {
        thief: true,
        ..Options::default()
    };
    assert!(matches!(
        SecretMoon::new(&thief, 5, 1),
        Err(SetupError::InvalidOptions { .. })
    ));
    assert!(matches!(
        SecretMoon::new(&Options::default(), 2, 1),
        Err(SetupError::PlayerCount { .. })
    ));
    assert!(matches!(
        SecretMoon::new(&Options::default(), 9, 1),
        Err(SetupError::PlayerCount { .. })
    ));
}

// 「「姫」と「旅人」の人物カードが配られたプレイヤー同士はお互いの役割を知ることができます」
// 「(「大臣」と「兵士」や「僧侶」は自分以外のプレイヤーの役割については何も分かりません)」
#[test]
fn princess_and_traveller_know_each_other_and_no_one_else_knows_anyone() {
    let g = five(Options::default());
    let princess = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(princess.partner, Some(PartnerView::Player(Seat(1))));
    assert_eq!(princess.cards[1].role, Some(Traveller));
    assert_eq!(princess.cards[2].role, None);
    let traveller = g.view(Viewer::Seat(Seat(1)));
    assert_eq!(traveller.cards[0].role, Some(Princess));
    let minister = g.view(Viewer::Seat(Seat(2)));
    assert_eq!(minister.partner, None);
    assert!(minister
        .cards
        .iter()
        .enumerate()
        .all(|(i, c)| (i == 2) == c.role.is_some()));
}

// 「プレイ人数によっては「姫」か「旅人」の人物カードのどちらかが欠けていたり」: a partner in the centre
#[test]
fn a_partner_in_the_centre_is_known_to_be_there_but_not_which_card() {
    let g = SecretMoon::with_cards(
        Options::default(),
        &[
            Princess, Minister, Soldier, Soldier, Traveller, Monk, Soldier, Soldier,
        ],
        &[1, 2, 3],
        1,
    )
    .expect("valid");
    let view = g.view(Viewer::Seat(Seat(0)));
    assert_eq!(view.partner, Some(PartnerView::InCentre));
    assert!(view.cards[3..].iter().all(|c| c.role.is_none()));
}

// 「行動順カードに示された数字が小さい順に、各プレイヤーは順番に手番を行います」
#[test]
fn players_act_in_order_of_their_action_order_cards() {
    let mut g = SecretMoon::with_cards(
        Options::default(),
        &[
            Soldier, Soldier, Soldier, Princess, Traveller, Minister, Monk, Soldier,
        ],
        &[6, 2, 4],
        1,
    )
    .expect("valid");
    let mut seen = vec![];
    for _ in 0..3 {
        let a = actor(&g);
        seen.push(a);
        play(&mut g, a, Action::Pass);
        if let Phase::TakeOrderCard { actor, .. } = g.phase() {
            let view = g.view(Viewer::Seat(actor));
            let n = view
                .discard
                .face_up
                .first()
                .or(view.discard.face_down_seen.first())
                .copied()
                .expect("a card to take");
            play(&mut g, actor.0, Action::TakeOrderCard { number: n });
        }
    }
    assert_eq!(seen, vec![1, 2, 0]);
}

// Ⅰ.「行動順カードが各プレイヤーに1枚ずつ配られます。(行動順カードによる順番は公開されません)」:
// each player sees their own number only — not another's, not even the card being
// played; the table sees whose turn it is.
#[test]
fn order_numbers_are_not_public_by_default() {
    let g = five(Options::default());
    let view = g.view(Viewer::Seat(Seat(3)));
    assert!(!view.public_order);
    assert_eq!(view.seats[3].number, Some(4), "its own number");
    for other in [0, 1, 2, 4] {
        assert_eq!(view.seats[other].number, None, "seat {other}'s number");
        assert!(view.seats[other].holds_card);
    }
    assert_eq!(
        view.phase,
        PhaseView::Turn {
            actor: Seat(0),
            number: None
        },
        "whose turn it is, not the number"
    );
    assert_eq!(
        g.view(Viewer::Spectator).phase,
        PhaseView::Turn {
            actor: Seat(0),
            number: None
        }
    );
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).phase,
        PhaseView::Turn {
            actor: Seat(0),
            number: Some(1)
        },
        "the actor knows its own card"
    );
    assert!(!g.view(Viewer::Seat(Seat(0))).seats[0].number_public);
}

// The table option `public_order` plays the order openly, as takuge did before: the
// number of the card being played is shown to all (not the others').
#[test]
fn with_the_public_order_option_the_card_being_played_is_shown() {
    let g = five(Options {
        public_order: true,
        ..Options::default()
    });
    let view = g.view(Viewer::Seat(Seat(3)));
    assert!(view.public_order);
    assert_eq!(view.seats[3].number, Some(4));
    assert_eq!(view.seats[4].number, None);
    assert_eq!(view.seats[0].number, Some(1), "the card being played");
    assert!(view.seats[0].number_public && !view.seats[3].number_public);
    assert_eq!(
        g.view(Viewer::Spectator).phase,
        PhaseView::Turn {
            actor: Seat(0),
            number: Some(1)
        }
    );
}

// Ⅱ.「アクションの実行が終わったら行動順カードを捨て札山に捨てます」: with the order secret
// the played card goes face down (its player alone knows it); with `public_order` face up.
#[test]
fn a_played_order_card_is_discarded_face_down_unless_the_order_is_public() {
    let mut g = five(Options::default());
    play(&mut g, 0, Action::Question { target: Seat(1) });
    let spectator = g.view(Viewer::Spectator);
    assert!(spectator.discard.face_up.is_empty());
    assert_eq!(
        spectator.discard.face_down, 4,
        "three never dealt, one played"
    );
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).discard.face_down_seen,
        vec![1]
    );
    assert!(g
        .view(Viewer::Seat(Seat(2)))
        .discard
        .face_down_seen
        .is_empty());

    let mut g = five(Options {
        public_order: true,
        ..Options::default()
    });
    play(&mut g, 0, Action::Question { target: Seat(1) });
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(spectator.discard.face_up, vec![1]);
    assert_eq!(spectator.discard.face_down, 3);
}

// 「(行動順カードによる順番は公開されません)」: two tables that differ only in the numbers
// dealt (the same order of play) look the same to everyone but each number's holder —
// views, log lines in English and Japanese, legal actions and refusals — while the
// option `public_order` shows the card being played.
#[test]
fn log_lines_views_and_legal_actions_never_show_a_hidden_order_number() {
    let cards = [
        Princess, Traveller, Minister, Soldier, Monk, Soldier, Soldier, Soldier,
    ];
    let table = |options: Options, numbers: &[u8]| {
        SecretMoon::with_cards(options, &cards, numbers, 1).expect("valid test setup")
    };
    let (mut a, mut b) = (
        table(Options::default(), &[1, 2, 3, 4, 5]),
        table(Options::default(), &[2, 4, 5, 7, 8]),
    );
    let (mut legal_a, mut legal_b) = (vec![], vec![]);
    for acting in 0..4u8 {
        assert_eq!((actor(&a), actor(&b)), (acting, acting));
        for seat in (0..5).map(Seat) {
            a.legal_actions(seat, &mut legal_a);
            b.legal_actions(seat, &mut legal_b);
            assert_eq!(legal_a, legal_b);
            for action in &legal_a {
                for viewer in (0..5)
                    .map(|s| Viewer::Seat(Seat(s)))
                    .chain([Viewer::Spectator])
                {
                    for lang in [Lang::En, Lang::Ja] {
                        assert_eq!(
                            a.describe_for_in(seat, action, viewer, lang),
                            b.describe_for_in(seat, action, viewer, lang)
                        );
                    }
                }
            }
            // Refusals say why in the same words.
            let sabotage = Action::Sabotage {
                target: Seat(acting),
            };
            assert_eq!(a.refusal(seat, &sabotage), b.refusal(seat, &sabotage));
        }
        for viewer in (0..5)
            .filter(|s| *s != acting)
            .map(|s| Viewer::Seat(Seat(s)))
        {
            let (mut va, mut vb) = (a.view(viewer), b.view(viewer));
            // Each viewer's own number differs, and nothing else.
            if let Viewer::Seat(me) = viewer {
                va.seats[me.index()].number = None;
                vb.seats[me.index()].number = None;
                va.discard.face_down_seen.clear();
                vb.discard.face_down_seen.clear();
            }
            assert_eq!(va, vb, "{viewer:?} tells the numbers apart");
        }
        assert_eq!(a.view(Viewer::Spectator), b.view(Viewer::Spectator));
        play(&mut a, acting, Action::Question { target: Seat(4) });
        play(&mut b, acting, Action::Question { target: Seat(4) });
    }
    let (a, b) = (
        table(
            Options {
                public_order: true,
                ..Options::default()
            },
            &[1, 2, 3, 4, 5],
        ),
        table(
            Options {
                public_order: true,
                ..Options::default()
            },
            &[2, 4, 5, 7, 8],
        ),
    );
    assert_ne!(
        a.view(Viewer::Spectator),
        b.view(Viewer::Spectator),
        "the option shows the card being played"
    );
}

// 観察「他プレイヤーの人物カードもしくは中央にある人物カードのうち1枚を秘密裏に確認する。見たカードには自分の色の「目」のマーカーが置かれます」
#[test]
fn observe_shows_the_card_to_the_observer_alone_and_leaves_an_eye_marker() {
    let mut g = five(Options::default());
    play(&mut g, 0, Action::Observe { card: p(2) });
    assert_eq!(g.view(Viewer::Seat(Seat(0))).cards[2].role, Some(Minister));
    for other in 1..5 {
        let v = g.view(Viewer::Seat(Seat(other)));
        assert_eq!(v.cards[2].observed_by, vec![Seat(0)]);
        if other != 2 {
            assert_eq!(v.cards[2].role, None);
        }
    }
    assert_eq!(
        refuse(&mut g, 1, Action::Observe { card: p(1) }),
        ActionError::Illegal(Reject::NotYourOwnCard)
    );
}

// 質問「「姫」と「旅人」:何もしゃべらない」「「大臣」:「バカもん!わしは大臣じゃ!」」「「僧侶」と「兵士」:「やぁ、ご同輩!」」
#[test]
fn questioned_players_answer_by_their_role_and_a_marker_is_placed() {
    let mut g = five(Options::default());
    play(&mut g, 0, Action::Question { target: Seat(2) });
    play(&mut g, 1, Action::Question { target: Seat(4) });
    play(&mut g, 2, Action::Question { target: Seat(1) });
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.cards[2].answers, vec![Answer::IAmTheMinister]);
    assert_eq!(v.cards[4].answers, vec![Answer::HelloComrade]);
    assert_eq!(v.cards[1].answers, vec![Answer::Silence]);
    assert_eq!(Answer::Silence.marker(), Side::PrincessTeam);
    assert_eq!(Answer::HelloComrade.marker(), Side::MinisterTeam);
    // 「マーカーが置かれることで誰かの役職が明白になったとしても、指名が行われるまでは公開状態にはなりません」
    assert_eq!(v.cards[2].status, CardStatus::Hidden);
    assert_eq!(
        refuse(&mut g, 3, Action::Question { target: Seat(3) }),
        ActionError::Illegal(Reject::NotYourself)
    );
}

// 指名「宣言した役割とカード内容が一致していた場合、「宣言を受けたプレイヤー」の人物カードが公開される」
#[test]
fn a_correct_nomination_reveals_the_named_card() {
    let mut g = five(Options::default());
    nominate(&mut g, 0, p(2), Minister);
    assert_eq!(g.status_of(p(2)), Some(CardStatus::Revealed));
    assert_eq!(g.status_of(p(0)), Some(CardStatus::Hidden));
}

// 「宣言した役割とカード内容が異なっていた場合、「宣言をしたプレイヤー」の人物カードが公開される。
// この場合、「宣言を受けたプレイヤー」の人物カードが公開されることはありません」「既に自分の人物カードが公開されているなら、特にペナルティーは受けません」
#[test]
fn a_wrong_nomination_reveals_the_nominator_instead_and_costs_nothing_if_already_revealed() {
    let mut g = five(Options::default());
    nominate(&mut g, 0, p(1), Monk);
    assert_eq!(g.status_of(p(0)), Some(CardStatus::Revealed));
    assert_eq!(g.status_of(p(1)), Some(CardStatus::Hidden));
    assert!(
        !g.view(Viewer::Spectator).cards[1].possible.contains(Monk),
        "everyone learns it is not the monk"
    );
    pass_taking(&mut g, 1, 1);
    nominate(&mut g, 2, p(4), Soldier);
    assert_eq!(g.status_of(p(2)), Some(CardStatus::Revealed));
    pass_taking(&mut g, 3, 2);
    pass_taking(&mut g, 4, 3);
    // Round 2: the minister (already face up) names wrongly again: nothing more happens.
    let a = actor(&g);
    assert_eq!(g.round(), 2);
    if a == 2 {
        nominate(&mut g, 2, p(3), Princess);
        assert_eq!(g.status_of(p(2)), Some(CardStatus::Revealed));
    }
}

// 「中央にある人物カードに対して「指名」アクションを実行する場合は、「宣言をしたプレイヤー」が中央のカードを秘密裏に確認し、
// 当たっていた場合はそのカードを公開します。ハズれていた場合は自分のカードを公開します」
#[test]
fn nominating_a_centre_card_shows_it_to_the_nominator_and_reveals_it_or_the_nominator() {
    let mut g = five(Options::default());
    nominate(&mut g, 0, CardRef::Npc(0), Princess);
    assert_eq!(g.status_of(CardRef::Npc(0)), Some(CardStatus::Hidden));
    assert_eq!(g.status_of(p(0)), Some(CardStatus::Revealed));
    assert_eq!(
        g.view(Viewer::Seat(Seat(0))).cards[5].role,
        Some(Soldier),
        "the nominator looked at it"
    );
    assert_eq!(g.view(Viewer::Seat(Seat(1))).cards[5].role, None);
    nominate(&mut g, 1, CardRef::Npc(1), Soldier);
    assert_eq!(
        g.status_of(CardRef::Npc(1)),
        Some(CardStatus::Captured),
        "a revealed soldier is captured, NPC or not"
    );
    assert_eq!(g.status_of(p(1)), Some(CardStatus::Hidden));
}

// 「兵士は捕獲アクションが行えません。また、自身の役職が公開されると捕獲された状態になります」
#[test]
fn a_revealed_soldier_is_captured_and_loses_its_turn() {
    let mut g = five(Options::default());
    nominate(&mut g, 0, p(3), Soldier);
    assert_eq!(g.status_of(p(3)), Some(CardStatus::Captured));
    pass_taking(&mut g, 1, 1);
    pass_taking(&mut g, 2, 2);
    assert_eq!(
        actor(&g),
        4,
        "the captured soldier (order card 4) is skipped"
    );
}

// 隠れる/かばう「このアクションは第3ラウンドでは実行できません」
#[test]
fn hide_or_protect_cannot_be_used_in_round_three() {
    let mut g = five(Options::default());
    for _ in 0..40 {
        if g.round() == 3 {
            break;
        }
        let a = actor(&g);
        play(
            &mut g,
            a,
            Action::Question {
                target: Seat((a + 1) % 5),
            },
        );
    }
    assert_eq!(g.round(), 3);
    let a = actor(&g);
    assert_eq!(
        refuse(&mut g, a, Action::Protect { card: p(a) }),
        ActionError::Illegal(Reject::NoProtectionInRoundThree)
    );
}

// 「ラウンドが終了するまで、指定されたプレイヤーは全てのアクションの対象として選ぶことができません。
// なお、隠れる/かばうアクションを実行したプレイヤーが途中で捕獲されても、守られているプレイヤーはラウンドが終了するまで守られたままです」
#[test]
fn protection_lasts_to_the_end_of_the_round_even_if_the_protector_is_captured() {
    let mut g = five(Options::default());
    play(&mut g, 0, Action::Protect { card: p(4) });
    nominate(&mut g, 1, p(0), Princess);
    assert_eq!(g.status_of(p(0)), Some(CardStatus::Revealed));
    assert_eq!(
        refuse(&mut g, 2, Action::Observe { card: p(4) }),
        ActionError::Illegal(Reject::Protected)
    );
    assert_eq!(
        refuse(&mut g, 2, Action::Question { target: Seat(4) }),
        ActionError::Illegal(Reject::Protected)
    );
    assert_eq!(
        refuse(&mut g, 2, Action::Sabotage { target: Seat(4) }),
        ActionError::Illegal(Reject::Protected)
    );
    // The minister captures the protector; the monk stays protected.
    play(&mut g, 2, Action::Capture { card: p(0) });
    assert_eq!(
        winner(&g),
        Some(Side::MinisterTeam),
        "capturing the princess ends the game"
    );
}

#[test]
fn protection_of_a_captured_protector_still_holds() {
    // Seat 3, a soldier, acts first and protects the princess; seat 0 then names
    // seat 3 a soldier, which captures it; the princess stays protected this round.
    let mut g = SecretMoon::with_cards(
        Options::default(),
        &[
            Princess, Traveller, Minister, Soldier, Monk, Soldier, Soldier, Soldier,
        ],
        &[2, 3, 4, 1, 5],
        1,
    )
    .expect("valid test setup");
    play(&mut g, 3, Action::Protect { card: p(0) });
    nominate(&mut g, 0, p(3), Soldier);
    assert_eq!(g.status_of(p(3)), Some(CardStatus::Captured));
    assert!(g.is_protected(p(0)));
    assert_eq!(
        refuse(&mut g, 1, Action::Observe { card: p(0) }),
        ActionError::Illegal(Reject::Protected)
    );
    play(&mut g, 1, Action::Question { target: Seat(2) });
    play(&mut g, 2, Action::Question { target: Seat(1) });
    play(&mut g, 4, Action::Question { target: Seat(1) });
    assert_eq!(g.round(), 2);
    assert!(!g.is_protected(p(0)), "protection ends with the round");
}

// 妨害「指定されたプレイヤーがまだ当該ラウンドで手番を実行していなかった場合 … そのプレイヤーは当該ラウンドで手番を実行できません。
// この場合は捨てられる行動順カードは裏向きに捨てられます」「このアクションを実行したプレイヤー … 自分の人物カードが公開され、行動不能になります(=捕獲されます)」
#[test]
fn sabotage_discards_an_unplayed_order_card_face_down_and_captures_the_saboteur() {
    let mut g = five(Options::default());
    pass_taking(&mut g, 0, 6);
    play(&mut g, 1, Action::Sabotage { target: Seat(3) });
    assert_eq!(g.status_of(p(1)), Some(CardStatus::Captured));
    let v = g.view(Viewer::Spectator);
    assert!(
        !v.discard.face_up.contains(&4),
        "seat 3's card went face down"
    );
    assert!(g
        .view(Viewer::Seat(Seat(3)))
        .discard
        .face_down_seen
        .contains(&4));
    play(&mut g, 2, Action::Question { target: Seat(4) });
    assert_eq!(actor(&g), 4, "seat 3 lost its turn");
}

// 「指定されたプレイヤーが「待機(パス)」アクションを実行していた場合 … 捨てられる行動順カードは表向きです」
// パス「次ラウンドが開始される前に確保した行動順カードが「妨害」アクションによって捨てさせられた場合は、通常通りに行動順カードが配られます」
#[test]
fn sabotage_after_a_pass_discards_the_reserved_card_face_up_and_a_card_is_dealt_next_round() {
    let mut g = five(Options::default());
    play(&mut g, 0, Action::Pass);
    assert!(matches!(g.phase(), Phase::TakeOrderCard { .. }));
    play(&mut g, 0, Action::TakeOrderCard { number: 7 });
    assert_eq!(
        g.view(Viewer::Spectator).seats[0].reserved,
        Some(7),
        "「選んだカードは全プレイヤーに公開されます」"
    );
    play(&mut g, 1, Action::Sabotage { target: Seat(0) });
    let v = g.view(Viewer::Spectator);
    assert_eq!(v.seats[0].reserved, None);
    assert!(v.discard.face_up.contains(&7));
    for s in 2..5 {
        play(&mut g, s, Action::Question { target: Seat(0) });
    }
    assert_eq!(g.round(), 2);
    assert!(
        g.view(Viewer::Spectator).seats[0].holds_card,
        "dealt normally"
    );
}

// パス「次ラウンドで使用する行動順カードを捨て札山から1枚自由に選んで確保します」「次ラウンド開始時に行動順カードは配られません」
#[test]
fn a_pass_takes_a_card_from_the_discard_pile_for_the_next_round() {
    let mut g = five(Options::default());
    play(&mut g, 0, Action::Question { target: Seat(1) });
    play(&mut g, 1, Action::Pass);
    // Seat 1 looked through the pile, all face down: card 1 (played by seat 0, the
    // order secret) and 6, 7, 8 (never dealt).
    let v = g.view(Viewer::Seat(Seat(1)));
    assert!(v.discard.face_up.is_empty());
    assert_eq!(v.discard.face_down_seen, vec![1, 6, 7, 8]);
    assert!(g
        .view(Viewer::Seat(Seat(2)))
        .discard
        .face_down_seen
        .is_empty());
    let mut legal = vec![];
    g.legal_actions(Seat(1), &mut legal);
    assert_eq!(legal.len(), 4);
    play(&mut g, 1, Action::TakeOrderCard { number: 1 });
    for s in 2..5 {
        play(&mut g, s, Action::Question { target: Seat(0) });
    }
    assert_eq!(g.round(), 2);
    assert_eq!(
        actor(&g),
        1,
        "card 1 reserved: seat 1 acts first in round 2"
    );
    assert_eq!(g.order_cards().held_by(Seat(1)), Some(1));
}

// 捕獲「指名や指名の失敗によって表向きになっている人物カード1枚を指定します」
#[test]
fn capture_targets_only_cards_revealed_by_nomination() {
    let mut g = five(Options::default());
    assert_eq!(
        refuse(&mut g, 0, Action::Capture { card: p(2) }),
        ActionError::Illegal(Reject::NotRevealedByNomination)
    );
    nominate(&mut g, 0, p(2), Minister);
    play(&mut g, 1, Action::Capture { card: p(2) });
    assert_eq!(winner(&g), Some(Side::PrincessTeam));
    assert_eq!(g.results()[0].reason, EndReason::MinisterCaptured);
}

// 「兵士はこのアクションを実行できません」「兵士は通常は「捕獲」アクションを実行できませんが、盗賊に対してのみ「捕獲」アクションを実行できます」
#[test]
fn soldiers_cannot_capture_except_the_thief() {
    let mut g = five(Options::default());
    nominate(&mut g, 0, p(4), Monk);
    pass_taking(&mut g, 1, 1);
    pass_taking(&mut g, 2, 2);
    assert_eq!(
        refuse(&mut g, 3, Action::Capture { card: p(4) }),
        ActionError::Illegal(Reject::SoldiersCaptureOnlyTheThief)
    );

    let mut g = six_with_thief(&[
        Soldier, Thief, Princess, Traveller, Minister, Monk, Soldier, Soldier, Soldier,
    ]);
    nominate(&mut g, 0, p(1), Thief);
    assert_eq!(
        g.status_of(p(1)),
        Some(CardStatus::Revealed),
        "a revealed thief is not captured by being revealed"
    );
    assert_eq!(
        refuse(&mut g, 1, Action::Capture { card: p(0) }),
        ActionError::Illegal(Reject::ThiefCannotCapture)
    );
    assert_eq!(
        refuse(&mut g, 1, Action::Protect { card: p(1) }),
        ActionError::Illegal(Reject::ThiefCannotProtect)
    );
    pass_taking(&mut g, 1, 1);
    for s in 2..6 {
        play(&mut g, s, Action::Pass);
        if let Phase::TakeOrderCard { .. } = g.phase() {
            let n = g
                .view(Viewer::Seat(Seat(s)))
                .discard
                .face_up
                .first()
                .copied()
                .or(g
                    .view(Viewer::Seat(Seat(s)))
                    .discard
                    .face_down_seen
                    .first()
                    .copied())
                .expect("card");
            play(&mut g, s, Action::TakeOrderCard { number: n });
        }
    }
    // Round 2: the soldier (seat 0) captures the revealed thief.
    while actor(&g) != 0 {
        let a = actor(&g);
        play(
            &mut g,
            a,
            Action::Question {
                target: Seat(if a == 2 { 3 } else { 2 }),
            },
        );
        if let Phase::Answer { target, .. } = g.phase() {
            let role = g.role_of(p(target.0)).expect("card");
            play(
                &mut g,
                target.0,
                Action::Answer {
                    answer: role.answers()[0],
                },
            );
        }
    }
    play(&mut g, 0, Action::Capture { card: p(1) });
    assert_eq!(g.status_of(p(1)), Some(CardStatus::Captured));
}

// 「ただし、姫を捕獲できるのは「大臣」だけです」
#[test]
fn only_the_minister_can_capture_the_princess() {
    let mut g = SecretMoon::with_cards(
        Options::default(),
        &[
            Traveller, Princess, Minister, Soldier, Monk, Soldier, Soldier, Soldier,
        ],
        &[2, 1, 3, 4, 5],
        1,
    )
    .expect("valid");
    nominate(&mut g, 1, p(0), Monk); // the princess names wrongly and is revealed
    assert_eq!(
        refuse(&mut g, 0, Action::Capture { card: p(1) }),
        ActionError::Illegal(Reject::OnlyTheMinisterCapturesThePrincess)
    );
    pass_taking(&mut g, 0, 1);
    play(&mut g, 2, Action::Capture { card: p(1) });
    assert_eq!(winner(&g), Some(Side::MinisterTeam));
    assert_eq!(g.results()[0].reason, EndReason::PrincessCaptured);
}

// ゲーム終了「姫と旅人の両方が公開される(大臣チームの勝利)」
#[test]
fn princess_and_traveller_both_revealed_ends_the_game_for_the_minister_team() {
    let mut g = five(Options::default());
    nominate(&mut g, 0, p(3), Monk); // princess revealed by her own mistake
    assert!(g.results().is_empty());
    play(&mut g, 1, Action::Sabotage { target: Seat(4) }); // traveller revealed (and captured)
    assert_eq!(winner(&g), Some(Side::MinisterTeam));
    assert_eq!(
        g.results()[0].reason,
        EndReason::PrincessAndTravellerRevealed
    );
    // 「途中で捕獲されていても勝利となります」: the captured... here the minister team scores.
    assert_eq!(g.victory_points(), &[0, 0, 1, 1, 0]);
}

// 「第3ラウンドが終了する(姫チームの勝利)」「人物カード「姫」「旅人」「僧侶」を持っていたプレイヤー全員が勝利です」
// 「自分が兵士で途中で捕獲されていたとしても、大臣チームが勝利すれば自分も勝者となります」(captured players still win with their team)
#[test]
fn the_end_of_round_three_is_a_princess_team_win_for_every_member_even_if_captured() {
    let mut g = five(Options::default());
    pass_taking(&mut g, 0, 6);
    pass_taking(&mut g, 1, 7);
    pass_taking(&mut g, 2, 8);
    pass_taking(&mut g, 3, 1);
    play(&mut g, 4, Action::Sabotage { target: Seat(3) }); // the monk is captured
    let mut guard = 0;
    while g.results().is_empty() && guard < 50 {
        let a = actor(&g);
        let target = if a == 0 { 1 } else { 0 };
        play(
            &mut g,
            a,
            Action::Question {
                target: Seat(target),
            },
        );
        guard += 1;
    }
    assert_eq!(g.results()[0].reason, EndReason::ThirdRoundEnded);
    assert_eq!(
        g.victory_points(),
        &[1, 1, 0, 0, 1],
        "the captured monk wins with the princess team"
    );
    assert!(g.is_over());
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.ranks, vec![1, 1, 4, 4, 1]);
    assert_eq!(outcome.winning_team, Some(Side::PrincessTeam.team_id()));
}

// 盗賊「姫チーム、大臣チームのどちらかが勝利したとき、盗賊自身が捕獲されていない … 盗賊の人物カードを持っていたプレイヤーだけが1勝利点を獲得します」
#[test]
fn a_free_thief_steals_the_win_when_a_team_wins() {
    let mut g = six_with_thief(&[
        Minister, Thief, Princess, Traveller, Soldier, Monk, Soldier, Soldier, Soldier,
    ]);
    nominate(&mut g, 0, p(2), Princess);
    nominate(&mut g, 1, p(3), Traveller);
    assert_eq!(
        g.results()[0].reason,
        EndReason::PrincessAndTravellerRevealed
    );
    assert_eq!(winner(&g), Some(Side::Thief));
    assert_eq!(g.victory_points(), &[0, 1, 0, 0, 0, 0]);
}

// 「(ただし、NPCが盗賊の場合は1人勝ちにはなりません)」
#[test]
fn an_npc_thief_does_not_steal_the_win() {
    let mut g = six_with_thief(&[
        Minister, Soldier, Princess, Traveller, Soldier, Monk, Thief, Soldier, Soldier,
    ]);
    nominate(&mut g, 0, p(2), Princess);
    nominate(&mut g, 1, p(3), Traveller);
    assert_eq!(winner(&g), Some(Side::MinisterTeam));
    assert_eq!(g.victory_points(), &[1, 1, 0, 0, 1, 0]);
}

#[test]
fn a_captured_thief_does_not_steal_the_win() {
    let mut g = six_with_thief(&[
        Minister, Thief, Princess, Traveller, Soldier, Monk, Soldier, Soldier, Soldier,
    ]);
    nominate(&mut g, 0, p(1), Thief);
    nominate(&mut g, 1, p(2), Princess);
    pass_taking(&mut g, 2, 1);
    pass_taking(&mut g, 3, 2);
    play(&mut g, 4, Action::Capture { card: p(1) }); // a soldier may capture the thief
    nominate(&mut g, 5, p(3), Traveller);
    assert_eq!(winner(&g), Some(Side::MinisterTeam));
    assert_eq!(g.victory_points(), &[1, 0, 0, 0, 1, 0]);
}

// 「盗賊は「質問」アクションをされたとき、「…」か「バカもん!わしは大臣じゃ!」のどちらで答えるかを選択できる」
#[test]
fn the_thief_chooses_its_answer_and_everyone_questioned_is_asked() {
    let mut g = six_with_thief(&[
        Minister, Thief, Princess, Traveller, Soldier, Monk, Soldier, Soldier, Soldier,
    ]);
    play(&mut g, 0, Action::Question { target: Seat(1) });
    assert_eq!(g.to_move().first_seat(), Some(Seat(1)));
    let mut legal = vec![];
    g.legal_actions(Seat(1), &mut legal);
    assert_eq!(
        legal,
        vec![
            Action::Answer {
                answer: Answer::Silence
            },
            Action::Answer {
                answer: Answer::IAmTheMinister
            }
        ]
    );
    play(
        &mut g,
        1,
        Action::Answer {
            answer: Answer::IAmTheMinister,
        },
    );
    assert_eq!(
        g.view(Viewer::Spectator).cards[1].answers,
        vec![Answer::IAmTheMinister]
    );
    // A soldier questioned is asked too, and has exactly one answer.
    play(&mut g, 1, Action::Question { target: Seat(4) });
    assert_eq!(g.to_move().first_seat(), Some(Seat(4)));
    g.legal_actions(Seat(4), &mut legal);
    assert_eq!(
        legal,
        vec![Action::Answer {
            answer: Answer::HelloComrade
        }]
    );
    assert_eq!(
        refuse(
            &mut g,
            4,
            Action::Answer {
                answer: Answer::Silence
            }
        ),
        ActionError::Illegal(Reject::NotAnAnswerYouCanGive)
    );
}

// 「勝利したプレイヤーはそれぞれ1勝利点を獲得します」「3ゲームマッチ、5ゲームマッチを選べます … 全ゲーム終了時点で最も勝利点を多く得ていたプレイヤーが勝者です」
#[test]
fn a_match_of_three_games_deals_again_and_ranks_by_victory_points() {
    let options = Options {
        games: MatchLength::Three,
        ..Options::default()
    };
    let mut g = SecretMoon::new(&options, 4, 99).expect("valid");
    let mut guard = 0;
    let mut games_seen = vec![];
    while !g.is_over() && guard < 1_000 {
        let seat = g.to_move().first_seat().expect("someone moves");
        // Everyone nominates the first other face-down card as the princess: quick games.
        let mut legal = vec![];
        g.legal_actions(seat, &mut legal);
        let action = legal
            .iter()
            .find(|a| {
                matches!(
                    a,
                    Action::Nominate {
                        role: Role::Princess,
                        ..
                    }
                )
            })
            .copied()
            .unwrap_or(legal[0]);
        play(&mut g, seat.0, action);
        games_seen.push(g.view(Viewer::Spectator).game);
        guard += 1;
    }
    assert!(g.is_over());
    assert_eq!(g.results().len(), 3);
    assert!(games_seen.contains(&2) && games_seen.contains(&3));
    let total: u8 = g.victory_points().iter().sum();
    let winners: usize = g
        .results()
        .iter()
        .map(|r| {
            r.roles.as_slice()[..4]
                .iter()
                .filter(|role| role.side() == r.winner)
                .count()
        })
        .sum();
    assert_eq!(usize::from(total), winners);
    let outcome = g.outcome().expect("over");
    let best = *g.victory_points().iter().max().expect("players");
    for (i, vp) in g.victory_points().iter().enumerate() {
        assert_eq!(outcome.ranks[i] == 1, *vp == best);
    }
}

// Bad input changes nothing: wrong seat, out of turn, cards that do not exist.
#[test]
fn bad_actions_are_refused_with_a_reason_and_change_nothing() {
    let mut g = five(Options::default());
    assert_eq!(
        refuse(&mut g, 3, Action::Pass),
        ActionError::NotYourTurn(Seat(3))
    );
    assert_eq!(
        refuse(&mut g, 9, Action::Pass),
        ActionError::NoSuchSeat(Seat(9))
    );
    assert_eq!(
        refuse(
            &mut g,
            0,
            Action::Observe {
                card: CardRef::Npc(7)
            }
        ),
        ActionError::Illegal(Reject::NoSuchCard)
    );
    assert_eq!(
        refuse(&mut g, 0, Action::Question { target: Seat(7) }),
        ActionError::Illegal(Reject::NoSuchPlayer)
    );
    assert_eq!(
        refuse(
            &mut g,
            0,
            Action::Nominate {
                card: p(1),
                role: Thief
            }
        ),
        ActionError::Illegal(Reject::NoThiefInThisGame)
    );
    assert_eq!(
        refuse(&mut g, 0, Action::TakeOrderCard { number: 3 }),
        ActionError::Illegal(Reject::NotNow)
    );
    assert_eq!(
        refuse(
            &mut g,
            0,
            Action::Answer {
                answer: Answer::Silence
            }
        ),
        ActionError::Illegal(Reject::NotNow)
    );
}

/// 隠れる (oneself) / かばう (another card): the log numbers seats and centre cards
/// from 1, as the table shows them, in English and in Japanese.
#[test]
fn seats_and_centre_cards_in_the_log_are_numbered_from_one_as_on_the_table() {
    let g = SecretMoon::new(&Options::default(), 5, 7).expect("a game");
    let nominate = Action::Nominate {
        card: CardRef::Player(Seat(0)),
        role: Princess,
    };
    assert_eq!(g.describe(&nominate), "nominate seat 1 as the Princess");
    let ja =
        |actor: u8, a: &Action| g.describe_for_in(Seat(actor), a, Viewer::Seat(Seat(3)), Lang::Ja);
    assert_eq!(ja(1, &nominate).as_deref(), Some("1番席を「姫」と指名"));
    let protect = |c| Action::Protect { card: c };
    assert_eq!(
        ja(1, &protect(CardRef::Player(Seat(1)))).as_deref(),
        Some("隠れる")
    );
    assert_eq!(
        ja(1, &protect(CardRef::Npc(1))).as_deref(),
        Some("中央2をかばう")
    );
    assert_eq!(
        g.describe(&Action::Observe {
            card: CardRef::Npc(1)
        }),
        "observe centre card 2"
    );
}

/// A face-up card cannot be observed or nominated again, a captured player is out of
/// play (「捕獲されたプレイヤーはゲーム終了まで行動できません」), sabotage needs an order
/// card to discard, and a passing player takes a card from the discard pile only.
#[test]
fn refusals_name_the_rule_the_action_breaks() {
    let mut g = five(Options::default());
    // The princess names the soldier: revealed, so captured at once.
    nominate(&mut g, 0, p(3), Soldier);
    assert_eq!(g.status_of(p(3)), Some(CardStatus::Captured));
    assert_eq!(actor(&g), 1);
    assert_eq!(
        refuse(&mut g, 1, Action::Observe { card: p(3) }),
        ActionError::Illegal(Reject::AlreadyFaceUp)
    );
    assert_eq!(
        refuse(&mut g, 1, Action::Question { target: Seat(3) }),
        ActionError::Illegal(Reject::AlreadyCaptured)
    );
    // Seat 0 has played its card this round: nothing to sabotage.
    assert_eq!(
        refuse(&mut g, 1, Action::Sabotage { target: Seat(0) }),
        ActionError::Illegal(Reject::NoOrderCard)
    );
    play(&mut g, 1, Action::Pass);
    assert!(matches!(g.phase(), Phase::TakeOrderCard { .. }));
    // Card 2 is the passer's own, being played; card 5 is in seat 4's hand.
    for number in [2, 5] {
        assert_eq!(
            refuse(&mut g, 1, Action::TakeOrderCard { number }),
            ActionError::Illegal(Reject::NotInDiscardPile)
        );
    }
}

/// 姫チーム: 姫・旅人・僧侶; 大臣チーム: 大臣・兵士; 盗賊 is neither (the role cards): every
/// view lists each role's side, the same for every viewer, for the web board to colour
/// a role by its team without a copy of the rules.
#[test]
fn every_view_lists_each_role_s_side_as_the_role_cards_print_it() {
    let g = SecretMoon::new(&Options::default(), 5, 3).expect("a game");
    let v = g.view(Viewer::Seat(Seat(0)));
    let sides: Vec<(Role, Side)> = v.roles.iter().map(|r| (r.role, r.side)).collect();
    assert_eq!(
        sides,
        [
            (Role::Princess, Side::PrincessTeam),
            (Role::Traveller, Side::PrincessTeam),
            (Role::Minister, Side::MinisterTeam),
            (Role::Monk, Side::PrincessTeam),
            (Role::Soldier, Side::MinisterTeam),
            (Role::Thief, Side::Thief),
        ]
    );
    let spectator = g.view(Viewer::Spectator);
    assert_eq!(spectator.roles, v.roles);
}
