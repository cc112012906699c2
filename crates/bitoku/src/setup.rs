//! ゲームの準備 (seed 3): the board (3-1 ①–⑪) and each player (3-2 ①–⑩). All chance comes
//! from the state's `GameRng`, seeded here.

use crate::state::*;
use crate::types::{Step, ToriiSide};
use takuge_engine::{FixedList, GameRng, SetupError};

pub const MIN_PLAYERS: usize = 1;

impl Bitoku {
    pub(crate) fn validate_setup(players: usize) -> Result<(), SetupError> {
        if let Err(e) = crate::components() {
            return Err(SetupError::InvalidOptions {
                reason: e.to_string(),
            });
        }
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
            return Err(SetupError::PlayerCount {
                game: crate::ID,
                min: MIN_PLAYERS,
                max: MAX_PLAYERS,
                got: players,
            });
        }
        Ok(())
    }

    pub(crate) fn setup(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::validate_setup(players)?;
        let comp = c();
        let rng = GameRng::from_seed(seed);
        let n = players as u8;
        let small = players <= 2;
        let mut g = Bitoku {
            options: options.clone(),
            players: n,
            order: [0, 1, 2, 3],
            p: [Player::default(); MAX_PLAYERS],
            year: 1,
            phase: Phase::Over,
            small,
            forest: Default::default(),
            settlements: [[Settled::Empty; SETTLEMENT]; REGIONS],
            abode: [None; ABODE],
            hills: [Hill::default(); HILLS],
            lake: [0, 1, 2, 3, 4],
            neutral: players == 2,
            torii: [0, 0],
            solo: players == 1,
            tengu: Tengu::default(),
            rows: Default::default(),
            face_up_rocks: [None; 2],
            boxed_rocks: FixedList::new(),
            vision_deck: FixedList::new(),
            vision_discard: FixedList::new(),
            bitoku_deck: FixedList::new(),
            bitoku_discard: FixedList::new(),
            yokai_deck: FixedList::new(),
            yokai_discard: FixedList::new(),
            actor: 0,
            frames: FixedList::new(),
            tasks: FixedList::new(),
            sub: Sub::None,
            rng,
        };
        let rng = &mut g.rng;
        // ③ 鳥居タイル: one A and one B at random.
        for (k, side) in [ToriiSide::A, ToriiSide::B].into_iter().enumerate() {
            let ids: FixedList<u8, 16> = (0..comp.tiles.torii.len() as u8)
                .filter(|&i| comp.tiles.torii.get(usize::from(i)).map(|t| t.side) == Some(side))
                .collect();
            if let (Some(t), Some(slot)) = (rng.pick(ids.as_slice()), g.torii.get_mut(k)) {
                *slot = *t;
            }
        }
        // ④ 古代の建物タイル: 1–2 players every region, 3 players Yomi and the Jade Glade.
        let mut ancient: FixedList<u8, 16> = (0..comp.tiles.ancient.len() as u8).collect();
        rng.shuffle(ancient.as_mut_slice());
        let mut next_ancient = ancient.iter().copied();
        for (r, region) in comp.board.region.iter().enumerate() {
            let placed = match players {
                1 | 2 => true,
                3 => region.id == "yomi" || region.id == "jade-glade",
                _ => false,
            };
            if placed {
                if let (Some(a), Some(s)) = (next_ancient.next(), g.settlements.get_mut(r)) {
                    s[0] = Settled::Ancient(a);
                }
            }
        }
        // ⑤ 湖の財宝タイル: one face up per region.
        rng.shuffle(&mut g.lake);
        // ⑥ building, crystal, mitama, dragonfly tiles: two equal stacks, displays filled.
        let counts = [
            comp.tiles.building.len(),
            comp.tiles.crystal.len(),
            comp.tiles.mitama.len(),
            comp.tiles.dragonfly.len(),
        ];
        for (k, &count) in counts.iter().enumerate() {
            let mut ids: FixedList<u8, 32> = (0..count.min(32) as u8).collect();
            rng.shuffle(ids.as_mut_slice());
            let half = ids.len() / 2;
            if let Some(rows) = g.rows.get_mut(k) {
                for (i, id) in ids.iter().enumerate() {
                    let row = &mut rows[usize::from(i >= half)];
                    let _ = row.stack.push(*id);
                }
                for row in rows.iter_mut() {
                    for space in row.display.iter_mut().take(Self::display_len()) {
                        *space = row.stack.pop();
                    }
                }
            }
        }
        // ⑦ 岩倉タイル: one face down to each player, two face up, the rest boxed.
        let mut rocks: FixedList<u8, 16> = (0..comp.tiles.iwakura.len().min(16) as u8).collect();
        rng.shuffle(rocks.as_mut_slice());
        let mut rocks_left = rocks.iter().copied();
        for p in g.p.iter_mut().take(players) {
            p.rock = rocks_left.next().unwrap_or(0);
        }
        for space in g.face_up_rocks.iter_mut() {
            *space = rocks_left.next();
        }
        g.boxed_rocks = rocks_left.collect();
        // ⑧ 幻視カード, ⑨ 美徳カード, ⑩ 妖怪カード: shuffled decks, four of each on the hills.
        g.vision_deck = (0..comp.cards.vision.len().min(28) as u8).collect();
        rng.shuffle(g.vision_deck.as_mut_slice());
        g.bitoku_deck = (0..comp.cards.bitoku.len().min(24) as u8).collect();
        rng.shuffle(g.bitoku_deck.as_mut_slice());
        g.yokai_deck = (0..comp.cards.yokai.len().min(40) as u8)
            .filter(|&i| {
                comp.cards
                    .yokai
                    .get(usize::from(i))
                    .is_some_and(|y| !y.start)
            })
            .collect();
        rng.shuffle(g.yokai_deck.as_mut_slice());
        g.refill_hills();
        // 3-2: each player.
        let start: FixedList<u8, 8> = (0..comp.cards.yokai.len().min(40) as u8)
            .filter(|&i| {
                comp.cards
                    .yokai
                    .get(usize::from(i))
                    .is_some_and(|y| y.start)
            })
            .collect();
        let dice = &comp.board.player_board.dice;
        for seat in 0..n {
            let awake = comp.board.player_board.awake_pilgrims;
            let dragonfly = g.draw_stack(Kind::Dragonfly);
            let vision = g.vision_deck.pop();
            let p = g.pl(seat);
            // ② 3, 2, 1 on the red spaces.
            for (die, &v) in p.dice.iter_mut().zip(dice) {
                *die = Die {
                    value: v,
                    at: DieAt::Red,
                };
            }
            // ④ 3 awake, 8 asleep on the crystal area.
            p.awake = awake;
            p.asleep = 0xff;
            // ⑦ a dragonfly, ⑧ a vision, face up.
            if let Some(d) = dragonfly {
                let _ = p.dragonflies.push(d);
            }
            if let Some(v) = vision {
                let _ = p.visions.push(v);
            }
            // ⑨ the five starting yokai, shuffled face down.
            p.deck = start.iter().copied().collect();
            // ⑩ 1 wood, 1 jade, a +1 amulet.
            for step in &comp.board.player_board.start {
                if let Step::Gain(b) = step {
                    crate::rules::effects::gain(p, b);
                }
            }
        }
        for seat in 0..players {
            let mut deck = g.p[seat].deck;
            g.rng.shuffle(deck.as_mut_slice());
            g.p[seat].deck = deck;
        }
        // ⑤ the turn-order markers shuffled to a random order.
        let mut order = [0u8, 1, 2, 3];
        if let Some(o) = order.get_mut(..players) {
            g.rng.shuffle(o);
        }
        g.order = order;
        if g.solo {
            // The Tengu's cards, shuffled (drawn after the player's deal).
            g.tengu.deck = (0..comp.board.tengu.len().min(16) as u8).collect();
            let mut deck = g.tengu.deck;
            g.rng.shuffle(deck.as_mut_slice());
            g.tengu.deck = deck;
        }
        g.start_year();
        Ok(g)
    }

    /// The top tile of a kind's stacks (the first stack, then the second).
    pub(crate) fn draw_stack(&mut self, kind: Kind) -> Option<u8> {
        let rows = self.rows.get_mut(kind.index())?;
        let [a, b] = rows;
        a.stack.pop().or_else(|| b.stack.pop())
    }
}
