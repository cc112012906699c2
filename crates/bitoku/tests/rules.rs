//! A scenario per rule sentence of the seed (../shared/seeds/003_e6e4805045b2ea51.txt),
//! named after the rule, quoting the Japanese it checks.

mod common;

use common::*;
use takuge_bitoku::testing::*;
use takuge_bitoku::*;
use takuge_engine::{Game, GameRng, Seat};

// ---- 3-1 ゲームボードの準備 ----

#[test]
fn board_side_follows_the_player_count() {
    // ①ゲームボードをプレイヤーの人数に合わせた面を表にして
    for (players, small) in [(1, true), (2, true), (3, false), (4, false)] {
        assert_eq!(is_small_side(&game(players, 1)), small, "{players} players");
    }
}

#[test]
fn one_torii_a_and_one_torii_b() {
    // ③「鳥居タイル」を「A」と「B」に分けて…それぞれのタイルをランダムに選び
    for seed in 0..10 {
        let [a, b] = torii(&game(3, seed));
        assert_eq!(comp().tiles.torii[usize::from(a)].side, ToriiSide::A);
        assert_eq!(comp().tiles.torii[usize::from(b)].side, ToriiSide::B);
    }
}

#[test]
fn ancient_buildings_by_player_count() {
    // ④1~2人…5つの領域のそれぞれ…3人プレイの時は、「黄泉の地」と「翡翠の空き地」…4人…使用しない
    let ancient = |g: &Bitoku| -> Vec<usize> {
        settlements_all(g)
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s[0], Settled::Ancient(_)))
            .map(|(r, _)| r)
            .collect()
    };
    assert_eq!(ancient(&game(1, 2)).len(), 5);
    assert_eq!(ancient(&game(2, 2)).len(), 5);
    let three = ancient(&game(3, 2));
    assert_eq!(
        three,
        vec![
            usize::from(region("yomi")),
            usize::from(region("jade-glade"))
        ]
    );
    assert!(ancient(&game(4, 2)).is_empty());
}

#[test]
fn two_players_place_a_neutral_kodama_on_space_four() {
    // ⑤2人プレイ時は、使用しない色の「木霊マーカー」を各領域の「木霊トラック」の4マス目に
    assert!(neutral(&game(2, 3)));
    assert!(!neutral(&game(3, 3)));
    let mut g = game(2, 3);
    set_lake(&mut g, 0, 0); // points 8, 5, 3, 1
    set_kodama(&mut g, 0, 0, 2);
    // The neutral kodama (space 4) is first: seat 0 is second.
    assert_eq!(lake_points(&g, 0, 0), 5);
}

#[test]
fn tiles_in_two_equal_stacks_with_displays_filled() {
    // ⑥…同じ枚数の2つの山を作成し…山からタイルを引き、表にして置く
    let g = game(4, 4);
    for kind in [Kind::Building, Kind::Crystal, Kind::Mitama] {
        let [a, b] = display(&g, kind);
        assert_eq!(a.stack.len(), b.stack.len(), "{kind:?}");
        assert!(a.display.iter().take(3).all(Option::is_some));
        assert!(b.display.iter().take(3).all(Option::is_some));
    }
}

#[test]
fn iwakura_one_secret_rock_each_two_face_up() {
    // ⑦…表面を見ずに各プレイヤーへ1枚ずつ配る。その後…ランダムに選び表面を上にして置き
    let g = game(4, 5);
    assert!(face_up_rocks(&g).iter().all(Option::is_some));
    let v = g.view(takuge_engine::Viewer::Seat(Seat(0)));
    assert!(v.players[0].rock.is_some());
    assert!(v.players[1..].iter().all(|p| p.rock.is_none()));
    assert_eq!(boxed_rocks(&g), 13 - 4 - 2);
}

#[test]
fn hills_hold_four_bitoku_and_four_yokai_cards() {
    // ⑨この「美徳カード」の山から4枚を引き…⑩この山から4枚のカードを引き
    let g = game(2, 6);
    for h in hills(&g) {
        assert!(h.bitoku.is_some() && h.yokai.is_some());
    }
}

// ---- 3-2 プレイヤーの準備 ----

