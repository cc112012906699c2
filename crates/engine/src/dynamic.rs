//! The JSON-facing, object-safe face of every game: the server, the CLI and replays
//! host games through it by id. Bots, tests and benchmarks use the typed trait.

use crate::bot::{bot_move, Ask, Bot, BotFactory};
use crate::game::{ActionError, Game, GameMeta, Lang};
use crate::ismcts::Seen;
use crate::outcome::Outcome;
use crate::record::{MatchRecord, ReplayError};
use crate::rng::GameRng;
use crate::seat::{Seat, SeatSet, Viewer};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::any::Any;
use std::collections::BTreeMap;
use std::sync::Arc;

/// An error in words, with a stable machine-readable code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[error("{message}")]
pub struct DynError {
    pub code: &'static str,
    pub message: String,
}

impl DynError {
    pub fn new(code: &'static str, message: impl Into<String>) -> Self {
        DynError {
            code,
            message: message.into(),
        }
    }
}

impl<R: std::fmt::Display> From<ActionError<R>> for DynError {
    fn from(e: ActionError<R>) -> Self {
        let code = match e {
            ActionError::GameOver => "game_over",
            ActionError::NoSuchSeat(_) => "no_such_seat",
            ActionError::NotYourTurn(_) => "not_your_turn",
            ActionError::Illegal(_) => "illegal_action",
        };
        DynError::new(code, e.to_string())
    }
}

/// A legal action with its description and the facts a client shows it with
/// ([`Game::action_facts`]; absent from the JSON when the game gives none).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DynAction {
    pub action: Value,
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub facts: Option<Value>,
}

/// One running game, behind JSON.
pub trait DynState: Send + Sync {
    fn game_id(&self) -> &'static str;
    fn players(&self) -> usize;
    fn to_move(&self) -> SeatSet;
    fn legal_actions(&self, seat: Seat) -> Vec<DynAction>;
    /// Parses and plays an action; on any error the state is unchanged.
    fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), DynError>;
    fn view(&self, viewer: Viewer) -> Value;
    /// [`Game::drafting`]: `seat` is part-way through a secret choice of several steps.
    fn drafting(&self, seat: Seat) -> bool;
    /// [`DynState::view`] written as JSON onto `out`, without building a `Value`
    /// tree: what a server sends to every connection after every action.
    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>);
    /// [`DynState::legal_actions`] written as a JSON array onto `out`.
    fn write_legal_actions(&self, seat: Seat, out: &mut Vec<u8>);
    fn outcome(&self) -> Option<Outcome>;
    /// Describes an action (for logs); `None` if it is not an action of this game.
    fn describe(&self, action: &Value) -> Option<String>;
    /// What `viewer` may read in the log of `actor` playing `action` (before it is
    /// applied); `None` if only that `actor` acted, or if it is not an action of this game.
    fn describe_for(&self, actor: Seat, action: &Value, viewer: Viewer) -> Option<String>;
    /// [`DynState::describe_for`] in `lang` (the English line where a game has no
    /// translation).
    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Value,
        viewer: Viewer,
        lang: Lang,
    ) -> Option<String> {
        let _ = lang;
        self.describe_for(actor, action, viewer)
    }
    /// Every viewer's line for `actor` playing `action` in `lang`: one per seat, then
    /// the spectator's (see [`DynState::describe_for`]); the action is parsed once.
    fn describe_for_all(&self, actor: Seat, action: &Value, lang: Lang) -> Vec<Option<String>>;
    /// [`Game::revealed_in`]: what came out to everyone with the action that turned
    /// `before` (a state of the same game) into this one; `None` for another game's.
    fn revealed_in(&self, before: &dyn DynState, lang: Lang) -> Option<String>;
    /// Asks the named bot for `seat`'s action.
    fn bot_action(&self, seat: Seat, bot: &str, rng: &mut GameRng) -> Result<Value, DynError>;
    /// [`DynState::bot_action`] asked as `ask` says ([`crate::Bot::asked`]): its time
    /// budget counts from when the host asked, and its search stops early once the
    /// cancel flag is set (a server's abandoned table frees its bot thread).
    fn bot_action_asked(
        &self,
        seat: Seat,
        bot: &str,
        rng: &mut GameRng,
        ask: &Ask,
    ) -> Result<Value, DynError>;
    /// A fresh bot of this game by name, to keep for a seat across the whole game
    /// (tree reuse: tell it every move with [`DynState::seen_by`]).
    fn new_bot(&self, bot: &str) -> Result<Box<dyn DynBot>, DynError>;
    /// What `viewer` learns of `actor` playing `action` in this state (before it is
    /// applied): [`crate::ismcts::Seen::of`], for a kept bot of `viewer`'s seat.
    fn seen_by(&self, viewer: Seat, actor: Seat, action: &Value) -> Result<DynSeen, DynError>;
    fn box_clone(&self) -> Box<dyn DynState>;
    fn same_state(&self, other: &dyn DynState) -> bool;
    fn as_any(&self) -> &dyn Any;
}

