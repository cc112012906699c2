//! The effect interpreter. Every effect is data (a list of [`Step`]s); the acting seat
//! plays it as a sequence of small decisions. Frames on a stack hold the effects being
//! resolved; `tasks` hold effects waiting to be ordered by the seat (任意の順番); `sub`
//! holds a decision that is part of one step (which socket, which vision to keep…).
//!
//! A step that cannot be done is skipped; a step with a choice may be skipped
//! ("効果の発動は任意"); a plain gain is simply taken (declining it never helps).

use crate::state::*;
use crate::types::{Action, Bundle, Step, TileKind};

/// The pilgrim a crystal wakes when it is placed (水晶エリア: the crystal uncovers it).
pub(crate) static WAKE_ONE: [Step; 1] = [Step::WakePilgrim(1)];

/// Takes goods from the supply.
pub(crate) fn gain(p: &mut Player, b: &Bundle) {
    let g = &mut p.goods;
    for (have, add) in g.res.iter_mut().zip([b.wood, b.stone, b.jade, b.sake]) {
        *have = have.saturating_add(add);
    }
    for (have, add) in g.amulets.iter_mut().zip([b.amulet1, b.amulet2, b.amulet3]) {
        *have = have.saturating_add(add);
    }
    p.virtue += i32::from(b.virtue);
}

fn bundle_cost(b: &Bundle) -> ([u8; 4], [u8; 3]) {
    (
        [b.wood, b.stone, b.jade, b.sake],
        [b.amulet1, b.amulet2, b.amulet3],
    )
}

pub(crate) fn can_pay(p: &Player, b: &Bundle) -> bool {
    let (res, am) = bundle_cost(b);
    p.goods.res.iter().zip(res).all(|(h, c)| *h >= c)
        && p.goods.amulets.iter().zip(am).all(|(h, c)| *h >= c)
}

fn pay(p: &mut Player, b: &Bundle) {
    let (res, am) = bundle_cost(b);
    for (h, c) in p.goods.res.iter_mut().zip(res) {
        *h = h.saturating_sub(c);
    }
    for (h, c) in p.goods.amulets.iter_mut().zip(am) {
        *h = h.saturating_sub(c);
    }
}

/// What the current step needs.
pub(crate) enum Need {
    /// Done automatically; look again.
    Auto,
    /// The actor decides.
    Decide,
}

impl Bitoku {
    pub(crate) fn actor_p(&self) -> &Player {
        self.player(usize::from(self.actor))
    }

    fn top(&mut self) -> Option<&mut Frame> {
        let n = self.frames.len();
        self.frames.get_mut(n.wrapping_sub(1))
    }

    /// The current step is over (all its repetitions).
    fn next_step(&mut self) {
        if let Some(f) = self.top() {
            f.at = f.at.saturating_add(1);
            f.left = 0;
        }
    }

    /// One repetition of the current step is over.
    fn one_done(&mut self) {
        if let Some(f) = self.top() {
            if f.left <= 1 {
                f.at = f.at.saturating_add(1);
                f.left = 0;
            } else {
                f.left -= 1;
            }
        }
    }

    fn start_reps(&mut self, n: u8) {
        if let Some(f) = self.top() {
            if f.left == 0 {
                f.left = n.max(1);
            }
        }
    }

    pub(crate) fn push_effect(&mut self, steps: &'static [Step], region: u8) {
        if !steps.is_empty() {
            let _ = self.frames.push(Frame {
                steps,
                at: 0,
                left: 0,
                region,
            });
        }
    }

    pub(crate) fn queue(&mut self, task: Task) {
        let _ = self.tasks.push(task);
    }

    /// The step the actor is at, with its frame.
    pub(crate) fn current(&self) -> Option<(&'static Step, Frame)> {
        let f = *self.frames.last()?;
        Some((f.steps.get(usize::from(f.at))?, f))
    }

    /// Resolves everything automatic; true when the actor must decide.
    pub(crate) fn run_effects(&mut self) -> bool {
        loop {
            if self.sub != Sub::None {
                return true;
            }
            let Some(frame) = self.frames.last().copied() else {
                match self.tasks.len() {
                    0 => return false,
                    1 => {
                        let t = self.tasks.remove(0).unwrap_or_default();
                        self.start_task(t);
                        continue;
                    }
                    _ => return true,
                }
            };
            let Some(step) = frame.steps.get(usize::from(frame.at)) else {
                self.frames.pop();
                continue;
            };
            if let Need::Decide = self.auto_step(step, frame) {
                return true;
            }
        }
    }

