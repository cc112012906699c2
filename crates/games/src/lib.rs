//! The catalog of takuge games.
//!
//! Two ways in, one list: [`registry`] hosts every game behind the JSON adapter (the
//! server, replays), and [`visit`] calls generic code with each game's concrete type
//! (simulation and benchmarks, which must not pay for JSON).

use takuge_engine::{BotFactory, Game, IsmctsBot, Registry};

/// A game as the catalog knows it: its rules plus its bots.
pub trait CatalogGame: Game {
    /// Bots by name; the first is the default for empty seats.
    fn bots() -> Vec<(&'static str, BotFactory<Self>)>;
}

/// A game's own bots, then the levels every game has: `easy` (the game's rule bot, its
/// first), `normal` (ISMCTS, about 0.2 s a move) and `strong` (ISMCTS, about 1 s, its
/// rollouts played by the rule bot). Both searching levels answer a move that waited
/// out its time in a busy server's queue with the rule bot ([`takuge_engine::ismcts::Config::fallback`]).
pub fn with_levels<G: Game>(
    mut bots: Vec<(&'static str, BotFactory<G>)>,
    (normal, strong): (BotFactory<G>, BotFactory<G>),
) -> Vec<(&'static str, BotFactory<G>)> {
    if let Some(&(_, rule_bot)) = bots.first() {
        bots.push(("easy", rule_bot));
    }
    bots.push(("normal", normal));
    bots.push(("strong", strong));
    bots
}

/// Generic code to run with one game's concrete type.
pub trait GameVisitor {
    type Output;
    fn visit<G: CatalogGame>(self) -> Self::Output;
}

/// One line per game keeps `visit`, `GAME_IDS`, `registry` and the bots in step.
macro_rules! catalog {
    ($($game:ty => $bots:path),+ $(,)?) => {
        $(
            impl CatalogGame for $game {
                fn bots() -> Vec<(&'static str, BotFactory<Self>)> {
                    with_levels::<$game>(
                        $bots(),
                        (
                            || match $bots().first() {
                                Some(&(_, rule_bot)) => IsmctsBot::<$game>::normal_with(rule_bot),
                                None => IsmctsBot::<$game>::normal(),
                            },
                            || match $bots().first() {
                                Some(&(_, rule_bot)) => IsmctsBot::<$game>::strong_with(rule_bot),
                                None => IsmctsBot::<$game>::strong(),
                            },
                        ),
                    )
                }
            }
        )+

        /// Calls `visitor` with the game whose id is `id`; `None` for an unknown id.
        pub fn visit<V: GameVisitor>(id: &str, visitor: V) -> Option<V::Output> {
            $(
                if id == <$game as Game>::meta().id {
                    return Some(visitor.visit::<$game>());
                }
            )+
            None
        }

        /// The ids of the games takuge hosts now, in catalog order.
        pub fn game_ids() -> Vec<&'static str> {
            vec![$(<$game as Game>::meta().id),+]
        }

        /// Every game behind the JSON adapter.
        pub fn registry() -> Registry {
            let mut reg = Registry::new();
            $(reg.register::<$game>(<$game as CatalogGame>::bots());)+
            reg
        }
    };
}

catalog! {
    takuge_secret_moon::SecretMoon => takuge_secret_moon::bots,
    takuge_art_heist::ArtHeist => takuge_art_heist::bots,
    takuge_ghost_at_home::GhostAtHome => takuge_ghost_at_home::bots,
    takuge_ghost_for_sale::GhostForSale => takuge_ghost_for_sale::bots,
    takuge_bitoku::Bitoku => takuge_bitoku::bots,
}

fn _assert_object_safe(_: &dyn takuge_engine::DynGame) {}

#[cfg(test)]
mod tests {
    use super::*;

    struct IdOf;

    impl GameVisitor for IdOf {
        type Output = &'static str;
        fn visit<G: CatalogGame>(self) -> &'static str {
            G::meta().id
        }
    }

    #[test]
    fn ids_registry_and_visit_agree() {
        let reg = registry();
        assert_eq!(reg.ids().collect::<Vec<_>>().len(), game_ids().len());
        for id in game_ids() {
            assert!(reg.get(id).is_some(), "{id} is not in the registry");
            assert_eq!(visit(id, IdOf), Some(id));
        }
        assert_eq!(visit("no-such-game", IdOf), None);
    }
}
