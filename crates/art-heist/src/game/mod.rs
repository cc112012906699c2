//! The game state and its rules.

mod determinize;
mod exhibit;
mod playout;
mod state;
mod turn;

pub(crate) use exhibit::unpack_run;
#[cfg(test)]
pub(crate) use state::connected;
pub(crate) use state::{seat_bit, Phase, Stack, NONE};
pub use state::{Action, ArtHeist, AuctionResult, Options, Reject};

use crate::cards::{ActionCard, ArtCard, ArtSet, Colour, Kind, Letter, Pile, Place, PLAYERS};
use crate::components::{byte_counts, components, Components};
use exhibit::{pack_run, series_of_letter};
use state::Rules;
use takuge_engine::{
    ActionError, Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer,
};

static META: GameMeta = GameMeta {
    id: "art-heist",
    name_en: "Collectors & Thieves: Auction and Castle (5 players)",
    name_ja: "美術品コレクターと泥棒(オークション会場と城・5人用)",
    min_players: PLAYERS,
    max_players: PLAYERS,
    minutes: (45, 60),
    min_age: 10,
    year: 1990,
    teams: &[],
};

impl Game for ArtHeist {
    type Options = Options;
    type Action = Action;
    type View = crate::view::View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(_options: &Options, players: usize) -> Result<(), SetupError> {
        META.check_players(players)?;
        components().map_err(|reason| SetupError::InvalidOptions {
            reason: reason.to_string(),
        })?;
        Ok(())
    }

    fn new(options: &Options, players: usize, seed: u64) -> Result<Self, SetupError> {
        Self::validate(options, players)?;
        let rules = components().map_err(|reason| SetupError::InvalidOptions {
            reason: reason.to_string(),
        })?;
        let mut rng = GameRng::from_seed(seed);
        // 「5色の「1」のカードをランダムにシャッフルし、カードを引くことで順番を決める。」
        let mut colour = Colour::ALL;
        rng.shuffle(&mut colour);
        let mut seat_of = [0u8; PLAYERS];
        for (s, c) in colour.iter().enumerate() {
            seat_of[c.index()] = s as u8;
        }
        let cards = colour.map(|c| {
            (0..crate::cards::CARDS_PER_COLOUR)
                .fold(0u64, |m, slot| m | ActionCard::new(c, slot).bit())
        });
        // 「各プレイヤーは、4枚の美術品カードを保有する。」 The rest in two piles, one a card
        // larger, top cards face up.
        let mut deck = rules.deck();
        rng.shuffle(deck.as_mut_slice());
        let deck = deck.as_slice();
        let mut art = [0u64; PLAYERS];
        let (dealt, rest) = deck.split_at(4 * PLAYERS);
        for (i, &a) in dealt.iter().enumerate() {
            art[i / 4] |= ArtCard(a).bit();
        }
        let (left, right) = rest.split_at(rest.len().div_ceil(2));
        let piles = [Stack::from_slice(left), Stack::from_slice(right)];
        let mut public_art = 0;
        for pile in &piles {
            if let Some(t) = pile.top() {
                public_art |= ArtCard(t).bit();
            }
        }
        let mut game = ArtHeist {
            rules: Rules(rules),
            options: options.clone(),
            colour,
            seat_of,
            position: [0; PLAYERS],
            cards,
            hand_len: cards.map(|c| c.count_ones() as u8),
            hand: colour.map(|c| {
                state::HandList::consecutive(c.index() as u8 * 8, crate::cards::CARDS_PER_COLOUR)
            }),
            art,
            public_art,
            piles,
            safe: Stack::new(),
            cage: Stack::new(),
            turn: 0,
            resting: 0,
            next_resting: 0,
            phase: Phase::Location,
            pending: 0,
            at_auction: 0,
            at_castle: 0,
            played: [NONE; PLAYERS],
            revealed: 0,
            exhibit: [0; PLAYERS],
            run: [NONE; PLAYERS],
            exhibitors: 0,
            failed: 0,
            exhibits_shown: false,
            steal_thieves: Stack::new(),
            steal_exhibits: Stack::new(),
            steal_t: 0,
            steal_e: 0,
            auction: None,
            auction_thieves: 0,
            castle_thieves: 0,
            castle_detectives: 0,
            final_strength: [0; PLAYERS],
        };
        game.start_turn();
        Ok(game)
    }

