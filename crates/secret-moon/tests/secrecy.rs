//! Secrets stay secret, checked independently of `determinize`: in random games, every
//! role a view shows is one its viewer may know by a rule of the game, re-derived here
//! from the public table and the viewer's own actions only.

use std::collections::{HashMap, HashSet};
use takuge_engine::{Game, GameRng, Lang, Seat, Viewer};
use takuge_secret_moon::{
    Action, CardRef, Options, OrderLoc, Origin, PartnerView, Phase, PhaseView, Role, SecretMoon,
};

fn check_views(g: &SecretMoon, nominated_npcs: &[HashSet<u8>], taken: &HashMap<Seat, u8>) {
    for s in 0..g.players() as u8 {
        let view = g.view(Viewer::Seat(Seat(s)));
        for c in &view.cards {
            let Some(role) = c.role else { continue };
            let partner_card = matches!(
                (view.your_role, view.partner, c.card),
                (Some(Role::Princess | Role::Traveller), Some(PartnerView::Player(p)), CardRef::Player(q)) if p == q
            );
            let may_know = c.status.face_up()
                || c.card == CardRef::Player(Seat(s))
                || c.observed_by.contains(&Seat(s))
                || partner_card
                || matches!(c.card, CardRef::Npc(i) if nominated_npcs[usize::from(s)].contains(&i))
                || c.possible.single() == Some(role);
            assert!(
                may_know,
                "seat {s} sees {:?} as {role} without a rule that shows it",
                c.card
            );
        }
        // 「(行動順カードによる順番は公開されません)」: a number is seen by its holder, or by
        // everyone if it was seen taken by a pass (「選んだカードは全プレイヤーに公開されます」).
        let may_see = |holder: Seat, n: u8| holder == Seat(s) || taken.get(&holder) == Some(&n);
        for seat_view in &view.seats {
            if let Some(n) = seat_view.number {
                assert!(
                    may_see(seat_view.seat, n),
                    "seat {s} sees another's order card"
                );
            }
        }
        if let PhaseView::Turn {
            actor,
            number: Some(n),
        } = view.phase
        {
            assert!(may_see(actor, n), "seat {s} sees the number being played");
        }
    }
    let spectator = g.view(Viewer::Spectator);
    for c in &spectator.cards {
        if let Some(role) = c.role {
            assert!(c.status.face_up() || c.possible.single() == Some(role));
        }
    }
    assert!(spectator.discard.face_down_seen.is_empty());
}

#[test]
fn views_show_only_what_a_rule_of_the_game_lets_the_viewer_know() {
    let mut rng = GameRng::from_seed(11);
    let mut legal = Vec::new();
    for players in 3..=8 {
        for thief in [false, true] {
            let options = Options {
                thief,
                ..Options::default()
            };
            if SecretMoon::new(&options, players, 0).is_err() {
                continue;
            }
            for _ in 0..150 {
                let mut g = SecretMoon::new(&options, players, rng.next_u64()).expect("valid");
                let mut nominated = vec![HashSet::new(); players];
                let mut taken = HashMap::new();
                while let Some(seat) = g.to_move().first_seat() {
                    check_views(&g, &nominated, &taken);
                    g.legal_actions(seat, &mut legal);
                    let action = *rng.pick(&legal).expect("a pending seat has actions");
                    if let Action::Nominate {
                        card: CardRef::Npc(i),
                        ..
                    } = action
                    {
                        nominated[seat.index()].insert(i);
                    }
                    if let Action::TakeOrderCard { number } = action {
                        taken.insert(seat, number);
                    }
                    g.apply(seat, &action).expect("legal");
                }
            }
        }
    }
}

/// 観察: 人物カードを秘密裏に確認する — everyone sees the eye marker, nobody else the
/// role: the Japanese line names the card looked at, the same for every viewer, and
/// no role.
#[test]
fn an_observation_names_the_card_but_never_its_role_in_japanese() {
    let g = SecretMoon::new(&Options::default(), 5, 7).expect("a game");
    let actor = Seat(0);
    let viewers: Vec<Viewer> = Seat::all(5)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    for c in [CardRef::Player(Seat(2)), CardRef::Npc(0)] {
        let action = Action::Observe { card: c };
        let mine = g.describe_for_in(actor, &action, Viewer::Seat(actor), Lang::Ja);
        for &v in &viewers {
            assert_eq!(g.describe_for_in(actor, &action, v, Lang::Ja), mine);
        }
        let mine = mine.expect("a line");
        assert!(
            Role::ALL.iter().all(|r| !mine.contains(r.name_ja())),
            "{mine}"
        );
    }
    let line = |a: Action| g.describe_for_in(actor, &a, Viewer::Spectator, Lang::Ja);
    assert_eq!(
        line(Action::Observe {
            card: CardRef::Npc(0)
        })
        .as_deref(),
        Some("中央1の人物カードを観察")
    );
    assert_eq!(
        line(Action::Question { target: Seat(2) }).as_deref(),
        Some("3番席に質問「そこにいるのは何者か?」")
    );
}