#[test]
fn each_player_starts_with_the_seed_components() {
    let g = game(4, 8);
    for s in 0..4 {
        let p = g.player(s);
        // ②…目を「3」、「2」、「1」とする
        assert_eq!(
            p.dice.map(|d| (d.value, d.at)),
            [3, 2, 1].map(|v| (v, DieAt::Red))
        );
        // ③…5つのマスの1つ目に置く
        assert_eq!(p.kodama, [0; 5]);
        // ④…3個を目覚め面…残り8個は眠りの面
        assert_eq!((p.awake, p.asleep), (3, 0xff));
        // ⑥「建物コマ」6個: none built yet
        assert_eq!(p.built, 0);
        // ⑦ a dragonfly, ⑧ a vision
        assert_eq!((p.dragonflies.len(), p.visions.len()), (1, 1));
        // ⑨「初期妖怪カード」5枚
        assert_eq!(p.owned_yokai(), 5);
        // ⑩「木材コマ」1個、「翡翠コマ」1個、「御守コマ(値1)」1個
        assert_eq!((p.goods.res, p.goods.amulets), ([1, 0, 1, 0], [1, 0, 0]));
    }
}

#[test]
fn turn_order_is_random() {
    // ⑤…マーカーを集めてシャッフルし、ランダムに配置する
    let orders: std::collections::HashSet<Vec<u8>> =
        (0..30).map(|s| game(4, s).order().to_vec()).collect();
    assert!(orders.len() > 5);
}

// ---- ① 春 ----

#[test]
fn spring_draws_to_four_then_discards_to_three() {
    // A)手札の「妖怪カード」が4枚になるまで引く。その後、手札が3枚になるように…捨て札にする
    let g = game(2, 9);
    let first = g.order()[0];
    assert_eq!(g.player(usize::from(first)).hand.len(), 4);
    let l = legal(&g, first);
    assert!(!l.is_empty() && l.iter().all(|a| matches!(a, Action::Discard { .. })));
    let g = at_summer(2, 9);
    for s in 0..2 {
        assert_eq!(g.player(s).hand.len(), 3);
        assert_eq!(g.player(s).discard.len(), 1);
    }
}

#[test]
fn spring_purple_crystals_in_any_order() {
    // B)…「夢の水晶タイル(紫色)」に示されている効果を得る…効果を得る順番は任意
    let mut g = summer2();
    let purple = crystal(CrystalColour::Purple); // gain 1 wood
    player_mut(&mut g, 0).crystals = [Some(purple), Some(purple + 1), None, None];
    begin_income(&mut g, 0);
    assert_eq!(
        legal(&g, 0),
        vec![Action::Next { task: 0 }, Action::Next { task: 1 }]
    );
    play(&mut g, 0, Action::Next { task: 1 });
    let p = g.player(0);
    // Wood from the first, stone from the second.
    assert_eq!((p.goods.res[0], p.goods.res[1]), (1, 1));
}

// ---- ② 夏 ----

#[test]
fn playing_a_yokai_releases_the_die_to_its_right() {
    // ・ダイスの開放:プレイした「妖怪カード」のすぐ右側にあるダイスが赤スペースにある場合は…解放済み
    let mut g = summer2();
    let y = yokai("imomushi");
    player_mut(&mut g, 0).hand = [y].into_iter().collect();
    play(&mut g, 0, Action::Play { yokai: y, slot: 1 });
    let p = g.player(0);
    assert_eq!(p.dice[1].at, DieAt::Green);
    assert_eq!(p.dice[0].at, DieAt::Red);
    // Imomushi's effect: 1 wood.
    assert_eq!(p.goods.res[0], 1);
    assert_eq!(g.to_move().first_seat(), Some(Seat(1)));
}

#[test]
fn a_yokai_effect_is_optional() {
    // ただし、効果の発動は任意なので実行しなくてもよい
    let mut g = summer2();
    let y = yokai("kitsune"); // choose: 2 jade or draw a yokai
    player_mut(&mut g, 0).hand = [y].into_iter().collect();
    play(&mut g, 0, Action::Play { yokai: y, slot: 0 });
    assert!(legal(&g, 0).contains(&Action::Skip));
    play(&mut g, 0, Action::Skip);
    assert_eq!(g.player(0).goods.res, [0; 4]);
}

