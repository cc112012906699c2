//! The castle (城): the cards revealed, the exhibits scored, the thieves stealing
//! (泥棒), the detectives catching them (探偵).

use super::{fill_order, sort_descending};
use crate::cards::{ArtCard, Place, PLAYERS};
use crate::news::Shown;
use crate::state::{rank_among, seat_bit, seats, ArtHeist, Listed, Phase, SeatOrder};
use crate::types::SeatId;

impl ArtHeist {
    pub(crate) fn resolve_castle_cards(&mut self) {
        self.resolve_castle_cards_of(self.playing(self.at_castle));
    }

    /// The castle's cards revealed, given their kinds (see `playing`).
    pub(crate) fn resolve_castle_cards_of(&mut self, kinds: [u8; 4]) {
        self.revealed |= self.at_castle;
        self.tell(Shown::Cards {
            place: Place::Castle,
            seats: self.at_castle,
            played: self.played,
        });
        let [_, thieves, detectives, exhibitors] = kinds;
        self.castle_thieves = thieves;
        self.castle_detectives = detectives;
        self.exhibitors = exhibitors;
        if self.exhibitors != 0 {
            self.phase = Phase::Exhibiting;
            self.pending = self.exhibitors;
        } else {
            self.steal_exhibits = SeatOrder::new();
            self.start_stealing();
        }
    }

    /// Every exhibit is put together: 「「せーの!」で展示する美術品を公開する。」
    pub(crate) fn resolve_exhibits(&mut self) {
        // Ranks and the castle are taken before anyone moves: exhibits are revealed and
        // scored together.
        self.tell(Shown::Exhibits {
            exhibitors: self.exhibitors,
            exhibit: self.exhibit,
            last: false,
        });
        let before = self.position;
        let [first, second] = self.castle_numbers();
        let shown = self.shown();
        // The order is built where the thieves read it (see `fill_order`).
        self.steal_exhibits = SeatOrder::new();
        fill_order(self.rules(), &self.exhibit, shown, &mut self.steal_exhibits);
        // 「多くの展示品を出したプレイヤーから順に、そのターンの1位、2位を決め、1位と2位
        // だけが指定された数字の分、駒を進めることができる。」
        for (place, p) in self.steal_exhibits.iter().enumerate().take(2) {
            let step = if place == 0 { first } else { second };
            self.position[p.0] = self.position[p.0].saturating_add(step);
        }
        // The exhibits shown become public: only exhibitors hold cards in `exhibit` (it
        // is cleared every turn), so every seat's is added without a test.
        self.public_art |= self
            .exhibit
            .first(PLAYERS)
            .iter()
            .fold(0, |all, &e| all | e);
        for p in seats(self.exhibitors & !shown) {
            // 「3枚以上出せなかったプレイヤーは、そのマイナス順位分後退し(1位のプレイヤー
            // は5マス後退)、次のターンは1回休みとなる。」
            let back = PLAYERS as u8 + 1 - rank_among(&before, p);
            self.position[p] = self.position[p].saturating_sub(back);
            self.next_resting |= seat_bit(p);
            self.failed |= seat_bit(p);
        }
        self.exhibits_shown = true;
        self.start_stealing();
    }

    /// 「その後、泥棒は、展示された美術品から1枚を盗むことができる。」 The exhibits to
    /// rob are in `steal_exhibits`, strongest first. The orders are built in place, not
    /// as values moved in (reading a just-built list whole stalls its bytes' forward).
    pub(crate) fn start_stealing(&mut self) {
        let thief_seats = self.castle_thieves;
        let no_exhibits = self.steal_exhibits.is_empty();
        if thief_seats == 0 || (no_exhibits && self.castle_detectives == 0) {
            // No thief, or thieves with nothing to steal and no detective to catch them:
            // nothing happens (the turn's stealing order is cleared with the turn).
            self.steal_exhibits = SeatOrder::new();
            return self.end_turn();
        }
        self.steal_thieves = SeatOrder::new();
        for p in seats(thief_seats) {
            let _ = self.steal_thieves.push(Listed(p));
        }
        if self.steal_thieves.len() > 1 {
            // 「泥棒が複数いた場合は、泥棒の数字の多い順から展示品を選ぶ。」
            let rules = self.rules();
            let played = &self.played;
            sort_descending(self.steal_thieves.as_mut_slice(), |p| {
                u16::from(played[p.0].map_or(0, |c| rules.value(c)))
            });
        }
        self.steal_e = 0;
        if no_exhibits {
            // Nothing to steal: every thief passes (where `continue_stealing` would
            // leave them), and the detectives act.
            self.steal_t = self.steal_thieves.len() as u8;
            return self.resolve_detectives();
        }
        self.steal_t = 0;
        self.continue_stealing();
    }

