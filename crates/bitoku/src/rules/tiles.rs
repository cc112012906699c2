//! Taking tiles from the displays (リザーブ): which may be taken, the discount, paying,
//! and where the tile goes (a building into a settlement, a crystal into a socket with
//! a pilgrim woken, a mitama or a dragonfly to the player).

use crate::rules::effects::WAKE_ONE;
use crate::state::*;
use crate::types::CrystalColour;

impl Bitoku {
    /// Whether the tile on `slot` may be taken now with this discount (and, for a
    /// building, built: a marker left and a free settlement space).
    pub(crate) fn can_take(&self, kind: Kind, slot: u8, discount: u8, region: u8) -> bool {
        let Some(tile) = self.display_tile(kind, slot) else {
            return false;
        };
        let p = self.actor_p();
        match kind {
            Kind::Building => {
                let markers = c().board.player_board.building_space_points.len();
                usize::from(p.built) < markers
                    && self.free_settlement(region)
                    && shortfall(&p.goods.res, &Self::tile_cost(kind, tile)) <= discount
            }
            Kind::Crystal => shortfall(&p.goods.res, &Self::tile_cost(kind, tile)) <= discount,
            Kind::Mitama => true,
            Kind::Dragonfly => !p.dragonflies.is_full(),
        }
    }

    /// A free settlement space in the region (any region for `NO_REGION`).
    pub(crate) fn free_settlement(&self, region: u8) -> bool {
        if region == NO_REGION {
            (0..REGIONS as u8).any(|r| self.free_settlement(r))
        } else {
            self.settlements
                .get(usize::from(region))
                .is_some_and(|s| s.contains(&Settled::Empty))
        }
    }

    pub(crate) fn begin_buy(&mut self, kind: Kind, slot: u8, discount: u8, region: u8) {
        let Some(tile) = self.display_tile(kind, slot) else {
            return;
        };
        let buy = Buy {
            kind,
            slot,
            region,
            cost: Self::tile_cost(kind, tile),
            discount,
        };
        if kind == Kind::Building && region == NO_REGION {
            self.sub = Sub::BuildRegion(buy);
        } else {
            self.settle_discount(buy);
        }
    }

    /// The resources the discount may take off next: those that keep the tile
    /// affordable.
    pub(crate) fn discount_options(&self, buy: &Buy) -> [bool; 4] {
        let have = &self.actor_p().goods.res;
        let mut ok = [false; 4];
        for (r, o) in ok.iter_mut().enumerate() {
            if buy.cost[r] > 0 {
                let mut less = buy.cost;
                less[r] -= 1;
                *o = shortfall(have, &less) < buy.discount;
            }
        }
        ok
    }

    pub(crate) fn settle_discount(&mut self, mut buy: Buy) {
        while buy.discount > 0 {
            let ok = self.discount_options(&buy);
            match ok.iter().filter(|o| **o).count() {
                0 => break,
                1 => {
                    if let Some(r) = ok.iter().position(|o| *o) {
                        buy.cost[r] -= 1;
                    }
                    buy.discount -= 1;
                }
                _ => {
                    self.sub = Sub::Discount(buy);
                    return;
                }
            }
        }
        self.complete_buy(buy);
    }

    pub(crate) fn complete_buy(&mut self, buy: Buy) {
        let seat = self.actor;
        let Some(tile) = self.take_display(buy.kind, buy.slot) else {
            return;
        };
        let p = self.pl(seat);
        for (h, c) in p.goods.res.iter_mut().zip(buy.cost) {
            *h = h.saturating_sub(c);
        }
        match buy.kind {
            Kind::Building => {
                let kind = c().tiles.building.get(usize::from(tile)).map(|b| b.kind);
                p.built = p.built.saturating_add(1);
                if let Some(k) = kind {
                    let i = crate::types::BuildingKind::ALL
                        .iter()
                        .position(|x| *x == k)
                        .unwrap_or(0);
                    p.built_kinds[i] = p.built_kinds[i].saturating_add(1);
                }
                if let Some(space) = self
                    .settlements
                    .get_mut(usize::from(buy.region))
                    .and_then(|s| s.iter_mut().find(|s| **s == Settled::Empty))
                {
                    *space = Settled::Building { tile, owner: seat };
                }
            }
            Kind::Crystal => self.sub = Sub::Socket { crystal: tile },
            Kind::Mitama => {
                let _ = p.mitama.push(tile);
                p.mitama_taken = p.mitama_taken.saturating_add(1);
            }
            Kind::Dragonfly => {
                let _ = p.dragonflies.push(tile);
            }
        }
    }

    pub(crate) fn place_crystal(&mut self, seat: u8, crystal: u8, socket: u8) {
        if let Some(s) = self.pl(seat).crystals.get_mut(usize::from(socket)) {
            // A full board replaces a crystal: the old one is boxed.
            *s = Some(crystal);
        }
        if let Some(cr) = c().tiles.crystal.get(usize::from(crystal)) {
            if cr.colour == CrystalColour::Orange {
                self.push_effect(&cr.effect, NO_REGION);
            }
        }
        self.push_effect(&WAKE_ONE, NO_REGION);
    }
}