    fn options(&self) -> &Options {
        &self.options
    }

    fn players(&self) -> usize {
        PLAYERS
    }

    #[inline]
    fn to_move(&self) -> SeatSet {
        SeatSet::from_bits(u16::from(self.pending))
    }

    fn legal_actions(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let p = seat.index();
        if p >= PLAYERS || self.pending & seat_bit(p) == 0 {
            return;
        }
        match self.phase {
            Phase::Location => {
                out.push(Action::Go(Place::AuctionHouse));
                out.push(Action::Go(Place::Castle));
            }
            Phase::AuctionCards | Phase::CastleCards => {
                push_all(out, self.cards[p], |c| Action::Play(ActionCard(c)));
            }
            Phase::AuctionPile { .. } => {
                for pile in Pile::BOTH {
                    if !self.piles[pile.index()].is_empty() {
                        out.push(Action::Take(pile));
                    }
                }
            }
            Phase::Exhibiting | Phase::FinalExhibit => match self.next_letter(p) {
                None => {
                    out.push(Action::ShowNothing);
                    out.extend(self.runs(self.art[p]).as_slice().iter().map(|&run| {
                        let (from, to) = unpack_run(run);
                        Action::Exhibit {
                            from: Letter(from as u8),
                            to: Letter(to as u8),
                        }
                    }));
                }
                Some(next) => {
                    next.each_choice(|set| out.push(Action::Cards(ArtSet::of(set))));
                }
            },
            Phase::Stealing => {
                if let Some(e) = self.robbed() {
                    push_all(out, self.exhibit[e], |a| Action::Steal(ArtCard(a)));
                }
            }
            Phase::Over => {}
        }
    }

    // `sample_action` and `apply` are marked inline so that they are compiled into
    // `random_playout` (a generic function, instantiated in the caller's crate): a
    // random game's ~600 steps then run without calls (callgrind: 162 000 → 129 000
    // instructions a game).
    #[inline]
    fn sample_action(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        _buf: &mut Vec<Action>,
    ) -> Option<Action> {
        // Draws the k-th action of the list `legal_actions` would write, without writing
        // it: same order, same draw, so playouts are unchanged — only faster.
        let p = seat.index();
        if p >= PLAYERS || self.pending & seat_bit(p) == 0 {
            return None;
        }
        // The two steps of every turn, place and action card, are most of a game's
        // decisions: they are drawn first; the rest in `sample_rare`.
        match self.phase {
            Phase::Location => Some(Action::Go(if rng.below(2) == 0 {
                Place::AuctionHouse
            } else {
                Place::Castle
            })),
            Phase::AuctionCards | Phase::CastleCards => {
                nth_bit(self.cards[p], rng).map(|c| Action::Play(ActionCard(c)))
            }
            _ => self.sample_rare(p, rng),
        }
    }

