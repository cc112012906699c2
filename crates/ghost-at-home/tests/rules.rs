//! Scenario tests, one per rule, named after it and quoting the rule (Japanese), through
//! the public API (and `testing` for set-up); and the engine contracts the game's own
//! fast paths must keep (same playouts, uniform sampling, `apply` = the list).

use takuge_engine::bot::bot_move;
use takuge_engine::{ActionError, Bot, Game, GameRng, Lang, RandomBot, Seat, Viewer};
use takuge_ghost_at_home::cards::Card;
use takuge_ghost_at_home::data::{card_data, composition, parse_card_data, CARDS_TOML};
use takuge_ghost_at_home::testing::*;
use takuge_ghost_at_home::{
    Action, Floor, GhostAtHome, Options, PhaseView, Reject, RulesBot, Then,
};

use Card::*;
use Floor::*;

/// The rule of a light as the rules document writes it, over the light-bulb icons of
/// the cards discarded (an oracle for `legal::light_set`, which works on packed hands):
/// 2 or 3 cards with 5 or more icons, where a third card is allowed only if the other
/// two are not already enough — or if it shows no icon at all (電球アイコン0個のカード).
fn light_set_valid(bulbs: &[u8]) -> bool {
    let sum: u8 = bulbs.iter().sum();
    match *bulbs {
        [_, _] => sum >= 5,
        [a, b, c] => {
            let min = a.min(b).min(c);
            let top_two = sum - min;
            sum >= 5 && (top_two < 5 || min == 0)
        }
        _ => false,
    }
}

// --- Cards and setup -------------------------------------------------------------

/// 46枚の基本カードがあります。1階12枚、2階10枚、3階10枚、ゴースト8枚、ネコ6枚です。
/// 特殊カードは7枚です。時空の穴1枚、電球1枚、キャットフード1枚、エレベーター1枚、雷1枚、
/// 部屋のワイルドカード2枚です。
#[test]
fn card_counts_are_46_basic_and_7_special() {
    let data = card_data().expect("data");
    let basic = composition(data, false);
    assert_eq!(basic.total(), 46);
    let floor_total = |f: Floor| -> usize {
        (0..=3)
            .filter_map(|b| Card::room(f, b))
            .map(|c| usize::from(basic.get(c)))
            .sum()
    };
    assert_eq!(
        [floor_total(First), floor_total(Second), floor_total(Third)],
        [12, 10, 10]
    );
    assert_eq!(basic.get(Ghost), 8);
    assert_eq!(basic.get(Cat), 6);
    let all = composition(data, true);
    assert_eq!(all.total(), 53);
    for special in [SpaceTimeHole, LightBulb, CatFood, Elevator, Lightning] {
        assert_eq!(all.get(special), 1);
        assert_eq!(basic.get(special), 0);
    }
    assert_eq!(all.get(WildRoom), 2);
}

/// The light-bulb icons are the project's default (data/cards.toml): the file parses,
/// matches the room counts, and makes lights of 2 and of 3 cards possible
/// (電球のアイコンが合計5個以上になるように部屋カードを2~3枚捨てます).
#[test]
fn light_bulb_data_file_is_valid_and_allows_two_and_three_card_lights() {
    let data = parse_card_data(CARDS_TOML).expect("the data file parses");
    let bulbs: Vec<u8> = Floor::ALL
        .iter()
        .flat_map(|f| {
            (0..=3u8).flat_map(move |b| {
                std::iter::repeat_n(b, usize::from(data.rooms[f.index()][usize::from(b)]))
            })
        })
        .collect();
    let two = bulbs
        .iter()
        .enumerate()
        .any(|(i, &a)| bulbs[i + 1..].iter().any(|&b| light_set_valid(&[a, b])));
    let three_needed = (0..bulbs.len()).any(|i| {
        (i + 1..bulbs.len()).any(|j| {
            (j + 1..bulbs.len()).any(|k| {
                let (a, b, c) = (bulbs[i], bulbs[j], bulbs[k]);
                light_set_valid(&[a, b, c]) && a.max(b).max(c) < 3
            })
        })
    });
    assert!(two && three_needed);
    assert!(
        bulbs.contains(&0),
        "0-bulb cards exist (電球アイコン0個のカード)"
    );
    assert!(parse_card_data("[floor1]\ncards = 12\n").is_err());
    let broken = CARDS_TOML.replacen("bulbs0 = 3", "bulbs0 = 4", 1);
    assert!(parse_card_data(&broken).is_err(), "counts must add up");
}

/// すべてのカードをシャッフルします。各プレイヤーに3枚ずつカードを配ります。また、各プレイヤーは
/// 暗い面のフロアカード3枚と屋根カード1枚で構成される同じお化け屋敷を持っています。
#[test]
fn setup_deals_three_cards_each_and_dark_empty_houses() {
    for players in 2..=4 {
        for special_cards in [false, true] {
            let g = GhostAtHome::new(&Options { special_cards }, players, 9).expect("setup");
            let total = if special_cards { 53 } else { 46 };
            for s in Seat::all(players) {
                assert_eq!(hand(&g, s).len(), 3);
                assert!(house_empty(&g, s));
            }
            assert_eq!(deck(&g).len(), total - 3 * players);
            assert_eq!(g.to_move(), takuge_engine::SeatSet::single(S0));
        }
    }
    assert!(GhostAtHome::new(&Options::default(), 1, 0).is_err());
    assert!(GhostAtHome::new(&Options::default(), 5, 0).is_err());
}

/// 特殊カード on/off: off is the recommended (default) setup.
#[test]
fn special_cards_are_off_by_default() {
    assert!(!Options::default().special_cards);
    let g = GhostAtHome::new(&Options::default(), 4, 3).expect("setup");
    let mut all = deck(&g);
    for s in Seat::all(4) {
        all.extend(hand(&g, s));
    }
    assert!(all.iter().all(|c| !c.is_special()));
}

// --- Rooms -------------------------------------------------------------------------

