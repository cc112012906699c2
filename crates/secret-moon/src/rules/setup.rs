//! ゲーム開始時のセットアップ: validating the table, the deal of character cards (with
//! the card removed unseen at 5 players, or 6 with the thief) and of the first order
//! cards. All chance comes from the seed, drawn in this order.

use crate::cards::SlotSet;
use crate::options::{Options, MAX_CARDS, MAX_PLAYERS, THIEF_MIN_PLAYERS};
use crate::role::{Role, RoleMask};
use crate::rules::order::OrderCards;
use crate::state::{Deal, Phase};
use crate::SecretMoon;
use takuge_engine::{GameRng, SeatMap, SeatSet, Seated, SetupError};

impl SecretMoon {
    /// A new match: the table checked, then the first deal and its order cards.
    pub(crate) fn setup(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        options.validate(players)?;
        let mut rng = GameRng::from_seed(seed);
        let mut deal = Deal::new(options, players, &mut rng);
        deal.deal_order_cards(&mut rng);
        let phase = Phase::first_turn(&deal);
        // Built in the return value, not moved into it: the state (its RNG buffer
        // above all) is large next to the work of a random game.
        Ok(SecretMoon {
            options: *options,
            rng,
            victory_points: SeatMap::default(),
            results: Default::default(),
            deal,
            phase,
        })
    }
}

impl Deal {
    /// ゲーム開始時のセットアップ: shuffle the character cards, deal one to each player,
    /// the rest to the centre; with 5 players (or 6 with the thief) one card of the
    /// soldiers and monk (and thief) is first removed at random.
    pub(crate) fn new(options: &Options, players: usize, rng: &mut GameRng) -> Deal {
        let mut deck = [Role::Soldier; MAX_CARDS];
        let mut len = 0;
        let mut push = |r: Role, deck: &mut [Role; MAX_CARDS]| {
            if let Some(slot) = deck.get_mut(len) {
                *slot = r;
                len += 1;
            }
        };
        // The cards a random one is removed from, when a removal applies.
        let mut pool = [Role::Soldier; 6];
        let mut pool_len = 0;
        let mut add_pool = |r: Role, pool: &mut [Role; 6]| {
            if let Some(slot) = pool.get_mut(pool_len) {
                *slot = r;
                pool_len += 1;
            }
        };
        let removal =
            players == 5 && !options.thief || players == THIEF_MIN_PLAYERS && options.thief;
        if options.thief {
            add_pool(Role::Thief, &mut pool);
        }
        add_pool(Role::Monk, &mut pool);
        for _ in 0..4 {
            add_pool(Role::Soldier, &mut pool);
        }
        let pool = &mut pool[..pool_len];
        let mut removed = None;
        let mut removal_pool = RoleMask::NONE;
        if removal {
            removal_pool = RoleMask::of(pool);
            // One draw picks the removed card; the rest are shuffled into the deck.
            let i = rng.index(pool.len());
            if i < pool.len() {
                pool.swap(0, i);
            }
            removed = pool.first().copied();
        }
        for &r in pool.iter().skip(usize::from(removal)) {
            push(r, &mut deck);
        }
        for r in [Role::Minister, Role::Traveller, Role::Princess] {
            push(r, &mut deck);
        }
        rng.shuffle(&mut deck[..len]);
        // Each player has looked at their own card.
        let mut known = SeatMap::<SlotSet, MAX_PLAYERS>::default();
        for seat in Seated::all(players) {
            known[seat].insert(Deal::seat_slot(seat.seat()));
        }
        Deal {
            players: players as u8,
            card_count: len as u8,
            roles: deck,
            removed,
            removal_pool,
            face_up: SlotSet::default(),
            captured: SlotSet::default(),
            protected: SlotSet::default(),
            eyes: [SeatSet::EMPTY; MAX_CARDS],
            answers: SeatMap::default(),
            // Everyone knows whether the thief is in the box.
            public_mask: [if options.thief {
                RoleMask::ALL
            } else {
                RoleMask::ALL.without(Role::Thief)
            }; MAX_CARDS],
            known,
            round: 1,
            order: OrderCards::default(),
        }
    }

    /// Ⅰ. Order cards to every player still in the game who did not reserve one.
    pub(crate) fn deal_order_cards(&mut self, rng: &mut GameRng) {
        let captured = self.captured_seats();
        let reserved = self.order.reserving_seats();
        let everyone = SeatSet::first(usize::from(self.players));
        let needs = SeatSet::from_bits(everyone.bits() & !captured.bits() & !reserved.bits());
        self.order.deal(needs, captured, rng);
    }
}
