//! Scenario helpers shared by the rule and secrecy tests: seats act through the
//! public API; what no view shows is read through `takuge_ghost_for_sale::testing`.

#![allow(dead_code, unused_imports)]
// Card counts are indexed by card value; ranges over values read best here.
#![allow(clippy::needless_range_loop)]

pub use takuge_engine::{ActionError, Bot, Determinized, Game, GameRng, Seat, SeatSet, Viewer};
pub use takuge_ghost_for_sale::data::{self, PER_ROUND};
pub use takuge_ghost_for_sale::testing::{self, inside as ins, mark, FULL_SET};
pub use takuge_ghost_for_sale::{
    Action, Face, GhostForSale, Mark, Options, QuestionCard, Reject, Special, Step, Target, Token,
};

pub const T: QuestionCard = QuestionCard::Truth;
pub const L: QuestionCard = QuestionCard::Lie;

// Manors in alphabetical order (data/properties.toml).
pub const ALGERNON: u8 = 0;
pub const BLACKWOOD: u8 = 1;
pub const CULZEAN: u8 = 2;
pub const DUNMORE: u8 = 3;
pub const EVERLEIGH: u8 = 4;
pub const FAIRHOLME: u8 = 5;

/// The step of play, as every view names it.
pub fn step(g: &GhostForSale) -> Step {
    g.view(Viewer::Spectator).step
}

/// The special-card step on manor `property`.
pub fn special_step(property: u8) -> Step {
    Step::SpecialCard {
        round: 1,
        property,
        card: [
            Special::MagicMirror,
            Special::SecretCrypt,
            Special::CrystalBall,
        ][usize::from(property)],
    }
}

pub fn new_game(players: usize, special: bool) -> GhostForSale {
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

pub fn act(g: &mut GhostForSale, seat: u8, action: Action) {
    if let Err(e) = g.apply(Seat(seat), &action) {
        panic!(
            "{action:?} of seat {seat} refused: {e} (phase {:?})",
            step(g)
        );
    }
}

pub fn refused(g: &GhostForSale, seat: u8, action: Action) -> ActionError<Reject> {
    let mut probe = g.clone();
    let err = probe
        .apply(Seat(seat), &action)
        .expect_err("the action should be refused");
    assert_eq!(&probe, g, "a refused action changed the state");
    err
}

pub fn legal(g: &GhostForSale, seat: u8) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(Seat(seat), &mut out);
    out
}

pub fn turn(g: &GhostForSale) -> u8 {
    let pending = g.to_move();
    assert_eq!(pending.len(), 1, "one seat to move, not {pending:?}");
    pending.first_seat().map(|s| s.0).unwrap_or(0)
}

pub fn set_aside(g: &mut GhostForSale, values: [u8; 4]) {
    for s in 0..g.players() as u8 {
        for v in values {
            act(g, s, Action::SetAside { value: v });
        }
    }
}

pub fn choose(g: &mut GhostForSale, cards: &[QuestionCard]) {
    for (s, &card) in cards.iter().enumerate() {
        act(g, s as u8, Action::Choose { card });
    }
}