/// 手札から部屋カードを1枚、対応する階の左右の空いたスペースに出します。イラストは関係なく、
/// カードの階(左下に表示)だけで判断します。
#[test]
fn room_card_goes_only_on_its_own_floor() {
    let mut g = game(
        &[H::default(), H::default()],
        &[&[Floor2Bulbs1, Floor1Bulbs3], &[]],
        &filler_deck(),
    );
    refused(&mut g, S0, rooms(&[Floor2Bulbs1]));
    play(&mut g, S0, rooms(&[Floor1Bulbs3]));
    assert_eq!(floor(&g, S0, First).rooms, [Some(Floor1Bulbs3), None]);
}

/// 次の階に部屋カードを置く前に、下の階をすべて埋めておく必要があります。ただし、同じ手番で
/// 複数のカードをプレイすることができます。たとえば、1階のカードを2枚、その後に2階のカードを
/// 1枚プレイすることができます。
#[test]
fn rooms_need_lower_floors_full_and_several_may_be_played_in_one_turn() {
    let mut g = game(
        &[H::default(), H::default()],
        &[&[Floor1Bulbs0, Floor1Bulbs2, Floor2Bulbs1], &[]],
        &filler_deck(),
    );
    let actions = legal(&g, S0);
    assert!(!actions.contains(&rooms(&[Floor2Bulbs1])));
    assert!(
        !actions.contains(&rooms(&[Floor1Bulbs0, Floor2Bulbs1])),
        "the 1st floor would not be full"
    );
    assert!(actions.contains(&rooms(&[Floor1Bulbs0, Floor1Bulbs2])));
    // The whole play is one decision; the order of the cards does not matter.
    play(
        &mut g,
        S0,
        rooms(&[Floor2Bulbs1, Floor1Bulbs2, Floor1Bulbs0]),
    );
    assert!(floor(&g, S0, First).is_full());
    assert_eq!(floor(&g, S0, Second).room_count(), 1);
    assert_eq!(active(&g), S1);
}

/// A room play is one decision over the parts of the hand that fit the house (at most
/// 7 for a 3-card hand), so the moment the turn ends reveals nothing of the hand.
#[test]
fn room_plays_are_the_parts_of_the_hand_that_fit() {
    let g = game(
        &[H::default(), H::default()],
        &[&[Floor1Bulbs0, Floor1Bulbs1, Floor1Bulbs1], &[]],
        &filler_deck(),
    );
    let mut plays: Vec<Action> = legal(&g, S0)
        .into_iter()
        .filter(|a| matches!(a, Action::PlayRooms { .. }))
        .collect();
    plays.sort_by_key(|a| format!("{a:?}"));
    let mut expected = vec![
        rooms(&[Floor1Bulbs0]),
        rooms(&[Floor1Bulbs1]),
        rooms(&[Floor1Bulbs0, Floor1Bulbs1]),
        rooms(&[Floor1Bulbs1, Floor1Bulbs1]),
    ];
    expected.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(plays, expected, "the 1st floor has two spaces");
}

