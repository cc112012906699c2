//! Setup: the deal (`new`), the special cards laid out, and the four cards each seat
//! sets aside for round 2.

use crate::data;
use crate::legal;
use crate::state::{Auction, GhostForSale, Player, FULL_SET};
use crate::types::{Phase, PropertyId, SeatId, MAX_PLAYERS};
use crate::{Options, Special};
use takuge_engine::{Game, GameRng, Seat, SeatMap, SeatSet, SetupError};

/// "3人プレイの場合:両面の宣言トークンを各3個ずつ ... 4人 ... 2個 ... 5人 ... 1個".
pub(crate) fn double_tokens(players: usize) -> u8 {
    match players {
        3 => 3,
        4 => 2,
        _ => 1,
    }
}

pub(crate) fn validate(options: &Options, players: usize) -> Result<(), SetupError> {
    GhostForSale::meta().check_players(players)?;
    if let Some(f) = options.first_player {
        if usize::from(f) >= players {
            return Err(SetupError::InvalidOptions {
                reason: format!("first_player {f} is not a seat of a {players}-player table"),
            });
        }
    }
    Ok(())
}

pub(crate) fn new(
    options: &Options,
    players: usize,
    seed: u64,
) -> Result<GhostForSale, SetupError> {
    validate(options, players)?;
    let data = data::data().map_err(|e| SetupError::InvalidOptions {
        reason: format!("the property data is broken: {e}"),
    })?;
    let mut points = [[0u8; 5]; PropertyId::COUNT];
    for (dst, src) in points.iter_mut().zip(&data.properties) {
        *dst = src.points;
    }
    let mut rng = GameRng::from_seed(seed);
    let first = match options.first_player {
        Some(f) => f,
        None => rng.below(players as u32) as u8,
    };
    // Validated above: the first player sits at the table.
    let first = SeatId::check(Seat(first), players).unwrap_or(SeatId::FIRST);
    let player = Player {
        hand: FULL_SET,
        hand_n: 12,
        held: 0b111_1111_1110,
        tokens: [2, 2, double_tokens(players)],
        ..Player::default()
    };
    let mut players_map = SeatMap::new([Player::default(); MAX_PLAYERS]);
    for p in players_map.first_mut(players) {
        *p = player;
    }
    let mut game = GhostForSale {
        options: options.clone(),
        n: players as u8,
        rng,
        points,
        high_marks: data.high_marks,
        round: 0,
        phase: Phase::SetAside,
        pending: SeatSet::first(players),
        first: [first, first],
        turn: first,
        placed: 0,
        pending_target: None,
        last_call: false,
        holding: ((1u16 << players) - 1) as u8,
        passed: 0,
        players: players_map,
        card: [SeatMap::default(); 2],
        auctions: [Auction::default(); 4],
        looks: [SeatMap::default(); 2],
        chain: [[SeatId::FIRST; MAX_PLAYERS]; 2],
        chain_len: [0; 2],
        pile_seer: [None; 2],
        decl: [SeatMap::default(); PropertyId::COUNT],
        owner: [None; PropertyId::COUNT],
        resolved: [false; PropertyId::COUNT],
        special: [None; PropertyId::COUNT],
        restrictions: 0,
        spare: [0; 2],
        mirror_removed: [None; PropertyId::COUNT],
        crypt_added: [false; PropertyId::COUNT],
        crystal_guess: [None; PropertyId::COUNT],
        ghosts: [None; PropertyId::COUNT],
        crystal_owner: None,
        portrait_owner: None,
        scores: SeatMap::default(),
    };
    if options.special_cards {
        // "スペシャルカードをよく切り、各館カードの上に1枚ずつ表にして配置します。
        // 2枚のスペシャルカードが余りますが、これは2ラウンド目に使用します。"
        let mut deck = Special::ALL;
        game.deal_specials(0, &mut deck);
    }
    Ok(game)
}

impl GhostForSale {
    /// `SetAside`: the card goes under the character card; when every seat has set
    /// four aside, ① begins.
    pub(crate) fn set_aside(&mut self, seat: SeatId, value: u8) {
        let v = usize::from(value);
        let p = &mut self.players[seat];
        p.take(v);
        if let Some(c) = p.aside.get_mut(v) {
            *c += 1;
        }
        p.aside_n += 1;
        if self.set_aside_left(seat) == 0 {
            self.phase = Phase::Choose;
        }
    }

    /// Shuffles `deck` and lays one card face up on each property of `round`.
    pub(crate) fn deal_specials(&mut self, round: u8, deck: &mut [Special]) {
        self.rng.shuffle(deck);
        let mut spare = 0u8;
        let mut props = PropertyId::of_round(round);
        for s in deck.iter() {
            match props.next() {
                Some(g) => self.special[g.index()] = Some(*s),
                None => spare |= 1 << s.index(),
            }
        }
        self.spare[usize::from(round)] = spare;
        self.refresh_restrictions();
    }

    /// Recomputes `restrictions` for the current round's special cards (six lots: a
    /// byte holds them).
    pub(crate) fn refresh_restrictions(&mut self) {
        self.restrictions = 0;
        for (i, g) in PropertyId::of_round(self.round).enumerate() {
            if legal::tokens_allowed(self.special[g.index()]) != legal::ANY_TOKEN {
                self.restrictions |= 1 << i;
            }
        }
    }
}