    pub(crate) fn start_task(&mut self, task: Task) {
        match task {
            Task::None => {}
            Task::Effect(steps, region) => self.push_effect(steps, region),
            Task::Building { region, value } => {
                self.sub = Sub::Building { region, value };
            }
        }
    }

    fn auto_step(&mut self, step: &'static Step, frame: Frame) -> Need {
        let seat = self.actor;
        match step {
            Step::Gain(b) => {
                gain(self.pl(seat), b);
                self.next_step();
            }
            Step::Pay { cost, .. } => {
                if can_pay(self.actor_p(), cost) {
                    return Need::Decide;
                }
                self.next_step();
            }
            Step::Choose(_) => return Need::Decide,
            Step::Kodama(n) => {
                self.start_reps(*n);
                if frame.region != NO_REGION {
                    let r = usize::from(frame.region);
                    if self.kodama_can_move(seat, r) {
                        self.move_kodama(seat, r);
                        self.one_done();
                    } else {
                        self.next_step();
                    }
                } else if (0..REGIONS).any(|r| self.kodama_can_move(seat, r)) {
                    return Need::Decide;
                } else {
                    self.next_step();
                }
            }
            Step::DrawYokai(n) => {
                self.draw_yokai(seat, usize::from(*n));
                self.next_step();
            }
            Step::WakePilgrim(n) => {
                self.start_reps(*n);
                if self.actor_p().asleep == 0 {
                    self.next_step();
                } else {
                    return Need::Decide;
                }
            }
            Step::VirtuePath(n) => {
                self.start_reps(*n);
                self.one_done();
                self.move_path(seat);
            }
            Step::TakeTile { kind, discount } => {
                let kind = Kind::of(*kind);
                if (0..(2 * Self::display_len()) as u8)
                    .any(|s| self.can_take(kind, s, *discount, frame.region))
                {
                    return Need::Decide;
                }
                self.next_step();
            }
            Step::Build { discount } => {
                if (0..(2 * Self::display_len()) as u8)
                    .any(|s| self.can_take(Kind::Building, s, *discount, frame.region))
                {
                    return Need::Decide;
                }
                self.next_step();
            }
            Step::TakeBitoku(n) => {
                self.start_reps(*n);
                self.one_done();
                if let Some(card) = self.draw_bitoku() {
                    self.take_bitoku(seat, card);
                }
            }
            Step::Vision(n) => {
                self.start_reps(*n);
                self.one_done();
                let a = self.draw_vision();
                let b = self.draw_vision();
                match (a, b) {
                    (Some(a), Some(b)) => self.sub = Sub::Keep { a, b },
                    (Some(v), None) | (None, Some(v)) => {
                        let _ = self.pl(seat).visions.push(v);
                    }
                    (None, None) => {}
                }
            }
            Step::SwapIwakura(_) => {
                if self.face_up_rocks.iter().any(Option::is_some) {
                    return Need::Decide;
                }
                self.next_step();
            }
            Step::RaiseDie(n) => {
                let p = self.pl(seat);
                p.raise = p.raise.saturating_add(*n).min(5);
                self.next_step();
            }
            Step::RetireYokai(n) => {
                self.start_reps(*n);
                let p = self.actor_p();
                if p.hand.is_empty() && p.discard.is_empty() {
                    self.next_step();
                } else {
                    return Need::Decide;
                }
            }
        }
        Need::Auto
    }

    pub(crate) fn move_kodama(&mut self, seat: u8, region: usize) {
        if let Some(k) = self.pl(seat).kodama.get_mut(region) {
            *k = k.saturating_add(1);
        }
    }

