//! Each change to a table, in the same three steps: the model decides (checks it, and
//! works out what it writes), `persist` stores it, and only then does the model take
//! it. A refusal or a failed write leaves the table as it was: the database first,
//! then memory, then anyone told.

use super::meta::{AbandonedReason, Caller, Status};
use super::model::Fill;
use super::{now, persist, Table};
use crate::error::ApiError;
use crate::writer::ActionWrite;
use serde_json::Value;
use std::sync::atomic::Ordering;
use takuge_engine::Seat;

impl Table {
    pub(super) async fn sit(
        &mut self,
        caller: &Caller,
        seat: Option<u8>,
        invite: Option<&str>,
    ) -> Result<(), ApiError> {
        let new = self.model.sit(caller, seat, invite)?;
        persist::save_seat(&self.writer, &self.fence, &new).await?;
        self.model.set_seat(new);
        Ok(())
    }

    pub(super) async fn leave(&mut self, caller: &Caller) -> Result<(), ApiError> {
        let new = self.model.leave(caller)?;
        persist::save_seat(&self.writer, &self.fence, &new).await?;
        self.model.set_seat(new);
        Ok(())
    }

    pub(super) async fn fill_bots(
        &mut self,
        caller: &Caller,
        bot: Option<String>,
        seat: Option<u8>,
    ) -> Result<(), ApiError> {
        let fill = self.model.fill_bots(caller, bot, seat)?;
        match &fill {
            Fill::One(new) => persist::save_seat(&self.writer, &self.fence, new).await?,
            Fill::EveryFree { bot, .. } => {
                persist::fill_free_seats(&self.writer, &self.fence, bot).await?
            }
        }
        self.model.filled(fill);
        Ok(())
    }

    pub(super) async fn start(&mut self, caller: &Caller) -> Result<(), ApiError> {
        let state = self.model.start(caller)?;
        let humans = self.model.humans();
        // The clocks as they start commit with the start, so a restart resumes them.
        let mut armed = self.clocks.clone();
        let at = now();
        armed.arm(state.to_move(), humans, at);
        persist::save_start(&self.writer, &self.fence, armed.state(at).as_ref()).await?;
        self.clocks.arm(state.to_move(), humans, now());
        self.model.started(state);
        self.set_live();
        Ok(())
    }

    pub(super) async fn abandon(&mut self, caller: &Caller) -> Result<(), ApiError> {
        self.model.abandon(caller)?;
        persist::save_status(&self.writer, &self.fence, Status::Abandoned).await?;
        self.model.closed(None);
        self.set_live();
        self.bots.stop_search();
        Ok(())
    }

    /// Closes the table if it is still open; whether it did.
    pub(super) async fn expire(&mut self) -> Result<bool, ApiError> {
        if self.model.meta.status != Status::Open {
            return Ok(false);
        }
        let reason = AbandonedReason::Expired;
        persist::save_closed(&self.writer, &self.fence, reason).await?;
        tracing::info!(table = self.model.meta.id, "never started: expired");
        self.model.closed(Some(reason));
        self.set_live();
        Ok(true)
    }

    /// Checks, commits and applies one action; the public version after it. Nothing
    /// changes on any error.
    pub(super) async fn act(
        &mut self,
        seat: Seat,
        (version, draft_seen): (u64, Option<u64>),
        action: Value,
        id: Option<String>,
    ) -> Result<u64, ApiError> {
        let began = std::time::Instant::now();
        self.model
            .may_act(seat, version, draft_seen, id.is_some())?;
        let step = self.model.step(seat, &action)?;
        // The clocks after this action commit with it, so a restart resumes them; they
        // go back as they were if the commit fails. A draft step is not a move: the
        // clock runs on through it (an increment per step would pay by the step).
        let clocks_before = self.clocks.clone();
        let at = now();
        if !step.drafting {
            self.clocks.charge(seat, at);
            self.clocks
                .arm(step.next.to_move(), self.model.humans(), at);
        }
        let outcome_json = step
            .outcome
            .as_ref()
            .map(|o| serde_json::to_string(o).map_err(ApiError::internal))
            .transpose();
        let clock_json = self
            .clocks
            .state(at)
            .map(|c| serde_json::to_string(&c).map_err(ApiError::internal))
            .transpose();
        let committed = match (outcome_json, clock_json) {
            (Ok(outcome), Ok(clock_state)) => {
                let write = ActionWrite {
                    table: self.model.meta.id,
                    version: step.number as i64,
                    seat: i64::from(seat.0),
                    action: action.to_string(),
                    client_id: id.clone(),
                    // The last action and the outcome commit together.
                    outcome,
                    clock_state,
                    epoch: self.fence.epoch(),
                };
                self.metrics.phases.applied.observe(began.elapsed());
                persist::commit_action(&self.writer, &self.metrics, &self.fence, write).await
            }
            (Err(e), _) | (_, Err(e)) => Err(e),
        };
        if let Err(e) = committed {
            self.clocks = clocks_before;
            return Err(e);
        }
        self.metrics
            .actions_committed
            .fetch_add(1, Ordering::Relaxed);
        if let Some(before) = &self.model.state {
            self.bots.observe(&**before, seat, &action);
        }
        let (drafting, new_version, finished) =
            (step.drafting, step.version, step.outcome.is_some());
        self.model.take(step, seat, action, id);
        if drafting {
            // Nobody else learns of a draft step (`crate::moves`).
            self.followers.only_to(seat);
        }
        if finished {
            self.set_live();
            // The match goes into its players' histories (the shelf's plays) before
            // the last action is answered; the action stands whatever happens here,
            // and a play missed now is written at the next start (`catch_up`).
            let table = self.model.meta.id;
            if let Err(e) = persist::record_plays(&self.writer, &self.fence).await {
                tracing::warn!(table, error = %e, "the plays of a finished match were not recorded");
            }
        }
        Ok(new_version)
    }

    /// `seat` ran out of time: a bot takes it over.
    pub(super) async fn time_out(&mut self, seat: Seat) -> Result<(), ApiError> {
        let Some(new) = self.model.timed_out(seat) else {
            self.clocks.stop(seat);
            return Ok(());
        };
        persist::save_seat(&self.writer, &self.fence, &new).await?;
        tracing::info!(table = self.model.meta.id, %seat, "out of time; a bot takes the seat");
        self.model.set_seat(new);
        self.clocks.stop(seat);
        Ok(())
    }
}
