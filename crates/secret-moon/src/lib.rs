//! Secret Moon (シークレットムーン), as played on Board Game Arena: hidden roles, NPC
//! cards in the centre, the thief variant, and matches of 1, 3 or 5 games.
//!
//! The rules and every decision taken where the source text is silent are in
//! `docs/games/secret-moon.md`.

mod actions;
mod apply;
mod bots;
mod cards;
mod determinize;
mod log_ja;
mod options;
mod order;
mod role;
mod state;
mod view;

pub use actions::{Action, Reject};
pub use bots::{bots, SentryBot};
pub use cards::{CardRef, CardStatus};
pub use options::{
    MatchLength, Options, MAX_PLAYERS, MIN_PLAYERS, ORDER_CARDS, ROUNDS, THIEF_MIN_PLAYERS,
};
pub use order::{OrderLoc, OrderNumber};
pub use role::{Answer, Role, RoleMask, Side};
pub use state::{DealtRoles, EndReason, GameResult, Phase};
pub use view::{CardView, DiscardView, PartnerView, PhaseView, SeatOrderView, View};

use options::MAX_PLAYERS as MAXP;
use state::Deal;
use takuge_engine::{
    ActionError, Game, GameMeta, GameRng, Lang, Outcome, Seat, SeatSet, SetupError, TeamName,
    Viewer,
};

pub const ID: &str = "secret-moon";

static META: GameMeta = GameMeta {
    id: ID,
    name_en: "Secret Moon",
    name_ja: "シークレットムーン",
    min_players: MIN_PLAYERS,
    max_players: MAX_PLAYERS,
    minutes: (10, 30),
    min_age: 10,
    year: 2015,
    teams: &[
        TeamName {
            en: "Princess team",
            ja: "姫チーム",
        },
        TeamName {
            en: "Minister team",
            ja: "大臣チーム",
        },
        TeamName {
            en: "Thief",
            ja: "盗賊",
        },
    ],
};

/// A Secret Moon match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretMoon {
    pub(crate) options: Options,
    pub(crate) rng: GameRng,
    pub(crate) victory_points: [u8; MAXP],
    pub(crate) results: state::MatchResults,
    pub(crate) deal: Deal,
    pub(crate) phase: Phase,
}

impl SecretMoon {
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The role on a card, whoever may know it (for tests and replays of finished games;
    /// never sent to a seat).
    pub fn role_of(&self, card: CardRef) -> Option<Role> {
        self.deal.slot(card).map(|s| self.deal.role(s))
    }

    pub fn status_of(&self, card: CardRef) -> Option<CardStatus> {
        self.deal.slot(card).map(|s| self.deal.status(s))
    }

    pub fn round(&self) -> u8 {
        self.deal.round()
    }

    pub fn results(&self) -> &[GameResult] {
        self.results.as_slice()
    }

    pub fn victory_points(&self) -> &[u8] {
        &self.victory_points[..self.players()]
    }

    /// The number of centre (NPC) cards.
    pub fn npc_cards(&self) -> u8 {
        self.deal.card_count - self.deal.players
    }

    /// What `seat` knows `card` to be.
    pub fn known_role(&self, seat: Seat, card: CardRef) -> Option<Role> {
        self.deal
            .slot(card)
            .and_then(|s| self.deal.known_role(seat, s))
    }

    pub fn is_protected(&self, card: CardRef) -> bool {
        self.deal
            .slot(card)
            .is_some_and(|s| self.deal.protected.contains(s))
    }

    pub fn order_cards(&self) -> &order::OrderCards {
        &self.deal.order
    }

    /// Sets up a deal with the given cards (players' first, then the centre) and the
    /// given order cards for round 1, for rule tests.
    #[doc(hidden)]
    pub fn with_cards(
        options: Options,
        roles: &[Role],
        order_numbers: &[OrderNumber],
        seed: u64,
    ) -> Result<Self, SetupError> {
        let players = order_numbers.len();
        let mut game = Self::new(&options, players, seed)?;
        let deal = &mut game.deal;
        if roles.len() > deal.roles.len() || roles.len() < players {
            return Err(SetupError::InvalidOptions {
                reason: "bad card list".into(),
            });
        }
        deal.card_count = roles.len() as u8;
        deal.roles[..roles.len()].copy_from_slice(roles);
        deal.removed = None;
        deal.removal_pool = RoleMask::NONE;
        let mut order = order::OrderCards::default();
        for (seat, &n) in order_numbers.iter().enumerate() {
            order.set(n, OrderLoc::Held(Seat(seat as u8)));
        }
        deal.order = order;
        game.phase = match deal.order.next_actor() {
            Some((number, actor)) => Phase::Turn { actor, number },
            None => Phase::MatchOver,
        };
        Ok(game)
    }
}

impl Game for SecretMoon {
    type Options = Options;
    type Action = Action;
    type View = View;
    type Reject = Reject;