/// [`crate::ismcts::Seen`] behind JSON: what a seat learns of a move, its own moves
/// whole, another seat's as an observation key (which shows nothing hidden).
#[derive(Clone, Debug, PartialEq)]
pub enum DynSeen {
    Own(Value),
    Other { actor: Seat, key: u64 },
}

/// A bot kept for one seat across a game ([`DynState::new_bot`]): told every move in
/// order ([`DynBot::seen`]), a searching bot keeps its tree between its moves.
pub trait DynBot: Send {
    fn name(&self) -> &'static str;
    /// A move played at the table, as this bot's seat saw it: every move, in order.
    fn seen(&mut self, seen: &DynSeen) -> Result<(), DynError>;
    /// `seat`'s action in `state` (a state of this bot's game), asked as `ask` says
    /// ([`crate::Bot::asked`]).
    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: Seat,
        rng: &mut GameRng,
        ask: &Ask,
    ) -> Result<Value, DynError>;
    /// [`crate::Bot::reused_visits`]: the root visits its last search started with.
    fn reused_visits(&self) -> u32;
    /// [`crate::Bot::rushed`]: its last move was answered without its search.
    fn rushed(&self) -> bool;
}

/// A game type in the catalog.
pub trait DynGame: Send + Sync {
    fn meta(&self) -> &'static GameMeta;
    /// [`Game::RULES_VERSION`].
    fn rules_version(&self) -> u32;
    fn default_options(&self) -> Value;
    fn option_sets(&self) -> Vec<Value>;
    fn bot_names(&self) -> Vec<&'static str>;
    /// [`crate::Bot::searches`] of the named bot (`true` for a name it does not know,
    /// the safe side).
    fn bot_searches(&self, bot: &str) -> bool;
    fn new_game(
        &self,
        options: &Value,
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn DynState>, DynError>;
    /// Checks options without setting up a game.
    fn validate(&self, options: &Value, players: usize) -> Result<(), DynError>;
    /// Replays a record to its final state.
    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynState>, ReplayError>;
}

struct Entry<G: Game> {
    bots: Arc<Vec<(&'static str, BotFactory<G>)>>,
}

struct State<G: Game> {
    game: G,
    bots: Arc<Vec<(&'static str, BotFactory<G>)>>,
}

impl<G: Game> State<G> {
    fn factory(&self, bot: &str) -> Result<BotFactory<G>, DynError> {
        self.bots
            .iter()
            .find(|(name, _)| *name == bot)
            .map(|(_, f)| *f)
            .ok_or_else(|| {
                DynError::new(
                    "unknown_bot",
                    format!("{} has no bot called {bot:?}", G::meta().id),
                )
            })
    }

    fn bot_action_with(
        &self,
        seat: Seat,
        bot: &str,
        rng: &mut GameRng,
        ask: &Ask,
    ) -> Result<Value, DynError> {
        let mut bot = self.factory(bot)?();
        choose_with(bot.as_mut(), &self.game, seat, rng, ask)
    }
}

/// `bot`'s move for `seat` in `game`, as JSON.
fn choose_with<G: Game>(
    bot: &mut dyn Bot<G>,
    game: &G,
    seat: Seat,
    rng: &mut GameRng,
    ask: &Ask,
) -> Result<Value, DynError> {
    if !game.to_move().contains(seat) {
        return Err(DynError::new(
            "not_your_turn",
            format!("{seat} has nothing to decide now"),
        ));
    }
    bot.asked(ask);
    bot_move(bot, game, seat, rng)
        .map(|a| to_value(&a))
        .ok_or_else(|| DynError::new("no_legal_action", format!("{seat} has no legal action")))
}

/// Parses a game's action from JSON.
fn parse<G: Game>(action: &Value) -> Result<G::Action, DynError> {
    G::Action::deserialize(action).map_err(|e| {
        DynError::new(
            "malformed_action",
            format!("not an action of {}: {e}", G::meta().id),
        )
    })
}

/// [`DynBot`] over a typed bot.
struct Kept<G: Game> {
    bot: Box<dyn Bot<G>>,
}

impl<G: Game> DynBot for Kept<G> {
    fn name(&self) -> &'static str {
        self.bot.name()
    }

