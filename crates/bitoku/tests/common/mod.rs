//! Shared helpers of the scenario tests.
#![allow(dead_code)]

use takuge_bitoku::testing::*;
use takuge_bitoku::*;
use takuge_engine::{Game, Seat};

pub fn comp() -> &'static Components {
    match components() {
        Ok(c) => c,
        Err(e) => panic!("{e}"),
    }
}

pub fn game(players: usize, seed: u64) -> Bitoku {
    match Bitoku::new(&Options::default(), players, seed) {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    }
}

pub fn yokai(id: &str) -> u8 {
    comp()
        .cards
        .yokai
        .iter()
        .position(|y| y.id == id)
        .unwrap_or(usize::MAX) as u8
}

pub fn building(kind: BuildingKind, value: u8) -> u8 {
    comp()
        .tiles
        .building
        .iter()
        .position(|b| b.kind == kind && b.value == value)
        .unwrap_or(usize::MAX) as u8
}

pub fn crystal(colour: CrystalColour) -> u8 {
    comp()
        .tiles
        .crystal
        .iter()
        .position(|c| c.colour == colour)
        .unwrap_or(usize::MAX) as u8
}

pub fn region(id: &str) -> u8 {
    comp()
        .board
        .region
        .iter()
        .position(|r| r.id == id)
        .unwrap_or(usize::MAX) as u8
}

pub fn legal(g: &Bitoku, seat: u8) -> Vec<Action> {
    let mut out = Vec::new();
    g.legal_actions(Seat(seat), &mut out);
    out
}

pub fn play(g: &mut Bitoku, seat: u8, a: Action) {
    if let Err(e) = g.apply(Seat(seat), &a) {
        panic!("{a:?} by {seat}: {e}; legal: {:?}", legal(g, seat));
    }
}

/// A two-player game at its first summer, seat 0 to act, no amulets, hands emptied.
pub fn summer2() -> Bitoku {
    let mut g = at_summer(2, 7);
    set_order(&mut g, &[0, 1]);
    for s in 0..2 {
        let p = player_mut(&mut g, s);
        p.goods = Goods::default();
        p.hand.clear();
    }
    g
}