#[test]
fn pink_resonance_before_or_after_the_yokai() {
    // 水晶の共鳴:…この効果は、「妖怪カード」の効果を発動させる前か後かで実行することができる
    let mut g = summer2();
    let y = yokai("imomushi");
    let pink = crystal(CrystalColour::Pink);
    let p = player_mut(&mut g, 0);
    p.hand = [y].into_iter().collect();
    p.crystals = [None, Some(pink), None, None]; // socket 1 touches slots 1 and 2
    play(&mut g, 0, Action::Play { yokai: y, slot: 2 });
    assert_eq!(
        legal(&g, 0),
        vec![Action::Next { task: 0 }, Action::Next { task: 1 }]
    );
}

#[test]
fn a_released_die_goes_to_the_forest_or_the_abode() {
    // B)…川より下の空いているダイススペース(「森エリア」)又は「大精霊の住み家」のダイススペース
    let mut g = summer2();
    player_mut(&mut g, 0).dice[0].at = DieAt::Green;
    player_mut(&mut g, 0).awake = 0;
    let l = legal(&g, 0);
    assert!(l.contains(&Action::Place {
        die: 0,
        at: Spot::Forest(4)
    }));
    assert!(l.contains(&Action::Place {
        die: 0,
        at: Spot::Abode(0)
    }));
    // Unreleased dice without a pilgrim to sacrifice: not placeable.
    assert!(!l.iter().any(|a| matches!(a, Action::Place { die: 1, .. })));
}

#[test]
fn amulets_raise_the_die_up_to_six_without_change() {
    // 「御守マーカー」(1~3)を好きなだけ使って…(上限「6」まで)…両替はできない
    let mut g = summer2();
    let p = player_mut(&mut g, 0);
    p.dice[0] = Die {
        value: 4,
        at: DieAt::Green,
    };
    p.goods.amulets = [1, 0, 1];
    play(
        &mut g,
        0,
        Action::Place {
            die: 0,
            at: Spot::Abode(0),
        },
    );
    // +3 would make 7: only the +1 token, or done.
    assert_eq!(
        legal(&g, 0),
        vec![Action::Amulet { value: 1 }, Action::Done]
    );
    play(&mut g, 0, Action::Amulet { value: 1 });
    assert_eq!(g.player(0).dice[0].value, 5);
    assert_eq!(g.player(0).goods.amulets, [0, 0, 1]);
}

#[test]
fn forest_action_when_at_least_every_other_die() {
    // 森アクション:置いたダイスの目が他のダイス(自分のダイスも含む)の目以上であれば
    let jade = region("jade-glade"); // value 3: 1 jade, 1 wood
    for (other, acts) in [(3, true), (4, false)] {
        let mut g = summer2();
        put_die_in_forest(&mut g, 1, 0, jade, other);
        player_mut(&mut g, 0).dice[0] = Die {
            value: 3,
            at: DieAt::Green,
        };
        set_settlement(&mut g, jade, 0, Settled::Empty);
        play(
            &mut g,
            0,
            Action::Place {
                die: 0,
                at: Spot::Forest(jade),
            },
        );
        let got = g.player(0).goods.res;
        assert_eq!(got == [1, 0, 1, 0], acts, "other die {other}: {got:?}");
    }
}

#[test]
fn building_action_not_above_the_die_pays_the_owners_bonus() {
    // 建物アクション:…置いたダイスの目以下の「建物タイル」があれば…他のプレイヤーが建設した
    // 「建物タイル」を使用する場合は…「所有権ボーナス」を受け取る
    let moss = region("moss-valley");
    let mut g = summer2();
    set_settlement(&mut g, moss, 0, Settled::Empty);
    let farm2 = building(BuildingKind::Farm, 2); // action: 1 stone; bonus: 1 wood
    let farm6 = building(BuildingKind::Farm, 6);
    set_settlement(
        &mut g,
        moss,
        1,
        Settled::Building {
            tile: farm2,
            owner: 1,
        },
    );
    set_settlement(
        &mut g,
        moss,
        2,
        Settled::Building {
            tile: farm6,
            owner: 1,
        },
    );
    put_die_in_forest(&mut g, 1, 0, moss, 6); // no forest action for seat 0
    player_mut(&mut g, 0).dice[0] = Die {
        value: 3,
        at: DieAt::Green,
    };
    play(
        &mut g,
        0,
        Action::Place {
            die: 0,
            at: Spot::Forest(moss),
        },
    );
    assert_eq!(
        legal(&g, 0),
        vec![Action::UseBuilding { space: 1 }, Action::Skip]
    );
    play(&mut g, 0, Action::UseBuilding { space: 1 });
    assert_eq!(g.player(0).goods.res[1], 1);
    assert_eq!(g.player(1).goods.res[0], 1);
}

