//! `validate` and `new`: the deal.

use crate::cards::{ActionCard, Colour, CARDS_PER_COLOUR, PLAYERS};
use crate::data::components;
use crate::fast::HandList;
use crate::state::{ArtHeist, PerSeat, Phase, Rules, SeatOrder};
use crate::types::{Options, SeatId};
use crate::META;
use takuge_engine::{bits, FixedList, GameRng, SeatMap, SetupError};

pub(crate) fn validate(_options: &Options, players: usize) -> Result<(), SetupError> {
    META.check_players(players)?;
    components().map_err(|reason| SetupError::InvalidOptions {
        reason: reason.to_string(),
    })?;
    Ok(())
}

pub(crate) fn new(options: &Options, players: usize, seed: u64) -> Result<ArtHeist, SetupError> {
    validate(options, players)?;
    let rules = components().map_err(|reason| SetupError::InvalidOptions {
        reason: reason.to_string(),
    })?;
    let mut rng = GameRng::from_seed(seed);
    // 「5色の「1」のカードをランダムにシャッフルし、カードを引くことで順番を決める。」
    let mut colour = Colour::ALL;
    rng.shuffle(&mut colour);
    let mut seat_of = [SeatId::FIRST; PLAYERS];
    for (s, c) in SeatId::all(PLAYERS).zip(colour) {
        seat_of[c.index()] = s;
    }
    // Each seat starts with its colour's eight action cards.
    let cards = colour
        .map(|c| (0..CARDS_PER_COLOUR).fold(0u64, |m, slot| m | ActionCard::new(c, slot).bit()));
    // 「各プレイヤーは、4枚の美術品カードを保有する。」 The rest in two piles, one a card
    // larger, top cards face up: 「残りの美術品は半分になるように(奇数の為、どちらかの
    // ヤマは+1)して、指定の場所に置き、1番上のカードはオープンする。」
    let mut deck = rules.deck();
    rng.shuffle(deck.as_mut_slice());
    let deck = deck.as_slice();
    let mut art = [0u64; PLAYERS];
    let (dealt, rest) = deck.split_at((4 * PLAYERS).min(deck.len()));
    for (hand, four) in art.iter_mut().zip(dealt.chunks(4)) {
        *hand = four.iter().fold(0, |m, a| m | a.bit());
    }
    let (left, right) = rest.split_at(rest.len().div_ceil(2));
    // Each pile is at most the deck (64 cards), so `from_slice` cannot be full.
    let piles = [left, right].map(|pile| FixedList::from_slice(pile).unwrap_or_default());
    let mut public_art = 0;
    for pile in &piles {
        if let Some(t) = pile.last() {
            public_art |= t.bit();
        }
    }
    let mut game = ArtHeist {
        rules: Rules(rules),
        options: options.clone(),
        colour: SeatMap::new(colour),
        seat_of,
        position: PerSeat::default(),
        cards: SeatMap::new(cards),
        hand_len: SeatMap::new(cards.map(|c| bits::count(c) as u8)),
        hand: SeatMap::new(
            colour.map(|c| HandList::consecutive(c.index() as u8 * 8, CARDS_PER_COLOUR)),
        ),
        art: SeatMap::new(art),
        public_art,
        piles,
        safe: FixedList::new(),
        cage: FixedList::new(),
        turn: 0,
        resting: 0,
        next_resting: 0,
        phase: Phase::Location,
        pending: 0,
        at_auction: 0,
        at_castle: 0,
        played: PerSeat::default(),
        revealed: 0,
        exhibit: PerSeat::default(),
        run: PerSeat::default(),
        exhibitors: 0,
        failed: 0,
        exhibits_shown: false,
        steal_thieves: SeatOrder::new(),
        steal_exhibits: SeatOrder::new(),
        steal_t: 0,
        steal_e: 0,
        auction: None,
        auction_thieves: 0,
        castle_thieves: 0,
        castle_detectives: 0,
        final_strength: PerSeat::default(),
        news: Default::default(),
    };
    game.start_turn();
    Ok(game)
}
