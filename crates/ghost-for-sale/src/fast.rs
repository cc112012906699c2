//! The second copies, clearly second: the sampler that draws a legal action without
//! listing, a faster `is_legal`, and `random_playout`. Each is built from the
//! predicates of `legal.rs` and checked against `legal_actions` by the conformance
//! suite (uniform sampling, `is_legal` on near misses, playouts equal to the checked
//! loop); none is the only copy of a rule.

use crate::data::PER_ROUND;
use crate::legal;
use crate::state::{GhostForSale, Player};
use crate::types::{BidSpot, Lot, Phase};
use crate::{Action, QuestionCard, Token};
use takuge_engine::{bits, GameRng, Seat};

/// Per hand, as its `held` bits of values 1..=10 shifted down by one: the number of
/// distinct values, then those values in increasing order (0 after them). One look-up
/// gives both numbers a card draw needs (about half a game's steps draw a card): a
/// table keyed by this game's hand shape, faster for this job than `bits::pick`
/// (a count, then a select), and drawing the same value from the same RNG state.
const CARDS: [[u8; 11]; 1024] = {
    let mut t = [[0u8; 11]; 1024];
    let mut m = 0;
    while m < 1024 {
        let mut k = 0;
        let mut bit = 0;
        while bit < 10 {
            if m & (1 << bit) != 0 {
                t[m][1 + k] = bit as u8 + 1;
                k += 1;
            }
            bit += 1;
        }
        t[m][0] = k as u8;
        m += 1;
    }
    t
};

/// A value drawn uniformly among those `held` has (`held`: bit `v` for value `v`);
/// the same draw as `bits::pick(held, rng)`.
#[inline]
fn draw_card(held: u16, rng: &mut GameRng) -> Option<u8> {
    let row = CARDS.get(usize::from(held >> 1))?;
    let k = rng.below(u32::from(row[0]));
    row.get(1 + k as usize).copied().filter(|&v| v != 0)
}

/// Draws uniformly among the legal actions without listing them: the hot path of
/// random playouts (the special-card decisions, rare, list as usual).
#[inline]
pub(crate) fn sample_action(
    g: &GhostForSale,
    seat: Seat,
    rng: &mut GameRng,
    buf: &mut Vec<Action>,
) -> Option<Action> {
    if !g.pending.contains(seat) {
        return None;
    }
    let p = &g.players[g.seated(seat)?];
    let kind = match g.phase {
        Phase::Auction(kind) => kind,
        Phase::SetAside => {
            return Some(Action::SetAside {
                value: draw_card(p.held(), rng)?,
            })
        }
        Phase::Choose => {
            return Some(Action::Choose {
                card: if rng.below(2) == 0 {
                    QuestionCard::Truth
                } else {
                    QuestionCard::Lie
                },
            })
        }
        Phase::Declare => return sample_declaration(g, p, rng),
        Phase::Special(_) | Phase::Over => {
            legal::legal_actions(g, seat, buf);
            return rng.pick(buf).copied();
        }
    };
    if g.pending_target.is_some() {
        let value = draw_card(p.held(), rng)?;
        return Some(Action::Play { value });
    }
    // The options in `legal_actions` order: the stop, then the spots.
    let stop = legal::stop(g, kind, p);
    let spots = legal::spots(g, kind);
    let k = rng.below(spots.len() as u32 + u32::from(stop.is_some()));
    let i = match stop {
        Some(stop) if k == 0 => return Some(stop),
        Some(_) => k - 1,
        None => k,
    };
    spots
        .get(i as usize)
        .map(|s| Action::Bid { target: s.target() })
}

/// A uniformly drawn legal declaration.
#[inline]
fn sample_declaration(g: &GhostForSale, p: &Player, rng: &mut GameRng) -> Option<Action> {
    let held = legal::tokens_held(p);
    if g.restrictions == 0 {
        // No Too dark or Ancient legend this round: every property takes every token.
        let c = bits::count16(u16::from(held));
        let pick = rng.below(c * PER_ROUND as u32);
        let k = bits::nth(u64::from(held), pick % c)?;
        return Some(Action::Declare {
            property: (pick / c) as u8,
            token: *Token::ALL.get(usize::from(k))?,
        });
    }
    let mut masks = [0u8; PER_ROUND];
    let mut total = 0;
    for (m, lot) in masks.iter_mut().zip(Lot::ALL) {
        *m = held & legal::tokens_allowed(g.special_on(lot));
        total += bits::count16(u16::from(*m));
    }
    let mut pick = rng.below(total);
    for (m, lot) in masks.into_iter().zip(Lot::ALL) {
        let c = bits::count16(u16::from(m));
        if pick < c {
            let k = bits::nth(u64::from(m), pick)?;
            return Some(Action::Declare {
                property: lot.get(),
                token: *Token::ALL.get(usize::from(k))?,
            });
        }
        pick -= c;
    }
    None
}

/// Exactly `legal_actions(seat).contains(action)`, without listing (the special-card
/// decisions, rare, list as usual).
#[inline]
pub(crate) fn is_legal(g: &GhostForSale, seat: Seat, action: &Action) -> bool {
    if !g.pending.contains(seat) {
        return false;
    }
    let Some(s) = g.seated(seat) else {
        return false;
    };
    let p = &g.players[s];
    match (g.phase, *action) {
        (Phase::SetAside, Action::SetAside { value }) => p.holds(value),
        (Phase::Choose, Action::Choose { .. }) => true,
        (Phase::Declare, Action::Declare { property, token }) => {
            Lot::new(property).is_some_and(|lot| legal::may_declare(g, s, lot, token))
        }
        (Phase::Auction(_), Action::Play { value }) => g.pending_target.is_some() && p.holds(value),
        (Phase::Auction(_), _) if g.pending_target.is_some() => false,
        (Phase::Auction(kind), Action::Bid { target }) => {
            BidSpot::of(target).is_some_and(|spot| legal::spots(g, kind).contains(&spot))
        }
        (Phase::Auction(kind), stop @ (Action::Done | Action::Pass)) => {
            legal::stop(g, kind, p) == Some(stop)
        }
        (Phase::Special(_), _) => {
            let mut list = Vec::new();
            legal::legal_actions(g, seat, &mut list);
            list.contains(action)
        }
        _ => false,
    }
}

/// Plays the games `takuge_engine::bot::checked_random_playout` plays (the same
/// sampler, the same actions, the same RNG draws), with `apply_legal` in place of the
/// checked `apply`: the actions drawn are legal by construction.
pub(crate) fn random_playout(
    g: &mut GhostForSale,
    rng: &mut GameRng,
    buf: &mut Vec<Action>,
    max_steps: usize,
) -> usize {
    takuge_engine::bot::sampled_random_playout(g, rng, buf, max_steps)
}