#[test]
fn the_builder_takes_no_bonus_from_its_own_building() {
    // ただし、建設したプレイヤー自身が使用する場合は、「所有権ボーナス」を受け取ることはできない
    let moss = region("moss-valley");
    let mut g = summer2();
    set_settlement(&mut g, moss, 0, Settled::Empty);
    let farm2 = building(BuildingKind::Farm, 2);
    set_settlement(
        &mut g,
        moss,
        1,
        Settled::Building {
            tile: farm2,
            owner: 0,
        },
    );
    put_die_in_forest(&mut g, 1, 0, moss, 6);
    player_mut(&mut g, 0).dice[0] = Die {
        value: 3,
        at: DieAt::Green,
    };
    play(
        &mut g,
        0,
        Action::Place {
            die: 0,
            at: Spot::Forest(moss),
        },
    );
    play(&mut g, 0, Action::UseBuilding { space: 1 });
    assert_eq!(g.player(0).goods.res, [0, 1, 0, 0]);
}

#[test]
fn forest_and_building_actions_in_either_order() {
    // ※「森アクション」と「建物アクション」のアクションの実行は任意の順番でできる
    let moss = region("moss-valley");
    let mut g = summer2();
    let farm2 = building(BuildingKind::Farm, 2);
    set_settlement(
        &mut g,
        moss,
        1,
        Settled::Building {
            tile: farm2,
            owner: 1,
        },
    );
    player_mut(&mut g, 0).dice[0] = Die {
        value: 3,
        at: DieAt::Green,
    };
    play(
        &mut g,
        0,
        Action::Place {
            die: 0,
            at: Spot::Forest(moss),
        },
    );
    assert_eq!(
        legal(&g, 0),
        vec![Action::Next { task: 0 }, Action::Next { task: 1 }]
    );
}

#[test]
fn a_pilgrim_sacrificed_places_an_unreleased_die_in_the_forest() {
    // ※…利用可能な「巡礼者コマ」…を1個、ゲームから除外することにより、「未開放のダイス」を…
    // 「森エリア」の空いているスペースに
    let mut g = summer2();
    let l = legal(&g, 0);
    assert!(l.contains(&Action::Place {
        die: 2,
        at: Spot::Forest(0)
    }));
    assert!(!l.contains(&Action::Place {
        die: 2,
        at: Spot::Abode(0)
    }));
    play(
        &mut g,
        0,
        Action::Place {
            die: 2,
            at: Spot::Forest(0),
        },
    );
    assert_eq!(g.player(0).awake, 2);
    assert_eq!(g.player(0).dice[2].at, DieAt::Forest(0));
}

#[test]
fn crossing_the_river_lowers_the_die_six_becomes_three_one_cannot() {
    // C)…ダイスの目を「-1」する。ただし、「6」の場合は「3」にする。なお、目が1のダイスは川を渡ることはできない
    let mut g = summer2();
    put_die_in_forest(&mut g, 0, 0, 0, 6);
    put_die_in_forest(&mut g, 0, 1, 1, 1);
    put_die_in_forest(&mut g, 0, 2, 2, 4);
    let l = legal(&g, 0);
    assert!(!l.iter().any(|a| matches!(a, Action::Cross { die: 1, .. })));
    play(
        &mut g,
        0,
        Action::Cross {
            die: 0,
            hill: 0,
            take: HillPart::Effect,
        },
    );
    assert_eq!(
        g.player(0).dice[0],
        Die {
            value: 3,
            at: DieAt::Hill(0)
        }
    );
    play(&mut g, 1, Action::Pass);
    play(
        &mut g,
        0,
        Action::Cross {
            die: 2,
            hill: 1,
            take: HillPart::Yokai,
        },
    );
    assert_eq!(g.player(0).dice[2].value, 3);
}

