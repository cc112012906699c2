//! Redrawing what a seat cannot see, consistently with what it knows.
//!
//! Hidden from a seat: the other seats' "?" cards of the current round, their hands,
//! the cards they set aside, and the values of their face-down bids. What it knows:
//! its own cards; the "?" card it saw through Mrs. Truelight; the number of truth
//! cards in the "?" pile if it saw the pile (which fixes how many seats lie); every
//! back mark; every revealed card; how many cards each seat holds and set aside; and,
//! in round 1, which cards were seen on the table and so were not set aside.

use crate::state::GhostForSale;
use crate::types::{SeatId, MAX_PLAYERS};
use crate::QuestionCard;
use takuge_engine::assign::deal_constrained;
use takuge_engine::{GameRng, Seat, SeatMap};

pub(crate) fn determinize(real: &GhostForSale, seat: Seat, rng: &mut GameRng) -> GhostForSale {
    let mut w = real.clone();
    // Future chance (round 2's special cards) is unknown too: a fresh stream, so a
    // search cannot read the coming shuffle out of the state.
    w.rng = rng.fork();
    let Some(me) = w.seated(seat) else {
        return w;
    };
    for p in real.seats() {
        if p != me {
            if let Some(deal) = draw_cards(real, p, rng) {
                place_cards(&mut w, p, &deal);
            }
        }
    }
    let r = usize::from(real.round);
    if let Some(cards) = w.card.get_mut(r) {
        redraw_question_cards(real, me, cards, rng);
    }
    w
}

/// The current round's "?" cards of the world `determinize(real, seat, rng)` would
/// make, drawing exactly what it draws (so the generator ends where it would), without
/// building the rest of the world: the appraiser values properties from these alone,
/// a dozen worlds a decision.
pub(crate) fn question_cards(
    real: &GhostForSale,
    seat: Seat,
    rng: &mut GameRng,
) -> SeatMap<Option<QuestionCard>, MAX_PLAYERS> {
    let r = usize::from(real.round);
    let mut cards = real.card.get(r).copied().unwrap_or_default();
    // What `fork` draws for the world's own generator.
    rng.next_u64();
    let Some(me) = real.seated(seat) else {
        return cards;
    };
    for p in real.seats() {
        if p != me {
            draw_cards(real, p, rng);
        }
    }
    redraw_question_cards(real, me, &mut cards, rng);
    cards
}

/// One hidden card of a seat: its value, and whether it is one of the cards everyone
/// knows was not set aside in round 1.
type Item = (u8, bool);

/// A redeal of one seat's hidden cards: `items[..m]` in slot order (face-down bids,
/// then set-aside cards, then the hand).
struct Deal {
    items: [Item; 12],
    m: usize,
    bid_slots: [usize; 12],
    bids: usize,
    aside_end: usize,
}

