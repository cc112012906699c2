//! Helpers for the scenario tests in `tests/` (not part of the game's API): laying out
//! a table by hand, and reading what is where. Seats are given colours in turn order
//! (seat 0 red ... seat 4 white) by [`fixture`], so the default components apply.

use crate::cards::{ActionCard, ArtCard, ArtSet, Colour, Letter, Pile, Place, PLAYERS};
use crate::data::Components;
use crate::state::{seat_bit, ArtHeist, PerSeat};
use crate::types::{Action, AuctionResult, SeatId};
use crate::view::Step;
use takuge_engine::{bits, FixedList, Game, Seat, Seated, Viewer};

pub const RED: usize = 0;
pub const BLUE: usize = 1;
pub const GREEN: usize = 2;
pub const PURPLE: usize = 3;
pub const WHITE: usize = 4;

fn seat(p: usize) -> SeatId {
    match Seated::check(Seat(p as u8), PLAYERS) {
        Some(s) => s,
        None => panic!("no seat {p} at a table of {PLAYERS}"),
    }
}

fn per_seat<T: Copy>(m: &PerSeat<T>) -> [T; PLAYERS] {
    std::array::from_fn(|p| m[seat(p)])
}

/// A table in turn order, no art anywhere, both piles empty; turn 1 starts (see
/// [`begin`]) once the test has laid out the cards.
pub fn fixture() -> ArtHeist {
    let mut g = ArtHeist::new(&crate::Options::default(), PLAYERS, 1).expect("setup");
    for p in 0..PLAYERS {
        g.colour[seat(p)] = Colour::ALL[p];
        g.seat_of[p] = seat(p);
        g.set_hand(
            seat(p),
            (0..8).fold(0, |m, s| m | ActionCard::new(Colour::ALL[p], s).bit()),
        );
        g.art[seat(p)] = 0;
    }
    g.piles = [FixedList::new(), FixedList::new()];
    g.public_art = 0;
    g.turn = 0;
    g
}

/// Starts turn 1 of a fixture (no-op once started).
pub fn begin(g: &mut ArtHeist) {
    if g.turn == 0 {
        g.start_turn();
    }
}

/// Unused art cards of the given letters, oldest first for each letter.
pub fn take(g: &ArtHeist, letters: &str) -> u64 {
    let rules = g.rules();
    let mut used = g.art.first(PLAYERS).iter().fold(0, |m, a| m | a);
    for pile in &g.piles {
        for a in pile {
            used |= a.bit();
        }
    }
    let mut out = 0u64;
    for l in letters.chars() {
        let a = (0..rules.art_count() as u8)
            .map(ArtCard)
            .find(|&a| rules.letter(a) == l && (used | out) & a.bit() == 0)
            .expect("enough cards of that letter");
        out |= a.bit();
    }
    out
}

/// Gives seat `p` unused art cards of the given letters.
pub fn deal(g: &mut ArtHeist, p: usize, letters: &str) -> u64 {
    let cards = take(g, letters);
    g.art[seat(p)] |= cards;
    cards
}

/// Lays a pile bottom to top; its top card is face up.
pub fn lay_pile(g: &mut ArtHeist, pile: Pile, letters: &str) {
    for l in letters.chars() {
        let a = take(g, &l.to_string());
        g.piles[pile.index()]
            .push(ArtCard(a.trailing_zeros() as u8))
            .expect("room in the pile");
    }
    if let Some(t) = g.piles[pile.index()].last() {
        g.public_art |= t.bit();
    }
}

pub fn cheque(p: usize, slot: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], slot)
}

pub fn thief(p: usize, i: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], 4 + i)
}

pub fn detective(p: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], 6)
}

pub fn exhibition(p: usize) -> ActionCard {
    ActionCard::new(Colour::ALL[p], 7)
}

/// Seat `p` plays `a`, which must be accepted.
pub fn act(g: &mut ArtHeist, p: usize, a: Action) {
    if let Err(e) = g.apply(Seat(p as u8), &a) {
        panic!("seat {p}: {a:?} refused: {e}\n{g:?}");
    }
}

/// What the table is deciding (as the views show it).
pub fn step(g: &ArtHeist) -> Step {
    g.view(Viewer::Spectator).step
}

/// Every pending seat chooses its place: the auction house for `auction`, else the castle.
pub fn places(g: &mut ArtHeist, auction: &[usize]) {
    begin(g);
    assert_eq!(step(g), Step::ChoosePlace);
    for p in pending(g) {
        let place = if auction.contains(&p) {
            Place::AuctionHouse
        } else {
            Place::Castle
        };
        act(g, p, Action::Go(place));
    }
}