#[test]
fn a_hill_effect_is_taken_once_under_a_hikaru_marker() {
    // その後、まだ適用されていない効果を選び実行する。効果を実行後は、「光の丘マーカー」を…置く
    let mut g = summer2();
    put_die_in_forest(&mut g, 0, 0, 0, 5);
    put_die_in_forest(&mut g, 1, 0, 1, 5);
    let y = hills(&g)[0].yokai;
    play(
        &mut g,
        0,
        Action::Cross {
            die: 0,
            hill: 0,
            take: HillPart::Yokai,
        },
    );
    assert!(hills(&g)[0].taken[0]);
    assert_eq!(
        g.player(0).hand.iter().copied().collect::<Vec<_>>(),
        vec![y.unwrap_or(0)]
    );
    let l = legal(&g, 1);
    assert!(!l.contains(&Action::Cross {
        die: 0,
        hill: 0,
        take: HillPart::Yokai
    }));
    assert!(l.contains(&Action::Cross {
        die: 0,
        hill: 0,
        take: HillPart::Bitoku
    }));
}

#[test]
fn a_pass_ends_the_players_summer_and_summer_ends_when_all_pass() {
    // D)パスをする:…パスをした場合は、このフェイズ中はこれ以上アクションを実行することはできない
    let mut g = summer2();
    play(&mut g, 0, Action::Pass);
    // Seat 1 plays on alone.
    let y = yokai("nezumi");
    player_mut(&mut g, 1).hand = [y].into_iter().collect();
    play(&mut g, 1, Action::Play { yokai: y, slot: 0 });
    assert_eq!(g.to_move().first_seat(), Some(Seat(1)));
    play(&mut g, 1, Action::Pass);
    assert!(matches!(
        g.phase(),
        Phase::WinterArrange { .. } | Phase::WinterRetire { .. }
    ));
}

#[test]
fn passing_is_always_possible_in_summer() {
    let mut rng = GameRng::from_seed(3);
    let mut g = at_summer(3, 11);
    let mut buf = Vec::new();
    for _ in 0..400 {
        let Some(seat) = g.to_move().first_seat() else {
            break;
        };
        g.legal_actions(seat, &mut buf);
        if matches!(g.phase(), Phase::Summer { .. }) && !busy(&g) {
            assert!(buf.contains(&Action::Pass));
        }
        let a = *rng.pick(&buf).unwrap_or(&Action::Pass);
        play(&mut g, seat.0, a);
    }
}

// ---- ③ 秋 ----

#[test]
fn autumn_turn_order_from_the_abode_topmost_first() {
    // 「大精霊の住み家」のエリアで、最も上方にダイスを置いているプレイヤーが…最も左側のマスに
    // …2個置いている場合は、最も上方にあるダイスが判定の対象
    let mut g = at_summer(4, 12);
    set_order(&mut g, &[0, 1, 2, 3]);
    put_die_in_abode(&mut g, 2, 0, 0);
    put_die_in_abode(&mut g, 1, 0, 1);
    put_die_in_abode(&mut g, 2, 1, 2);
    run_autumn(&mut g);
    assert_eq!(g.order(), &[2, 1, 0, 3]);
}

#[test]
fn autumn_without_abode_dice_keeps_the_order() {
    // また、ダイスが全く置かれていない場合は、手番順は変わらない
    let mut g = at_summer(3, 13);
    set_order(&mut g, &[2, 0, 1]);
    run_autumn(&mut g);
    assert_eq!(g.order(), &[2, 0, 1]);
}

// ---- ④ 冬 ----

#[test]
fn winter_dice_return_keeping_their_values_in_any_order() {
    // A)…任意の並びで「プレイヤーボード」の赤スペースに戻す。この時、ダイスの目は現在の目を維持する
    let mut g = summer2();
    put_die_in_forest(&mut g, 0, 0, 0, 5);
    put_die_in_forest(&mut g, 1, 0, 1, 5);
    start_winter(&mut g);
    let arrangements: Vec<Action> = legal(&g, 0);
    assert_eq!(arrangements.len(), 6);
    assert!(arrangements.contains(&Action::Arrange { dice: [1, 2, 5] }));
    play(&mut g, 0, Action::Arrange { dice: [1, 2, 5] });
    assert_eq!(
        g.player(0).dice.map(|d| (d.value, d.at)),
        [(1, DieAt::Red), (2, DieAt::Red), (5, DieAt::Red)]
    );
}