    #[inline]
    fn apply(&mut self, seat: Seat, action: &Action) -> Result<(), ActionError<Reject>> {
        if self.phase == Phase::Over {
            return Err(ActionError::GameOver);
        }
        let p = seat.index();
        if p >= PLAYERS {
            return Err(ActionError::NoSuchSeat(seat));
        }
        if self.pending & seat_bit(p) == 0 {
            return Err(ActionError::NotYourTurn(seat));
        }
        let me = seat_bit(p);
        // The common steps (place, action card) are checked and played here; the
        // others by `apply_rare`, which checks completely before changing anything.
        match (self.phase, *action) {
            (Phase::Location, Action::Go(place)) => match place {
                Place::AuctionHouse => self.at_auction |= me,
                Place::Castle => self.at_castle |= me,
            },
            (Phase::AuctionCards | Phase::CastleCards, Action::Play(card)) => {
                // `bit` is 0 for an id that is no card, so this also refuses those.
                if self.cards[p] & card.bit() == 0 {
                    return Err(ActionError::Illegal(Reject::NotInHand));
                }
                self.played[p] = card.0;
            }
            _ => return self.apply_rare(p, action).map_err(ActionError::Illegal),
        }
        self.pending &= !me;
        if self.pending == 0 {
            self.all_chosen();
        }
        Ok(())
    }

    /// Played in place (see `playout.rs`): the same draws in the same order as the
    /// engine's checked loop, so the same games (tested), without building an `Action`
    /// per step or asking who moves next.
    fn random_playout(
        &mut self,
        rng: &mut GameRng,
        _buf: &mut Vec<Action>,
        max_steps: usize,
    ) -> usize {
        self.playout_in_place(rng, max_steps)
    }

    fn view(&self, viewer: Viewer) -> crate::view::View {
        crate::view::View::new(self, viewer)
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.phase != Phase::Over {
            return None;
        }
        // 「最終的に最も進んでいるプレイヤーが勝利となる。」「同点の場合は、最終の展示の
        // 強さで着順を決める。」
        let keys: Vec<(u8, u16)> = (0..PLAYERS)
            .map(|p| (self.position[p], self.final_strength[p]))
            .collect();
        let scores = self.position.iter().map(|&p| i64::from(p)).collect();
        Some(Outcome::from_keys(scores, &keys, vec![None; PLAYERS]))
    }

    fn determinize(&self, seat: Seat, rng: &mut GameRng) -> Self {
        let mut world = self.clone();
        let s = seat.index();
        if s >= PLAYERS || self.phase == Phase::Over {
            return world;
        }
        world.redeal_hidden_art(s, rng);
        world.redraw_hidden_choices(s, rng);
        world
    }

    fn describe_for(&self, actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
        match action {
            // The pile chosen and the card stolen are chosen in the open.
            Action::Take(_) | Action::Steal(_) => Some(self.describe(action)),
            // Everything else is a secret choice: the others learn only that the actor
            // has acted, and what was chosen when all are revealed (in the views).
            _ => (viewer == Viewer::Seat(actor)).then(|| self.describe(action)),
        }
    }

    fn describe_for_in(
        &self,
        actor: Seat,
        action: &Action,
        viewer: Viewer,
        lang: takuge_engine::Lang,
    ) -> Option<String> {
        match lang {
            takuge_engine::Lang::En => self.describe_for(actor, action, viewer),
            takuge_engine::Lang::Ja => crate::log_ja::describe_for(self, actor, action, viewer),
        }
    }

    fn describe(&self, action: &Action) -> String {
        let rules = self.rules();
        match *action {
            Action::Go(Place::AuctionHouse) => "go to the auction house".into(),
            Action::Go(Place::Castle) => "go to the castle".into(),
            Action::Play(card) => format!("play {}", describe_card(rules, card)),
            Action::Exhibit { from, to } if from == to => {
                format!("exhibit art of letter {from}")
            }
            Action::Exhibit { from, to } => format!("exhibit art of letters {from} to {to}"),
            Action::Cards(set) => {
                let cards: Vec<String> = set.cards().map(|a| describe_art(rules, a)).collect();
                format!("show {}", cards.join(", "))
            }
            Action::ShowNothing => "show no exhibit".into(),
            Action::Take(Pile::Left) => "take the face-up art of the left pile".into(),
            Action::Take(Pile::Right) => "take the face-up art of the right pile".into(),
            Action::Steal(a) => format!("steal {}", describe_art(rules, a)),
        }
    }
}

