//! Bots for Secret Moon. They are handed a determinized world and use only what
//! their seat knows in it (`known_role`), so they play fair.

use crate::cards::{CardRef, CardStatus};
use crate::role::{Answer, Role, Side};
use crate::state::Phase;
use crate::types::Action;
use crate::SecretMoon;
use takuge_engine::{Bot, BotFactory, Determinized, Game, GameRng, MonteCarloBot, RandomBot, Seat};

/// The game's bots, the default first.
pub fn bots() -> Vec<(&'static str, BotFactory<SecretMoon>)> {
    vec![
        ("sentry", SentryBot::boxed),
        ("random", RandomBot::<SecretMoon>::boxed),
        ("monte-carlo", MonteCarloBot::<SecretMoon>::boxed),
    ]
}

/// A rule-following player: it goes after the cards its side needs, using what it
/// knows, protects what matters, and otherwise gathers information.
#[derive(Default)]
pub struct SentryBot {
    legal: Vec<Action>,
}

impl SentryBot {
    pub fn boxed() -> Box<dyn Bot<SecretMoon>> {
        Box::new(SentryBot::default())
    }
}

impl Bot<SecretMoon> for SentryBot {
    fn name(&self) -> &'static str {
        "sentry"
    }

    fn choose(&mut self, world: &Determinized<SecretMoon>, rng: &mut GameRng) -> Option<Action> {
        let game = world.state();
        let me = world.seat();
        game.legal_actions(me, &mut self.legal);
        if self.legal.len() <= 1 {
            return self.legal.first().copied();
        }
        let pick = match game.phase() {
            Phase::Answer { .. } => {
                // Only the thief has a choice: pretend to be whichever side it fears less.
                let silent = Action::Answer {
                    answer: Answer::Silence,
                };
                let minister = Action::Answer {
                    answer: Answer::IAmTheMinister,
                };
                Some(if rng.chance(1, 2) { silent } else { minister })
            }
            // Take the lowest number: acting early is acting with most choice.
            Phase::TakeOrderCard { .. } => self.legal.first().copied(),
            Phase::Turn { .. } => self.turn(game, me, rng),
            Phase::MatchOver => None,
        };
        pick.filter(|a| self.legal.contains(a))
            .or_else(|| rng.pick(&self.legal).copied())
    }
}

impl SentryBot {
    fn legal(&self, action: Action) -> Option<Action> {
        self.legal.contains(&action).then_some(action)
    }

    /// A card this seat knows holds `role`, other than its own.
    fn find(&self, game: &SecretMoon, me: Seat, role: Role, status: CardStatus) -> Option<CardRef> {
        all_cards(game)
            .filter(|c| *c != CardRef::Player(me))
            .find(|c| game.known_role(me, *c) == Some(role) && game.status_of(*c) == Some(status))
    }

    fn turn(&self, game: &SecretMoon, me: Seat, rng: &mut GameRng) -> Option<Action> {
        let my_role = game.known_role(me, CardRef::Player(me))?;
        let hunt = |targets: &[Role]| -> Option<Action> {
            for &role in targets {
                if let Some(card) = self.find(game, me, role, CardStatus::Revealed) {
                    if let Some(a) = self.legal(Action::Capture { card }) {
                        return Some(a);
                    }
                }
            }
            for &role in targets {
                if let Some(card) = self.find(game, me, role, CardStatus::Hidden) {
                    if let Some(a) = self.legal(Action::Nominate { card, role }) {
                        return Some(a);
                    }
                }
            }
            None
        };
        let enemies: &[Role] = match my_role.side() {
            Side::PrincessTeam => &[Role::Minister, Role::Thief],
            Side::MinisterTeam => &[Role::Princess, Role::Traveller, Role::Thief],
            // The thief wins when a team wins and it is free: it helps the quickest end.
            Side::Thief => &[Role::Princess, Role::Traveller],
        };
        if let Some(a) = hunt(enemies) {
            return Some(a);
        }
        // The princess hides herself when she is exposed.
        if my_role == Role::Princess
            && game.status_of(CardRef::Player(me)) == Some(CardStatus::Revealed)
        {
            if let Some(a) = self.legal(Action::Protect {
                card: CardRef::Player(me),
            }) {
                return Some(a);
            }
        }
        // The princess team shields an exposed princess.
        if my_role.side() == Side::PrincessTeam {
            if let Some(card) = self.find(game, me, Role::Princess, CardStatus::Revealed) {
                if let Some(a) = self.legal(Action::Protect { card }) {
                    return Some(a);
                }
            }
        }
        // Otherwise learn something: look at a card nobody has looked at, or ask.
        let unknown: Vec<CardRef> = all_cards(game)
            .filter(|c| game.known_role(me, *c).is_none())
            .filter(|c| self.legal.contains(&Action::Observe { card: *c }))
            .collect();
        if my_role == Role::Princess && rng.chance(1, 2) {
            // Staying quiet is the princess's best defence.
            return self.legal(Action::Pass);
        }
        if let Some(&card) = rng.pick(&unknown) {
            return self.legal(Action::Observe { card });
        }
        let askable: Vec<Action> = self
            .legal
            .iter()
            .filter(|a| matches!(a, Action::Question { .. }))
            .copied()
            .collect();
        rng.pick(&askable).copied().or(Some(Action::Pass))
    }
}

fn all_cards(game: &SecretMoon) -> impl Iterator<Item = CardRef> + '_ {
    let players = game.players() as u8;
    (0..players)
        .map(|p| CardRef::Player(Seat(p)))
        .chain((0..game.npc_cards()).map(CardRef::Npc))
}