#[test]
fn winter_retiring_a_yokai_needs_five_owned() {
    // B)…「妖怪カード」の合計が5枚以上のプレイヤーは…1枚選び…除外…「美徳点」を直ちに得る
    let mut g = summer2();
    let y = yokai("kappa");
    player_mut(&mut g, 0).slots = [Some(y), None, None, None];
    player_mut(&mut g, 1).slots = [Some(y), None, None, None];
    // Seat 0 owns six (deck, discard, board); seat 1 two.
    player_mut(&mut g, 0).deck = [0, 1, 2, 3].into_iter().collect();
    player_mut(&mut g, 1).deck.clear();
    start_winter(&mut g);
    play_first_until(&mut g, |g| matches!(g.phase(), Phase::WinterRetire { .. }));
    let retire_pending = g.to_move().first_seat();
    assert_eq!(retire_pending, Some(Seat(0)));
    let before = g.player(0).virtue;
    play(&mut g, 0, Action::RetireSlot { slot: 0 });
    let kappa = comp().cards.yokai[usize::from(y)].virtue;
    assert_eq!(g.player(0).virtue, before + i32::from(kappa));
    // Seat 1 is not asked; its yokai goes to its discard pile (C).
    assert!(g.player(1).discard.contains(&y));
}

#[test]
fn winter_board_yokai_to_discard_hand_kept() {
    // C)…「プレイヤーボード」の上に残っている「妖怪カード」を、自分の捨て札置き場に…手札…そのまま保持
    let mut g = summer2();
    let (a, b) = (yokai("kappa"), yokai("tanuki"));
    player_mut(&mut g, 0).slots = [Some(a), None, None, None];
    player_mut(&mut g, 0).hand = [b].into_iter().collect();
    start_winter(&mut g);
    play_first_until(&mut g, |g| g.year() == 2);
    assert!(
        g.player(0).discard.contains(&a)
            || g.player(0).deck.contains(&a)
            || g.player(0).hand.contains(&a)
            || g.player(0).retired.contains(&a)
    );
    assert!(g.player(0).hand.contains(&b));
}

#[test]
fn the_great_spirit_advances_and_the_awakening_follows_the_last_year() {
    // D)「大精霊マーカー」を1スペース進める。もし、「覚醒スペース」に到達した場合は、直ちに「覚醒フェイズ」
    let mut g = summer2();
    set_year(&mut g, 4);
    start_winter(&mut g);
    play_first_until(&mut g, |g| g.is_over());
    assert!(g.is_over());
    assert!(g.outcome().is_some());
}

#[test]
fn snow_refills_the_hills_clears_the_markers_and_slides_the_rows() {
    // E) 森に降る雪
    let mut g = summer2();
    put_die_in_forest(&mut g, 0, 0, 0, 5);
    play(
        &mut g,
        0,
        Action::Cross {
            die: 0,
            hill: 0,
            take: HillPart::Yokai,
        },
    );
    let before = display(&g, Kind::Crystal);
    start_winter(&mut g);
    play_first_until(&mut g, |g| g.year() == 2);
    for h in hills(&g) {
        assert_eq!(h.taken, [false; 3]);
        assert!(h.yokai.is_some() && h.bitoku.is_some());
    }
    let after = display(&g, Kind::Crystal);
    for (b, a) in before.iter().zip(after.iter()) {
        // The farthest tile is boxed, the rest slide one space, a new tile by the stack.
        assert_eq!(a.display[1], b.display[0]);
        assert_eq!(a.display[2], b.display[1]);
        assert_eq!(a.stack.len() + 1, b.stack.len());
    }
    assert_eq!(g.year(), 2);
}

// ---- ⑤ 覚醒フェイズ ----

#[test]
fn awakening_first_in_turn_order_scores_three() {
    // B)「手番順トラック」で先頭にいるプレイヤーは、「3美徳点」を得る
    let mut g = summer2();
    set_order(&mut g, &[1, 0]);
    assert_eq!(g.awakening(1).first, 3);
    assert_eq!(g.awakening(0).first, 0);
}

