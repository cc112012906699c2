//! The state: what is on the table, and the types of actions and refusals.

use crate::cards::{
    bits, ActionCard, ArtCard, ArtSet, Colour, Letter, Pile, Place, ACTION_CARDS, ALL_SEATS,
    MAX_ART, PLAYERS,
};
use crate::components::Components;
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::Seat;

/// Table options. The seed's game has none: it is always five players.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {}

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The 「1」 card: where to play this turn, set face down.
    Go(Place),
    /// The 「2」 card: the action card played this turn, face down. Any card in hand may
    /// be played; one with no use where the player is makes a wasted turn.
    Play(ActionCard),
    /// Choose the letters of the exhibit: the run `from..=to` (every letter in hand, 3
    /// cards or more of them). The cards follow, one step per letter.
    Exhibit { from: Letter, to: Letter },
    /// The cards shown of the next letter of the run (one or more, and enough to make 3
    /// cards with the letters still to come). After the last letter the exhibit is
    /// complete. A letter a step, whatever the hand holds, so how many steps a player
    /// takes depends only on the exhibit everyone will see.
    Cards(ArtSet),
    /// Show no exhibit (in a turn, the failed-exhibit penalty applies).
    ShowNothing,
    /// The highest bidder takes the face-up card of this pile.
    Take(Pile),
    /// A thief takes this card from the exhibit it is robbing.
    Steal(ArtCard),
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The table is not deciding this kind of thing now.
    NotNow,
    /// The card is not in the player's hand.
    NotInHand,
    /// The hand holds no valid exhibit of those letters (every letter from `from` to
    /// `to`, 3 cards or more).
    NoSuchRun,
    /// Those are not cards of the next letter in hand, or too few to reach 3 cards.
    NotThoseCards,
    /// The letters of the exhibit have not been chosen yet.
    NoExhibitYet,
    /// The letters of the exhibit were already chosen.
    AlreadyExhibiting,
    /// That pile is empty.
    EmptyPile,
    /// That card is not in the exhibit (being robbed, or being put together).
    NotInExhibit,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::NotNow => "that is not what the table is deciding now",
            Reject::NotInHand => "that card is not in your hand",
            Reject::NoSuchRun => {
                "your hand holds no valid exhibit of those letters (every letter of the run, 3+ cards)"
            }
            Reject::NotThoseCards => {
                "choose one or more of your cards of the next letter, enough to reach 3 cards"
            }
            Reject::NoExhibitYet => "choose the letters of your exhibit first",
            Reject::AlreadyExhibiting => "you have already chosen the letters of your exhibit",
            Reject::EmptyPile => "that pile is empty",
            Reject::NotInExhibit => "that card is not in that exhibit",
        })
    }
}

/// A small stack of card or seat numbers in a fixed array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stack<const N: usize> {
    items: [u8; N],
    len: u8,
}

impl<const N: usize> Stack<N> {
    pub(crate) const fn new() -> Self {
        Stack {
            items: [0; N],
            len: 0,
        }
    }

    /// The first `len` of `items`.
    pub(crate) fn from_parts(items: [u8; N], len: usize) -> Self {
        Stack {
            items,
            len: len.min(N) as u8,
        }
    }

    /// The first `N` items of `items`.
    pub(crate) fn from_slice(items: &[u8]) -> Self {
        let mut stack = Self::new();
        let n = items.len().min(N);
        if let (Some(to), Some(from)) = (stack.items.get_mut(..n), items.get(..n)) {
            to.copy_from_slice(from);
            stack.len = n as u8;
        }
        stack
    }

    /// The set bits of `mask`, lowest first (the first `N`).
    pub(crate) fn from_bits(mask: u64) -> Self {
        let mut stack = Self::new();
        let mut n = 0;
        for (slot, b) in stack.items.iter_mut().zip(bits(mask)) {
            *slot = b;
            n += 1;
        }
        stack.len = n;
        stack
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        self.items.get(..usize::from(self.len)).unwrap_or(&[])
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        let len = usize::from(self.len);
        self.items.get_mut(..len).unwrap_or(&mut [])
    }

    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn push(&mut self, v: u8) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = v;
            self.len += 1;
        }
    }

    pub(crate) fn pop(&mut self) -> Option<u8> {
        let v = self.top()?;
        self.len -= 1;
        Some(v)
    }

    pub(crate) fn top(&self) -> Option<u8> {
        self.as_slice().last().copied()
    }

    pub(crate) fn get(&self, i: usize) -> Option<u8> {
        self.as_slice().get(i).copied()
    }

    /// Puts `v` in front, shifting the others back.
    pub(crate) fn push_front(&mut self, v: u8) {
        let len = usize::from(self.len);
        if len < N {
            // Every slot moves one on (the last falls off, past `len`): a move of a
            // fixed size compiles to a few moves, not a call.
            for i in (1..N).rev() {
                self.items[i] = self.items[i - 1];
            }
            self.items[0] = v;
            self.len += 1;
        }
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.items = [0; N];
    }
}