/// The current seat places one token with `face` up on `property`: a single-faced
/// token if it has one left, else a double-faced one.
pub fn place(g: &mut GhostForSale, property: u8, face: Face) {
    let s = turn(g);
    let tokens = ins(g).players[usize::from(s)].tokens;
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
pub fn declare(g: &mut GhostForSale, plan: impl Fn(u8, usize) -> (u8, Face)) {
    let mut placed = [0usize; 5];
    while step(g) == Step::Declarations {
        let s = turn(g);
        let (property, face) = plan(s, placed[usize::from(s)]);
        placed[usize::from(s)] += 1;
        place(g, property, face);
    }
}

/// Every seat bids its smallest card on Mrs. Truelight, then everyone passes.
pub fn minimal_info_auction(g: &mut GhostForSale) {
    while step(g) == Step::InformationAuction {
        let s = turn(g);
        let p = ins(g).players[usize::from(s)];
        if p.on_truelight {
            act(g, s, Action::Pass);
        } else {
            let v = (1..=10u8).find(|&v| p.hand[usize::from(v)] > 0).unwrap();
            bid(g, s, Target::Truelight, v);
            if ins(g).placed == 1 {
                act(g, s, Action::Done);
            }
        }
    }
}

pub fn bid(g: &mut GhostForSale, seat: u8, target: Target, value: u8) {
    assert_eq!(turn(g), seat, "whose turn");
    act(g, seat, Action::Bid { target });
    act(g, seat, Action::Play { value });
}

pub fn prop(i: u8) -> Target {
    Target::Property(i)
}

/// Everyone still in the property auction passes.
pub fn all_pass(g: &mut GhostForSale) {
    while matches!(step(g), Step::InformationAuction | Step::PropertyAuction) {
        let s = turn(g);
        if ins(g).placed == 1 {
            act(g, s, Action::Done);
        } else {
            act(g, s, Action::Pass);
        }
    }
}

pub fn counts(values: &[u8]) -> [u8; 11] {
    let mut c = [0u8; 11];
    for &v in values {
        c[usize::from(v)] += 1;
    }
    c
}

pub fn view(g: &GhostForSale, seat: u8) -> takuge_ghost_for_sale::View {
    g.view(Viewer::Seat(Seat(seat)))
}

/// The scenario most round-1 tests share (3 players, seat 0 first, all set aside
/// 1,2,3,3). Seat 1 lies. Declarations: seat 0 ghosts on Culzean, paintings on Dunmore;
/// seat 1 ghost faces on Algernon, one painting on Culzean, one on Blackwood; seat 2
/// ghosts on Everleigh, paintings on Fairholme. Everyone bids a 4 on Mrs. Truelight.
pub fn scenario_declared() -> GhostForSale {
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
pub fn scenario_round_one() -> GhostForSale {
    let mut g = scenario_declared();
    assert_eq!(step(&g), Step::PropertyAuction);
    bid(&mut g, 0, prop(CULZEAN), 10);
    act(&mut g, 0, Action::Done);
    bid(&mut g, 1, prop(ALGERNON), 5);
    act(&mut g, 1, Action::Done);
    bid(&mut g, 2, prop(EVERLEIGH), 6);
    bid(&mut g, 2, prop(CULZEAN), 9);
    all_pass(&mut g);
    g
}

pub fn all_pass_info(g: &mut GhostForSale) {
    while step(g) == Step::InformationAuction {
        let s = turn(g);
        act(g, s, Action::Pass);
    }
}

/// A 3-player advanced game with a fixed layout: Algernon Magic mirror, Blackwood
/// Secret crypt, Culzean Crystal ball, Dunmore Family portrait, Everleigh Open
/// auction, Fairholme Too dark; Ancient legend and Perfectly normal spare.
pub fn special_game() -> GhostForSale {
    special_game_with(SPECIAL_LAYOUT)
}

/// The layout of `special_game`, in alphabetical order of the manors.
pub const SPECIAL_LAYOUT: [Special; 6] = [
    Special::MagicMirror,
    Special::SecretCrypt,
    Special::CrystalBall,
    Special::FamilyPortrait,
    Special::OpenAuction,
    Special::TooDark,
];

/// `special_game` with another layout of the manors' special cards.
pub fn special_game_with(layout: [Special; 6]) -> GhostForSale {
    let mut g = new_game(3, true);
    testing::lay_out_specials(
        &mut g,
        layout,
        &[Special::AncientLegend, Special::PerfectlyNormal],
    );
    set_aside(&mut g, [1, 2, 3, 3]);
    g
}

/// The advanced scenario: all tell the truth. Seat 0 ghosts on Algernon, seat 1 on
/// Culzean, seat 2 on Blackwood; all paintings on Fairholme (Too dark). Seat 0 buys
/// Algernon (mirror) and Dunmore (portrait), seat 1 Culzean (crystal ball) and
/// Everleigh (open auction), seat 2 Blackwood (crypt).
pub fn special_scenario_auction() -> GhostForSale {
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

pub fn play_out_round_two_without_bids(g: &mut GhostForSale) {
    choose(g, &[T, T, T]);
    while step(g) == Step::Declarations {
        let s = turn(g);
        let first = legal(g, s)[0];
        act(g, s, first);
    }
    minimal_info_auction(g);
    all_pass(g);
}
