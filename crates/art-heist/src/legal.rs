//! THE rules of what may be played: [`ArtHeist::list_legal`] (`Game::legal_actions`)
//! and the predicates it uses (the runs a hand can exhibit, the cards a letter may
//! show), and [`ArtHeist::refuse`] (`Game::refusal`), why an unlisted action is refused. Everything else that asks
//! "may this be played" — the samplers, the fast `is_legal`, the playout in `fast.rs` —
//! is a second copy, checked against this one by the conformance suite.

use crate::cards::{
    ActionCard, ArtCard, ArtSet, Letter, Pile, Place, ACTION_CARDS, MAX_ART, PLAYERS,
};
use crate::data::MAX_SERIES;
use crate::state::{seat_bit, ArtHeist, Phase};
use crate::types::{Action, Reject, Run, SeatId};
use takuge_engine::bits::{self, BYTE_ONES};
use takuge_engine::conformance::Probe;
use takuge_engine::{Seat, Seated};

impl ArtHeist {
    /// `seat`, if it is at the table and pending.
    #[inline]
    pub(crate) fn pending_seat(&self, seat: Seat) -> Option<SeatId> {
        Seated::check(seat, PLAYERS).filter(|&p| self.pending & seat_bit(p) != 0)
    }

    pub(crate) fn list_legal(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let Some(p) = self.pending_seat(seat) else {
            return;
        };
        match self.phase {
            Phase::Location => {
                // 「このターンを、オークション会場か城、どちらでプレイするかを選択する。」
                out.push(Action::Go(Place::AuctionHouse));
                out.push(Action::Go(Place::Castle));
            }
            Phase::AuctionCards | Phase::CastleCards => {
                // Any card in hand: 「その場所で出せないカードを誤って出してしまった場合は、
                // そのままミスとしてゲームを進める。」
                push_all(out, self.cards[p], |c| Action::Play(ActionCard(c)));
            }
            Phase::AuctionPile { .. } => {
                // 「2枚のヤマの内、どちらかを落札」 (a pile that has a card).
                for pile in Pile::BOTH {
                    if !self.piles[pile.index()].is_empty() {
                        out.push(Action::Take(pile));
                    }
                }
            }
            Phase::Exhibiting | Phase::FinalExhibit => match self.next_letter(p) {
                None => {
                    // Showing nothing is always allowed (nobody can tell it from a
                    // hand without an exhibit); else the letters of a run.
                    out.push(Action::ShowNothing);
                    out.extend(self.rules().runs_of(self.art[p]).iter().map(|r| r.action()));
                }
                Some(next) => {
                    next.each_choice(|set| out.push(Action::Cards(ArtSet::of(set))));
                }
            },
            Phase::Stealing => {
                // 「展示された美術品から1枚を盗む」: a card of the exhibit being robbed.
                if let Some(e) = self.robbed() {
                    push_all(out, self.exhibit[e], |a| Action::Steal(ArtCard(a)));
                }
            }
            Phase::Over => {}
        }
    }

    /// Why pending `seat` may not play `action` (not in its list): from what the seat
    /// knows — the phase, its hand, its own exhibit.
    pub(crate) fn refuse(&self, seat: Seat, action: &Action) -> Reject {
        let Some(p) = Seated::check(seat, PLAYERS) else {
            return Reject::NotNow;
        };
        match (self.phase, *action) {
            (Phase::AuctionCards | Phase::CastleCards, Action::Play(_)) => Reject::NotInHand,
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Exhibit { .. }) => {
                if self.run[p].is_some() {
                    Reject::AlreadyExhibiting
                } else {
                    Reject::NoSuchRun
                }
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Cards(_)) => {
                if self.next_letter(p).is_none() {
                    Reject::NoExhibitYet
                } else {
                    Reject::NotThoseCards
                }
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::ShowNothing) => {
                Reject::AlreadyExhibiting
            }
            (Phase::AuctionPile { .. }, Action::Take(_)) => Reject::EmptyPile,
            (Phase::Stealing, Action::Steal(_)) => Reject::NotInExhibit,
            _ => Reject::NotNow,
        }
    }

    /// The next letter of the exhibit seat `p` is putting together, once its letters
    /// are chosen (`None` before, and once every letter has its cards).
    #[inline]
    pub(crate) fn next_letter(&self, p: SeatId) -> Option<NextLetter> {
        let run = self.run[p]?;
        next_of(self.art[p], self.exhibit[p], run)
    }
}

/// The next letter of the exhibit `sel` of `run` from `hand`.
#[inline]
pub(crate) fn next_of(hand: u64, sel: u64, run: Run) -> Option<NextLetter> {
    NextLetter::at(hand, sel, next_letter_of(sel, run.from()), run.to())
}

/// The runs of a hand shape — 「展示品は必ず3枚以上を出さなければならない。」
/// 「美術品は、アルファベットが繋がっていなければならない。」 (AAB○ ABC○ AAC× ABD×): every
/// run `from..=to` of `n` series whose every letter is held, with 3 cards or more in
/// all; `count(s)` is how many cards of series `s` the hand holds. Called with `from`
/// then `to` ascending, the order `legal_actions` lists them. `data.rs` tabulates it
/// for every hand shape at load (`Components::runs_of`), so this is the one place the
/// rule is written.
pub(crate) fn runs_of_shape(n: usize, count: impl Fn(usize) -> usize, mut f: impl FnMut(Run)) {
    let n = n.min(MAX_SERIES);
    for from in 0..n {
        let mut total = 0;
        // Runs from `from` end within the stretch of letters held from it.
        for to in (from..n).take_while(|&to| count(to) > 0) {
            total += count(to);
            if total >= 3 {
                f(Run::new(from as u32, to as u32));
            }
        }
    }
}

