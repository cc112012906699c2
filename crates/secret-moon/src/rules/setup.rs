//! ゲーム開始時のセットアップ: validating the table, the deal of character cards (with
//! the card removed unseen at 5 players, or 6 with the thief) and of the first order
//! cards. All chance comes from the seed, drawn in this order.

use crate::cards::SlotSet;
use crate::options::{Options, MAX_CARDS, MAX_PLAYERS, THIEF_MIN_PLAYERS};
use crate::role::{Role, RoleMask};
use crate::rules::order::OrderCards;
use crate::state::{Deal, Phase};
use crate::SecretMoon;
use takuge_engine::list::FixedList;
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
        // The cards a random one is removed from, when a removal applies: the thief
        // (if in the box), the monk and the four soldiers.
        const POOL: [Role; 6] = [
            Role::Thief,
            Role::Monk,
            Role::Soldier,
            Role::Soldier,
            Role::Soldier,
            Role::Soldier,
        ];
        let pool = POOL.get(usize::from(!options.thief)..).unwrap_or_default();
        let mut pool = FixedList::<Role, 6>::from_slice(pool).unwrap_or_default();
        let removal =
            players == 5 && !options.thief || players == THIEF_MIN_PLAYERS && options.thief;
        let mut removed = None;
        let mut removal_pool = RoleMask::NONE;
        if removal {
            removal_pool = RoleMask::of(pool.as_slice());
            // One draw picks the removed card; the rest are shuffled into the deck.
            let i = rng.index(pool.len());
            if i < pool.len() {
                pool.as_mut_slice().swap(0, i);
            }
            removed = pool.get(0).copied();
        }
        let kept = pool.iter().skip(usize::from(removal));
        let mut deck = FixedList::<Role, MAX_CARDS>::new();
        for &r in kept.chain(&[Role::Minister, Role::Traveller, Role::Princess]) {
            // At most 6 + 3 = `MAX_CARDS` cards: never full.
            let _ = deck.push(r);
        }
        rng.shuffle(deck.as_mut_slice());
        let mut roles = [Role::default(); MAX_CARDS];
        for (to, from) in roles.iter_mut().zip(&deck) {
            *to = *from;
        }
        // Each player has looked at their own card.
        let mut known = SeatMap::<SlotSet, MAX_PLAYERS>::default();
        for seat in Seated::all(players) {
            known[seat].insert(Deal::seat_slot(seat.seat()));
        }
        Deal {
            players: players as u8,
            card_count: deck.len() as u8,
            roles,
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
            order: OrderCards::new(options.public_order),
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