    /// 2: setup draws the removed card with one draw and deals order cards with a partial
    /// shuffle (2026-11-22), so a seed deals differently from version 1.
    const RULES_VERSION: u32 = 2;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
        options.validate(players)
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        options.validate(players)?;
        let mut rng = GameRng::from_seed(seed);
        let mut deal = Deal::new(options, players, &mut rng);
        deal.deal_order_cards(&mut rng);
        let phase = match deal.order.next_actor() {
            Some((number, actor)) => Phase::Turn { actor, number },
            None => Phase::MatchOver,
        };
        // Built in the return value, not moved into it: the state (its RNG buffer
        // above all) is large next to the work of a random game.
        Ok(SecretMoon {
            options: *options,
            rng,
            victory_points: [0; MAXP],
            results: Default::default(),
            deal,
            phase,
        })
    }

    fn option_sets() -> Vec<Options> {
        let mut sets = Vec::new();
        for games in [MatchLength::One, MatchLength::Three, MatchLength::Five] {
            for thief in [false, true] {
                sets.push(Options { games, thief });
            }
        }
        sets
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        usize::from(self.deal.players)
    }

    #[inline]
    fn to_move(&self) -> SeatSet {
        match self.phase {
            Phase::Turn { actor, .. } | Phase::TakeOrderCard { actor, .. } => {
                SeatSet::single(actor)
            }
            Phase::Answer { target, .. } => SeatSet::single(target),
            Phase::MatchOver => SeatSet::EMPTY,
        }
    }

    #[inline]
    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        self.collect_legal(seat, out);
    }

    #[inline]
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        self.sample(seat, rng, buf)
    }

    #[inline]
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError<Reject>> {
        takuge_engine::game::check_mover(self.to_move(), self.players(), seat)?;
        self.check(seat, action).map_err(ActionError::Illegal)?;
        self.play(seat, *action);
        Ok(())
    }

    fn view(&self, viewer: Viewer) -> View {
        self.build_view(viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::MatchOver {
            return None;
        }
        let players = self.players();
        let scores = self.victory_points[..players]
            .iter()
            .map(|v| i64::from(*v))
            .collect();
        let last = self.results.as_slice().last();
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

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        self.redeal_hidden(seat, rng)
    }

    fn describe(&self, action: &Action) -> String {
        action.to_string()
    }

    /// Every action is made openly at the table (even an observation is marked with an
    /// eye, and answers are spoken aloud): everyone reads every line.
    fn describe_for(&self, _actor: Seat, action: &Action, _viewer: Viewer) -> Option<String> {
        Some(action.to_string())
    }

    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Action,
        viewer: Viewer,
        lang: Lang,
    ) -> Option<String> {
        match lang {
            Lang::En => self.describe_for(actor, action, viewer),
            Lang::Ja => Some(log_ja::describe(actor, action)),
        }
    }
}
