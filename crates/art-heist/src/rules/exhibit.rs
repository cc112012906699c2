//! Exhibits (展示): the letters chosen, the cards shown letter by letter, nothing
//! shown; and how exhibits rank.

use crate::cards::{ArtSet, Letter, PLAYERS};
use crate::data::Components;
use crate::state::{lowest, seats, ArtHeist, Listed, PerSeat, SeatOrder};
use crate::types::{Run, SeatId};

impl ArtHeist {
    /// `Action::Exhibit`: the letters of the exhibit (「美術品は、アルファベットが
    /// 繋がっていなければならない。」); the cards follow, a letter a step.
    pub(crate) fn choose_letters(&mut self, p: SeatId, from: Letter, to: Letter) {
        self.run[p] = Some(Run::new(from.series(), to.series()));
    }

    /// `Action::Cards`: the cards of the next letter; after the run's last letter the
    /// exhibit is complete and the seat has chosen.
    pub(crate) fn show_cards(&mut self, p: SeatId, set: ArtSet) {
        self.exhibit[p] |= set.mask();
        if self.run[p].is_some_and(|run| run.to() == set.series()) {
            self.chosen(p);
        }
    }

    /// `Action::ShowNothing`: no exhibit (「3枚以上出せなかったプレイヤー」 once
    /// revealed).
    pub(crate) fn show_nothing(&mut self, p: SeatId) {
        self.chosen(p);
    }

    /// Exhibitors in rank order, strongest exhibit first; those who showed nothing are
    /// left out.
    pub(crate) fn exhibit_order(&self) -> SeatOrder {
        self.order_of(self.shown())
    }

    /// The exhibitors who showed an exhibit (without a branch per seat: who showed one
    /// is a coin flip to the branch predictor).
    pub(crate) fn shown(&self) -> u8 {
        let mut shown = 0u8;
        for (p, &exhibit) in self.exhibit.first(PLAYERS).iter().enumerate() {
            shown |= u8::from(exhibit != 0) << p;
        }
        shown & self.exhibitors
    }

    /// The seats of `shown` in rank order, strongest exhibit first: 「多くの展示品を
    /// 出したプレイヤーから順に」, then the oldest card.
    pub(crate) fn order_of(&self, shown: u8) -> SeatOrder {
        let mut order = SeatOrder::new();
        fill_order(self.rules(), &self.exhibit, shown, &mut order);
        order
    }
}

/// [`ArtHeist::order_of`] into `order` (empty), on the fields it reads, so that `order`
/// may be a field of the same state: the turn's order is built where it is kept
/// (`steal_exhibits`), byte by byte, and read back byte by byte. Returned by value, the
/// 6-byte list was read whole right after its bytes were written (a stalled
/// store-to-load forward on every reveal).
#[inline]
pub(crate) fn fill_order(
    rules: &Components,
    exhibit: &PerSeat<u64>,
    shown: u8,
    order: &mut SeatOrder,
) {
    if shown & shown.wrapping_sub(1) == 0 {
        // One exhibit (or none) needs no strengths.
        if let Some(p) = lowest(shown) {
            let _ = order.push(Listed(p));
        }
        return;
    }
    for p in seats(shown) {
        let _ = order.push(Listed(p));
    }
    // No two exhibits tie (no two share their oldest card), so any sort gives this
    // one order.
    sort_descending(order.as_mut_slice(), |p| rules.strength(exhibit[p.0]));
}

/// Sorts a few seats by a key, highest first (insertion sort: at most 5 items, and the
/// keys differ, so the order is the one any sort gives).
#[inline]
pub(crate) fn sort_descending<T: Copy>(items: &mut [T], key: impl Fn(T) -> u16) {
    let mut keys = [0u16; PLAYERS];
    for (k, &item) in keys.iter_mut().zip(items.iter()) {
        *k = key(item);
    }
    let n = items.len().min(PLAYERS);
    for i in 1..n {
        let (item, k) = (items[i], keys[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] < k {
            items[j] = items[j - 1];
            keys[j] = keys[j - 1];
            j -= 1;
        }
        items[j] = item;
        keys[j] = k;
    }
}