/// What the table is deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Every seat that plays this turn sets its 「1」 card face down.
    Location,
    /// The auction-house players set their 「2」 cards face down.
    AuctionCards,
    /// The highest bidder chooses a pile (only when both have cards).
    AuctionPile {
        winner: u8,
    },
    /// The castle players set their 「2」 cards face down (after the auction).
    CastleCards,
    /// The exhibitors put their exhibits together in secret (「せーの!」).
    Exhibiting,
    /// A thief chooses the card it steals from one exhibit.
    Stealing,
    /// Everyone puts the final exhibit together.
    FinalExhibit,
    Over,
}

/// No card.
pub(crate) const NONE: u8 = u8::MAX;

/// Slots of a listed hand: a hand holds at most its own 8 cards and the other colours'
/// 16 cheques; 32 so that an index masked with 31 needs no bounds check.
pub(crate) const HAND_SLOTS: usize = 32;

/// A hand's action cards listed lowest first, between two fixed guards: byte 0 is 0,
/// bytes `1..=32` the cards then `NONE`s, byte 33 `NONE`. With the guards a card is put
/// in or taken out by comparing every slot with its neighbour at once (whole vectors,
/// no loop over the cards, no search for the card's place).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HandList([u8; HAND_SLOTS + 2]);

impl HandList {
    /// The cards of `cards`, listed (tests lay out hands with it).
    #[cfg(test)]
    pub(crate) fn of(cards: u64) -> HandList {
        let mut list = [NONE; HAND_SLOTS + 2];
        list[0] = 0;
        for (slot, c) in list[1..=HAND_SLOTS].iter_mut().zip(bits(cards)) {
            *slot = c;
        }
        HandList(list)
    }

    /// The `n` cards from `first` on (a colour's cards at setup), listed without
    /// walking bits.
    pub(crate) fn consecutive(first: u8, n: usize) -> HandList {
        let mut list = [NONE; HAND_SLOTS + 2];
        list[0] = 0;
        for (i, slot) in list[1..=HAND_SLOTS].iter_mut().enumerate() {
            *slot = if i < n {
                first.wrapping_add(i as u8)
            } else {
                NONE
            };
        }
        HandList(list)
    }

    /// The `k`-th card (lowest first) for `k` below the hand's size; `NONE` past it.
    #[inline]
    pub(crate) fn card(&self, k: u32) -> u8 {
        self.0[1 + (k as usize & (HAND_SLOTS - 1))]
    }

    /// Takes out card `c` (in the list): each slot keeps its card if below `c`, else
    /// takes the next one.
    #[inline]
    pub(crate) fn remove(&mut self, c: u8) {
        // Two halves of 16 slots: each one vector compare and select (written as one
        // loop over 32 slots, it compiled to pieces of 16, 8, 4 and single slots).
        let (lo, hi) = (self.half(1), self.half(17));
        let (next_lo, next_hi) = (self.half(2), self.half(18));
        let pick = |l: [u8; 16], next: [u8; 16]| {
            std::array::from_fn::<u8, 16, _>(|j| if l[j] < c { l[j] } else { next[j] })
        };
        self.set_halves(pick(lo, next_lo), pick(hi, next_hi));
    }

    /// Puts in card `c` (not in the list): below `c`'s place a slot keeps its card, at
    /// it gets `c`, after it takes the previous card — `max(min(card, c), previous)`.
    #[inline]
    pub(crate) fn insert(&mut self, c: u8) {
        let (lo, hi) = (self.half(1), self.half(17));
        let (prev_lo, prev_hi) = (self.half(0), self.half(16));
        let put = |l: [u8; 16], prev: [u8; 16]| {
            std::array::from_fn::<u8, 16, _>(|j| l[j].min(c).max(prev[j]))
        };
        self.set_halves(put(lo, prev_lo), put(hi, prev_hi));
    }

    /// The 16 bytes from `at` (at most 18).
    #[inline]
    fn half(&self, at: usize) -> [u8; 16] {
        let mut h = [NONE; 16];
        if let Some(bytes) = self.0.get(at..at + 16) {
            h.copy_from_slice(bytes);
        }
        h
    }