    /// Draws yokai from the seat's deck, shuffling its discard pile into a new deck
    /// when the deck runs out.
    pub(crate) fn draw_yokai(&mut self, seat: u8, n: usize) {
        for _ in 0..n {
            if self.player(usize::from(seat)).deck.is_empty() {
                let i = usize::from(seat).min(MAX_PLAYERS - 1);
                let mut pile = self.p[i].discard;
                pile.as_mut_slice().sort_unstable();
                self.rng.shuffle(pile.as_mut_slice());
                self.p[i].deck = pile;
                self.p[i].discard.clear();
            }
            let p = self.pl(seat);
            match p.deck.pop() {
                Some(card) => {
                    let _ = p.hand.push(card);
                }
                None => return,
            }
        }
    }

    /// 美徳の道: the marker moves one space and takes the reward there (and a torii's).
    pub(crate) fn move_path(&mut self, seat: u8) {
        let path = &c().board.virtue_path;
        let p = self.pl(seat);
        if usize::from(p.path) >= path.rewards.len() {
            return;
        }
        p.path += 1;
        let at = p.path;
        for (k, torii_at) in [path.torii_a, path.torii_b].into_iter().enumerate() {
            if at == torii_at {
                let torii = self.torii.get(k).copied().unwrap_or(0);
                if let Some(t) = c().tiles.torii.get(usize::from(torii)) {
                    self.push_effect(&t.reward, NO_REGION);
                }
            }
        }
        if let Some(reward) = path.rewards.get(usize::from(at) - 1) {
            self.push_effect(reward, NO_REGION);
        }
    }

    pub(crate) fn draw_bitoku(&mut self) -> Option<u8> {
        if self.bitoku_deck.is_empty() {
            let mut pile = self.bitoku_discard;
            pile.as_mut_slice().sort_unstable();
            self.rng.shuffle(pile.as_mut_slice());
            self.bitoku_deck = pile;
            self.bitoku_discard.clear();
        }
        self.bitoku_deck.pop()
    }

    fn draw_vision(&mut self) -> Option<u8> {
        if self.vision_deck.is_empty() {
            let mut pile = self.vision_discard;
            pile.as_mut_slice().sort_unstable();
            self.rng.shuffle(pile.as_mut_slice());
            self.vision_deck = pile;
            self.vision_discard.clear();
        }
        self.vision_deck.pop()
    }

    /// A Bitoku card onto the path of virtue: its effect, and the marker moves on.
    pub(crate) fn take_bitoku(&mut self, seat: u8, card: u8) {
        let _ = self.pl(seat).bitoku.push(card);
        if let Some(b) = c().cards.bitoku.get(usize::from(card)) {
            self.push_effect(&b.effect, NO_REGION);
        }
        self.move_path(seat);
    }

    /// Applies a decision inside an effect (the actor's; listed by legal.rs).
    pub(crate) fn effect_action(&mut self, action: Action) {
        let seat = self.actor;
        match (self.sub, action) {
            (Sub::Building { .. }, Action::Skip) | (Sub::BuildRegion(_), Action::Skip) => {
                self.sub = Sub::None;
            }
            (Sub::Building { region, .. }, Action::UseBuilding { space }) => {
                self.sub = Sub::None;
                self.use_building(seat, region, space);
            }
            (Sub::BuildRegion(mut buy), Action::Region { region }) => {
                self.sub = Sub::None;
                buy.region = region;
                self.settle_discount(buy);
            }
            (Sub::Discount(mut buy), Action::Discount { resource }) => {
                self.sub = Sub::None;
                if let Some(c) = buy.cost.get_mut(resource.index()) {
                    *c = c.saturating_sub(1);
                }
                buy.discount = buy.discount.saturating_sub(1);
                self.settle_discount(buy);
            }
            (Sub::Socket { crystal }, Action::Socket { socket }) => {
                self.sub = Sub::None;
                self.place_crystal(seat, crystal, socket);
            }
            (Sub::Keep { a, b }, Action::Keep { vision }) => {
                self.sub = Sub::None;
                let other = if vision == a { b } else { a };
                let _ = self.pl(seat).visions.push(vision);
                let _ = self.vision_discard.push(other);
            }
            (Sub::None, Action::Next { task }) => {
                let t = self.tasks.remove(usize::from(task)).unwrap_or_default();
                self.start_task(t);
            }
            (Sub::None, action) => self.step_action(seat, action),
            _ => {}
        }
    }

