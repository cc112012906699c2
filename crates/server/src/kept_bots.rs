//! Bots kept for a table's life, one per searching bot seat, so that a search starts
//! from the tree its last one left (tree reuse, docs/BOTS.md).
//!
//! A kept bot must hear of every move, in order, or its tree is wrong. The table
//! records each committed move for every kept bot as its seat saw it (from the state
//! before the move), in a backlog the table holds: the bot itself may be away on a
//! bot thread. A search takes the bot and its backlog with it, tells the bot the
//! backlog, then searches; the bot comes back with its move. A bot that does not come
//! back (its search was cancelled, or failed) or that is still away when its seat must
//! move again is replaced by a fresh one, which has no tree and so needs no history;
//! a generation number turns away the old one if it returns after all. A restored
//! table (a server restart) starts with no kept bots: fresh trees, the same record.

use serde_json::Value;
use takuge_engine::{Ask, DynBot, DynError, DynSeen, DynState, GameRng, Seat};

/// A kept bot lent to a search, with the moves it has not been told yet.
pub struct Lent {
    generation: u64,
    bot: Box<dyn DynBot>,
    backlog: Vec<DynSeen>,
}

impl Lent {
    /// Tells the bot the moves since its last search, then asks for `seat`'s move.
    pub fn choose(
        &mut self,
        state: &dyn DynState,
        seat: Seat,
        rng: &mut GameRng,
        ask: &Ask,
    ) -> Result<Value, DynError> {
        for seen in self.backlog.drain(..) {
            self.bot.seen(&seen)?;
        }
        self.bot.choose(state, seat, rng, ask)
    }

    /// Whether the last search started from a kept tree.
    pub fn reused(&self) -> bool {
        !self.bot.rushed() && self.bot.reused_visits() > 0
    }

    /// Whether the last move came from the rule bot, asked too late to search.
    pub fn rushed(&self) -> bool {
        self.bot.rushed()
    }
}

struct Slot {
    name: String,
    /// `None` while lent. (In a mutex only to make the table `Sync`, as a future
    /// holding it across an await must be: nobody else ever locks it.)
    bot: Option<std::sync::Mutex<Box<dyn DynBot>>>,
    backlog: Vec<DynSeen>,
    generation: u64,
}

/// The kept bots of one table, by seat.
#[derive(Default)]
pub struct KeptBots {
    slots: Vec<Option<Slot>>,
}

impl KeptBots {
    /// Records `actor` playing `action` (in `before`, the state before it) for every
    /// kept bot. A move a bot cannot be told (it cannot happen for a committed move)
    /// retires that bot: a fresh one is better than a wrong tree.
    pub fn observe(&mut self, before: &dyn DynState, actor: Seat, action: &Value) {
        for (i, slot) in self.slots.iter_mut().enumerate() {
            let Some(s) = slot else { continue };
            match before.seen_by(Seat(i as u8), actor, action) {
                Ok(seen) => s.backlog.push(seen),
                Err(_) => *slot = None,
            }
        }
    }

    /// The kept bot `name` of `seat` with its backlog, or a fresh one (none kept yet,
    /// another level now, or the kept one still away).
    pub fn lend(&mut self, seat: Seat, name: &str, state: &dyn DynState) -> Result<Lent, DynError> {
        let i = seat.index();
        if self.slots.len() <= i {
            self.slots.resize_with(i + 1, || None);
        }
        let slot = &mut self.slots[i];
        let generation = slot.as_ref().map_or(0, |s| s.generation + 1);
        let kept = slot.as_mut().filter(|s| s.name == name).and_then(|s| {
            let bot = s.bot.take()?.into_inner().ok()?;
            Some((bot, std::mem::take(&mut s.backlog)))
        });
        let (bot, backlog) = match kept {
            Some(kept) => kept,
            None => (state.new_bot(name)?, Vec::new()),
        };
        *slot = Some(Slot {
            name: name.to_string(),
            bot: None,
            backlog: Vec::new(),
            generation,
        });
        Ok(Lent {
            generation,
            bot,
            backlog,
        })
    }

    /// A lent bot back from its search: kept if it is still the seat's latest.
    pub fn give_back(&mut self, seat: Seat, lent: Lent) {
        if let Some(Some(slot)) = self.slots.get_mut(seat.index()) {
            if slot.generation == lent.generation && slot.bot.is_none() {
                slot.bot = Some(std::sync::Mutex::new(lent.bot));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> Option<Box<dyn DynState>> {
        let registry = takuge_games::registry();
        registry
            .get("ghost-for-sale")?
            .new_game(&Value::Null, 3, 5)
            .ok()
    }

    /// Plays seat `seat`'s first legal action, telling the kept bots.
    fn play_first(kept: &mut KeptBots, state: &mut Box<dyn DynState>, seat: Seat) {
        let Some(action) = state.legal_actions(seat).into_iter().next() else {
            panic!("{seat} has no legal action");
        };
        kept.observe(&**state, seat, &action.action);
        if let Err(e) = state.apply(seat, &action.action) {
            panic!("{e}");
        }
    }

    #[test]
    fn a_bot_given_back_is_lent_again_with_the_moves_it_missed() {
        let Some(mut state) = table() else {
            panic!("no ghost-for-sale in the catalog");
        };
        let mut kept = KeptBots::default();
        let Ok(lent) = kept.lend(Seat(0), "normal", &*state) else {
            panic!("no normal bot");
        };
        assert!(lent.backlog.is_empty(), "a fresh bot needs no history");
        kept.give_back(Seat(0), lent);
        // Two moves while it waits at the table (the first seat to move is whoever
        // is pending: the "?" cards are chosen by all at once).
        for _ in 0..2 {
            let Some(seat) = state.to_move().first_seat() else {
                panic!("the game ended at once");
            };
            play_first(&mut kept, &mut state, seat);
        }
        let Ok(again) = kept.lend(Seat(0), "normal", &*state) else {
            panic!("no normal bot");
        };
        assert_eq!(again.backlog.len(), 2, "it is told every move it missed");
        assert_eq!(again.generation, 1);
    }

    #[test]
    fn a_bot_still_away_or_of_another_level_is_replaced_and_turned_away_when_it_returns() {
        let Some(state) = table() else {
            panic!("no ghost-for-sale in the catalog");
        };
        let mut kept = KeptBots::default();
        let (Ok(away), Ok(fresh)) = (
            kept.lend(Seat(1), "normal", &*state),
            kept.lend(Seat(1), "normal", &*state),
        ) else {
            panic!("no normal bot");
        };
        // The first is still searching when the seat must move again: a fresh one
        // goes, and the first, back late, is not kept (it missed what the fresh one
        // was told).
        kept.give_back(Seat(1), away);
        assert!(matches!(&kept.slots[1], Some(s) if s.bot.is_none()));
        kept.give_back(Seat(1), fresh);
        assert!(matches!(&kept.slots[1], Some(s) if s.bot.is_some()));
        // Another level: a new bot, not the kept one.
        let Ok(strong) = kept.lend(Seat(1), "strong", &*state) else {
            panic!("no strong bot");
        };
        assert_eq!(strong.bot.name(), "ismcts-strong");
        assert!(kept.lend(Seat(1), "no-such-bot", &*state).is_err());
    }
}
