//! Secrets stay secret, checked independently of `determinize`: in random games, every
//! role a view shows is one its viewer may know by a rule of the game, re-derived here
//! from the public table and the viewer's own actions only.

use std::collections::HashSet;
use takuge_engine::{Game, GameRng, Lang, Seat, Viewer};
use takuge_secret_moon::{Action, CardRef, Options, PartnerView, PhaseView, Role, SecretMoon};

fn check_views(g: &SecretMoon, nominated_npcs: &[HashSet<u8>]) {
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
        let current = match view.phase {
            PhaseView::Turn { actor, .. } | PhaseView::TakeOrderCard { actor } => Some(actor),
            PhaseView::Answer { asker, .. } => Some(asker),
            PhaseView::MatchOver => None,
        };
        for seat_view in &view.seats {
            if seat_view.number.is_some() {
                assert!(
                    seat_view.seat == Seat(s) || Some(seat_view.seat) == current,
                    "seat {s} sees another's order card"
                );
            }
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
                while let Some(seat) = g.to_move().first_seat() {
                    check_views(&g, &nominated);
                    g.legal_actions(seat, &mut legal);
                    let action = *rng.pick(&legal).expect("a pending seat has actions");
                    if let Action::Nominate {
                        card: CardRef::Npc(i),
                        ..
                    } = action
                    {
                        nominated[seat.index()].insert(i);
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