    fn seen(&mut self, seen: &DynSeen) -> Result<(), DynError> {
        let seen = match seen {
            DynSeen::Own(action) => Seen::Own(parse::<G>(action)?),
            DynSeen::Other { actor, key } => Seen::Other {
                actor: *actor,
                key: *key,
            },
        };
        self.bot.seen(&seen);
        Ok(())
    }

    fn choose(
        &mut self,
        state: &dyn DynState,
        seat: Seat,
        rng: &mut GameRng,
        ask: &Ask,
    ) -> Result<Value, DynError> {
        let state = state.as_any().downcast_ref::<State<G>>().ok_or_else(|| {
            DynError::new(
                "wrong_game",
                format!("a bot of {} asked about another game", G::meta().id),
            )
        })?;
        choose_with(self.bot.as_mut(), &state.game, seat, rng, ask)
    }

    fn reused_visits(&self) -> u32 {
        self.bot.reused_visits()
    }

    fn rushed(&self) -> bool {
        self.bot.rushed()
    }
}

/// [`DynAction`] before its action becomes a `Value`: the same JSON.
#[derive(Serialize)]
struct LabelledAction<'a, A> {
    action: &'a A,
    label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    facts: Option<Value>,
}

fn write_json<T: Serialize>(out: &mut Vec<u8>, v: &T) {
    let start = out.len();
    // As in `to_value`: our derived types always serialize; `null` rather than half a
    // value if one ever did not.
    if serde_json::to_writer(&mut *out, v).is_err() {
        out.truncate(start);
        out.extend_from_slice(b"null");
    }
}

/// [`Game::action_facts`] as JSON; `None` when the game gives none (or, which our derived
/// types never do, fails to write them).
pub fn facts_value<G: Game>(game: &G, seat: Seat, action: &G::Action) -> Option<Value> {
    game.action_facts(seat, action, serde_json::value::Serializer)
        .and_then(Result::ok)
}

fn to_value<T: Serialize>(v: &T) -> Value {
    // Our own derived types always serialize; a failure here would be a bug, and
    // `Null` keeps it from taking a table down.
    serde_json::to_value(v).unwrap_or(Value::Null)
}

impl<G: Game> DynState for State<G> {
    fn game_id(&self) -> &'static str {
        G::meta().id
    }

    fn players(&self) -> usize {
        self.game.players()
    }

    fn to_move(&self) -> SeatSet {
        self.game.to_move()
    }

    fn legal_actions(&self, seat: Seat) -> Vec<DynAction> {
        let mut out = Vec::new();
        self.game.legal_actions(seat, &mut out);
        out.iter()
            .map(|a| DynAction {
                action: to_value(a),
                label: self.game.describe(a),
                facts: facts_value(&self.game, seat, a),
            })
            .collect()
    }

    fn apply(&mut self, seat: Seat, action: &Value) -> Result<(), DynError> {
        let action = parse::<G>(action)?;
        self.game.apply(seat, &action).map_err(DynError::from)
    }

    fn view(&self, viewer: Viewer) -> Value {
        to_value(&self.game.view(viewer))
    }

    fn drafting(&self, seat: Seat) -> bool {
        self.game.drafting(seat)
    }

    fn write_view(&self, viewer: Viewer, out: &mut Vec<u8>) {
        write_json(out, &self.game.view(viewer));
    }

    fn write_legal_actions(&self, seat: Seat, out: &mut Vec<u8>) {
        let mut actions = Vec::new();
        self.game.legal_actions(seat, &mut actions);
        let labelled: Vec<LabelledAction<'_, G::Action>> = actions
            .iter()
            .map(|a| LabelledAction {
                action: a,
                label: self.game.describe(a),
                facts: facts_value(&self.game, seat, a),
            })
            .collect();
        write_json(out, &labelled);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    fn describe(&self, action: &Value) -> Option<String> {
        let action: G::Action = G::Action::deserialize(action).ok()?;
        Some(self.game.describe(&action))
    }

    fn describe_for(&self, actor: Seat, action: &Value, viewer: Viewer) -> Option<String> {
        let action: G::Action = G::Action::deserialize(action).ok()?;
        self.game.describe_for(actor, &action, viewer)
    }

    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Value,
        viewer: Viewer,
        lang: Lang,
    ) -> Option<String> {
        let action: G::Action = G::Action::deserialize(action).ok()?;
        self.game.describe_for_in(actor, &action, viewer, lang)
    }

    fn describe_for_all(&self, actor: Seat, action: &Value, lang: Lang) -> Vec<Option<String>> {
        let viewers = self.game.players() + 1;
        let Ok(action) = G::Action::deserialize(action) else {
            return vec![None; viewers];
        };
        Seat::all(self.game.players())
            .map(Viewer::Seat)
            .chain(std::iter::once(Viewer::Spectator))
            .map(|v| self.game.describe_for_in(actor, &action, v, lang))
            .collect()
    }