/// The order the table saw, in a world `g` could be: the cards played this round rise
/// with the turns (one per turn), the card being played is above them, every card
/// still held is above it, a card discarded unplayed during a turn is above the card
/// of that turn, and a card taken by a pass lay in the pile before.
fn assert_order_consistent(g: &SecretMoon) {
    let (actor, current) = match g.phase() {
        Phase::Turn { actor, number } | Phase::TakeOrderCard { actor, number } => (actor, number),
        Phase::Answer { asker, number, .. } => (asker, number),
        Phase::MatchOver => return,
    };
    let order = g.order_cards();
    assert_eq!(order.held_by(actor), Some(current));
    let turn = order.turn();
    let mut played: Vec<(u8, u8)> = vec![(turn, current)];
    let mut above: Vec<(u8, u8)> = vec![];
    for (n, loc) in order.iter() {
        let origin = order.origin(n).expect("a card");
        match origin {
            Origin::Played(_, t) => played.push((t, n)),
            Origin::Discarded(_, t) => above.push((t, n)),
            Origin::Dealt(s) => {
                assert_eq!(loc, OrderLoc::Held(s), "card {n} dealt to {s}");
                if s != actor {
                    above.push((turn, n));
                }
            }
            Origin::Undealt => {}
        }
        if let OrderLoc::Reserved(_) = loc {
            let taken = order.taken_at(n);
            assert!(taken > 0, "card {n} reserved but not taken");
            assert!(
                origin.into_pile().is_some_and(|t| t < taken),
                "card {n} taken at turn {taken} from {origin:?}"
            );
        }
    }
    played.sort_unstable();
    let turns: Vec<u8> = played.iter().map(|(t, _)| *t).collect();
    assert_eq!(
        turns,
        (1..=turn).collect::<Vec<_>>(),
        "one card per turn: {played:?}"
    );
    for w in played.windows(2) {
        assert!(w[0].1 < w[1].1, "played out of order: {played:?}");
    }
    for (t, n) in above {
        let p = played[usize::from(t) - 1].1;
        assert!(
            n > p,
            "card {n} held or discarded unplayed at turn {t} is below {p}"
        );
    }
}

// 「行動順カードに示された数字が小さい順に、各プレイヤーは順番に手番を行います」and
// 「(行動順カードによる順番は公開されません)」: a seat that cannot see the numbers still saw
// who acted in which order, so every world determinized for it keeps that order — over
// random playouts, with the order secret and public.
#[test]
fn determinized_worlds_keep_the_order_in_which_the_table_saw_players_act() {
    let mut rng = GameRng::from_seed(21);
    let mut legal = Vec::new();
    let mut worlds = 0;
    for players in 3..=8 {
        for public_order in [false, true] {
            let options = Options {
                public_order,
                ..Options::default()
            };
            for _ in 0..40 {
                let mut g = SecretMoon::new(&options, players, rng.next_u64()).expect("valid");
                while let Some(seat) = g.to_move().first_seat() {
                    assert_order_consistent(&g);
                    for s in Seat::all(players) {
                        let world = g.determinize(s, &mut rng);
                        assert_order_consistent(&world);
                        assert_eq!(world.view(Viewer::Seat(s)), g.view(Viewer::Seat(s)));
                        assert_eq!(world.to_move(), g.to_move());
                        worlds += 1;
                    }
                    g.legal_actions(seat, &mut legal);
                    let action = *rng.pick(&legal).expect("a pending seat has actions");
                    g.apply(seat, &action).expect("legal");
                }
            }
        }
    }
    assert!(worlds > 10_000, "{worlds}");
}

