//! The flow of a turn: its start, the places (「1」), the action cards (「2」), the end
//! of the turn, and the final exhibit that ends the game.

use crate::cards::{ActionCard, Place, ALL_SEATS, PLAYERS};
use crate::news::Shown;
use crate::state::{seat_bit, ArtHeist, PerSeat, Phase, SeatOrder};
use crate::types::SeatId;
use takuge_engine::Outcome;

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
        self.played = PerSeat::default();
        self.revealed = 0;
        self.exhibit = PerSeat::default();
        self.run = PerSeat::default();
        self.exhibitors = 0;
        self.failed = 0;
        self.exhibits_shown = false;
        self.steal_thieves = SeatOrder::new();
        self.steal_exhibits = SeatOrder::new();
        self.steal_t = 0;
        self.steal_e = 0;
        self.auction = None;
        self.auction_thieves = 0;
        self.castle_thieves = 0;
        self.castle_detectives = 0;
    }

    /// `Action::Go`: 「まず、「1」のカードを秘密裏にセットする。」
    pub(crate) fn choose_place(&mut self, p: SeatId, place: Place) {
        match place {
            Place::AuctionHouse => self.at_auction |= seat_bit(p),
            Place::Castle => self.at_castle |= seat_bit(p),
        }
        self.chosen(p);
    }

    /// Every place is chosen: 「まず、オークション会場を選択したプレイヤーから「2」の
    /// アクションにいく。」
    pub(crate) fn after_locations(&mut self) {
        self.tell(Shown::Places {
            auction: self.at_auction,
            castle: self.at_castle,
        });
        if self.at_auction != 0 {
            self.phase = Phase::AuctionCards;
            self.pending = self.at_auction;
        } else {
            self.start_castle_cards();
        }
    }

    /// `Action::Play`: 「「2」のアクションも、「1」同様に秘密裏に行うこと。」
    pub(crate) fn play_card(&mut self, p: SeatId, card: ActionCard) {
        self.played[p] = Some(card);
        self.chosen(p);
    }

    pub(crate) fn end_turn(&mut self) {
        // 「コマを進めた後、いずれかのプレイヤーがゴール地点に辿り着いたら、最後の展示を行う。」
        // The farthest pawn, without a branch per pawn.
        let farthest = self
            .position
            .first(PLAYERS)
            .iter()
            .fold(0, |m, &p| m.max(p));
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

    /// 「最後の展示をして、その展示の1位・2位のプレイヤーの駒を進めた結果、最終的に最も
    /// 進んでいるプレイヤーが勝利となる。」
    pub(crate) fn resolve_final(&mut self) {
        self.tell(Shown::Exhibits {
            exhibitors: self.exhibitors,
            exhibit: self.exhibit,
            last: true,
        });
        let order = self.exhibit_order();
        let [first, second] = self.rules().final_exhibit;
        for (place, p) in order.iter().enumerate().take(2) {
            let step = if place == 0 { first } else { second };
            self.position[p.0] = self.position[p.0].saturating_add(step);
        }
        for p in SeatId::all(PLAYERS) {
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

impl ArtHeist {
    /// `Game::outcome`: 「最終的に最も進んでいるプレイヤーが勝利となる。」「同点の場合は、
    /// 最終の展示の強さで着順を決める。」
    pub(crate) fn result(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        let keys: Vec<(u8, u16)> = SeatId::all(PLAYERS)
            .map(|p| (self.position[p], self.final_strength[p]))
            .collect();
        let scores = keys.iter().map(|&(at, _)| i64::from(at)).collect();
        Some(Outcome::from_keys(scores, &keys, vec![None; PLAYERS]))
    }
}