/// Everyone at the castle (no art in the piles), playing the given cards.
pub fn castle_turn(g: &mut ArtHeist, cards: [ActionCard; PLAYERS]) {
    begin(g);
    assert_eq!(step(g), Step::CastleCards);
    for (p, c) in cards.into_iter().enumerate() {
        if g.pending & seat_bit(seat(p)) != 0 {
            act(g, p, Action::Play(c));
        }
    }
}

/// Chooses the letters of `cards`, then shows them letter by letter.
pub fn show(g: &mut ArtHeist, p: usize, cards: u64) {
    let rules = g.rules();
    let letters = u32::from(rules.letters(cards));
    let (from, to) = (letters.trailing_zeros(), 31 - letters.leading_zeros());
    let letter = |s: u32| Letter(s as u8);
    act(
        g,
        p,
        Action::Exhibit {
            from: letter(from),
            to: letter(to),
        },
    );
    for s in from..=to {
        act(
            g,
            p,
            Action::Cards(ArtSet::of(cards & rules.series_range(s, s))),
        );
    }
}

/// Everyone shows a final exhibit (0: nothing).
pub fn finish_final(g: &mut ArtHeist, exhibits: [u64; PLAYERS]) {
    assert_eq!(step(g), Step::FinalExhibit);
    assert_eq!(
        pending(g),
        vec![0, 1, 2, 3, 4],
        "everyone shows a final exhibit"
    );
    for (p, e) in exhibits.into_iter().enumerate() {
        if e == 0 {
            act(g, p, Action::ShowNothing);
        } else {
            show(g, p, e);
        }
    }
}

pub fn pending(g: &ArtHeist) -> Vec<usize> {
    g.to_move().iter().map(Seat::index).collect()
}

pub fn holds(g: &ArtHeist, p: usize, c: ActionCard) -> bool {
    g.cards[seat(p)] & c.bit() != 0
}

/// Seat `p`'s action cards, as a set of card ids.
pub fn cards(g: &ArtHeist, p: usize) -> u64 {
    g.cards[seat(p)]
}

/// Sets seat `p`'s action cards.
pub fn set_cards(g: &mut ArtHeist, p: usize, cards: u64) {
    g.set_hand(seat(p), cards);
}

/// Seat `p`'s art cards (exhibited ones included), as a set of card ids.
pub fn art(g: &ArtHeist, p: usize) -> u64 {
    g.art[seat(p)]
}

/// Every seat's art cards.
pub fn all_art(g: &ArtHeist) -> [u64; PLAYERS] {
    per_seat(&g.art)
}

/// Seat `p`'s exhibit this turn.
pub fn exhibit(g: &ArtHeist, p: usize) -> u64 {
    g.exhibit[seat(p)]
}

pub fn position(g: &ArtHeist) -> [u8; PLAYERS] {
    per_seat(&g.position)
}

pub fn set_position(g: &mut ArtHeist, position: [u8; PLAYERS]) {
    for (p, at) in position.into_iter().enumerate() {
        g.position[seat(p)] = at;
    }
}

/// Marks seat `p` to skip the next turn.
pub fn rest_next_turn(g: &mut ArtHeist, p: usize) {
    g.next_resting |= seat_bit(seat(p));
}

pub fn public_art(g: &ArtHeist) -> u64 {
    g.public_art
}

/// A pile, bottom to top.
pub fn pile(g: &ArtHeist, pile: Pile) -> Vec<ArtCard> {
    g.piles[pile.index()].as_slice().to_vec()
}

pub fn pile_top(g: &ArtHeist, pile: Pile) -> Option<ArtCard> {
    g.piles[pile.index()].last().copied()
}

/// The safe, bottom to top.
pub fn safe(g: &ArtHeist) -> Vec<ActionCard> {
    g.safe.as_slice().to_vec()
}

/// The cage, cell 1 first.
pub fn cage(g: &ArtHeist) -> Vec<ActionCard> {
    g.cage.as_slice().to_vec()
}

pub fn colours(g: &ArtHeist) -> [Colour; PLAYERS] {
    per_seat(&g.colour)
}

/// The seat of each colour (`Colour::index`).
pub fn seat_of(g: &ArtHeist) -> [usize; PLAYERS] {
    g.seat_of.map(|s| s.index())
}

/// The action card seat `p` set face down this turn.
pub fn played(g: &ArtHeist, p: usize) -> Option<ActionCard> {
    g.played[seat(p)]
}

pub fn auction(g: &ArtHeist) -> Option<AuctionResult> {
    g.auction
}

pub fn turn(g: &ArtHeist) -> u16 {
    g.turn
}

pub fn rules(g: &ArtHeist) -> &'static Components {
    g.rules()
}

/// The set bits of a mask, lowest first.
pub fn ids(mask: u64) -> impl Iterator<Item = u8> + Clone {
    bits::iter(mask)
}
