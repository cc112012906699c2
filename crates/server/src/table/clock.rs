//! The game clock, as a pure value: every method that needs the time is given it
//! ([`Now`]), so the rules of time banks, per-move allowances, deadlines and a restore
//! after the server was down are tested without waiting or a runtime's timer. The
//! actor (`mod.rs`) is the one place that reads the time.
//!
//! Each seat thinking now has a monotonic start (its deadlines are what the actor
//! sleeps until); what is stored and what clients read is wall-clock (Unix ms).

use crate::message::ClockOut;
use serde::{Deserialize, Serialize};
use std::time::Duration;
use takuge_engine::{Seat, SeatSet};
use takuge_protocol::Clock;
use tokio::time::Instant;

/// What a restart must keep of the clocks: each seat's real-time reserve left and,
/// for a seat thinking now, when it started (Unix milliseconds), from which its
/// deadline follows. Deadlines are wall-clock: time the server is down still runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub reserve_ms: Vec<u64>,
    pub thinking_since_ms: Vec<Option<i64>>,
}

/// One moment, read once by the caller: monotonic for deadlines, wall-clock for what
/// is stored and shown.
#[derive(Clone, Copy, Debug)]
pub struct Now {
    pub at: Instant,
    pub unix_ms: i64,
}

/// A table's clocks: per seat, when it started thinking (while it is pending and
/// human) and the real-time reserve it has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    clock: Clock,
    thinking_since: Vec<Option<Instant>>,
    reserve_ms: Vec<u64>,
}

impl Clocks {
    /// The clocks of a table of `players` seats: full reserves and nobody thinking,
    /// or, for a table in play, `stored` (as last committed) carried over to `now`.
    /// Time the server was down counts: a seat thinking since before it stopped has
    /// thought all that time, so a deadline that passed meanwhile is due at once. A
    /// stored state of another size (not this table's) is ignored.
    pub fn new(clock: Clock, players: usize, stored: Option<&ClockState>, now: Now) -> Clocks {
        let reserve = match clock {
            Clock::RealTime {
                reserve_seconds, ..
            } => u64::from(reserve_seconds) * 1000,
            _ => 0,
        };
        let mut clocks = Clocks {
            clock,
            thinking_since: vec![None; players],
            reserve_ms: vec![reserve; players],
        };
        if let Some(c) = stored {
            if c.reserve_ms.len() == players && c.thinking_since_ms.len() == players {
                clocks.reserve_ms.clone_from(&c.reserve_ms);
                for (t, since) in clocks.thinking_since.iter_mut().zip(&c.thinking_since_ms) {
                    *t = since.map(|ms| {
                        let ago =
                            Duration::from_millis(now.unix_ms.saturating_sub(ms).max(0) as u64);
                        now.at.checked_sub(ago).unwrap_or(now.at)
                    });
                }
            }
        }
        clocks
    }

    /// Starts the clock of every seat in `pending` that is in `humans` and not already
    /// thinking (a seat pending through another's move keeps its start); stops every
    /// other.
    pub fn arm(&mut self, pending: SeatSet, humans: SeatSet, now: Now) {
        for (i, since) in self.thinking_since.iter_mut().enumerate() {
            let seat = Seat(i as u8);
            if pending.contains(seat) && humans.contains(seat) {
                since.get_or_insert(now.at);
            } else {
                *since = None;
            }
        }
    }

    /// `seat` moved: its clock stops, and on a real-time clock what it used beyond the
    /// move's own allowance comes out of its reserve (down to nothing).
    pub fn charge(&mut self, seat: Seat, now: Now) {
        let Some(since) = self
            .thinking_since
            .get_mut(seat.index())
            .and_then(Option::take)
        else {
            return;
        };
        if let Clock::RealTime {
            per_move_seconds, ..
        } = self.clock
        {
            let used = now.at.saturating_duration_since(since).as_millis() as u64;
            let over = used.saturating_sub(u64::from(per_move_seconds) * 1000);
            if let Some(r) = self.reserve_ms.get_mut(seat.index()) {
                *r = r.saturating_sub(over);
            }
        }
    }

    /// Stops `seat`'s clock without charging it (it ran out of time).
    pub fn stop(&mut self, seat: Seat) {
        if let Some(s) = self.thinking_since.get_mut(seat.index()) {
            *s = None;
        }
    }

