//! Ⅲ. The flow of turns, rounds, games and the match: the next actor, the end of a
//! round, the end of a game (ゲーム終了の4つの条件, 盗賊の勝利条件) and a fresh deal.

use crate::cards::{CardStatus, Slot};
use crate::options::MatchLength;
use crate::options::ROUNDS;
use crate::role::{Role, Side};
use crate::rules::order::OrderNumber;
use crate::state::{Deal, DealtRoles, EndReason, GameResult, Phase, PlayerSeat};
use crate::SecretMoon;
use takuge_engine::{Game, Outcome, Seat};

impl SecretMoon {
    /// The actor's order card goes face up to the discard pile; then the game ends
    /// if decided (`turned_up`: the action turned a card face up), or the next card is
    /// played, or the round ends.
    #[inline]
    pub(crate) fn finish_turn(&mut self, actor: Seat, number: OrderNumber, turned_up: bool) {
        self.deal.order.play(number, actor);
        if turned_up {
            if let Some(reason) = self.deal.decided() {
                self.end_game(reason);
                return;
            }
        }
        self.next_turn();
    }

    #[inline]
    fn next_turn(&mut self) {
        loop {
            if let Some((number, actor)) = self.deal.order.next_actor() {
                self.phase = Phase::Turn { actor, number };
                return;
            }
            // Ⅲ. Everyone has acted: the round ends and protection with it.
            self.deal.protected = Default::default();
            if self.deal.round >= ROUNDS {
                self.end_game(EndReason::ThirdRoundEnded);
                return;
            }
            self.deal.round += 1;
            self.deal_order_cards();
        }
    }

    /// Ⅰ. Order cards to every player still in the game who did not reserve one.
    pub(crate) fn deal_order_cards(&mut self) {
        self.deal.deal_order_cards(&mut self.rng);
    }

    /// Starts the first round of a fresh deal.
    pub(crate) fn start_deal(&mut self) {
        self.deal = Deal::new(&self.options, self.players(), &mut self.rng);
        self.deal_order_cards();
        self.next_turn();
    }

    fn end_game(&mut self, reason: EndReason) {
        let deal = &self.deal;
        // 盗賊の勝利条件: a seated thief still free steals the win (an NPC thief does not).
        let thief_steals = deal.slot_of_role(Role::Thief).is_some_and(|s: Slot| {
            deal.is_player_slot(s) && deal.status(s) != CardStatus::Captured
        });
        let winner = if thief_steals {
            Side::Thief
        } else {
            reason.side()
        };
        for seat in PlayerSeat::all(self.players()) {
            if deal.role(Deal::seat_slot(seat.seat())).side() == winner {
                self.victory_points[seat] += 1;
            }
        }
        // A match has at most `MAX_GAMES` games and ends after the last: never full.
        let _ = self.results.push(GameResult {
            reason,
            winner,
            // Every card of the deal fits: the deck is at most `MAX_CARDS`.
            roles: DealtRoles::from_slice(
                deal.roles
                    .get(..usize::from(deal.card_count))
                    .unwrap_or_default(),
            )
            .unwrap_or_default(),
            removed: deal.removed,
            round: deal.round,
        });
        if self.results.len() < usize::from(self.options.games.games()) {
            self.start_deal();
        } else {
            self.phase = Phase::MatchOver;
        }
    }

    /// 勝利点の多いプレイヤーの勝利: the match ranks by victory points, each seat on
    /// the team its card of the last game put it in; a one-game match names the
    /// winning team.
    pub(crate) fn match_outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::MatchOver {
            return None;
        }
        let players = self.players();
        let scores = self
            .victory_points
            .first(players)
            .iter()
            .map(|v| i64::from(*v))
            .collect();
        let last = self.results.last();
        let teams = (0..players)
            .map(|p| {
                last.and_then(|r| r.roles.get(p))
                    .map(|role| role.side().team_id())
            })
            .collect();
        let outcome = Outcome::from_scores(scores, teams);
        Some(match last {
            Some(r) if self.options.games == MatchLength::One => {
                outcome.with_winning_team(r.winner.team_id())
            }
            _ => outcome,
        })
    }
}
