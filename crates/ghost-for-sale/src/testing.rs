//! Helpers the tests need from inside the crate (`#[doc(hidden)]`): the conformance
//! suite's near misses, and a read-only window on the state for the rule scenarios.

use crate::state::GhostForSale;
use crate::types::{Phase, PropertyId, SeatId};
use crate::{Action, Mark, QuestionCard, Special, Target, Token};
use takuge_engine::conformance::Probe;
use takuge_engine::Seat;

impl Probe for GhostForSale {
    /// The action space is small: all of it, with every index one or two past its
    /// range (a seventh and eighth property, values 0 and 11, seats beyond the table,
    /// a guess above the tokens on the property).
    fn near_misses(&self, _seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        for value in 0..=11 {
            out.push(Action::SetAside { value });
            out.push(Action::Play { value });
        }
        for card in [QuestionCard::Truth, QuestionCard::Lie] {
            out.push(Action::Choose { card });
        }
        for property in 0..8 {
            for token in Token::ALL {
                out.push(Action::Declare { property, token });
            }
            out.push(Action::Bid {
                target: Target::Property(property),
            });
        }
        out.push(Action::Bid {
            target: Target::Truelight,
        });
        out.push(Action::Bid {
            target: Target::Pile,
        });
        out.extend([
            Action::Done,
            Action::Pass,
            Action::AddGhost,
            Action::Decline,
        ]);
        for owner in 0..7 {
            out.push(Action::RemoveGhost { owner: Seat(owner) });
        }
        for ghosts in 0..=22 {
            out.push(Action::Guess { ghosts });
        }
    }
}

/// Per value, the twelve bidding cards every player starts with (index = value).
pub const FULL_SET: [u8; 11] = crate::state::FULL_SET;

/// One seat's cards and tokens, as the state holds them (tests read what no view
/// shows: the cards set aside and what everyone knows of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatInside {
    pub hand: [u8; 11],
    pub hand_n: u8,
    pub aside: [u8; 11],
    pub aside_n: u8,
    pub paid: [u8; 11],
    pub r1_known: [u8; 11],
    pub tokens: [u8; 3],
    pub on_truelight: bool,
}

/// One card on the table, as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BidInside {
    pub seat: u8,
    pub target: Target,
    pub value: u8,
    pub face_up: bool,
}

/// A copy of what the state holds, for tests: every seat's secrets included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inside {
    /// 0 (manors) or 1 (castles).
    pub round: usize,
    pub players: Vec<SeatInside>,
    /// The "?" card of each seat, per round.
    pub cards: [Vec<Option<QuestionCard>>; 2],
    /// Mrs. Truelight's looks per round: `looks[r][looker]`.
    pub looks: [Vec<Option<u8>>; 2],
    /// Mrs. Truelight's ranking per round, best first.
    pub chain: [Vec<u8>; 2],
    pub pile_seer: [Option<u8>; 2],
    /// The four auctions (round * 2 + property): revealed, and the cards in order.
    pub auctions: Vec<(bool, Vec<BidInside>)>,
    /// The auction whose cards are on the table now.
    pub live_auction: Option<usize>,
    pub round_revealed: [bool; 2],
    /// Per property (global id): tokens per seat and face (ghost, painting).
    pub decl: Vec<Vec<[u8; 2]>>,
    pub owner: [Option<u8>; 12],
    pub ghosts: [Option<u8>; 12],
    pub special: [Option<Special>; 12],
    pub points: [[u8; 5]; 12],
    pub property_points: [Option<u8>; 12],
    pub crystal_owner: Option<u8>,
    pub portrait_owner: Option<u8>,
    /// Per seat: the score now, the final score, the castles bought.
    pub score: Vec<i64>,
    pub scores: Vec<i64>,
    pub castles: Vec<usize>,
    pub first: [u8; 2],
    pub placed: u8,
}