#[test]
fn awakening_bitoku_cards_by_kinds_on_the_path() {
    // C)…「美徳の道」に置いてある「美徳カード」の種類数に応じて「美徳点」を得る
    let mut g = summer2();
    let kind_of = |k: &str| {
        comp()
            .cards
            .bitoku
            .iter()
            .position(|b| b.kind == k)
            .unwrap_or(0) as u8
    };
    player_mut(&mut g, 0).bitoku = [kind_of("jin"), kind_of("jin"), kind_of("gi")]
        .into_iter()
        .collect();
    assert_eq!(
        g.awakening(0).bitoku,
        i32::from(comp().board.bitoku_kinds.points[2])
    );
}

#[test]
fn lake_treasure_ties_share_the_ranks_rounded_down() {
    // D)…同じトラックに複数のマーカーがある場合は、占める順位の「美徳点」を合計し、均等に分ける(端数切捨て)
    let mut g = game(3, 14);
    set_lake(&mut g, 0, 0); // 8, 5, 3, 1
    set_kodama(&mut g, 0, 0, 3);
    set_kodama(&mut g, 1, 0, 3);
    set_kodama(&mut g, 2, 0, 1);
    assert_eq!(lake_points(&g, 0, 0), (8 + 5) / 2);
    assert_eq!(lake_points(&g, 1, 0), 6);
    assert_eq!(lake_points(&g, 2, 0), 3);
}

#[test]
fn only_the_first_kodama_may_occupy_a_tracks_last_space() {
    // なお、各トラックの最終スペースには、最初に到達したプレイヤーの「木霊マーカー」のみしか入れない
    let mut g = summer2();
    let end = comp().board.kodama.track_length;
    set_kodama(&mut g, 1, 0, end);
    set_kodama(&mut g, 0, 0, end - 1);
    let y = yokai("kodama-sprite"); // kodama 1, any track
    player_mut(&mut g, 0).hand = [y].into_iter().collect();
    play(&mut g, 0, Action::Play { yokai: y, slot: 3 });
    let l = legal(&g, 0);
    assert!(!l.contains(&Action::Track { region: 0 }));
    assert!(l.contains(&Action::Track { region: 1 }));
}

#[test]
fn iwakura_symbol_count_times_touching_pilgrims() {
    // E)…「岩倉タイル」に描かれているシンボルが示す内容物の個数と、その「岩倉タイル」に接する「巡礼者コマ」の数を掛けた値
    let mut g = summer2();
    let rock = comp()
        .tiles
        .iwakura
        .iter()
        .position(|r| r.symbol == Count::BuildingsBuilt)
        .unwrap_or(0) as u8;
    let p = player_mut(&mut g, 0);
    p.rock = rock;
    p.built = 2;
    p.asleep = !(1u8 << 2); // space 2 woken: 3 of 4 touching spaces asleep
    assert_eq!(g.awakening(0).iwakura, 2 * 3);
}

#[test]
fn dice_plus_resources_over_four_rounded_down() {
    // F)…ダイスの目を合計し、持っている資源の個数を加算し、その合計を4で割った数字(端数切捨て)
    let mut g = summer2();
    let p = player_mut(&mut g, 0);
    p.dice = [4, 5, 6].map(|v| Die {
        value: v,
        at: DieAt::Red,
    });
    p.goods.res = [1, 1, 0, 0];
    assert_eq!(g.awakening(0).guardians, 17 / 4);
}

#[test]
fn visions_gain_or_lose_and_an_element_counts_for_one_vision_only() {
    // G)…達成していれば「美徳点」を得て、達成していなければ「美徳点」を失う。なお…他の「幻視カード」の
    // 達成のための要素として参照できない
    let mut g = summer2();
    let v = &comp().cards.vision;
    let built: Vec<u8> = (0..v.len())
        .filter(|&i| v[i].count == Count::BuildingsBuilt)
        .map(|i| i as u8)
        .collect();
    let (a, b) = (built[0], built[1]); // need 2 (3 / -1), need 3 (5 / -2)
    set_visions(&mut g, 0, &[a, b]);
    player_mut(&mut g, 0).built = 4;
    // Both would need 5 buildings: the better one is met, the other lost.
    let (va, vb) = (&v[usize::from(a)], &v[usize::from(b)]);
    let best =
        (i32::from(vb.gain) - i32::from(va.loss)).max(i32::from(va.gain) - i32::from(vb.loss));
    assert_eq!(vision_points(&g, 0), best);
    player_mut(&mut g, 0).built = 0;
    assert_eq!(
        vision_points(&g, 0),
        -i32::from(va.loss) - i32::from(vb.loss)
    );
}

