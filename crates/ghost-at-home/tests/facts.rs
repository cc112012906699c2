//! The facts the web board reads instead of working out the rules (`Game::action_facts`,
//! the view's `cards`): each must agree with what playing the action does.

use serde_json::json;
use takuge_engine::dynamic::facts_value;
use takuge_engine::{Game, Viewer};
use takuge_ghost_at_home::cards::Card;
use takuge_ghost_at_home::testing::*;
use takuge_ghost_at_home::{Action, Floor, PhaseView};

use Card::*;
use Floor::*;

fn facts(
    g: &takuge_ghost_at_home::GhostAtHome,
    seat: takuge_engine::Seat,
    a: Action,
) -> serde_json::Value {
    facts_value(g, seat, &a).unwrap_or(serde_json::Value::Null)
}

#[test]
fn room_play_facts_name_the_space_each_card_is_put_on_as_playing_it_does() {
    let mut g = with_specials(game(
        &[H::default().rooms(First, &[Floor1Bulbs0]), H::default()],
        &[&[WildRoom, Floor2Bulbs3], &[]],
        &filler_deck(),
    ));
    let a = rooms(&[Floor2Bulbs3, WildRoom]);
    assert_eq!(
        facts(&g, S0, a),
        json!({
            "uses": ["floor2_bulbs3", "wild_room"],
            "places": [
                {"floor": "first", "space": 1, "card": "wild_room"},
                {"floor": "second", "space": 0, "card": "floor2_bulbs3"},
            ],
        })
    );
    play(&mut g, S0, a);
    assert_eq!(
        floor(&g, S0, First).rooms,
        [Some(Floor1Bulbs0), Some(WildRoom)]
    );
    assert_eq!(floor(&g, S0, Second).rooms, [Some(Floor2Bulbs3), None]);
}

#[test]
fn ghost_facts_name_the_floor_the_ghost_goes_to_and_the_card_it_takes() {
    let mut g = game(
        &[
            H::default(),
            H::default().full_to(First).rooms(Second, &[Floor2Bulbs0]),
        ],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    let a = Action::PlayGhost { target: S1 };
    assert_eq!(
        facts(&g, S0, a),
        json!({"uses": ["ghost"], "floor": "second"})
    );
    play(&mut g, S0, a);
    assert!(matches!(
        phase(&g),
        PhaseView::Defence { floor: Second, .. }
    ));
}

#[test]
fn lightning_facts_name_the_lit_floor_it_puts_out() {
    let g = with_specials(game(
        &[H::default(), H::default().full_to(Second).lit(Second)],
        &[&[Lightning], &[]],
        &filler_deck(),
    ));
    let a = Action::PlayLightning { target: S1 };
    assert!(legal(&g, S0).contains(&a));
    assert_eq!(
        facts(&g, S0, a),
        json!({"uses": ["lightning"], "floor": "second"})
    );
}

#[test]
fn answers_without_cards_have_empty_facts_and_a_seat_not_at_the_table_none() {
    let g = game(
        &[H::default(), H::default()],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    assert_eq!(facts(&g, S0, Action::Pass), json!({"uses": []}));
    assert_eq!(facts_value(&g, takuge_engine::Seat(3), &Action::Pass), None);
}

#[test]
fn the_view_tells_every_card_face_its_printed_floor_and_bulbs() {
    let g = game(
        &[H::default(), H::default()],
        &[&[Ghost], &[]],
        &filler_deck(),
    );
    let v = serde_json::to_value(g.view(Viewer::Spectator)).unwrap_or_default();
    let cards = v["cards"].as_array().cloned().unwrap_or_default();
    assert_eq!(cards.len(), Card::ALL.len());
    let of = |id: &str| {
        cards
            .iter()
            .find(|c| c["card"] == id)
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(
        of("floor3_bulbs2"),
        json!({"card": "floor3_bulbs2", "floor": "third", "bulbs": 2, "special": false})
    );
    assert_eq!(
        of("wild_room"),
        json!({"card": "wild_room", "floor": null, "bulbs": 0, "special": true})
    );
    assert_eq!(
        of("ghost"),
        json!({"card": "ghost", "floor": null, "bulbs": 0, "special": false})
    );
}