/// A set of room cards is offered exactly when the cards can be played one at a time,
/// in some order, each on the lowest floor that is not full (checked against every
/// order for every house shape and every set of up to 3 cards).
#[test]
fn room_sets_fit_exactly_when_some_order_plays_them_one_by_one() {
    let faces = [Floor1Bulbs0, Floor2Bulbs0, Floor3Bulbs0, WildRoom, Ghost];
    let mut shapes = vec![H::default()];
    for top in Floor::ALL {
        let below = Floor::from_index(top.index().wrapping_sub(1));
        let base = below.map_or(H::default(), |b| H::default().full_to(b));
        let room = Card::room(top, 1).unwrap_or(WildRoom);
        shapes.push(base.rooms(top, &[room]));
        shapes.push(base.full_to(top));
    }
    let one_by_one = |house: &H, order: &[Card]| {
        let mut h = *house;
        order.iter().all(|&card| {
            let Some(open) = h.open_floor() else {
                return false;
            };
            if card != WildRoom && card.room_floor() != Some(open) {
                return false;
            }
            h.put_room(card);
            true
        })
    };
    let mut checked = 0;
    for &house in &shapes {
        for a in 0..faces.len() {
            for b in a..=faces.len() {
                for c in b..=faces.len() {
                    let cards: Vec<Card> = [Some(a), Some(b), Some(c)]
                        .into_iter()
                        .flatten()
                        .filter(|&i| i < faces.len())
                        .map(|i| faces[i])
                        .collect();
                    let orders: Vec<Vec<Card>> = match cards.as_slice() {
                        [x] => vec![vec![*x]],
                        [x, y] => vec![vec![*x, *y], vec![*y, *x]],
                        [x, y, z] => vec![
                            vec![*x, *y, *z],
                            vec![*x, *z, *y],
                            vec![*y, *x, *z],
                            vec![*y, *z, *x],
                            vec![*z, *x, *y],
                            vec![*z, *y, *x],
                        ],
                        _ => continue,
                    };
                    let possible = orders.iter().any(|o| one_by_one(&house, o));
                    assert_eq!(rooms_fit(house, &cards), possible, "{cards:?} on {house:?}");
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "{checked}");
}

/// 部屋ワイルドカード。どの階でも部屋としてプレイできます。他の部屋カードと一緒にプレイすることができます。
#[test]
fn wild_room_is_a_room_of_any_floor_played_with_other_rooms() {
    let mut g = with_specials(game(
        &[H::default().full_to(First), H::default()],
        &[&[WildRoom, Floor2Bulbs3, Floor3Bulbs0], &[]],
        &filler_deck(),
    ));
    let actions = legal(&g, S0);
    assert!(actions.contains(&rooms(&[WildRoom])));
    assert!(
        !actions.contains(&rooms(&[WildRoom, Floor3Bulbs0])),
        "the wild room fills one space of the 2nd floor; the 3rd is not open"
    );
    play(&mut g, S0, rooms(&[WildRoom, Floor2Bulbs3, Floor3Bulbs0]));
    assert_eq!(
        floor(&g, S0, Second).rooms,
        [Some(Floor2Bulbs3), Some(WildRoom)]
    );
    assert_eq!(floor(&g, S0, Third).room_count(), 1);

    // A wild room below a printed room of the next floor.
    let mut g = with_specials(game(
        &[H::default().rooms(First, &[Floor1Bulbs0]), H::default()],
        &[&[WildRoom, Floor2Bulbs3], &[]],
        &filler_deck(),
    ));
    play(&mut g, S0, rooms(&[Floor2Bulbs3, WildRoom]));
    assert_eq!(
        floor(&g, S0, First).rooms,
        [Some(Floor1Bulbs0), Some(WildRoom)]
    );
    assert_eq!(floor(&g, S0, Second).rooms, [Some(Floor2Bulbs3), None]);
}

// --- Ghosts ------------------------------------------------------------------------

/// 手札からゴーストカードを1枚、相手の家にプレイします。対象は、相手の部屋カードがある最上階で
/// なければなりません。
#[test]
fn ghost_targets_the_opponents_highest_floor_with_rooms() {
    let mut g = game(
        &[
            H::default(),
            H::default().full_to(First).rooms(Second, &[Floor2Bulbs0]),
            H::default(),
        ],
        &[&[Ghost, Ghost], &[], &[]],
        &filler_deck(),
    );
    let actions = legal(&g, S0);
    assert!(actions.contains(&Action::PlayGhost { target: S1 }));
    // Seat 2 has no room card: no target. Nor is one's own house.
    assert!(!actions.contains(&Action::PlayGhost { target: S2 }));
    refused(&mut g, S0, Action::PlayGhost { target: S0 });
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    assert!(matches!(
        phase(&g),
        PhaseView::Defence {
            target: S1,
            floor: Second,
            then: Then::EndTurn
        }
    ));
}

/// 対象には猫がいてもよいが、ゴーストはいてはいけません。
#[test]
fn ghost_may_not_target_a_floor_holding_a_ghost() {
    let g = game(
        &[
            H::default(),
            H::default()
                .rooms(First, &[Floor1Bulbs0])
                .lit(First)
                .ghost(First),
        ],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    assert!(!legal(&g, S0).contains(&Action::PlayGhost { target: S1 }));
}

/// 猫がいる場合、ゴーストも猫も捨て札になります。
#[test]
fn ghost_meeting_a_cat_discards_both() {
    let mut g = game(
        &[
            H::default(),
            H::default().rooms(First, &[Floor1Bulbs0]).cats(First, 1),
        ],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    let f = floor(&g, S1, First);
    assert_eq!((f.cats, f.ghost, f.room_count()), (0, false, 1));
    assert_eq!(public_discards(&g).get(Ghost), 1);
    assert_eq!(public_discards(&g).get(Cat), 1);
    // No defence question: the turn passed.
    assert_eq!(active(&g), S1);
    assert_eq!(phase(&g), PhaseView::Choose);
}

/// そうでない場合は、相手に手札から猫を出して防御するチャンスが与えられます。
/// 相手がゴーストを出した場合、手札から猫を捨ててすぐに防御し、ゴーストを打ち消すこともできます。
/// これは、自分の手番でなくとも有効です。
#[test]
fn target_may_discard_a_cat_from_hand_out_of_turn() {
    let mut g = game(
        &[H::default(), H::default().rooms(First, &[Floor1Bulbs0])],
        &[&[Ghost], &[Cat, Floor1Bulbs1]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    assert_eq!(g.to_move(), takuge_engine::SeatSet::single(S1));
    assert!(legal(&g, S0).is_empty());
    play(&mut g, S1, Action::DefendWithCat);
    assert_eq!(floor(&g, S1, First).room_count(), 1);
    assert!(!hand(&g, S1).contains(&Cat));
    assert_eq!(
        (public_discards(&g).get(Ghost), public_discards(&g).get(Cat)),
        (1, 1)
    );
    assert_eq!(active(&g), S1);
}

/// その階の電気が消えている場合、そのゴーストとその階のすべての部屋カードは捨てられます。
#[test]
fn ghost_on_a_dark_floor_discards_the_ghost_and_every_room_of_the_floor() {
    let mut g = game(
        &[
            H::default(),
            H::default()
                .full_to(First)
                .rooms(Second, &[Floor2Bulbs0, Floor2Bulbs3]),
        ],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    play(&mut g, S1, Action::NoDefence);
    assert_eq!(floor(&g, S1, Second), FloorState::default());
    assert!(floor(&g, S1, First).is_full());
    let public = public_discards(&g);
    assert_eq!(
        (
            public.get(Ghost),
            public.get(Floor2Bulbs0),
            public.get(Floor2Bulbs3)
        ),
        (1, 1, 1)
    );
}

/// その階の電気が点いている場合、その階にゴーストが2体いない限り、ゴーストは留まります。
#[test]
fn ghost_on_a_lit_floor_stays() {
    let mut g = game(
        &[
            H::default(),
            H::default().rooms(First, &[Floor1Bulbs0]).lit(First),
        ],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    play(&mut g, S1, Action::NoDefence);
    let f = floor(&g, S1, First);
    assert!(f.ghost && f.lit && f.room_count() == 1);
}

/// ゴーストが2体いた場合、部屋とゴーストのカードは上記のように捨てられ、電気は消えます。
/// (Two ghosts meet through the space-time hole: 時空の穴.)
#[test]
fn two_ghosts_on_a_lit_floor_discard_rooms_and_ghosts_and_put_the_light_out() {
    let mut g = with_specials(game(
        &[
            H::default()
                .rooms(First, &[Floor1Bulbs0])
                .lit(First)
                .ghost(First),
            H::default()
                .full_to(First)
                .lit(First)
                .lit(Second)
                .rooms(Second, &[Floor2Bulbs2])
                .ghost(Second),
        ],
        &[&[SpaceTimeHole], &[]],
        &filler_deck(),
    ));
    play(
        &mut g,
        S0,
        Action::PlaySpaceTimeHole {
            from: S0,
            floor: First,
            to: S1,
        },
    );
    assert!(!floor(&g, S0, First).ghost);
    play(&mut g, S1, Action::NoDefence);
    let f = floor(&g, S1, Second);
    assert_eq!(f, FloorState::default(), "rooms and ghosts gone, light out");
    assert_eq!(public_discards(&g).get(Ghost), 2);
    assert!(floor(&g, S1, First).lit);
}

// --- Cats --------------------------------------------------------------------------

/// 手札から猫カードを1枚、自分の家に出します。探索したどの部屋にも重ねて置くことができますが、
/// 他の猫の上に置いてはいけません。
#[test]
fn cat_goes_on_an_explored_room_without_a_cat() {
    let mut g = game(
        &[
            H::default()
                .full_to(First)
                .rooms(Second, &[Floor2Bulbs0])
                .cats(Second, 1),
            H::default(),
        ],
        &[&[Cat, Cat], &[]],
        &filler_deck(),
    );
    let actions = legal(&g, S0);
    assert!(actions.contains(&Action::PlayCat { floor: First }));
    assert!(
        !actions.contains(&Action::PlayCat { floor: Second }),
        "its only room has a cat"
    );
    assert!(
        !actions.contains(&Action::PlayCat { floor: Third }),
        "not explored"
    );
    play(&mut g, S0, Action::PlayCat { floor: First });
    assert_eq!(floor(&g, S0, First).cats, 1);
}

/// 猫がゴーストの上に置かれたり、ゴーストのいる階に置かれた場合、猫とゴーストの両方が捨てられますが、
/// 部屋カードは残ります。
#[test]
fn cat_on_a_floor_with_a_ghost_discards_both_and_the_rooms_stay() {
    let mut g = game(
        &[
            H::default()
                .rooms(First, &[Floor1Bulbs0])
                .lit(First)
                .ghost(First),
            H::default(),
        ],
        &[&[Cat], &[]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayCat { floor: First });
    let f = floor(&g, S0, First);
    assert_eq!(
        (f.ghost, f.cats, f.room_count(), f.lit),
        (false, 0, 1, true)
    );
    assert_eq!(
        (public_discards(&g).get(Ghost), public_discards(&g).get(Cat)),
        (1, 1)
    );
}

// --- Lights ------------------------------------------------------------------------

/// 電球のアイコンが合計5個以上になるように部屋カードを2~3枚捨てます。他の2枚のカードが合計で
/// 5個以上の電球アイコンを持っていれば、電球アイコン0個のカードを捨てることも可能です。
#[test]
fn light_takes_two_or_three_room_cards_with_five_bulbs() {
    assert!(light_set_valid(&[3, 2]));
    assert!(!light_set_valid(&[2, 2]));
    assert!(light_set_valid(&[2, 2, 1]));
    assert!(
        light_set_valid(&[3, 2, 0]),
        "a 0-bulb card beside a pair of 5"
    );
    assert!(
        !light_set_valid(&[3, 2, 1]),
        "only a 0-bulb card may ride along"
    );
    assert!(!light_set_valid(&[3]));

    let mut g = game(
        &[H::default(), H::default()],
        &[&[Floor1Bulbs3, Floor2Bulbs2, Floor3Bulbs0], &[]],
        &filler_deck(),
    );
    let lights: Vec<Action> = legal(&g, S0)
        .into_iter()
        .filter(|a| matches!(a, Action::Light { .. }))
        .collect();
    // Five bulbs light with two cards, or with the 0-bulb card added; nothing else.
    assert_eq!(
        lights,
        vec![
            light(&[Floor1Bulbs3, Floor2Bulbs2], First),
            light(&[Floor1Bulbs3, Floor2Bulbs2, Floor3Bulbs0], First),
        ]
    );
    refused(&mut g, S0, light(&[Floor1Bulbs3, Floor3Bulbs0], First));
    play(
        &mut g,
        S0,
        light(&[Floor1Bulbs3, Floor2Bulbs2, Floor3Bulbs0], First),
    );
    assert!(floor(&g, S0, First).lit);
    assert_eq!(
        public_discards(&g).total(),
        3,
        "light cards are discarded face up"
    );
    assert_eq!(hand(&g, S0).len(), 3, "refilled at the end of the turn");
}

/// The packed check of a light (`legal::light_set`, the one rule) agrees with the rule
/// as written, `light_set_valid` below, on every set of 2 or 3 room cards (and refuses
/// other cards).
#[test]
fn light_check_on_packed_cards_agrees_with_the_rule() {
    let rooms: Vec<Card> = Card::ALL
        .into_iter()
        .filter(|c| c.is_printed_room())
        .collect();
    let mut checked = 0;
    for (i, &a) in rooms.iter().enumerate() {
        for (j, &b) in rooms.iter().enumerate().skip(i) {
            assert_eq!(light_set(&[a, b]), light_set_valid(&[a.bulbs(), b.bulbs()]));
            for &c in rooms.iter().skip(j) {
                assert_eq!(
                    light_set(&[a, b, c]),
                    light_set_valid(&[a.bulbs(), b.bulbs(), c.bulbs()]),
                    "{a} {b} {c}"
                );
                checked += 1;
            }
        }
        assert!(!light_set(&[a]));
        assert!(!light_set(&[a, WildRoom]));
    }
    assert_eq!(checked, 364);
}

/// Cards that cannot make five bulbs are not offered.
#[test]
fn light_is_not_offered_without_five_bulbs() {
    let g = game(
        &[H::default(), H::default()],
        &[&[Floor1Bulbs2, Floor2Bulbs2, Floor3Bulbs0], &[]],
        &filler_deck(),
    );
    assert!(!legal(&g, S0)
        .iter()
        .any(|a| matches!(a, Action::Light { .. })));
}

/// 次に、自分の家の階を選んで電気をつけます。電気をつけるには、下の階をすべて完全に探索する
/// 必要があります。1階はいつでも電気をつけることができます。
#[test]
fn light_only_above_fully_explored_floors_and_the_first_floor_always() {
    let g = game(
        &[H::default().rooms(First, &[Floor1Bulbs0]), H::default()],
        &[&[Floor1Bulbs3, Floor2Bulbs3], &[]],
        &filler_deck(),
    );
    let floors = |g: &GhostAtHome| -> Vec<Floor> {
        legal(g, S0)
            .into_iter()
            .filter_map(|a| match a {
                Action::Light { floor, .. } => Some(floor),
                _ => None,
            })
            .collect()
    };
    assert_eq!(floors(&g), vec![First]);
    let mut g2 = g.clone();
    refused(&mut g2, S0, light(&[Floor1Bulbs3, Floor2Bulbs3], Second));

    let g = game(
        &[H::default().full_to(Second).lit(First), H::default()],
        &[&[Floor1Bulbs3, Floor2Bulbs3], &[]],
        &filler_deck(),
    );
    assert_eq!(floors(&g), vec![Second, Third]);
}

// --- Special cards -----------------------------------------------------------------

/// 時空の穴:自分の家を含むお化け屋敷のゴーストを、相手の家の部屋カードがある最上階に移動させます。
#[test]
fn space_time_hole_moves_a_ghost_to_an_opponents_highest_floor() {
    let mut g = with_specials(game(
        &[
            H::default()
                .rooms(First, &[Floor1Bulbs0])
                .lit(First)
                .ghost(First),
            H::default().rooms(First, &[Floor1Bulbs1, Floor1Bulbs2]),
        ],
        &[&[SpaceTimeHole], &[Cat]],
        &filler_deck(),
    ));
    assert!(!legal(&g, S0).contains(&Action::PlaySpaceTimeHole {
        from: S0,
        floor: First,
        to: S0
    }));
    play(
        &mut g,
        S0,
        Action::PlaySpaceTimeHole {
            from: S0,
            floor: First,
            to: S1,
        },
    );
    // The moved ghost arrives like a played one: the target may defend.
    assert_eq!(
        legal(&g, S1),
        vec![Action::NoDefence, Action::DefendWithCat]
    );
    play(&mut g, S1, Action::NoDefence);
    assert_eq!(floor(&g, S1, First).room_count(), 0);
    assert!(!floor(&g, S0, First).ghost);
}

/// 電球:自分の家のどの階でも、下の階が完全に探索されている限り、電気をつけます。
#[test]
fn light_bulb_lights_a_floor_above_fully_explored_floors() {
    let mut g = with_specials(game(
        &[H::default().full_to(First), H::default()],
        &[&[LightBulb], &[]],
        &filler_deck(),
    ));
    let actions = legal(&g, S0);
    assert!(actions.contains(&Action::PlayLightBulb { floor: Second }));
    assert!(!actions.contains(&Action::PlayLightBulb { floor: Third }));
    play(&mut g, S0, Action::PlayLightBulb { floor: Second });
    assert!(floor(&g, S0, Second).lit);
}

/// キャットフード:相手の家から自分の家へ猫を移動させます。
#[test]
fn cat_food_moves_a_cat_from_an_opponents_house_to_yours() {
    let mut g = with_specials(game(
        &[
            H::default().rooms(First, &[Floor1Bulbs0]),
            H::default().rooms(First, &[Floor1Bulbs0]).cats(First, 1),
        ],
        &[&[CatFood], &[]],
        &filler_deck(),
    ));
    play(
        &mut g,
        S0,
        Action::PlayCatFood {
            from: S1,
            floor: First,
            to: First,
        },
    );
    assert_eq!(
        (floor(&g, S0, First).cats, floor(&g, S1, First).cats),
        (1, 0)
    );
}

/// エレベーター:自分の家のフロア間でネコを移動させます。
#[test]
fn elevator_moves_a_cat_between_floors_of_your_house() {
    let mut g = with_specials(game(
        &[
            H::default()
                .full_to(First)
                .cats(First, 1)
                .rooms(Second, &[Floor2Bulbs0]),
            H::default(),
        ],
        &[&[Elevator], &[]],
        &filler_deck(),
    ));
    assert!(!legal(&g, S0).contains(&Action::PlayElevator {
        from: First,
        to: First
    }));
    play(
        &mut g,
        S0,
        Action::PlayElevator {
            from: First,
            to: Second,
        },
    );
    assert_eq!(
        (floor(&g, S0, First).cats, floor(&g, S0, Second).cats),
        (0, 1)
    );
}

/// 雷:相手の探索した最上階の部屋の電気を消します。
#[test]
fn lightning_puts_out_the_light_of_an_opponents_highest_explored_floor() {
    let mut g = with_specials(game(
        &[
            H::default(),
            H::default()
                .full_to(First)
                .lit(First)
                .rooms(Second, &[Floor2Bulbs0])
                .lit(Second),
        ],
        &[&[Lightning, Lightning], &[]],
        &filler_deck(),
    ));
    play(&mut g, S0, Action::PlayLightning { target: S1 });
    assert!(!floor(&g, S1, Second).lit);
    assert!(floor(&g, S1, First).lit, "only the highest explored floor");
    // A lit floor holding a ghost is lost when the light goes out.
    let mut g = with_specials(game(
        &[
            H::default(),
            H::default()
                .rooms(First, &[Floor1Bulbs0])
                .lit(First)
                .ghost(First),
        ],
        &[&[Lightning], &[]],
        &filler_deck(),
    ));
    play(&mut g, S0, Action::PlayLightning { target: S1 });
    assert_eq!(floor(&g, S1, First), FloorState::default());
}

// --- Discarding, refilling, reshuffling --------------------------------------------

/// The packed hand lists its cards in face order, and its parts are exactly the distinct
/// non-empty sub-multisets, each once (checked for every hand of up to 3 cards).
#[test]
fn packed_hands_list_their_cards_and_every_part_once() {
    let mut hands = 0;
    for a in 0..=Card::ALL.len() {
        for b in a..=Card::ALL.len() {
            for c in b..=Card::ALL.len() {
                // Index 20 (past the faces) is "no card": a ≤ b ≤ c, so it only ends a hand.
                let cards: Vec<Card> = [a, b, c]
                    .into_iter()
                    .filter_map(|i| Card::ALL.get(i).copied())
                    .collect();
                assert_eq!(hand_list(&cards), cards);
                let mut expected = std::collections::HashSet::new();
                for mask in 1..(1u32 << cards.len()) {
                    let part: Vec<Card> = (0..cards.len())
                        .filter(|i| mask >> i & 1 == 1)
                        .map(|i| cards[i])
                        .collect();
                    expected.insert(hand_list(&part));
                }
                let parts = hand_parts(&cards);
                let unique: std::collections::HashSet<Vec<Card>> = parts.iter().cloned().collect();
                assert_eq!(unique.len(), parts.len(), "a part twice for {cards:?}");
                assert_eq!(unique, expected, "{cards:?}");
                hands += 1;
            }
        }
    }
    assert_eq!(hands, 1 + 20 + 210 + 1540);
}

/// Actions travel as JSON: a set of cards is a list of 1 to 3 cards in any order.
#[test]
fn card_sets_read_and_write_as_lists_of_one_to_three_cards() {
    let action = discard(&[Ghost, Floor3Bulbs2]);
    let json = serde_json::to_string(&action).expect("serializes");
    assert_eq!(
        json,
        r#"{"type":"discard_cards","cards":["floor3_bulbs2","ghost"]}"#
    );
    let back: Action =
        serde_json::from_str(r#"{"type":"discard_cards","cards":["ghost","floor3_bulbs2"]}"#)
            .expect("any order");
    assert_eq!(back, action);
    for bad in [
        r#"{"type":"discard_cards","cards":[]}"#,
        r#"{"type":"discard_cards","cards":["cat","cat","cat","cat"]}"#,
        r#"{"type":"discard_cards","cards":"cat"}"#,
    ] {
        assert!(serde_json::from_str::<Action>(bad).is_err(), "{bad}");
    }
    let lit = light(&[Floor1Bulbs3, Floor2Bulbs2], First);
    let json = serde_json::to_string(&lit).expect("serializes");
    assert_eq!(serde_json::from_str::<Action>(&json).ok(), Some(lit));
}

/// 手番プレイヤーは、自分の家の探索が終わっていない場合、最大3枚までカードを補充します。
#[test]
fn refill_to_three_at_the_end_of_the_turn() {
    let mut g = game(
        &[H::default(), H::default()],
        &[&[Floor1Bulbs0, Floor1Bulbs1, Ghost], &[]],
        &[Floor3Bulbs1; 5],
    );
    play(&mut g, S0, rooms(&[Floor1Bulbs0, Floor1Bulbs1]));
    assert_eq!(
        hand(&g, S0),
        hand_list(&[Ghost, Floor3Bulbs1, Floor3Bulbs1])
    );
    assert_eq!(deck(&g).len(), 3);
}

/// 山札がなくなったら、山札をシャッフルしてから補充します。
#[test]
fn discard_pile_is_reshuffled_when_the_deck_runs_out() {
    let mut g = game(
        &[H::default(), H::default().rooms(First, &[Floor1Bulbs0])],
        &[&[Ghost, Floor3Bulbs3], &[]],
        &[],
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    play(&mut g, S1, Action::NoDefence);
    // The deck was empty: the ghost and the room went back into it and were drawn.
    assert_eq!(reshuffles(&g), 1);
    assert_eq!(hand(&g, S0).len(), 3);
    assert_eq!(
        hand(&g, S0),
        hand_list(&[Floor1Bulbs0, Ghost, Floor3Bulbs3])
    );
    assert_eq!(pile_len(&g), 0);
}

// --- Escape ------------------------------------------------------------------------

/// 手番プレイヤーの家が探索し尽くされた場合(たとえ電気が消えていても)、そのプレイヤーは手札を補充
/// しません。その代わり、他の各プレイヤーはゴーストを1体出して脱出を阻止するチャンスがあります。
/// 脱出が阻止されなかった場合は、脱出したプレイヤーの勝利となります。
#[test]
fn escape_every_other_player_may_play_one_ghost_and_unstopped_escape_wins() {
    let mut g = game(
        &[
            H::default().full_to(Second).rooms(Third, &[Floor3Bulbs0]),
            H::default(),
            H::default(),
        ],
        &[&[Floor3Bulbs1], &[Floor1Bulbs0], &[Cat]],
        &filler_deck(),
    );
    play(&mut g, S0, rooms(&[Floor3Bulbs1]));
    assert_eq!(hand(&g, S0).len(), 0, "no refill");
    // Asked in turn order, with or without a ghost.
    assert_eq!(legal(&g, S1), vec![Action::LetEscape]);
    play(&mut g, S1, Action::LetEscape);
    assert_eq!(legal(&g, S2), vec![Action::LetEscape]);
    play(&mut g, S2, Action::LetEscape);
    assert!(g.is_over());
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.winners().collect::<Vec<_>>(), vec![S0]);
    assert_eq!(outcome.ranks, vec![1, 2, 2]);
}

/// ゴーストの対象となったプレイヤーは、通常通り、手札からネコを捨てて防御することができます。
/// 脱出を阻止された場合、脱出しようとしたプレイヤーから順に手札を補充します。そして、逃げようとした
/// プレイヤーの次のプレイヤーからゲームを再開します。
#[test]
fn stopped_escape_refills_from_the_escaper_and_resumes_with_the_next_player() {
    let mut g = game(
        &[
            H::default().full_to(Second).rooms(Third, &[Floor3Bulbs0]),
            H::default(),
            H::default(),
        ],
        &[&[Floor3Bulbs1, Cat], &[Ghost, Floor1Bulbs0], &[Ghost]],
        &[Floor2Bulbs0; 10],
    );
    play(&mut g, S0, rooms(&[Floor3Bulbs1]));
    play(&mut g, S1, Action::StopEscape);
    // The escaper defends with a cat from hand, as usual.
    play(&mut g, S0, Action::DefendWithCat);
    assert!(house_full(&g, S0));
    assert!(matches!(
        phase(&g),
        PhaseView::Escape {
            asking: S2,
            ghosts_left: 1
        }
    ));
    play(&mut g, S2, Action::StopEscape);
    play(&mut g, S0, Action::NoDefence);
    assert_eq!(floor(&g, S0, Third).room_count(), 0);
    for s in [S0, S1, S2] {
        assert_eq!(hand(&g, s).len(), 3, "{s} refilled");
    }
    assert_eq!(active(&g), S1);
    assert_eq!(phase(&g), PhaseView::Choose);
    assert!(!g.is_over());
}

/// 2人プレイの場合、相手は最大2体のゴーストをプレイして逃亡を阻止することができます。
#[test]
fn two_player_escape_may_be_stopped_with_two_ghosts() {
    let mut g = game(
        &[
            H::default()
                .full_to(Second)
                .rooms(Third, &[Floor3Bulbs0])
                .cats(Third, 1),
            H::default(),
        ],
        &[&[Floor3Bulbs1], &[Ghost, Ghost]],
        &[Floor2Bulbs0; 10],
    );
    play(&mut g, S0, rooms(&[Floor3Bulbs1]));
    play(&mut g, S1, Action::StopEscape);
    // The first ghost met the cat; the same opponent may play a second.
    assert!(matches!(
        phase(&g),
        PhaseView::Escape {
            asking: S1,
            ghosts_left: 1
        }
    ));
    play(&mut g, S1, Action::StopEscape);
    play(&mut g, S0, Action::NoDefence);
    assert!(!house_full(&g, S0));
    assert_eq!(active(&g), S1);
}

/// A lit top floor holds against one ghost; the escape then succeeds once no ghost can
/// be played (対象には…ゴーストはいてはいけません).
#[test]
fn lit_top_floor_escape_survives_one_ghost() {
    let mut g = game(
        &[
            H::default()
                .full_to(Second)
                .rooms(Third, &[Floor3Bulbs0])
                .lit(Third),
            H::default(),
        ],
        &[&[Floor3Bulbs1], &[Ghost, Ghost]],
        &filler_deck(),
    );
    play(&mut g, S0, rooms(&[Floor3Bulbs1]));
    play(&mut g, S1, Action::StopEscape);
    play(&mut g, S0, Action::NoDefence);
    assert!(floor(&g, S0, Third).ghost);
    assert_eq!(winner(&g), Some(S0));
}

// --- Engine contracts: secrets, validation, bots -----------------------------------

/// The game's own random playout plays its drawn actions without `apply`'s check: it
/// must play exactly the games of the engine's checked loop.
#[test]
fn random_playout_plays_the_same_games_as_the_checked_loop() {
    for special_cards in [false, true] {
        for players in 2..=4 {
            for seed in 0..200 {
                let options = Options { special_cards };
                let mut fast = GhostAtHome::new(&options, players, seed).expect("setup");
                let mut checked = fast.clone();
                let (mut rng_a, mut rng_b) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
                let (mut buf_a, mut buf_b) = (Vec::new(), Vec::new());
                let a =
                    takuge_engine::bot::random_playout(&mut fast, &mut rng_a, &mut buf_a, 5_000);
                let b = takuge_engine::bot::checked_random_playout(
                    &mut checked,
                    &mut rng_b,
                    &mut buf_b,
                    5_000,
                );
                assert_eq!(a, b);
                assert_eq!(fast, checked);
                assert!(fast.is_over());
                // A cut-off playout stops at the same place too.
                let mut fast = GhostAtHome::new(&options, players, seed).expect("setup");
                let mut checked = fast.clone();
                let (mut rng_a, mut rng_b) = (GameRng::from_seed(seed), GameRng::from_seed(seed));
                takuge_engine::bot::random_playout(&mut fast, &mut rng_a, &mut buf_a, 17);
                takuge_engine::bot::checked_random_playout(
                    &mut checked,
                    &mut rng_b,
                    &mut buf_b,
                    17,
                );
                assert_eq!(fast, checked);
            }
        }
    }
}

/// Every action `apply` accepts is listed by `legal_actions`, and the other way round
/// (`apply` asks `fast.rs`'s `is_legal`, which checks an action without listing).
#[test]
fn apply_accepts_exactly_the_listed_actions() {
    let mut universe = vec![
        Action::Discard,
        Action::DefendWithCat,
        Action::NoDefence,
        Action::StopEscape,
        Action::LetEscape,
        Action::Pass,
    ];
    let seats: Vec<Seat> = (0..5).map(Seat).collect();
    for &s in &seats {
        universe.push(Action::PlayGhost { target: s });
        universe.push(Action::PlayLightning { target: s });
        for f in Floor::ALL {
            for t in Floor::ALL {
                universe.push(Action::PlayCatFood {
                    from: s,
                    floor: f,
                    to: t,
                });
            }
            for &to in &seats {
                universe.push(Action::PlaySpaceTimeHole {
                    from: s,
                    floor: f,
                    to,
                });
            }
        }
    }
    for f in Floor::ALL {
        universe.push(Action::PlayCat { floor: f });
        universe.push(Action::PlayLightBulb { floor: f });
        for t in Floor::ALL {
            universe.push(Action::PlayElevator { from: f, to: t });
        }
    }
    // Actions choosing cards: every set of 1 to 3 cards taken from the seat's hand and
    // two random cards (so sets the hand does not hold are probed too).
    let card_actions = |held: Vec<Card>, rng: &mut GameRng| -> Vec<Action> {
        let mut pool = held;
        for _ in 0..2 {
            pool.push(Card::ALL[rng.index(Card::ALL.len())]);
        }
        let mut sets = std::collections::HashSet::new();
        for mask in 1u32..(1 << pool.len()) {
            if mask.count_ones() <= 3 {
                let picked: Vec<Card> = (0..pool.len())
                    .filter(|i| mask >> i & 1 == 1)
                    .map(|i| pool[i])
                    .collect();
                sets.insert(cs(&picked));
            }
        }
        let mut actions = Vec::new();
        for cards in sets {
            actions.push(Action::PlayRooms { cards });
            actions.push(Action::DiscardCards { cards });
            for floor in Floor::ALL {
                actions.push(Action::Light { cards, floor });
            }
        }
        actions
    };
    let mut rng = GameRng::from_seed(77);
    let mut checked = 0;
    for seed in 0..30 {
        let players = 2 + (seed as usize % 3);
        let mut g = GhostAtHome::new(
            &Options {
                special_cards: seed % 2 == 0,
            },
            players,
            seed,
        )
        .expect("setup");
        while let Some(mover) = g.to_move().first_seat() {
            let other = seats[rng.index(seats.len())];
            for seat in [mover, other] {
                let listed = legal(&g, seat);
                // Empty for a seat beyond the table.
                let mut probes = card_actions(hand(&g, seat), &mut rng);
                probes.extend(universe.iter().copied());
                for a in &probes {
                    let mut probe = g.clone();
                    let ok = probe.apply(seat, a).is_ok();
                    assert_eq!(ok, listed.contains(a), "{seat} {a:?} in {:?}", phase(&g));
                    checked += 1;
                }
                for a in &listed {
                    assert!(probes.contains(a), "{a:?} was not probed");
                }
            }
            let listed = legal(&g, mover);
            let a = *rng.pick(&listed).expect("pending seats have actions");
            play(&mut g, mover, a);
        }
        assert_eq!(g.apply(S0, &Action::Pass), Err(ActionError::GameOver));
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn bots_are_rules_then_random_then_monte_carlo() {
    let names: Vec<&str> = takuge_ghost_at_home::bots()
        .iter()
        .map(|(n, _)| *n)
        .collect();
    assert_eq!(names, vec!["rules", "random", "monte-carlo"]);
}

/// The rule-following bot beats random players most of the time.
#[test]
fn rules_bot_beats_random_players() {
    let mut rng = GameRng::from_seed(5);
    let games = 60;
    let mut wins = 0;
    for seed in 0..games {
        let players = 2 + (seed as usize % 3);
        let mut g = GhostAtHome::new(
            &Options {
                special_cards: seed % 2 == 1,
            },
            players,
            seed,
        )
        .expect("setup");
        let me = Seat((seed % players as u64) as u8);
        let mut rules = RulesBot::default();
        let mut random = RandomBot::<GhostAtHome>::boxed();
        while let Some(seat) = g.to_move().first_seat() {
            let bot: &mut dyn Bot<GhostAtHome> = if seat == me {
                &mut rules
            } else {
                random.as_mut()
            };
            let a = bot_move(bot, &g, seat, &mut rng).expect("an action");
            play(&mut g, seat, a);
        }
        wins += usize::from(winner(&g) == Some(me));
    }
    assert!(wins >= games as usize * 3 / 4, "won {wins} of {games}");
}

/// The bot defends with a cat when a dark floor is at stake, and always stops escapes.
#[test]
fn rules_bot_defends_dark_floors_and_stops_escapes() {
    let mut g = game(
        &[
            H::default(),
            H::default().rooms(First, &[Floor1Bulbs0, Floor1Bulbs1]),
        ],
        &[&[Ghost], &[Cat, Floor2Bulbs0]],
        &filler_deck(),
    );
    play(&mut g, S0, Action::PlayGhost { target: S1 });
    let mut rng = GameRng::from_seed(1);
    let mut bot = RulesBot::default();
    assert_eq!(
        bot_move(&mut bot, &g, S1, &mut rng),
        Some(Action::DefendWithCat)
    );

    let mut g = game(
        &[
            H::default().full_to(Second).rooms(Third, &[Floor3Bulbs0]),
            H::default(),
        ],
        &[&[Floor3Bulbs1], &[Ghost, Floor1Bulbs0]],
        &filler_deck(),
    );
    play(&mut g, S0, rooms(&[Floor3Bulbs1]));
    assert_eq!(
        bot_move(&mut bot, &g, S1, &mut rng),
        Some(Action::StopEscape)
    );
}

/// `sample_action` draws uniformly from exactly the legal actions, and gives nothing to
/// a seat that has nothing to decide.
#[test]
fn sample_action_draws_every_legal_action_and_only_those() {
    let mut rng = GameRng::from_seed(21);
    let mut buf = Vec::new();
    for seed in 0..40 {
        let players = 2 + (seed as usize % 3);
        let mut g = GhostAtHome::new(
            &Options {
                special_cards: seed % 2 == 0,
            },
            players,
            seed,
        )
        .expect("setup");
        for _ in 0..40 {
            let Some(mover) = g.to_move().first_seat() else {
                break;
            };
            for seat in Seat::all(players).filter(|&s| s != mover) {
                assert_eq!(g.sample_action(seat, &mut rng, &mut buf), None);
            }
            let listed = legal(&g, mover);
            let mut seen = std::collections::HashMap::new();
            let per_action = 200;
            for _ in 0..per_action * listed.len() {
                let a = g
                    .sample_action(mover, &mut rng, &mut buf)
                    .expect("an action");
                assert!(listed.contains(&a), "{a:?} not in {listed:?}");
                *seen.entry(a).or_insert(0usize) += 1;
            }
            assert_eq!(seen.len(), listed.len(), "some legal action never drawn");
            // Uniform: each about `per_action` times (a fixed seed, so no flakiness).
            for (a, &count) in &seen {
                assert!(
                    (per_action / 2..per_action * 3 / 2).contains(&count),
                    "{a:?} drawn {count} times of {}",
                    per_action * listed.len()
                );
            }
            let a = *rng.pick(&listed).expect("pending");
            play(&mut g, mover, a);
        }
    }
}

/// Seats are numbered as the table shows them: 「N番席」, from 1 (and "seat N" in English).
#[test]
fn seats_in_the_log_are_numbered_from_one_as_on_the_table() {
    let g = GhostAtHome::new(&Options::default(), 2, 1).expect("a game");
    let action = Action::PlayGhost { target: Seat(1) };
    assert_eq!(
        g.describe_for_in(Seat(0), &action, Viewer::Spectator, Lang::Ja)
            .as_deref(),
        Some("2番席にゴーストを出す")
    );
    assert_eq!(g.describe(&action), "play a ghost at seat 2");
}

/// A refusal says why, in words the seat may read: a card it does not hold, or an action
/// that does not fit now; and the engine's reasons for a seat not at the table or not
/// pending. A refused action leaves the state as it was.
#[test]
fn refusals_name_the_missing_card_or_say_not_now() {
    let mut g = game(
        &[H::default(), H::default().rooms(First, &[Floor1Bulbs0])],
        &[&[Floor1Bulbs1], &[Cat]],
        &filler_deck(),
    );
    let illegal = |r| Err(ActionError::Illegal(r));
    assert_eq!(
        g.apply(S0, &Action::PlayGhost { target: S1 }),
        illegal(Reject::NotInHand(Ghost))
    );
    assert_eq!(
        g.apply(S0, &Action::PlayCat { floor: First }),
        illegal(Reject::NotInHand(Cat))
    );
    assert_eq!(
        g.apply(S0, &rooms(&[Floor2Bulbs0])),
        illegal(Reject::NotInHand(Floor2Bulbs0))
    );
    assert_eq!(
        g.apply(S0, &Action::LetEscape),
        illegal(Reject::NotAllowedNow)
    );
    assert_eq!(
        g.apply(S1, &Action::Discard),
        Err(ActionError::NotYourTurn(S1))
    );
    assert_eq!(
        g.apply(Seat(2), &Action::Discard),
        Err(ActionError::NoSuchSeat(Seat(2)))
    );
    refused(&mut g, S0, rooms(&[Floor2Bulbs0]));
}
