//! Match records: (game, options, seats, seed, action log), and replaying them.

use crate::game::{ActionError, Game, SetupError};
use crate::seat::Seat;
use serde::{Deserialize, Serialize};

/// The version of the record format written by this build.
pub const RECORD_FORMAT: u32 = 1;

/// Who sat in a seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatRecord {
    pub name: String,
    /// The bot that played this seat, if any (from the start, or after a timeout).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// One entry of the action log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedAction<A> {
    pub seat: Seat,
    pub action: A,
}

/// Everything needed to reproduce a match exactly. With the default type parameters
/// it is the JSON form any game's record takes; [`MatchRecord::typed`] reads it as a
/// particular game's.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRecord<O = serde_json::Value, A = serde_json::Value> {
    pub format: u32,
    pub game: String,
    /// [`Game::RULES_VERSION`] of the build that played it (records written before the
    /// field existed were all version 1).
    #[serde(default = "first_rules_version")]
    pub rules: u32,
    pub options: O,
    pub seats: Vec<SeatRecord>,
    pub seed: u64,
    pub actions: Vec<LoggedAction<A>>,
}

fn first_rules_version() -> u32 {
    1
}

fn check_rules_version<G: Game>(game: &str, found: u32) -> Result<(), ReplayError> {
    if found == G::RULES_VERSION {
        return Ok(());
    }
    Err(ReplayError::RulesVersion {
        game: game.to_string(),
        expected: G::RULES_VERSION,
        found,
    })
}

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("this record was played under {game} rules version {found}; this build plays version {expected}, which would not reproduce it")]
    RulesVersion {
        game: String,
        expected: u32,
        found: u32,
    },
    #[error("this record is for {found}, not {expected}")]
    WrongGame { expected: String, found: String },
    #[error("record format {0} is newer than this build reads ({RECORD_FORMAT})")]
    Format(u32),
    #[error("the record does not fit the game: {0}")]
    Shape(#[from] serde_json::Error),
    #[error("the record cannot be set up: {0}")]
    Setup(#[from] SetupError),
    #[error("action {index} ({seat}) was refused: {reason}")]
    Refused {
        index: usize,
        seat: Seat,
        reason: String,
    },
}

impl<O, A> MatchRecord<O, A> {
    pub fn players(&self) -> usize {
        self.seats.len()
    }
}

impl MatchRecord {
    /// Refuses a record played under another rules version than `running` (the
    /// replaying build's [`Game::RULES_VERSION`], e.g. from `DynGame::rules_version`):
    /// replaying it would not reproduce the match, whether or not every action applies.
    pub fn check_rules(&self, running: u32) -> Result<(), ReplayError> {
        if self.rules == running {
            return Ok(());
        }
        Err(ReplayError::RulesVersion {
            game: self.game.clone(),
            expected: running,
            found: self.rules,
        })
    }

    /// Reads a JSON-form record as game `G`'s.
    pub fn typed<G: Game>(&self) -> Result<MatchRecord<G::Options, G::Action>, ReplayError> {
        if self.game != G::meta().id {
            return Err(ReplayError::WrongGame {
                expected: G::meta().id.to_string(),
                found: self.game.clone(),
            });
        }
        if self.format > RECORD_FORMAT {
            return Err(ReplayError::Format(self.format));
        }
        check_rules_version::<G>(&self.game, self.rules)?;
        let options = serde_json::from_value(self.options.clone())?;
        let actions = self
            .actions
            .iter()
            .map(|a| {
                Ok(LoggedAction {
                    seat: a.seat,
                    action: serde_json::from_value(a.action.clone())?,
                })
            })
            .collect::<Result<Vec<_>, serde_json::Error>>()?;
        Ok(MatchRecord {
            format: self.format,
            game: self.game.clone(),
            rules: self.rules,
            options,
            seats: self.seats.clone(),
            seed: self.seed,
            actions,
        })
    }
}

impl<O: Serialize, A: Serialize> MatchRecord<O, A> {
    pub fn to_json(&self) -> Result<MatchRecord, serde_json::Error> {
        Ok(MatchRecord {
            format: self.format,
            game: self.game.clone(),
            rules: self.rules,
            options: serde_json::to_value(&self.options)?,
            seats: self.seats.clone(),
            seed: self.seed,
            actions: self
                .actions
                .iter()
                .map(|a| {
                    Ok(LoggedAction {
                        seat: a.seat,
                        action: serde_json::to_value(&a.action)?,
                    })
                })
                .collect::<Result<_, serde_json::Error>>()?,
        })
    }
}

/// A game being recorded as it is played.
#[derive(Clone, Debug)]
pub struct Recorder<G: Game> {
    state: G,
    record: MatchRecord<G::Options, G::Action>,
}

impl<G: Game> Recorder<G> {
    pub fn new(options: G::Options, seats: Vec<SeatRecord>, seed: u64) -> Result<Self, SetupError> {
        let state = G::new(&options, seats.len(), seed)?;
        Ok(Recorder {
            state,
            record: MatchRecord {
                format: RECORD_FORMAT,
                game: G::meta().id.to_string(),
                rules: G::RULES_VERSION,
                options,
                seats,
                seed,
                actions: Vec::new(),
            },
        })
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    pub fn record(&self) -> &MatchRecord<G::Options, G::Action> {
        &self.record
    }

    pub fn seats_mut(&mut self) -> &mut [SeatRecord] {
        &mut self.record.seats
    }

    /// Applies and logs an action; a refused action is not logged.
    pub fn apply(&mut self, seat: Seat, action: G::Action) -> Result<(), ActionError<G::Reject>> {
        self.state.apply(seat, &action)?;
        self.record.actions.push(LoggedAction { seat, action });
        Ok(())
    }
}

/// Replays a typed record to its final state.
pub fn replay<G: Game>(record: &MatchRecord<G::Options, G::Action>) -> Result<G, ReplayError> {
    let mut steps = Replay::<G>::new(record)?;
    while steps.step()?.is_some() {}
    Ok(steps.state)
}

/// Steps through a record one action at a time.
pub struct Replay<'a, G: Game> {
    record: &'a MatchRecord<G::Options, G::Action>,
    state: G,
    next: usize,
}

impl<'a, G: Game> Replay<'a, G> {
    pub fn new(record: &'a MatchRecord<G::Options, G::Action>) -> Result<Self, ReplayError> {
        if record.game != G::meta().id {
            return Err(ReplayError::WrongGame {
                expected: G::meta().id.to_string(),
                found: record.game.clone(),
            });
        }
        check_rules_version::<G>(&record.game, record.rules)?;
        let state = G::new(&record.options, record.players(), record.seed)?;
        Ok(Replay {
            record,
            state,
            next: 0,
        })
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    /// Plays the next logged action; `None` at the end of the log.
    pub fn step(&mut self) -> Result<Option<&'a LoggedAction<G::Action>>, ReplayError> {
        let Some(entry) = self.record.actions.get(self.next) else {
            return Ok(None);
        };
        self.state
            .apply(entry.seat, &entry.action)
            .map_err(|e| ReplayError::Refused {
                index: self.next,
                seat: entry.seat,
                reason: e.to_string(),
            })?;
        self.next += 1;
        Ok(Some(entry))
    }
}