// The redraw is not a copy: with the order secret, a seat that saw others act does not
// know their numbers, and the worlds it samples give them different numbers.
#[test]
fn determinize_redraws_the_numbers_of_cards_played_in_secret() {
    let mut g = SecretMoon::with_cards(
        Options::default(),
        &[
            Role::Princess,
            Role::Traveller,
            Role::Minister,
            Role::Soldier,
            Role::Monk,
            Role::Soldier,
            Role::Soldier,
            Role::Soldier,
        ],
        &[1, 2, 3, 4, 5],
        1,
    )
    .expect("valid");
    for s in 0..2 {
        g.apply(Seat(s), &Action::Question { target: Seat(4) })
            .expect("legal");
    }
    // Seat 4 saw seats 0 and 1 act, and holds 5: seats 0, 1 played two of 1..4 in
    // increasing order, seat 2 (acting) and 3 hold higher ones.
    let mut rng = GameRng::from_seed(3);
    let mut seen = HashSet::new();
    for _ in 0..400 {
        let w = g.determinize(Seat(4), &mut rng);
        assert_eq!(w.order_cards().held_by(Seat(4)), Some(5));
        let played: Vec<u8> = w
            .order_cards()
            .iter()
            .filter(|(n, _)| matches!(w.order_cards().origin(*n), Some(Origin::Played(..))))
            .map(|(n, _)| n)
            .collect();
        seen.insert((
            played,
            w.order_cards().held_by(Seat(2)),
            w.order_cards().held_by(Seat(3)),
        ));
    }
    assert!(seen.len() > 5, "{seen:?}");
}

// パス「捨て札山から1枚自由に選んで確保します。選んだカードは全プレイヤーに公開されます」: the
// number taken is public, but not which card of the pile it was. Seat 1 takes card 1,
// which seat 0 had just played face down: seat 0 knows it was its own; seat 4 (holding
// 5) must allow that it was a card never dealt (and seat 0's another), and its worlds
// say so. (Seat 3, holding 4, knows better: three cards played in turn below 4 are 1,
// 2, 3, so the 1 taken was seat 0's.)
#[test]
fn a_card_taken_by_a_pass_may_have_come_from_any_card_in_the_pile() {
    let mut g = SecretMoon::with_cards(
        Options::default(),
        &[
            Role::Princess,
            Role::Traveller,
            Role::Minister,
            Role::Soldier,
            Role::Monk,
            Role::Soldier,
            Role::Soldier,
            Role::Soldier,
        ],
        &[1, 2, 3, 4, 5],
        1,
    )
    .expect("valid");
    g.apply(Seat(0), &Action::Question { target: Seat(4) })
        .expect("legal");
    g.apply(Seat(1), &Action::Pass).expect("legal");
    g.apply(Seat(1), &Action::TakeOrderCard { number: 1 })
        .expect("legal");
    let mut rng = GameRng::from_seed(5);
    let mut origins = HashSet::new();
    for _ in 0..300 {
        let w = g.determinize(Seat(4), &mut rng);
        assert_order_consistent(&w);
        assert_eq!(w.view(Viewer::Seat(Seat(4))), g.view(Viewer::Seat(Seat(4))));
        origins.insert(w.order_cards().origin(1));
        let three = g.determinize(Seat(3), &mut rng);
        assert_eq!(
            three.order_cards().origin(1),
            Some(Origin::Played(Seat(0), 1))
        );
        let mine = g.determinize(Seat(0), &mut rng);
        assert_eq!(
            mine.order_cards().origin(1),
            Some(Origin::Played(Seat(0), 1)),
            "seat 0 knows the card taken was its own"
        );
    }
    assert!(
        origins.contains(&Some(Origin::Played(Seat(0), 1)))
            && origins.contains(&Some(Origin::Undealt)),
        "{origins:?}"
    );
}

// The worlds are drawn uniformly. Seat 4 holds 5 and saw seats 0 and 1 act, seat 2 is
// acting, seat 3 waits: the three cards played in turn are some a < b < c below 5 (four
// choices), seat 3 holds some d above c (4, 3, 3 and 3 choices), the rest were never
// dealt — 13 worlds, each drawn about as often.
#[test]
fn determinize_draws_the_worlds_consistent_with_the_order_uniformly() {
    let mut g = SecretMoon::with_cards(
        Options::default(),
        &[
            Role::Princess,
            Role::Traveller,
            Role::Minister,
            Role::Soldier,
            Role::Monk,
            Role::Soldier,
            Role::Soldier,
            Role::Soldier,
        ],
        &[1, 2, 3, 4, 5],
        1,
    )
    .expect("valid");
    for s in 0..2 {
        g.apply(Seat(s), &Action::Question { target: Seat(4) })
            .expect("legal");
    }
    let mut rng = GameRng::from_seed(8);
    let mut counts: HashMap<Vec<(u8, Option<Origin>)>, u32> = HashMap::new();
    let draws = 2600;
    for _ in 0..draws {
        let w = g.determinize(Seat(4), &mut rng);
        let world = w
            .order_cards()
            .iter()
            .map(|(n, _)| (n, w.order_cards().origin(n)))
            .collect();
        *counts.entry(world).or_default() += 1;
    }
    assert_eq!(counts.len(), 13, "{counts:?}");
    for (world, n) in &counts {
        assert!(
            (120..=280).contains(n),
            "{world:?} drawn {n} times of {draws}"
        );
    }
}