/// Everything the state holds, for tests.
pub fn inside(g: &GhostForSale) -> Inside {
    let n = g.n();
    let seat = |s: Option<SeatId>| s.map(|s| s.seat().0);
    Inside {
        round: usize::from(g.round),
        players: g
            .players
            .first(n)
            .iter()
            .map(|p| SeatInside {
                hand: p.hand,
                hand_n: p.hand_n,
                aside: p.aside,
                aside_n: p.aside_n,
                paid: p.paid,
                r1_known: p.r1_known,
                tokens: p.tokens,
                on_truelight: p.on_truelight,
            })
            .collect(),
        cards: g.card.map(|c| c.first(n).to_vec()),
        looks: g
            .looks
            .map(|l| l.first(n).iter().map(|s| seat(*s)).collect()),
        chain: [0, 1].map(|r| {
            g.chain[r][..usize::from(g.chain_len[r])]
                .iter()
                .map(|s| s.seat().0)
                .collect()
        }),
        pile_seer: g.pile_seer.map(seat),
        auctions: g
            .auctions
            .iter()
            .map(|a| {
                let bids = a
                    .bids()
                    .iter()
                    .map(|b| BidInside {
                        seat: b.seat.seat().0,
                        target: b.spot.target(),
                        value: b.value,
                        face_up: b.face_up,
                    })
                    .collect();
                (a.revealed, bids)
            })
            .collect(),
        live_auction: g.live_auction(),
        round_revealed: [g.round_revealed(0), g.round_revealed(1)],
        decl: g.decl.iter().map(|d| d.first(n).to_vec()).collect(),
        owner: g.owner.map(seat),
        ghosts: g.ghosts,
        special: g.special,
        points: g.points,
        property_points: std::array::from_fn(|i| {
            PropertyId::all().nth(i).and_then(|p| g.property_points(p))
        }),
        crystal_owner: seat(g.crystal_owner),
        portrait_owner: seat(g.portrait_owner),
        score: g.seats().map(|s| g.score(s)).collect(),
        scores: g.scores.first(n).to_vec(),
        castles: g.seats().map(|s| g.castles(s)).collect(),
        first: g.first.map(|s| s.seat().0),
        placed: g.placed,
    }
}

/// The back mark of a bidding card of `value`.
pub fn mark(g: &GhostForSale, value: u8) -> Mark {
    g.mark(value)
}

/// Lays `layout` on the properties of the current round (alphabetical order) and
/// `spare` aside, as if the shuffle had dealt them so.
pub fn lay_out_specials(g: &mut GhostForSale, layout: [Special; 6], spare: &[Special]) {
    for (p, s) in PropertyId::of_round(g.round).zip(layout) {
        g.special[p.index()] = Some(s);
    }
    g.spare[usize::from(g.round)] = spare.iter().fold(0, |m, s| m | 1 << s.index());
    g.refresh_restrictions();
}

/// Puts another "?" card in front of `seat` for `round` (0 or 1).
pub fn set_question_card(g: &mut GhostForSale, round: usize, seat: Seat, card: QuestionCard) {
    if let (Some(s), Some(cards)) = (g.seated(seat), g.card.get_mut(round)) {
        cards[s] = Some(card);
    }
}

/// Sets the ghosts seen on property `id` (global: manors 0..6, castles 6..12).
pub fn set_ghosts(g: &mut GhostForSale, id: usize, ghosts: u8) {
    if let Some(x) = g.ghosts.get_mut(id) {
        *x = Some(ghosts);
    }
}

/// Ends the game with these final scores, property owners (global id, seat) and
/// hands, to test the tie-breaks alone.
pub fn force_game_over(
    g: &mut GhostForSale,
    scores: &[i64],
    owners: &[(usize, u8)],
    hands: &[(u8, [u8; 11])],
) {
    g.phase = Phase::Over;
    g.pending = takuge_engine::SeatSet::EMPTY;
    for (slot, &score) in g.scores.first_mut(g.n()).iter_mut().zip(scores) {
        *slot = score;
    }
    for &(id, seat) in owners {
        if let Some(o) = g.owner.get_mut(id) {
            *o = SeatId::check(Seat(seat), usize::from(g.n));
        }
    }
    for &(seat, hand) in hands {
        if let Some(s) = g.seated(Seat(seat)) {
            g.players[s].hand = hand;
            g.players[s].refresh_held();
        }
    }
}