impl ArtHeist {
    /// `sample_action` for the steps other than place and action card.
    #[inline]
    fn sample_rare(&self, p: usize, rng: &mut GameRng) -> Option<Action> {
        match self.phase {
            Phase::AuctionPile { .. } => {
                let [left, right] = self.piles.each_ref().map(|pile| !pile.is_empty());
                let pile = match (left, right) {
                    (true, true) if rng.below(2) == 0 => Pile::Left,
                    (true, true) | (false, true) => Pile::Right,
                    (true, false) => Pile::Left,
                    (false, false) => return None,
                };
                Some(Action::Take(pile))
            }
            Phase::Exhibiting | Phase::FinalExhibit => match self.next_letter(p) {
                None => {
                    let Some(run) = self.draw_run(self.art[p], rng) else {
                        return Some(Action::ShowNothing);
                    };
                    let (from, to) = unpack_run(run);
                    Some(Action::Exhibit {
                        from: Letter(from as u8),
                        to: Letter(to as u8),
                    })
                }
                Some(next) => next
                    .random_choice(rng)
                    .map(|set| Action::Cards(ArtSet::of(set))),
            },
            Phase::Stealing => {
                let e = self.robbed()?;
                nth_bit(self.exhibit[e], rng).map(|a| Action::Steal(ArtCard(a)))
            }
            Phase::Location | Phase::AuctionCards | Phase::CastleCards | Phase::Over => None,
        }
    }

    /// `apply` for the steps other than place and action card, and for any action that
    /// is not what the table is deciding: each arm checks completely, then plays.
    #[inline]
    fn apply_rare(&mut self, p: usize, action: &Action) -> Result<(), Reject> {
        let me = seat_bit(p);
        match (self.phase, *action) {
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Exhibit { from, to }) => {
                if self.run[p] != NONE {
                    return Err(Reject::AlreadyExhibiting);
                }
                let rules = self.rules();
                let (from, to) = series_of_letter(rules, from)
                    .zip(series_of_letter(rules, to))
                    .filter(|&(from, to)| self.run_cards(self.art[p], from, to).is_some())
                    .ok_or(Reject::NoSuchRun)?;
                self.run[p] = pack_run(from, to);
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Cards(set)) => {
                let set = set.mask();
                let next = self.next_letter(p).ok_or(Reject::NoExhibitYet)?;
                if !next.allows(set) {
                    return Err(Reject::NotThoseCards);
                }
                self.exhibit[p] |= set;
                if next.is_last() {
                    self.pending &= !me;
                    if self.pending == 0 {
                        self.all_chosen();
                    }
                }
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::ShowNothing) => {
                if self.run[p] != NONE {
                    return Err(Reject::AlreadyExhibiting);
                }
                self.pending &= !me;
                if self.pending == 0 {
                    self.all_chosen();
                }
            }
            (Phase::AuctionPile { .. }, Action::Take(pile)) => {
                if self.piles[pile.index()].is_empty() {
                    return Err(Reject::EmptyPile);
                }
                self.finish_auction(p, pile);
            }
            (Phase::Stealing, Action::Steal(a)) => {
                let Some(e) = self.robbed().filter(|&e| self.exhibit[e] & a.bit() != 0) else {
                    return Err(Reject::NotInExhibit);
                };
                self.steal(p, e, a);
                self.steal_e += 1;
                self.continue_stealing();
            }
            _ => return Err(Reject::NotNow),
        }
        Ok(())
    }
}

