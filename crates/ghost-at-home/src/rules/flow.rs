//! The end of a turn and escaping (脱出): refilling, the next player, and the other
//! players' chance to stop an escape with ghosts.

use crate::cards::Card;
use crate::state::{GhostAtHome, Phase};
use crate::types::{Next, Seated};

impl GhostAtHome {
    /// After a ghost was dealt with: the turn ends, or the escape goes on.
    pub(crate) fn after_ghost(&mut self, then: Next) {
        match then {
            Next::EndTurn => self.end_turn(),
            Next::Escape { by, ghosts_left } => self.escape_continue(by, ghosts_left),
        }
    }

    /// Ghosts each other player may play against an escape: two at a table of two
    /// (2人プレイの場合、2枚までゴーストカードを出すことができます), else one.
    fn ghosts_per_escape(&self) -> u8 {
        if self.players == 2 {
            2
        } else {
            1
        }
    }

    /// End of the active player's turn: refill, or try to escape.
    pub(crate) fn end_turn(&mut self) {
        let p = self.active;
        if self.house(p).is_full() {
            let ghosts = self.ghosts_per_escape();
            self.escape_ask(self.next_seat(p), ghosts);
        } else {
            self.refill(p);
            self.next_turn();
        }
    }

    fn next_turn(&mut self) {
        self.active = self.next_seat(self.active);
        self.turn = self.turn.saturating_add(1);
        self.phase = Phase::Choose;
    }

    /// Asks `asking` whether to play a ghost against the escape, or, once every other
    /// player has had the chance or no ghost can be played, lets the escape succeed.
    fn escape_ask(&mut self, asking: Seated, ghosts_left: u8) {
        let escaper = self.active;
        if asking == escaper || self.ghost_target(escaper).is_none() {
            self.phase = Phase::Over { winner: escaper };
        } else {
            self.phase = Phase::Escape {
                asking,
                ghosts_left,
            };
        }
    }

    fn escape_continue(&mut self, by: Seated, ghosts_left: u8) {
        let escaper = self.active;
        if !self.house(escaper).is_full() {
            // 脱出しようとしたプレイヤーから順に手札を補充します。
            for k in 0..self.players_usize() {
                self.refill(self.seat_after(escaper, k));
            }
            self.next_turn();
        } else if ghosts_left > 0 {
            self.escape_ask(by, ghosts_left);
        } else {
            let ghosts = self.ghosts_per_escape();
            self.escape_ask(self.next_seat(by), ghosts);
        }
    }

    /// A ghost from hand against the escape, onto the escaper's highest floor.
    pub(crate) fn stop_escape(&mut self, me: Seated) {
        if let Phase::Escape {
            asking,
            ghosts_left,
        } = self.phase
        {
            self.hand_mut(me).remove(Card::Ghost);
            let then = Next::Escape {
                by: asking,
                ghosts_left: ghosts_left.saturating_sub(1),
            };
            match self.ghost_target(self.active) {
                Some(floor) => self.ghost_arrives(self.active, floor, then),
                None => self.after_ghost(then),
            }
        }
    }

    /// The asked player lets the escape go on: the next player is asked.
    pub(crate) fn let_escape(&mut self) {
        if let Phase::Escape { asking, .. } = self.phase {
            let ghosts = self.ghosts_per_escape();
            self.escape_ask(self.next_seat(asking), ghosts);
        }
    }
}
