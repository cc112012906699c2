//! The special cards the buyer of a property decides on (上級バリアントルール): the
//! Magic mirror (魔法の鏡), the Secret crypt (秘密の墓所) and the Crystal ball (水晶玉).

use crate::state::{GhostForSale, GHOST};
use crate::types::{Lot, Phase, PropertyId, SeatId};
use crate::{Action, Special};

impl GhostForSale {
    /// The buyer's decision on the special card of `g`, then on to the next property
    /// whose card asks one (or the end of the round).
    pub(crate) fn decide_special(&mut self, g: PropertyId, action: Action) {
        match action {
            Action::RemoveGhost { owner } => {
                if let Some(o) = self.seated(owner) {
                    self.remove_ghost(g, o);
                }
            }
            Action::AddGhost => self.add_ghost(g),
            Action::Guess { ghosts } => self.guess(g, ghosts),
            // Decline: the card is discarded unused.
            _ => {}
        }
        self.next_special(g.lot().index() + 1);
    }

    /// Magic mirror: one ghost-face token of `owner` leaves the property.
    fn remove_ghost(&mut self, g: PropertyId, owner: SeatId) {
        let faces = &mut self.decl[g.index()][owner];
        faces[GHOST] = faces[GHOST].saturating_sub(1);
        self.mirror_removed[g.index()] = Some(owner);
    }

    /// Secret crypt: one more ghost on the property.
    fn add_ghost(&mut self, g: PropertyId) {
        self.crypt_added[g.index()] = true;
    }

    /// Crystal ball: the buyer's guess of the ghosts there.
    fn guess(&mut self, g: PropertyId, ghosts: u8) {
        self.crystal_guess[g.index()] = Some(ghosts);
    }

    /// Walks the round's properties from lot `from` in alphabetical order and stops at
    /// the first bought one whose special card asks its buyer to decide; at the end the
    /// "?" cards are revealed.
    pub(crate) fn next_special(&mut self, from: usize) {
        for lot in Lot::ALL.into_iter().skip(from) {
            let g = self.property(lot);
            let Some(buyer) = self.owner[g.index()] else {
                continue;
            };
            let decide = match self.special[g.index()] {
                // With no ghost-face token there is nothing the mirror could remove.
                Some(Special::MagicMirror) => self.decl[g.index()]
                    .first(self.n())
                    .iter()
                    .any(|f| f[GHOST] > 0),
                Some(Special::SecretCrypt | Special::CrystalBall) => true,
                _ => false,
            };
            if decide {
                self.phase = Phase::Special(g);
                self.turn = buyer;
                return;
            }
        }
        self.end_round();
    }
}
