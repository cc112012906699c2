//! The flow of a turn: places, the auction, the castle (exhibits, thieves,
//! detectives), the end; and the check of every action before it changes anything.

use super::exhibit::sort_descending;
use super::state::{seat_bit, seats, ArtHeist, AuctionResult, Phase, Stack, NONE};
use crate::cards::{ActionCard, ArtCard, Pile, ALL_SEATS, PLAYERS};
use takuge_engine::Seat;

/// Kind per slot of a colour's cards (see [`ArtHeist::playing`]): 4 cheques, 2 thieves,
/// detective, exhibition card.
pub(crate) const KIND_OF_SLOT: [usize; 8] = [0, 0, 0, 0, 1, 1, 2, 3];

/// The rank of seat `p` among `positions`: 1 + the pawns strictly ahead.
fn rank_among(positions: &[u8; PLAYERS], p: usize) -> u8 {
    let mine = positions[p % PLAYERS];
    1 + positions.iter().filter(|&&q| q > mine).count() as u8
}

impl ArtHeist {
    pub(crate) fn start_turn(&mut self) {
        loop {
            if self.turn >= self.rules().max_turns {
                self.start_final();
                return;
            }
            self.turn += 1;
            self.resting = self.next_resting;
            self.next_resting = 0;
            self.clear_turn();
            let active = ALL_SEATS & !self.resting;
            if active == 0 {
                // Everyone skips this turn: nothing happens in it.
                continue;
            }
            if self.art_left() {
                self.phase = Phase::Location;
                self.pending = active;
            } else {
                // 「美術品が枯れた場合は、全員、城のみでのプレイになる。」
                self.at_castle = active;
                self.phase = Phase::CastleCards;
                self.pending = active;
            }
            return;
        }
    }

    pub(crate) fn clear_turn(&mut self) {
        self.at_auction = 0;
        self.at_castle = 0;
        self.played = [NONE; PLAYERS];
        self.revealed = 0;
        self.exhibit = [0; PLAYERS];
        self.run = [NONE; PLAYERS];
        self.exhibitors = 0;
        self.failed = 0;
        self.exhibits_shown = false;
        self.steal_thieves.clear();
        self.steal_exhibits.clear();
        self.steal_t = 0;
        self.steal_e = 0;
        self.auction = None;
        self.auction_thieves = 0;
        self.castle_thieves = 0;
        self.castle_detectives = 0;
    }

    pub(crate) fn after_locations(&mut self) {
        if self.at_auction != 0 {
            self.phase = Phase::AuctionCards;
            self.pending = self.at_auction;
        } else {
            self.start_castle_cards();
        }
    }

    pub(crate) fn played_card(&self, p: usize) -> Option<ActionCard> {
        match self.played.get(p) {
            Some(&c) if c != NONE => Some(ActionCard(c)),
            _ => None,
        }
    }

    /// Seats of `mask` whose played card is of `kind`, as masks per kind (money,
    /// thief, detective, exhibition card), in one pass over the table.
    pub(crate) fn playing(&self, mask: u8) -> [u8; 4] {
        let mut out = [0u8; 4];
        let mut rest = mask & ALL_SEATS;
        while rest != 0 {
            let p = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if let Some(&c) = self.played.get(p).filter(|&&c| c != NONE) {
                out[KIND_OF_SLOT[usize::from(c & 7)]] |= seat_bit(p);
            }
        }
        out
    }

    /// Takes an action card from a hand, keeping its size and list.
    pub(crate) fn take_card(&mut self, p: usize, card: ActionCard) {
        let bit = card.bit();
        if let (Some(cards), Some(len), Some(list)) = (
            self.cards.get_mut(p),
            self.hand_len.get_mut(p),
            self.hand.get_mut(p),
        ) {
            if *cards & bit != 0 {
                list.remove(card.0);
                *cards &= !bit;
                *len = len.saturating_sub(1);
            }
        }
    }

