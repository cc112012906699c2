//! Secrets stay secret, checked independently of `determinize`: in random games, every
//! role a view shows is one its viewer may know by a rule of the game, re-derived here
//! from the public table and the viewer's own actions only.

use std::collections::HashSet;
use takuge_engine::{Game, GameRng, Seat, Viewer};
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