    fn step_action(&mut self, seat: u8, action: Action) {
        let Some((step, frame)) = self.current() else {
            return;
        };
        match (step, action) {
            (_, Action::Skip) => self.next_step(),
            (Step::Pay { cost, then }, Action::Pay) => {
                pay(self.pl(seat), cost);
                self.next_step();
                self.push_effect(then, frame.region);
            }
            (Step::Choose(options), Action::Choose { option }) => {
                self.next_step();
                if let Some(o) = options.get(usize::from(option)) {
                    self.push_effect(o, frame.region);
                }
            }
            (Step::Kodama(_), Action::Track { region }) => {
                self.move_kodama(seat, usize::from(region));
                self.one_done();
            }
            (Step::WakePilgrim(_), Action::Pilgrim { space }) => {
                self.wake(seat, space);
                self.one_done();
            }
            (Step::TakeTile { kind, discount }, Action::Tile { slot }) => {
                self.next_step();
                self.begin_buy(Kind::of(*kind), slot, *discount, frame.region);
            }
            (Step::Build { discount }, Action::Tile { slot }) => {
                self.next_step();
                self.begin_buy(Kind::Building, slot, *discount, frame.region);
            }
            (Step::SwapIwakura(_), Action::Swap { rock }) => {
                self.next_step();
                if let Some(space) = self.face_up_rocks.get_mut(usize::from(rock)) {
                    if let Some(new) = space.take() {
                        let p = &mut self.p[usize::from(seat).min(MAX_PLAYERS - 1)];
                        *space = Some(p.rock);
                        p.rock = new;
                        p.rock_public = true;
                    }
                }
            }
            (Step::RetireYokai(_), Action::Retire { yokai }) => {
                self.one_done();
                let p = self.pl(seat);
                let from_discard = p.discard.position(&yokai);
                let removed = match from_discard {
                    Some(i) => p.discard.remove(i),
                    None => p.hand.position(&yokai).and_then(|i| p.hand.remove(i)),
                };
                if removed.is_some() {
                    let _ = p.retired.push(yokai);
                    let v = c()
                        .cards
                        .yokai
                        .get(usize::from(yokai))
                        .map_or(0, |y| y.virtue);
                    p.virtue += i32::from(v);
                }
            }
            _ => {}
        }
    }

    pub(crate) fn wake(&mut self, seat: u8, space: u8) {
        let p = self.pl(seat);
        if space < 8 && p.asleep & (1 << space) != 0 {
            p.asleep &= !(1 << space);
            p.awake = p.awake.saturating_add(1);
        }
    }

    /// 建物アクション: the building's action; its owner's bonus when another uses it.
    fn use_building(&mut self, seat: u8, region: u8, space: u8) {
        let Some(&settled) = self
            .settlements
            .get(usize::from(region))
            .and_then(|s| s.get(usize::from(space)))
        else {
            return;
        };
        let tiles = &c().tiles;
        match settled {
            Settled::Empty => {}
            Settled::Ancient(a) => {
                if let Some(a) = tiles.ancient.get(usize::from(a)) {
                    self.push_effect(&a.action, region);
                }
            }
            Settled::Building { tile, owner } => {
                if let Some(b) = tiles.building.get(usize::from(tile)) {
                    if owner != seat {
                        // 所有権ボーナス: gains only (the loader checks it), taken at once.
                        for step in &b.bonus {
                            if let Step::Gain(g) = step {
                                gain(self.pl(owner), g);
                            }
                        }
                    }
                    self.push_effect(&b.action, region);
                }
            }
        }
    }

    /// The value of what stands on a settlement space, if anything usable.
    pub(crate) fn settled_value(s: Settled) -> Option<u8> {
        let t = &c().tiles;
        match s {
            Settled::Empty => None,
            Settled::Ancient(a) => t.ancient.get(usize::from(a)).map(|a| a.value),
            Settled::Building { tile, .. } => t.building.get(usize::from(tile)).map(|b| b.value),
        }
    }
}

/// Which tile kind a step takes.
pub(crate) fn step_kind(step: &Step) -> Option<(Kind, u8)> {
    match step {
        Step::TakeTile { kind, discount } => Some((Kind::of(*kind), *discount)),
        Step::Build { discount } => Some((Kind::of(TileKind::Building), *discount)),
        _ => None,
    }
}