    /// Runs the thefts that need no choice, stopping at the next one that does.
    pub(crate) fn continue_stealing(&mut self) {
        loop {
            let Some(&Listed(t)) = self.steal_thieves.get(usize::from(self.steal_t)) else {
                return self.resolve_detectives();
            };
            let Some(&Listed(e)) = self.steal_exhibits.get(usize::from(self.steal_e)) else {
                self.steal_t += 1;
                self.steal_e = 0;
                continue;
            };
            let left = self.exhibit[e];
            // 0, 1 or more cards left (a bit count would cost more on the baseline target).
            match (left != 0, left & left.wrapping_sub(1) != 0) {
                // 「盗む展示品がない、もしくはなくなった場合は、その泥棒は盗むことができない。」
                (false, _) => self.steal_e += 1,
                (true, false) => {
                    self.steal(t, e, ArtCard(left.trailing_zeros() as u8));
                    self.steal_e += 1;
                }
                (true, true) => {
                    self.phase = Phase::Stealing;
                    self.pending = seat_bit(t);
                    return;
                }
            }
        }
    }

    /// `Action::Steal`: the thief takes the card from the exhibit it is robbing, and
    /// moves on to the next exhibit.
    pub(crate) fn steal_chosen(&mut self, thief: SeatId, a: ArtCard) {
        if let Some(e) = self.robbed() {
            self.steal(thief, e, a);
        }
        self.steal_e += 1;
        self.continue_stealing();
    }

    /// 「展示者が複数いた場合は、そのどちらからも1枚盗むことができる。」: one card
    /// from one exhibit (it stays in hand, out of the exhibit).
    pub(crate) fn steal(&mut self, thief: SeatId, from: SeatId, a: ArtCard) {
        self.exhibit[from] &= !a.bit();
        self.art[from] &= !a.bit();
        self.art[thief] |= a.bit();
    }

    /// 「その後、探偵は、泥棒を捕まえる。泥棒は捕まっても戦利品は没収されない。」
    pub(crate) fn resolve_detectives(&mut self) {
        let (detectives, thieves) = (self.castle_detectives, self.castle_thieves);
        if detectives != 0 && thieves != 0 {
            // Ranks as they stand before any detective moves.
            let before = self.position;
            // 「捕まえられた泥棒は、強い順番に檻に入れられ、檻から溢れた泥棒は、もとの
            // プレイヤーの元へ返却される。」 Strongest first: each newcomer pushes the
            // earlier prisoners one cell on. Read from the list a seat at a time (a copy
            // of the list, just built, would read its bytes whole: a stalled forward).
            let mut next = 0;
            while let Some(&Listed(t)) = self.steal_thieves.get(next) {
                next += 1;
                let Some(card) = self.played[t] else {
                    continue;
                };
                self.take_card(t, card);
                if self.cage.len() >= usize::from(self.rules().cage_cells) {
                    if let Some(out) = self.cage.pop() {
                        let owner = self.seat_of[out.colour().index()];
                        self.give_card(owner, out);
                    }
                }
                // Cell 1 is the front: the newcomer goes in at the back's new slot and
                // every cell from the front takes the one before it, the displaced card
                // carried in a register (`rotate_right` calls `memmove`; swapping
                // neighbours reads two bytes just written, a stalled store-to-load
                // forward per cell). The cage was just emptied by one if it was full.
                if self.cage.push(card).is_ok() {
                    let mut carry = card;
                    for cell in self.cage.as_mut_slice() {
                        carry = std::mem::replace(cell, carry);
                    }
                }
            }
            // 「泥棒を捕まえたプレイヤーは、自分の順位分、駒を進める。」
            for d in seats(detectives) {
                self.position[d] = self.position[d].saturating_add(rank_among(&before, d));
            }
        }
        self.end_turn();
    }
}