    #[inline]
    fn set_halves(&mut self, lo: [u8; 16], hi: [u8; 16]) {
        self.0[1..17].copy_from_slice(&lo);
        self.0[17..33].copy_from_slice(&hi);
    }
}

/// What happened at the auction house this turn (public once it happened).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AuctionResult {
    pub winner: Seat,
    pub art: Option<ArtCard>,
    pub money: ActionCard,
    /// The lone thief who took the money, if there was exactly one.
    pub stolen_by: Option<Seat>,
}

/// The state of a game of art-heist (seed 001).
#[derive(Clone, PartialEq, Eq)]
pub struct ArtHeist {
    pub(crate) rules: Rules,
    pub(crate) options: Options,
    /// Colour per seat, drawn at setup.
    pub(crate) colour: [Colour; PLAYERS],
    /// Seat per colour.
    pub(crate) seat_of: [u8; PLAYERS],
    /// Pawn positions (spaces from the start; may pass the goal).
    pub(crate) position: [u8; PLAYERS],
    /// Action cards held, including one set face down and not yet resolved.
    pub(crate) cards: [u64; PLAYERS],
    /// How many action cards each seat holds (`cards` counted, kept up to date where
    /// cards change hands: the random playout draws a card from every hand every turn,
    /// and the baseline x86-64 target has no popcount instruction).
    pub(crate) hand_len: [u8; PLAYERS],
    /// Each hand's cards listed lowest first (`NONE` after the last): the `k`-th card
    /// drawn in a random playout is read here instead of searched for among the bits
    /// (≈ 45 instructions a draw without popcount). Hands change about 60 times a game,
    /// cards are drawn from them about 260 times.
    pub(crate) hand: [HandList; PLAYERS],
    /// Art cards held, including those in an exhibit.
    pub(crate) art: [u64; PLAYERS],
    /// Art cards whose whereabouts every player knows: pile tops, cards taken from a pile
    /// top, exhibited or stolen. Everything else is known to its holder only (or to
    /// nobody, below a pile's top).
    pub(crate) public_art: u64,
    /// The two piles, top last.
    pub(crate) piles: [Stack<MAX_ART>; 2],
    /// The safe (金庫), top last.
    pub(crate) safe: Stack<ACTION_CARDS>,
    /// The cage (檻): cell 1 (the newest prisoner) first.
    pub(crate) cage: Stack<10>,
    pub(crate) turn: u16,
    /// Seats that skip this turn (a failed exhibit last turn).
    pub(crate) resting: u8,
    /// Seats that will skip the next turn.
    pub(crate) next_resting: u8,
    pub(crate) phase: Phase,
    pub(crate) pending: u8,
    /// This turn's places: set as the 「1」 cards are chosen, public once all are.
    pub(crate) at_auction: u8,
    pub(crate) at_castle: u8,
    /// This turn's 「2」 cards (NONE when none), public for the seats in `revealed`.
    pub(crate) played: [u8; PLAYERS],
    pub(crate) revealed: u8,
    /// This turn's exhibits: being put together, then what is left of them after thieves.
    pub(crate) exhibit: [u64; PLAYERS],
    /// The letters each exhibitor chose this turn (a packed run; NONE until chosen).
    pub(crate) run: [u8; PLAYERS],
    pub(crate) exhibitors: u8,
    /// Exhibitors who showed no valid exhibit this turn (once revealed).
    pub(crate) failed: u8,
    /// Whether the exhibits have been revealed.
    pub(crate) exhibits_shown: bool,
    /// Seats in stealing order (highest thief number first), exhibitors in rank order.
    pub(crate) steal_thieves: Stack<PLAYERS>,
    pub(crate) steal_exhibits: Stack<PLAYERS>,
    pub(crate) steal_t: u8,
    pub(crate) steal_e: u8,
    pub(crate) auction: Option<AuctionResult>,
    /// Seats whose thief was revealed at the auction house / castle this turn, and
    /// whose detective at the castle (worked out once, when the cards are revealed).
    pub(crate) auction_thieves: u8,
    pub(crate) castle_thieves: u8,
    pub(crate) castle_detectives: u8,
    /// Strength of each seat's final exhibit (0: none).
    pub(crate) final_strength: [u16; PLAYERS],
}