/// The next letter of an exhibit being put together: the player's cards of that
/// letter (one byte of a hand: `cards << shift`), how many of them must be shown at
/// least (so 3 cards can still be reached), and whether it is the run's last letter.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NextLetter {
    pub(crate) cards: u8,
    pub(crate) shift: u32,
    pub(crate) need: u32,
    pub(crate) last: bool,
}

/// The letter an exhibit `sel` of a run from `from` shows next: `from` itself, then the
/// one after the highest card chosen (each letter done has a card).
#[inline]
pub(crate) fn next_letter_of(sel: u64, from: u32) -> u32 {
    if sel == 0 {
        from
    } else {
        (63 - sel.leading_zeros()) / 8 + 1
    }
}

impl NextLetter {
    /// Letter `letter` of an exhibit `sel` of a run ending at `to` from `hand` (`None`
    /// past the run's end).
    #[inline]
    pub(crate) fn at(hand: u64, sel: u64, letter: u32, to: u32) -> Option<NextLetter> {
        if letter > to || to >= MAX_SERIES as u32 {
            return None;
        }
        let shift = 8 * letter;
        let cards = (hand >> shift) as u8;
        // The hand's cards of the letters still to come: none after the last letter (the
        // mask is empty then, and a shift of 64 gives none too). Without branches: in a
        // random game whether more letters follow is a coin flip to the predictor.
        let later = (1u64 << (8 * (to - letter))).wrapping_sub(1);
        let rest = hand & later.checked_shl(shift + 8).unwrap_or(0);
        // Enough cards now that, with every card of the letters to come, 3 are reached:
        // 3 less one for a first card and one for a second (3 or more need just 1).
        let have = sel | rest;
        let need = 3 - u32::from(have != 0) - u32::from(have & have.wrapping_sub(1) != 0);
        Some(NextLetter {
            cards,
            shift,
            need,
            last: letter == to,
        })
    }

    pub(crate) fn is_last(self) -> bool {
        self.last
    }

    /// Whether `sub` (some of this letter's cards) is enough: one card or more, and
    /// `need` or more.
    #[inline]
    pub(crate) fn ok(self, sub: u8) -> bool {
        sub != 0 && u32::from(BYTE_ONES[usize::from(sub)]) >= self.need
    }

    /// Every allowed set, in increasing order of the set's bits (a letter's cards are
    /// at most 8, so at most 255 sets; a hand rarely holds more than 3 of a letter).
    pub(crate) fn each_choice(self, mut f: impl FnMut(u64)) {
        let mut sub = 0u8;
        loop {
            // The next subset of `cards` in increasing order.
            sub = sub.wrapping_sub(self.cards) & self.cards;
            if sub == 0 {
                return;
            }
            if self.ok(sub) {
                f(u64::from(sub) << self.shift);
            }
        }
    }
}

/// Pushes one action per card of a set. Legal-action lists are built at every step of
/// the checked loops: mapping a range (an iterator of known length) lets `extend`
/// reserve once and write in a tight loop.
#[inline]
fn push_all(out: &mut Vec<Action>, cards: u64, action: impl Fn(u8) -> Action) {
    let mut rest = cards;
    out.extend((0..bits::count(cards)).map(|_| {
        let c = rest.trailing_zeros() as u8;
        rest &= rest.wrapping_sub(1);
        action(c)
    }));
}

/// Near misses (the conformance suite's `apply` accepts exactly the listed ones among
/// them): both places, every action card and two ids past them, both piles, showing
/// nothing, every pair of letters A–H and one past them, the cards of each letter
/// (all of them, the seat's, each single card), and every art card to steal.
impl Probe for ArtHeist {
    fn near_misses(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        out.extend([Place::AuctionHouse, Place::Castle].map(Action::Go));
        out.extend((0..=ACTION_CARDS as u8 + 1).map(|c| Action::Play(ActionCard(c))));
        out.extend(Pile::BOTH.map(Action::Take));
        out.push(Action::ShowNothing);
        for from in 0..=MAX_SERIES as u8 {
            for to in 0..=MAX_SERIES as u8 {
                out.push(Action::Exhibit {
                    from: Letter(from),
                    to: Letter(to),
                });
            }
        }
        let rules = self.rules();
        let own = Seated::check(seat, PLAYERS).map_or(0, |p| self.art[p]);
        for &series in rules.series_mask.iter() {
            for set in [
                series,
                series & own,
                (series & own) & (series & own).wrapping_sub(1),
            ] {
                if set != 0 {
                    out.push(Action::Cards(ArtSet::of(set)));
                }
            }
            out.extend(bits::iter(series).map(|a| Action::Cards(ArtSet::of(1 << a))));
        }
        out.extend((0..MAX_ART as u8).map(|a| Action::Steal(ArtCard(a))));
    }
}