    /// How long seat `i` may think this move, from when it started.
    fn allowance(&self, i: usize) -> Option<Duration> {
        match self.clock {
            Clock::None => None,
            Clock::RealTime {
                per_move_seconds, ..
            } => Some(Duration::from_millis(
                u64::from(per_move_seconds) * 1000 + self.reserve_ms.get(i).copied().unwrap_or(0),
            )),
            Clock::TurnBased { hours_per_move } => {
                Some(Duration::from_secs(u64::from(hours_per_move) * 3600))
            }
        }
    }

    /// The earliest moment a thinking seat runs out of time, and that seat.
    pub fn next_deadline(&self) -> Option<(Instant, Seat)> {
        self.thinking_since
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((((*s)? + self.allowance(i)?), Seat(i as u8))))
            .min_by_key(|(t, _)| *t)
    }

    /// The clocks at `now`, in wall-clock terms, to store (`None` without a clock).
    pub fn state(&self, now: Now) -> Option<ClockState> {
        if self.clock == Clock::None {
            return None;
        }
        Some(ClockState {
            reserve_ms: self.reserve_ms.clone(),
            thinking_since_ms: self
                .thinking_since
                .iter()
                .map(|s| {
                    s.map(|t| now.unix_ms - now.at.saturating_duration_since(t).as_millis() as i64)
                })
                .collect(),
        })
    }

    /// For clients: each seat's reserve left and, while it thinks, its deadline
    /// (Unix milliseconds).
    pub fn out(&self, now: Now) -> Option<ClockOut> {
        let state = self.state(now)?;
        let deadline_ms = state
            .thinking_since_ms
            .iter()
            .enumerate()
            .map(|(i, s)| Some((*s)? + self.allowance(i)?.as_millis() as i64))
            .collect();
        Some(ClockOut {
            reserve_ms: state.reserve_ms,
            deadline_ms,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL_TIME: Clock = Clock::RealTime {
        per_move_seconds: 10,
        reserve_seconds: 60,
    };

    /// A fixed start: a monotonic instant and 2026-01-01 as wall-clock time.
    fn start() -> Now {
        Now {
            at: Instant::now(),
            unix_ms: 1_767_225_600_000,
        }
    }

    fn later(now: Now, ms: u64) -> Now {
        Now {
            at: now.at + Duration::from_millis(ms),
            unix_ms: now.unix_ms + ms as i64,
        }
    }

    fn seats(list: &[u8]) -> SeatSet {
        list.iter().fold(SeatSet::EMPTY, |s, &i| s.with(Seat(i)))
    }

    fn reserve(clocks: &Clocks, now: Now) -> Vec<u64> {
        clocks.state(now).map(|s| s.reserve_ms).unwrap_or_default()
    }

    #[test]
    fn a_move_within_its_own_allowance_keeps_the_whole_reserve() {
        let t0 = start();
        let mut clocks = Clocks::new(REAL_TIME, 2, None, t0);
        clocks.arm(seats(&[0]), seats(&[0, 1]), t0);
        clocks.charge(Seat(0), later(t0, 9_999));
        assert_eq!(reserve(&clocks, t0), [60_000, 60_000]);
    }

    #[test]
    fn time_beyond_the_move_allowance_comes_out_of_the_reserve_down_to_nothing() {
        let t0 = start();
        let mut clocks = Clocks::new(REAL_TIME, 2, None, t0);
        clocks.arm(seats(&[0, 1]), seats(&[0, 1]), t0);
        clocks.charge(Seat(0), later(t0, 25_000));
        clocks.charge(Seat(1), later(t0, 500_000));
        assert_eq!(reserve(&clocks, t0), [45_000, 0]);
        // Stopped: a second charge takes nothing more.
        clocks.charge(Seat(0), later(t0, 90_000));
        assert_eq!(reserve(&clocks, t0), [45_000, 0]);
    }

    #[test]
    fn the_deadline_is_the_move_allowance_plus_the_reserve_left() {
        let t0 = start();
        let mut clocks = Clocks::new(REAL_TIME, 2, None, t0);
        clocks.arm(seats(&[0]), seats(&[0, 1]), t0);
        clocks.charge(Seat(0), later(t0, 40_000));
        let t1 = later(t0, 40_000);
        clocks.arm(seats(&[0]), seats(&[0, 1]), t1);
        // 10 s for the move and the 30 s of reserve left.
        assert_eq!(
            clocks.next_deadline(),
            Some((t1.at + Duration::from_secs(40), Seat(0)))
        );
        let out = clocks.out(t1).map(|o| o.deadline_ms);
        assert_eq!(out, Some(vec![Some(t1.unix_ms + 40_000), None]));
    }

    #[test]
    fn a_turn_based_clock_gives_each_move_its_hours_and_keeps_no_reserve() {
        let t0 = start();
        let mut clocks = Clocks::new(Clock::TurnBased { hours_per_move: 24 }, 3, None, t0);
        clocks.arm(seats(&[1, 2]), seats(&[0, 1, 2]), t0);
        let day = Duration::from_secs(24 * 3600);
        assert_eq!(clocks.next_deadline().map(|(t, _)| t), Some(t0.at + day));
        clocks.charge(Seat(1), later(t0, 100_000_000));
        assert_eq!(reserve(&clocks, t0), [0, 0, 0]);
        assert_eq!(clocks.next_deadline(), Some((t0.at + day, Seat(2))));
    }

    #[test]
    fn bots_and_seats_not_pending_run_no_clock_and_a_seat_still_pending_keeps_its_start() {
        let t0 = start();
        let mut clocks = Clocks::new(REAL_TIME, 3, None, t0);
        // Seat 2 is a bot: never timed.
        clocks.arm(seats(&[0, 1, 2]), seats(&[0, 1]), t0);
        let since = clocks.state(t0).map(|s| s.thinking_since_ms);
        assert_eq!(since, Some(vec![Some(t0.unix_ms), Some(t0.unix_ms), None]));
        // Seat 1 chose; seat 0 is still choosing and its clock runs on from t0.
        let t1 = later(t0, 5_000);
        clocks.charge(Seat(1), t1);
        clocks.arm(seats(&[0]), seats(&[0, 1]), t1);
        let since = clocks.state(t1).map(|s| s.thinking_since_ms);
        assert_eq!(since, Some(vec![Some(t0.unix_ms), None, None]));
        // Out of time: stopped, and charged nothing.
        clocks.stop(Seat(0));
        assert_eq!(clocks.next_deadline(), None);
        assert_eq!(reserve(&clocks, t1), [60_000, 60_000, 60_000]);
    }

    #[test]
    fn without_a_clock_nothing_is_stored_shown_or_due() {
        let t0 = start();
        let mut clocks = Clocks::new(Clock::None, 2, None, t0);
        clocks.arm(seats(&[0, 1]), seats(&[0, 1]), t0);
        assert_eq!(clocks.state(t0), None);
        assert!(clocks.out(t0).is_none());
        assert_eq!(clocks.next_deadline(), None);
    }

    #[test]
    fn a_restore_counts_the_time_the_server_was_down() {
        let t0 = start();
        let mut clocks = Clocks::new(REAL_TIME, 2, None, t0);
        clocks.arm(seats(&[1]), seats(&[0, 1]), t0);
        let stored = clocks.state(later(t0, 3_000));
        // The server stops 3 s into seat 1's move and is back 20 s after it started:
        // 17 s of its 70 went by while it was down.
        let back = Now {
            at: t0.at + Duration::from_secs(3600),
            unix_ms: t0.unix_ms + 20_000,
        };
        let restored = Clocks::new(REAL_TIME, 2, stored.as_ref(), back);
        assert_eq!(
            restored.next_deadline(),
            Some((back.at + Duration::from_secs(50), Seat(1)))
        );
        assert_eq!(
            restored.out(back).map(|o| o.deadline_ms),
            Some(vec![None, Some(t0.unix_ms + 70_000)])
        );
        // Down longer than the seat had: due at once.
        let late = Now {
            at: back.at,
            unix_ms: t0.unix_ms + 600_000,
        };
        let restored = Clocks::new(REAL_TIME, 2, stored.as_ref(), late);
        assert!(restored.next_deadline().is_some_and(|(t, _)| t <= late.at));
    }

    #[test]
    fn a_restore_keeps_the_reserves_and_ignores_a_stored_state_of_another_size() {
        let t0 = start();
        let stored = ClockState {
            reserve_ms: vec![1_000, 2_000],
            thinking_since_ms: vec![None, None],
        };
        let restored = Clocks::new(REAL_TIME, 2, Some(&stored), t0);
        assert_eq!(reserve(&restored, t0), [1_000, 2_000]);
        let restored = Clocks::new(REAL_TIME, 3, Some(&stored), t0);
        assert_eq!(reserve(&restored, t0), [60_000, 60_000, 60_000]);
        // A clock in the future (the wall clock went back): counted from now.
        let ahead = ClockState {
            reserve_ms: vec![0, 0],
            thinking_since_ms: vec![Some(t0.unix_ms + 5_000), None],
        };
        let restored = Clocks::new(REAL_TIME, 2, Some(&ahead), t0);
        assert_eq!(
            restored.next_deadline(),
            Some((t0.at + Duration::from_secs(10), Seat(0)))
        );
    }
}