/// The `k`-th set bit of a mask (lowest first).
///
/// Without a loop: stepping over `k` bits ends after a random number of rounds, a
/// mispredicted jump at almost every card drawn (cachegrind's branch model: 30 % of a
/// random game's mispredictions, each worth 15–20 instructions). Instead the byte holding
/// the bit is found from running counts of the bytes, and the bit in it from a table.
#[inline]
fn nth_set_bit(mask: u64, k: u32) -> Option<u8> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    // Byte `i` holds the number of bits in bytes `0..=i` (at most 64: no carries).
    let running = byte_counts(mask).wrapping_mul(ONES);
    if k >= (running >> 56) as u32 {
        return None;
    }
    // The bytes whose running count is at most `k` lie wholly before the bit (each byte
    // compared at once: `k + 128 - count` keeps its top bit exactly when `count <= k`).
    let k_in_bytes = u64::from(k & 0x7f).wrapping_mul(ONES);
    let before = ((k_in_bytes | (ONES << 7)).wrapping_sub(running) >> 7) & ONES;
    let byte = (before.wrapping_mul(ONES) >> 56) as u32;
    let shift = 8 * byte.min(7);
    let earlier = ((running << 8) >> shift) as u32 & 0xff;
    let bits = ((mask >> shift) & 0xff) as usize;
    let at = SELECT[bits][(k.wrapping_sub(earlier) & 7) as usize];
    (at != NONE).then(|| at + shift as u8)
}

/// `SELECT[byte][k]`: the `k`-th set bit of `byte` (`NONE` past its last).
static SELECT: [[u8; 8]; 256] = {
    let mut t = [[NONE; 8]; 256];
    let mut byte = 0;
    while byte < 256 {
        let (mut k, mut bit) = (0, 0);
        while bit < 8 {
            if byte & (1 << bit) != 0 {
                t[byte][k] = bit as u8;
                k += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    t
};

/// A uniformly drawn set bit of a non-empty mask.
#[inline]
fn nth_bit(mask: u64, rng: &mut GameRng) -> Option<u8> {
    nth_set_bit(mask, rng.below(mask.count_ones()))
}

/// Pushes one action per card of a set. Legal-action lists are built at every step of
/// every playout: mapping a range (an iterator of known length) lets `extend` reserve
/// once and write in a tight loop.
#[inline]
fn push_all(out: &mut Vec<Action>, cards: u64, action: impl Fn(u8) -> Action) {
    let mut rest = cards;
    out.extend((0..cards.count_ones()).map(|_| {
        let c = rest.trailing_zeros() as u8;
        rest &= rest.wrapping_sub(1);
        action(c)
    }));
}

pub(crate) fn describe_card(rules: &Components, card: ActionCard) -> String {
    if !card.is_valid() {
        return format!("unknown card {}", card.0);
    }
    let colour = card.colour();
    match card.kind() {
        Kind::Money => format!("{colour} cheque {},000", rules.value(card)),
        Kind::Thief => format!("{colour} thief {}", rules.value(card)),
        Kind::Detective => format!("{colour} detective"),
        Kind::Exhibit => format!("{colour} exhibition card"),
    }
}

pub(crate) fn describe_art(rules: &Components, a: ArtCard) -> String {
    if rules.all_art() & a.bit() == 0 {
        return format!("unknown art {}", a.0);
    }
    format!("art {} ({})", rules.letter(a), rules.year(a))
}

#[cfg(test)]
mod tests {
    use super::nth_set_bit;
    use takuge_engine::GameRng;

    #[test]
    fn the_kth_set_bit_is_found_without_stepping_over_the_bits() {
        let mut rng = GameRng::from_seed(4);
        let mut masks = vec![0, 1, u64::MAX, 1 << 63, 0xff << 32, 0x8000_0000_0000_0001];
        masks.extend((0..2000).map(|_| rng.next_u64() & rng.next_u64()));
        masks.extend((0..2000).map(|_| rng.next_u64() & 0xff_ffff_ffff));
        for mask in masks {
            let mut stepped = mask;
            for k in 0..70 {
                let expected = (stepped != 0).then(|| stepped.trailing_zeros() as u8);
                assert_eq!(nth_set_bit(mask, k), expected, "{mask:x} {k}");
                stepped &= stepped.wrapping_sub(1);
            }
        }
    }
}