    fn revealed_in(&self, before: &dyn DynState, lang: Lang) -> Option<String> {
        let before = before.as_any().downcast_ref::<Self>()?;
        self.game.revealed_in(&before.game, lang)
    }

    fn bot_action(&self, seat: Seat, bot: &str, rng: &mut GameRng) -> Result<Value, DynError> {
        self.bot_action_with(seat, bot, rng, &Ask::default())
    }

    fn bot_action_asked(
        &self,
        seat: Seat,
        bot: &str,
        rng: &mut GameRng,
        ask: &Ask,
    ) -> Result<Value, DynError> {
        self.bot_action_with(seat, bot, rng, ask)
    }

    fn new_bot(&self, bot: &str) -> Result<Box<dyn DynBot>, DynError> {
        Ok(Box::new(Kept::<G> {
            bot: self.factory(bot)?(),
        }))
    }

    fn seen_by(&self, viewer: Seat, actor: Seat, action: &Value) -> Result<DynSeen, DynError> {
        let action = parse::<G>(action)?;
        Ok(match Seen::of(&self.game, viewer, actor, &action) {
            Seen::Own(_) => DynSeen::Own(to_value(&action)),
            Seen::Other { actor, key } => DynSeen::Other { actor, key },
        })
    }

    fn box_clone(&self) -> Box<dyn DynState> {
        Box::new(State {
            game: self.game.clone(),
            bots: self.bots.clone(),
        })
    }

    fn same_state(&self, other: &dyn DynState) -> bool {
        other
            .as_any()
            .downcast_ref::<State<G>>()
            .is_some_and(|o| o.game == self.game)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl<G: Game> Entry<G> {
    fn parse_options(&self, options: &Value) -> Result<G::Options, DynError> {
        if options.is_null() {
            return Ok(G::Options::default());
        }
        serde_json::from_value(options.clone()).map_err(|e| {
            DynError::new(
                "invalid_options",
                format!("options for {}: {e}", G::meta().id),
            )
        })
    }
}

impl<G: Game> DynGame for Entry<G> {
    fn meta(&self) -> &'static GameMeta {
        G::meta()
    }

    fn rules_version(&self) -> u32 {
        G::RULES_VERSION
    }

    fn default_options(&self) -> Value {
        to_value(&G::Options::default())
    }

    fn option_sets(&self) -> Vec<Value> {
        G::option_sets().iter().map(to_value).collect()
    }

    fn bot_names(&self) -> Vec<&'static str> {
        self.bots.iter().map(|(n, _)| *n).collect()
    }

    fn bot_searches(&self, bot: &str) -> bool {
        self.bots
            .iter()
            .find(|(name, _)| *name == bot)
            .is_none_or(|(_, factory)| factory().searches())
    }

    fn new_game(
        &self,
        options: &Value,
        players: usize,
        seed: u64,
    ) -> Result<Box<dyn DynState>, DynError> {
        let options = self.parse_options(options)?;
        let game = G::new(&options, players, seed)
            .map_err(|e| DynError::new("invalid_setup", e.to_string()))?;
        Ok(Box::new(State {
            game,
            bots: self.bots.clone(),
        }))
    }

    fn validate(&self, options: &Value, players: usize) -> Result<(), DynError> {
        let options = self.parse_options(options)?;
        G::validate(&options, players).map_err(|e| DynError::new("invalid_setup", e.to_string()))
    }

    fn replay(&self, record: &MatchRecord) -> Result<Box<dyn DynState>, ReplayError> {
        let typed = record.typed::<G>()?;
        let game = crate::record::replay::<G>(&typed)?;
        Ok(Box::new(State {
            game,
            bots: self.bots.clone(),
        }))
    }
}

/// Every game takuge hosts, by id.
#[derive(Clone, Default)]
pub struct Registry {
    games: BTreeMap<&'static str, Arc<dyn DynGame>>,
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a game with its bots; the first bot is the default.
    pub fn register<G: Game>(&mut self, bots: Vec<(&'static str, BotFactory<G>)>) -> &mut Self {
        self.games.insert(
            G::meta().id,
            Arc::new(Entry::<G> {
                bots: Arc::new(bots),
            }),
        );
        self
    }

    pub fn get(&self, id: &str) -> Option<&Arc<dyn DynGame>> {
        self.games.get(id)
    }

    pub fn ids(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.games.keys().copied()
    }

    pub fn games(&self) -> impl Iterator<Item = &Arc<dyn DynGame>> + '_ {
        self.games.values()
    }
}