    /// Puts an action card into a hand, keeping its size and list.
    pub(crate) fn give_card(&mut self, p: usize, card: ActionCard) {
        let bit = card.bit();
        if let (Some(cards), Some(len), Some(list)) = (
            self.cards.get_mut(p),
            self.hand_len.get_mut(p),
            self.hand.get_mut(p),
        ) {
            if *cards & bit == 0 && bit != 0 {
                list.insert(card.0);
                *cards |= bit;
                *len = len.saturating_add(1);
            }
        }
    }

    /// Sets seat `p`'s action cards, with their count and list (tests lay out hands).
    #[cfg(test)]
    pub(crate) fn set_hand(&mut self, p: usize, cards: u64) {
        if let (Some(c), Some(len), Some(list)) = (
            self.cards.get_mut(p),
            self.hand_len.get_mut(p),
            self.hand.get_mut(p),
        ) {
            *c = cards;
            *len = cards.count_ones() as u8;
            *list = super::state::HandList::of(cards);
        }
    }

    pub(crate) fn resolve_auction(&mut self) {
        self.resolve_auction_of(self.playing(self.at_auction));
    }

    /// The auction, given the kinds of the cards played there (see [`Self::playing`]).
    pub(crate) fn resolve_auction_of(&mut self, kinds: [u8; 4]) {
        self.revealed |= self.at_auction;
        let [money, thieves, _, _] = kinds;
        self.auction_thieves = thieves;
        let mut best: Option<(u8, usize)> = None;
        for p in seats(money) {
            let v = self.played_card(p).map_or(0, |c| self.rules().value(c));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, p));
            }
        }
        match best {
            None => self.start_castle_cards(),
            Some((_, w)) => {
                if !self.piles[0].is_empty() && !self.piles[1].is_empty() {
                    self.phase = Phase::AuctionPile { winner: w as u8 };
                    self.pending = seat_bit(w);
                } else {
                    let pile = if self.piles[0].is_empty() {
                        Pile::Right
                    } else {
                        Pile::Left
                    };
                    self.finish_auction(w, pile);
                }
            }
        }
    }

    pub(crate) fn finish_auction(&mut self, winner: usize, pile: Pile) {
        let taken = self.piles[pile.index()].pop();
        if let Some(a) = taken {
            let a = ArtCard(a);
            self.art[winner] |= a.bit();
            self.public_art |= a.bit();
        }
        if let Some(t) = self.piles[pile.index()].top() {
            // The next card of the pile is turned face up.
            self.public_art |= ArtCard(t).bit();
        }
        let Some(money) = self.played_card(winner) else {
            return self.start_castle_cards();
        };
        self.take_card(winner, money);
        let thieves = self.auction_thieves;
        let stolen_by = if thieves != 0 && thieves & (thieves - 1) == 0 {
            // 「泥棒を選択したプレイヤーは、落札したお金を盗み、自分の持ち札とする。」
            let t = thieves.trailing_zeros() as usize;
            self.give_card(t, money);
            Some(Seat(t as u8))
        } else {
            // No thief, or two or more cancelling out (「相殺される」): to the safe.
            self.safe.push(money.0);
            None
        };
        self.auction = Some(AuctionResult {
            winner: Seat(winner as u8),
            art: taken.map(ArtCard),
            money,
            stolen_by,
        });
        self.start_castle_cards();
    }

    pub(crate) fn start_castle_cards(&mut self) {
        if self.at_castle != 0 {
            self.phase = Phase::CastleCards;
            self.pending = self.at_castle;
        } else {
            self.end_turn();
        }
    }

    pub(crate) fn resolve_castle_cards(&mut self) {
        self.resolve_castle_cards_of(self.playing(self.at_castle));
    }

    /// The castle's cards revealed, given their kinds (see [`Self::playing`]).
    pub(crate) fn resolve_castle_cards_of(&mut self, kinds: [u8; 4]) {
        self.revealed |= self.at_castle;
        let [_, thieves, detectives, exhibitors] = kinds;
        self.castle_thieves = thieves;
        self.castle_detectives = detectives;
        self.exhibitors = exhibitors;
        if self.exhibitors != 0 {
            self.phase = Phase::Exhibiting;
            self.pending = self.exhibitors;
        } else {
            self.start_stealing(Stack::new());
        }
    }

    pub(crate) fn resolve_exhibits(&mut self) {
        // Ranks and the castle are taken before anyone moves: exhibits are revealed and
        // scored together.
        let before = self.position;
        let [first, second] = self.castle_numbers();
        let shown = self.shown();
        let order = self.order_of(shown);
        for (place, &p) in order.as_slice().iter().enumerate().take(2) {
            let step = if place == 0 { first } else { second };
            let pos = &mut self.position[usize::from(p)];
            *pos = pos.saturating_add(step);
        }
        // The exhibits shown become public: only exhibitors hold cards in `exhibit` (it
        // is cleared every turn), so every seat's is added without a test.
        self.public_art |= self.exhibit.iter().fold(0, |all, &e| all | e);
        for p in seats(self.exhibitors & !shown) {
            // 「3枚以上出せなかったプレイヤーは、そのマイナス順位分後退し(1位のプレイヤー
            // は5マス後退)、次のターンは1回休みとなる。」
            let back = PLAYERS as u8 + 1 - rank_among(&before, p);
            self.position[p] = self.position[p].saturating_sub(back);
            self.next_resting |= seat_bit(p);
            self.failed |= seat_bit(p);
        }
        self.exhibits_shown = true;
        self.start_stealing(order);
    }

    pub(crate) fn start_stealing(&mut self, exhibits: Stack<PLAYERS>) {
        let thief_seats = self.castle_thieves;
        if thief_seats == 0 || (exhibits.is_empty() && self.castle_detectives == 0) {
            // No thief, or thieves with nothing to steal and no detective to catch them:
            // nothing happens (the turn's stealing order is cleared with the turn).
            return self.end_turn();
        }
        let thieves = if thief_seats & (thief_seats - 1) == 0 {
            Stack::from_parts([thief_seats.trailing_zeros() as u8, 0, 0, 0, 0], 1)
        } else {
            let mut thieves = Stack::from_bits(u64::from(thief_seats));
            // 「泥棒の数字の多い順から展示品を選ぶ。」
            let rules = self.rules();
            let played = self.played;
            sort_descending(thieves.as_mut_slice(), |p| {
                u16::from(rules.value(ActionCard(played[usize::from(p) % PLAYERS])))
            });
            thieves
        };
        self.steal_thieves = thieves;
        self.steal_exhibits = exhibits;
        self.steal_e = 0;
        if exhibits.is_empty() {
            // Nothing to steal: every thief passes (where `continue_stealing` would
            // leave them), and the detectives act.
            self.steal_t = thieves.len() as u8;
            return self.resolve_detectives();
        }
        self.steal_t = 0;
        self.continue_stealing();
    }

    /// Runs the thefts that need no choice, stopping at the next one that does.
    pub(crate) fn continue_stealing(&mut self) {
        loop {
            let Some(t) = self.steal_thieves.get(usize::from(self.steal_t)) else {
                return self.resolve_detectives();
            };
            let Some(e) = self.steal_exhibits.get(usize::from(self.steal_e)) else {
                self.steal_t += 1;
                self.steal_e = 0;
                continue;
            };
            let left = self.exhibit[usize::from(e) % PLAYERS];
            // 0, 1 or more cards left (a bit count would cost more on the baseline target).
            match (left != 0, left & left.wrapping_sub(1) != 0) {
                // 「盗む展示品がない、もしくはなくなった場合は、その泥棒は盗むことができない。」
                (false, _) => self.steal_e += 1,
                (true, false) => {
                    self.steal(
                        usize::from(t),
                        usize::from(e),
                        ArtCard(left.trailing_zeros() as u8),
                    );
                    self.steal_e += 1;
                }
                (true, true) => {
                    self.phase = Phase::Stealing;
                    self.pending = seat_bit(usize::from(t));
                    return;
                }
            }
        }
    }

    pub(crate) fn steal(&mut self, thief: usize, from: usize, a: ArtCard) {
        self.exhibit[from] &= !a.bit();
        self.art[from] &= !a.bit();
        self.art[thief] |= a.bit();
    }

    /// The exhibitor the current thief is robbing.
    pub(crate) fn robbed(&self) -> Option<usize> {
        self.steal_exhibits
            .get(usize::from(self.steal_e))
            .map(usize::from)
    }

    pub(crate) fn resolve_detectives(&mut self) {
        let (detectives, thieves) = (self.castle_detectives, self.castle_thieves);
        if detectives != 0 && thieves != 0 {
            // Ranks as they stand before any detective moves.
            let before = self.position;
            // 「捕まえられた泥棒は、強い順番に檻に入れられ、檻から溢れた泥棒は、もとの
            // プレイヤーの元へ返却される。」 Strongest first: each newcomer pushes the
            // earlier prisoners one cell on.
            let thieves_in_order = self.steal_thieves;
            for &t in thieves_in_order.as_slice() {
                let t = usize::from(t);
                let Some(card) = self.played_card(t) else {
                    continue;
                };
                self.take_card(t, card);
                if self.cage.len() >= usize::from(self.rules().cage_cells) {
                    if let Some(out) = self.cage.pop() {
                        let owner = usize::from(self.seat_of[ActionCard(out).colour().index()]);
                        self.give_card(owner, ActionCard(out));
                    }
                }
                self.cage.push_front(card.0);
            }
            // 「泥棒を捕まえたプレイヤーは、自分の順位分、駒を進める。」
            for d in seats(detectives) {
                self.position[d] = self.position[d].saturating_add(rank_among(&before, d));
            }
        }
        self.end_turn();
    }

    pub(crate) fn end_turn(&mut self) {
        // 「コマを進めた後、いずれかのプレイヤーがゴール地点に辿り着いたら、最後の展示を行う。」
        // The farthest pawn, without a branch per pawn.
        let farthest = self.position.iter().fold(0, |m, &p| m.max(p));
        if farthest >= self.rules().goal {
            self.start_final();
        } else {
            self.start_turn();
        }
    }

    pub(crate) fn start_final(&mut self) {
        self.clear_turn();
        self.resting = 0;
        self.next_resting = 0;
        self.phase = Phase::FinalExhibit;
        self.exhibitors = ALL_SEATS;
        self.pending = ALL_SEATS;
    }

    pub(crate) fn resolve_final(&mut self) {
        let order = self.exhibit_order();
        let [first, second] = self.rules().final_exhibit;
        for (place, &p) in order.as_slice().iter().enumerate().take(2) {
            let step = if place == 0 { first } else { second };
            let pos = &mut self.position[usize::from(p)];
            *pos = pos.saturating_add(step);
        }
        for p in 0..PLAYERS {
            self.public_art |= self.exhibit[p];
            self.final_strength[p] = self.rules().strength(self.exhibit[p]);
        }
        self.exhibits_shown = true;
        self.phase = Phase::Over;
        self.pending = 0;
    }

    /// All seats of the current secret choice have chosen: reveal and resolve.
    #[inline]
    pub(crate) fn all_chosen(&mut self) {
        match self.phase {
            Phase::Location => self.after_locations(),
            Phase::AuctionCards => self.resolve_auction(),
            Phase::CastleCards => self.resolve_castle_cards(),
            Phase::Exhibiting => self.resolve_exhibits(),
            Phase::FinalExhibit => self.resolve_final(),
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => {}
        }
    }
}