/// The components a state plays with (compared by identity: there is one set).
#[derive(Clone, Copy)]
pub(crate) struct Rules(pub(crate) &'static Components);

impl PartialEq for Rules {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Rules {}

impl fmt::Debug for ArtHeist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArtHeist")
            .field("turn", &self.turn)
            .field("phase", &self.phase)
            .field("pending", &format_args!("{:05b}", self.pending))
            .field("colour", &self.colour)
            .field("position", &self.position)
            .field("cards", &self.cards.map(|c| bits(c).collect::<Vec<_>>()))
            .field("art", &self.art.map(|c| bits(c).collect::<Vec<_>>()))
            .field("public_art", &bits(self.public_art).collect::<Vec<_>>())
            .field("piles", &self.piles.map(|p| p.as_slice().to_vec()))
            .field("safe", &self.safe.as_slice())
            .field("cage", &self.cage.as_slice())
            .field("resting", &self.resting)
            .field("next_resting", &self.next_resting)
            .field("at_auction", &self.at_auction)
            .field("at_castle", &self.at_castle)
            .field("played", &self.played)
            .field("revealed", &self.revealed)
            .field(
                "exhibit",
                &self.exhibit.map(|c| bits(c).collect::<Vec<_>>()),
            )
            .field("exhibitors", &self.exhibitors)
            .field("final_strength", &self.final_strength)
            .finish_non_exhaustive()
    }
}

pub(crate) const fn seat_bit(p: usize) -> u8 {
    1 << (p & 7)
}

pub(crate) fn seats(mask: u8) -> impl Iterator<Item = usize> + Clone {
    bits(u64::from(mask)).map(usize::from)
}

/// Whether the series in `letters` are connected (AAB, ABC: yes; AAC, ABD: no).
#[cfg(test)]
pub(crate) fn connected(letters: u16) -> bool {
    if letters == 0 {
        return false;
    }
    let shifted = letters >> letters.trailing_zeros();
    shifted & (shifted + 1) == 0
}

/// Whether a set has at least 3 cards (cheaper than counting them all: this runs on
/// every exhibit step of every playout).
#[inline]
pub(crate) const fn three_or_more(cards: u64) -> bool {
    let two_fewer = cards & cards.wrapping_sub(1);
    two_fewer & two_fewer.wrapping_sub(1) != 0
}

impl ArtHeist {
    pub(crate) fn rules(&self) -> &'static Components {
        self.rules.0
    }

    /// The rank (順位) of a seat's pawn on the track: 1 + the pawns strictly ahead
    /// (pawns on the same space share a rank).
    pub(crate) fn rank(&self, p: usize) -> u8 {
        let mine = self.position.get(p).copied().unwrap_or(0);
        1 + self.position.iter().filter(|&&q| q > mine).count() as u8
    }

    /// The numbers of the castle beside the leading pawn.
    pub(crate) fn castle_numbers(&self) -> [u8; 2] {
        let leader = self.position.iter().copied().max().unwrap_or(0);
        self.rules().castle_numbers(leader)
    }

    pub(crate) fn art_left(&self) -> bool {
        !self.piles[0].is_empty() || !self.piles[1].is_empty()
    }

    /// The seats taking part in the secret choice under way (pending or done).
    pub(crate) fn choosing(&self) -> u8 {
        match self.phase {
            Phase::Location => ALL_SEATS & !self.resting,
            Phase::AuctionCards => self.at_auction,
            Phase::CastleCards => self.at_castle,
            Phase::Exhibiting | Phase::FinalExhibit => self.exhibitors,
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use takuge_engine::GameRng;

    #[test]
    fn a_listed_hand_takes_and_gives_cards_in_bit_order() {
        let mut rng = GameRng::from_seed(11);
        for _ in 0..3000 {
            // Up to 32 of 40 cards (a list holds 32).
            let mut cards = rng.next_u64() & rng.next_u64() & 0xff_ffff_ffff;
            while cards.count_ones() > 31 {
                cards &= cards - 1;
            }
            let mut list = HandList::of(cards);
            if cards.count_ones() == 8 && cards == 0xff << cards.trailing_zeros() {
                assert_eq!(list, HandList::consecutive(cards.trailing_zeros() as u8, 8));
            }
            for (k, c) in bits(cards).enumerate() {
                assert_eq!(list.card(k as u32), c);
            }
            assert_eq!(list.card(cards.count_ones()), NONE);
            let c = rng.below(40) as u8;
            let bit = 1u64 << c;
            if cards & bit != 0 {
                list.remove(c);
                assert_eq!(list, HandList::of(cards & !bit));
            } else {
                list.insert(c);
                assert_eq!(list, HandList::of(cards | bit));
            }
        }
    }
}