#[test]
fn destiny_scores_the_uncovered_building_and_crystal_areas() {
    // H)…「建物エリア」と「水晶エリア」で見えているゲーム終了時の「美徳点(紫色)」を得る
    let mut g = summer2();
    let pb = &comp().board.player_board;
    let p = player_mut(&mut g, 0);
    p.built = 3;
    p.asleep = !1u8 & !(1u8 << 7);
    let want: i32 = pb.building_space_points[..3]
        .iter()
        .map(|&v| i32::from(v))
        .sum::<i32>()
        + i32::from(pb.pilgrim_space_points[0])
        + i32::from(pb.pilgrim_space_points[7]);
    assert_eq!(g.awakening(0).destiny, want);
}

#[test]
fn the_most_virtue_points_wins_ties_broken_by_resources() {
    // 2)勝利条件:得点の計算終了時に「美徳点」が最も高いプレイヤーが勝利者となる
    let mut g = summer2();
    for s in 0..2 {
        let p = player_mut(&mut g, s);
        p.virtue = 0;
        p.visions.clear();
        p.goods.res = [s, 0, 0, 0];
        p.dice = [1, 1, 1].map(|v| Die {
            value: v,
            at: DieAt::Red,
        });
    }
    set_order(&mut g, &[0, 1]);
    final_scoring(&mut g);
    let o = g.outcome().unwrap_or_else(|| panic!("over"));
    // Seat 0 scores 3 as first in turn order.
    assert_eq!(o.ranks, vec![1, 2]);
}

// ---- Solo: the Tengu automa (takuge's own; docs/games/bitoku.md) ----

#[test]
fn solo_the_tengu_places_a_die_after_each_player_action() {
    let mut g = at_summer(1, 31);
    let tengu_dice = |g: &Bitoku| {
        g.view(takuge_engine::Viewer::Spectator)
            .forest
            .iter()
            .flatten()
            .filter(|d| d.0 == TENGU)
            .count()
    };
    assert_eq!(tengu_dice(&g), 0);
    let y = g.player(0).hand.first().copied().unwrap_or(0);
    play(&mut g, 0, Action::Play { yokai: y, slot: 0 });
    play_first_until(&mut g, |g| !busy(g));
    assert_eq!(tengu_dice(&g), 1);
    assert_eq!(
        g.view(takuge_engine::Viewer::Spectator)
            .tengu
            .map(|t| t.discard.len()),
        Some(1)
    );
}

#[test]
fn solo_the_tengus_die_raises_the_bar_for_forest_actions() {
    let mut g = at_summer(1, 32);
    let jade = region("jade-glade");
    set_settlement(&mut g, jade, 0, Settled::Empty);
    let p = player_mut(&mut g, 0);
    p.goods = Goods::default();
    p.dice[0] = Die {
        value: 3,
        at: DieAt::Green,
    };
    // A Tengu die showing 4 in the Jade Glade.
    put_die_in_forest(&mut g, TENGU, 0, jade, 4);
    play(
        &mut g,
        0,
        Action::Place {
            die: 0,
            at: Spot::Forest(jade),
        },
    );
    assert_eq!(g.player(0).goods.res, [0; 4]);
}

#[test]
fn solo_the_tengus_kodama_takes_lake_ranks_for_nobody() {
    let mut g = at_summer(1, 33);
    set_lake(&mut g, 0, 0); // 8, 5, 3, 1
    set_kodama(&mut g, 0, 0, 2);
    set_tengu_kodama(&mut g, 0, 3);
    assert_eq!(lake_points(&g, 0, 0), 5);
}

#[test]
fn solo_a_game_ends_with_a_score_attack_title() {
    let mut g = at_summer(1, 34);
    play_first_until(&mut g, |g| g.is_over());
    let v = g.view(takuge_engine::Viewer::Seat(Seat(0)));
    assert!(v.solo_title.is_some());
    assert!(game(2, 34)
        .view(takuge_engine::Viewer::Spectator)
        .solo_title
        .is_none());
}
