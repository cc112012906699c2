//! The rule-following bot: explore, defend with cats, ghost the leader, light floors
//! when it pays.

use crate::cards::{Card, Floor};
use crate::hand::{Cards, Hand};
use crate::state::{GhostAtHome, Phase};
use crate::types::{Action, Next, Seated};
use takuge_engine::{Bot, Determinized, Game, GameRng};

/// Plays by simple priorities over its legal actions, with random tie-breaks. It looks
/// only at the public houses and its own hand (the world it is given has every other
/// card redrawn).
#[derive(Default)]
pub struct RulesBot {
    buf: Vec<Action>,
}

impl RulesBot {
    pub fn boxed() -> Box<dyn Bot<GhostAtHome>> {
        Box::new(RulesBot::default())
    }
}

impl Bot<GhostAtHome> for RulesBot {
    fn name(&self) -> &'static str {
        "rules"
    }

    fn choose(&mut self, world: &Determinized<GhostAtHome>, rng: &mut GameRng) -> Option<Action> {
        let game = world.state();
        let seat = world.seat();
        let me = game.seated(seat)?;
        game.legal_actions(seat, &mut self.buf);
        let mut best: Option<(i32, Action)> = None;
        let mut ties = 0u32;
        for &action in &self.buf {
            let s = score(game, me, action);
            match best {
                Some((b, _)) if s < b => {}
                Some((b, _)) if s == b => {
                    ties += 1;
                    if rng.below(ties + 1) == 0 {
                        best = Some((s, action));
                    }
                }
                _ => {
                    best = Some((s, action));
                    ties = 0;
                }
            }
        }
        best.map(|(_, a)| a)
    }
}

/// How far along a player is: rooms explored, the higher the better.
fn progress(game: &GhostAtHome, seat: Seated) -> i32 {
    let house = game.house(seat);
    Floor::ALL
        .iter()
        .map(|&f| i32::from(house.floor(f).room_count()) * (f.index() as i32 + 2))
        .sum()
}

/// A card worth throwing away: a room for a floor already full, or far above.
fn discard_value(game: &GhostAtHome, me: Seated, card: Card) -> i32 {
    let open = game.house(me).open_floor().map_or(3, Floor::index);
    match card.room_floor() {
        Some(f) if f.index() < open => 30,
        Some(f) if f.index() > open + 1 => 15,
        _ => 0,
    }
}

/// Throw away all the cards of the highest worth at once (rooms for floors already
/// full), or a single card of lesser worth when nothing better is left to do.
fn discard_score(game: &GhostAtHome, me: Seated, cards: Cards) -> i32 {
    let worth: Vec<i32> = cards
        .to_vec()
        .into_iter()
        .map(|c| discard_value(game, me, c))
        .collect();
    match worth.as_slice() {
        [single] => (*single).max(1),
        // The more junk the better: the whole junk of the hand scores highest.
        many if many.iter().all(|&w| w == 30) => 30 + many.len() as i32,
        _ => 0,
    }
}

/// How much lighting `floor` helps: the floor being explored or about to be.
fn light_value(game: &GhostAtHome, me: Seated, floor: Floor) -> i32 {
    let house = game.house(me);
    if house.top_room_floor() == Some(floor) {
        4
    } else if house.open_floor() == Some(floor) {
        3
    } else {
        floor.index() as i32
    }
}

fn worth_lighting(game: &GhostAtHome, me: Seated) -> bool {
    let house = game.house(me);
    let top_dark = house
        .top_room_floor()
        .is_some_and(|f| house.can_light(f) && house.floor(f).cats == 0);
    let open_dark = house.open_floor().is_some_and(|f| house.can_light(f));
    top_dark || open_dark
}

fn score(game: &GhostAtHome, me: Seated, action: Action) -> i32 {
    let house = game.house(me);
    let top = house.top_room_floor();
    match action {
        // Every room it can: the more the better, printed rooms before wild ones.
        Action::PlayRooms { cards } => {
            100 + 10 * cards.len() as i32 - 5 * i32::from(cards.count(Card::WildRoom))
        }
        Action::PlayGhost { target } => {
            let Some(target) = game.seated(target) else {
                return 0;
            };
            let Some(floor) = game.ghost_target(target) else {
                return 0;
            };
            let fl = game.house(target).floor(floor);
            let lead = progress(game, target);
            if fl.cats > 0 {
                20 + lead
            } else if fl.lit {
                5
            } else {
                55 + 8 * i32::from(fl.room_count()) + lead
            }
        }
        Action::PlayCat { floor } => {
            let fl = house.floor(floor);
            if fl.ghost {
                70
            } else if Some(floor) == top && !fl.lit && fl.cats == 0 {
                55 + 5 * i32::from(fl.room_count())
            } else {
                3
            }
        }
        // The fewest cards that light the floor that matters most.
        Action::Light { cards, floor } => {
            if worth_lighting(game, me) {
                50 + light_value(game, me, floor) - cards.len() as i32
            } else {
                4
            }
        }
        Action::PlayLightBulb { floor } => {
            if worth_lighting(game, me) {
                48 + light_value(game, me, floor)
            } else {
                6
            }
        }
        Action::PlayLightning { target } => {
            45 + game
                .seated(target)
                .map_or(0, |target| progress(game, target))
        }
        Action::PlayCatFood { to, .. } => {
            let fl = house.floor(to);
            if fl.ghost {
                65
            } else if Some(to) == top && !fl.lit && fl.cats == 0 {
                52
            } else {
                8
            }
        }
        Action::PlayElevator { from, to } => {
            let fl = house.floor(to);
            if fl.ghost {
                60
            } else if Some(to) == top && Some(from) != top && !fl.lit && fl.cats == 0 {
                50
            } else {
                2
            }
        }
        Action::PlaySpaceTimeHole { from, to, .. } => {
            let rescue = if from == me.seat() { 35 } else { 0 };
            let Some(to) = game.seated(to) else {
                return 0;
            };
            let dest = game.house(to);
            let hurts = dest.top_room_floor().is_some_and(|f| {
                dest.floor(f).cats == 0 && (!dest.floor(f).lit || dest.floor(f).ghost)
            });
            rescue + if hurts { 30 } else { 5 } + progress(game, to)
        }
        // Discarding is worth what its best part is worth.
        Action::Discard => {
            let mut best = 0;
            Hand::for_each_part(&game.hand(me).list(), |part| {
                best = best.max(discard_score(game, me, Cards(part)));
            });
            best
        }
        Action::DiscardCards { cards } => discard_score(game, me, cards),
        Action::DefendWithCat => match game.phase() {
            Phase::Defence {
                target,
                floor,
                then,
            } => {
                let fl = game.house(target).floor(floor);
                if matches!(then, Next::Escape { .. }) && !fl.lit {
                    100
                } else if !fl.lit || fl.ghost {
                    40 + 10 * i32::from(fl.room_count())
                } else {
                    5
                }
            }
            _ => 0,
        },
        Action::NoDefence => 10,
        Action::StopEscape => 100,
        Action::LetEscape | Action::Pass => 0,
    }
}