/// Draws a redeal of seat `p`'s hidden cards. It reads only `p`'s own cards and bids,
/// so drawing every seat's deal from the real state equals drawing each from a world
/// where the seats before it were already redealt.
fn draw_cards(w: &GhostForSale, p: SeatId, rng: &mut GameRng) -> Option<Deal> {
    let live = w.live_auction();
    let mut items = [(0u8, false); 12];
    let mut m = 0;
    // Slots: the seat's face-down bids (their marks are known), then its set-aside
    // cards, then its hand.
    let mut bid_slots = [0usize; 12];
    let mut bids = 0;
    let mut face_up = [0u8; 11];
    if let Some(a) = live {
        let auction = &w.auctions[a];
        for (i, b) in auction.bids().iter().enumerate() {
            if b.seat != p {
                continue;
            }
            if auction.revealed || b.face_up {
                face_up[usize::from(b.value)] += 1;
            } else if m < 12 {
                bid_slots[bids] = i;
                bids += 1;
                items[m] = (b.value, false);
                m += 1;
            }
        }
    }
    let pl = w.players[p];
    for v in 1..=10u8 {
        for _ in 0..pl.aside[usize::from(v)] + pl.hand[usize::from(v)] {
            if m < 12 {
                items[m] = (v, false);
                m += 1;
            }
        }
    }
    if m == 0 {
        return None;
    }
    // The back marks of the face-down bids (public), before the values are mixed.
    let marks: [bool; 12] =
        std::array::from_fn(|k| k < bids && w.mark(items[k].0) == crate::Mark::High);
    // The face-down bids were gathered with their true values: sorted, the redeal
    // depends only on the seat's hidden multiset (what everyone can work out), so
    // every state this seat cannot tell apart gives the same worlds.
    items[..m].sort_unstable();
    if w.round == 0 && pl.aside_n > 0 {
        // Cards seen on the table in round 1 and still unaccounted for by the box or a
        // face-up card are somewhere among the hidden ones, but not set aside.
        let mut must = [0u8; 11];
        for (v, m) in must.iter_mut().enumerate() {
            *m = pl.r1_known[v].saturating_sub(pl.paid[v] + face_up[v]);
        }
        for item in items[..m].iter_mut() {
            if let Some(left) = must.get_mut(usize::from(item.0)) {
                if *left > 0 {
                    item.1 = true;
                    *left -= 1;
                }
            }
        }
    }
    let aside_end = bids + usize::from(pl.aside_n);
    let original = items;
    let high = |v: u8| w.mark(v) == crate::Mark::High;
    let ok = deal_constrained(
        &mut items[..m],
        |slot, (v, known): Item| {
            if slot < bids {
                high(v) == marks[slot]
            } else if slot < aside_end {
                !known
            } else {
                true
            }
        },
        rng,
    );
    // A real state always has a consistent deal (the true one); if none were found,
    // keep the cards as they are rather than break the state.
    debug_assert!(ok, "no consistent deal for seat {p}");
    if !ok {
        items = original;
    }
    Some(Deal {
        items,
        m,
        bid_slots,
        bids,
        aside_end,
    })
}

/// Puts a drawn deal into the world: the bids' values, the set-aside cards, the hand.
fn place_cards(w: &mut GhostForSale, p: SeatId, deal: &Deal) {
    if let Some(a) = w.live_auction() {
        for (&i, item) in deal.bid_slots[..deal.bids].iter().zip(deal.items) {
            if let Some(b) = w.auctions[a].bids.get_mut(i) {
                b.value = item.0;
            }
        }
    }
    let pl = &mut w.players[p];
    pl.aside = [0; 11];
    pl.hand = [0; 11];
    for (k, &(v, _)) in deal.items[..deal.m].iter().enumerate().skip(deal.bids) {
        if k < deal.aside_end {
            pl.aside[usize::from(v)] += 1;
        } else {
            pl.hand[usize::from(v)] += 1;
        }
    }
    pl.refresh_held();
}

/// Redraws into `cards` (the current round's "?" cards of `w`) those `me` has not seen.
fn redraw_question_cards(
    w: &GhostForSale,
    me: SeatId,
    cards: &mut SeatMap<Option<QuestionCard>, MAX_PLAYERS>,
    rng: &mut GameRng,
) {
    let r = usize::from(w.round);
    if w.round_revealed(r) {
        return;
    }
    // Seats whose card `me` knows: itself and the one it looked at.
    let mut known = 1u8 << me.index();
    if let Some(t) = w.looks[r][me] {
        known |= 1 << t.index();
    }
    let mut free = [SeatId::FIRST; MAX_PLAYERS];
    let mut free_n = 0;
    let mut known_truth = 0;
    let mut total_truth = 0;
    for s in w.seats() {
        match cards[s] {
            None => {}
            Some(c) => {
                let truth = c == QuestionCard::Truth;
                total_truth += usize::from(truth);
                if known & (1 << s.index()) != 0 {
                    known_truth += usize::from(truth);
                } else {
                    free[free_n] = s;
                    free_n += 1;
                }
            }
        }
    }
    let free = &mut free[..free_n];
    if w.pile_seer[r] == Some(me) {
        // The pile showed how many lie cards are unused, i.e. how many seats tell the
        // truth: keep that number, redraw who.
        rng.shuffle(free);
        let truths = total_truth - known_truth;
        for (k, &s) in free.iter().enumerate() {
            cards[s] = Some(if k < truths {
                QuestionCard::Truth
            } else {
                QuestionCard::Lie
            });
        }
    } else {
        for &s in free.iter() {
            cards[s] = Some(if rng.chance(1, 2) {
                QuestionCard::Truth
            } else {
                QuestionCard::Lie
            });
        }
    }
}
