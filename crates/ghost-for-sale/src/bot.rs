//! The appraiser: a rule-following bot that values each property by the ghosts it
//! expects there, averaged over worlds consistent with what its seat knows, and bids
//! for the best one it can still win.

use crate::data::PER_ROUND;
use crate::state::{GhostForSale, GHOST, PAINTING};
use crate::types::{AuctionKind, BidSpot, Lot, Phase, PropertyId, SeatId, MAX_PLAYERS};
use crate::{Action, Mark, QuestionCard, Special, Target};
use takuge_engine::{Bot, Determinized, Game, GameRng, SeatMap};

/// Worlds sampled to value the properties.
const SAMPLES: usize = 12;

/// The expected value of a face-down card from its back mark, under the default marks
/// (low: 2,3,3,4,5,10; high: 1,6,7,8,8,9).
fn expected(g: &GhostForSale, mark: Mark) -> f64 {
    let mut sum = 0.0;
    let mut count = 0.0;
    for (v, &c) in crate::state::FULL_SET.iter().enumerate() {
        if c > 0 && g.mark(v as u8) == mark {
            sum += (v as f64) * f64::from(c);
            count += f64::from(c);
        }
    }
    if count > 0.0 {
        sum / count
    } else {
        5.5
    }
}

#[derive(Default)]
pub struct Appraiser {
    buf: Vec<Action>,
}

impl Appraiser {
    pub fn boxed() -> Box<dyn Bot<GhostForSale>> {
        Box::new(Appraiser::default())
    }
}

/// The current round's "?" cards of one sampled world: all of a world the appraiser
/// reads (the declarations and score tables are public, the same in every world).
type Cards = SeatMap<Option<QuestionCard>, MAX_PLAYERS>;

/// Samples the "?" cards of `SAMPLES` worlds consistent with what `world`'s seat knows.
/// Only the cards are built, never whole worlds (cloning and redealing every world
/// was most of the bot's time), but the generator draws what `resample` would, so the
/// bot's choices are those it made with whole worlds (`tests/appraiser.rs`).
fn sample_cards(world: &Determinized<GhostForSale>, rng: &mut GameRng) -> [Cards; SAMPLES] {
    let mut out = [Cards::default(); SAMPLES];
    for cards in &mut out {
        *cards = crate::determinize::question_cards(world.state(), world.seat(), rng);
    }
    out
}

/// Ghosts on global property `p` of the current round if the round ended now, the
/// "?" cards being `cards`, with one of `remove_from`'s ghost-face tokens taken off
/// and `extra` ghosts added.
fn ghosts(
    g: &GhostForSale,
    cards: &Cards,
    p: PropertyId,
    remove_from: Option<SeatId>,
    extra: u8,
) -> u8 {
    let mut total = u8::from(g.crypt_added[p.index()]) + extra;
    for (s, f) in g.decl[p.index()].iter(g.n()) {
        let ghost = f[GHOST] - u8::from(remove_from == Some(s) && f[GHOST] > 0);
        total += match cards[s] {
            Some(QuestionCard::Lie) => f[PAINTING],
            _ => ghost,
        };
    }
    total
}

fn points_for(g: &GhostForSale, p: PropertyId, ghosts: u8) -> f64 {
    f64::from(
        g.points[p.index()]
            .get(usize::from(ghosts))
            .copied()
            .unwrap_or(0),
    )
}

impl Appraiser {
    /// Expected points of every property of the round, over sampled worlds.
    fn values(world: &Determinized<GhostForSale>, rng: &mut GameRng) -> [f64; PER_ROUND] {
        let mut out = [0.0; PER_ROUND];
        let g = world.state();
        for cards in &sample_cards(world, rng) {
            for (o, p) in out.iter_mut().zip(PropertyId::of_round(g.round)) {
                *o += points_for(g, p, ghosts(g, cards, p, None, 0));
            }
        }
        out.map(|x| x / SAMPLES as f64)
    }

    /// Best expected points of a special-card choice.
    fn special_choice(
        &self,
        world: &Determinized<GhostForSale>,
        p: PropertyId,
        rng: &mut GameRng,
    ) -> Option<Action> {
        let g = world.state();
        let mut best: Option<(f64, Action)> = None;
        let mut guesses = [0u32; 64];
        let samples = sample_cards(world, rng);
        for &a in &self.buf {
            let score = match a {
                Action::Decline => samples
                    .iter()
                    .map(|c| points_for(g, p, ghosts(g, c, p, None, 0)))
                    .sum::<f64>(),
                Action::AddGhost => samples
                    .iter()
                    .map(|c| points_for(g, p, ghosts(g, c, p, None, 1)))
                    .sum::<f64>(),
                Action::RemoveGhost { owner } => samples
                    .iter()
                    .map(|c| points_for(g, p, ghosts(g, c, p, g.seated(owner), 0)))
                    .sum::<f64>(),
                Action::Guess { .. } => 0.0,
                _ => continue,
            };
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, a));
            }
        }
        if g.special[p.index()] == Some(Special::CrystalBall) {
            for c in &samples {
                let k = usize::from(ghosts(g, c, p, None, 0)).min(63);
                guesses[k] += 1;
            }
            let mode = (0..64).max_by_key(|&k| guesses[k]).unwrap_or(0) as u8;
            let guess = Action::Guess { ghosts: mode };
            if self.buf.contains(&guess) {
                return Some(guess);
            }
        }
        best.map(|(_, a)| a)
    }

    fn declare(&self, world: &Determinized<GhostForSale>, rng: &mut GameRng) -> Option<Action> {
        // Place the token that most raises the best property's expected value, so
        // that there is something worth buying whose worth this seat knows best.
        let g = world.state();
        let samples = sample_cards(world, rng);
        let seat = g.seated(world.seat())?;
        let mut best: Option<(f64, Action)> = None;
        for &a in &self.buf {
            let Action::Declare { property, token } = a else {
                continue;
            };
            let Some(lot) = Lot::new(property) else {
                continue;
            };
            let target = g.property(lot);
            let mut value = [0.0; PER_ROUND];
            for cards in &samples {
                // The token counts as a ghost where this seat's "?" card tells the
                // truth on that face: its ghost face unless it lies, its painting
                // face if it does (as `ghosts` reads the declarations).
                let lies = cards[seat] == Some(QuestionCard::Lie);
                let counts = match token.face() {
                    crate::Face::Ghost => !lies,
                    crate::Face::Painting => lies,
                };
                for (v, p) in value.iter_mut().zip(PropertyId::of_round(g.round)) {
                    let extra = u8::from(counts && p == target);
                    *v += points_for(g, p, ghosts(g, cards, p, None, extra));
                }
            }
            // Keep double-faced tokens for later: they fit anywhere.
            let keep = if matches!(
                token,
                crate::Token::DoubleGhost | crate::Token::DoublePainting
            ) {
                0.5
            } else {
                0.0
            };
            let score =
                value.iter().cloned().fold(0.0, f64::max) - keep + rng.below(100) as f64 / 1000.0;
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, a));
            }
        }
        best.map(|(_, a)| a)
    }

    fn auction(
        &self,
        world: &Determinized<GhostForSale>,
        kind: AuctionKind,
        rng: &mut GameRng,
    ) -> Option<Action> {
        let g = world.state();
        let seat = g.seated(world.seat())?;
        let me = &g.players[seat];
        let smallest = (1..=10u8).find(|&v| me.holds(v));
        let largest = (1..=10u8).rev().find(|&v| me.holds(v));
        let (mine, rival) = Self::standings(g, seat);
        // "the card is held": a spot chosen, the list holds only cards to play.
        if self.buf.iter().any(|a| matches!(a, Action::Play { .. })) {
            // Second half of a card: which card.
            let value = match g.pending_target {
                Some(BidSpot::Property(lot)) => {
                    let need = rival[lot.index()] - mine[lot.index()];
                    (1..=10u8)
                        .find(|&v| me.holds(v) && f64::from(v) > need)
                        .or(largest)
                }
                // A 1 shows the high mark: a cheap bluff on Mrs. Truelight.
                _ => smallest,
            };
            return value.map(|value| Action::Play { value });
        }
        // How the turn may end now (`Pass` or `Done`), as the rules list it.
        let stop = self
            .buf
            .iter()
            .copied()
            .find(|a| matches!(a, Action::Pass | Action::Done));
        if kind == AuctionKind::Info {
            // One card on Mrs. Truelight, then out.
            if !me.on_truelight {
                return Some(Action::Bid {
                    target: Target::Truelight,
                });
            }
            return stop.or_else(|| self.buf.first().copied());
        }
        let values = Self::values(world, rng);
        let mut best: Option<(f64, usize)> = None;
        for i in 0..PER_ROUND {
            let lead = mine[i] - rival[i];
            let budget = 3.0 + 3.0 * values[i];
            if values[i] < 1.0 || (lead <= 0.0 && -lead > budget) {
                continue;
            }
            // Prefer valuable properties we do not yet lead.
            let want = values[i] - if lead > 0.0 { 10.0 } else { 0.0 };
            if best.is_none_or(|(b, _)| want > b) {
                best = Some((want, i));
            }
        }
        match (best, stop) {
            (Some((want, i)), stop) if want >= 0.0 || stop.is_none() => Some(Action::Bid {
                target: Target::Property(i as u8),
            }),
            // Nothing worth more, or we lead everywhere we care about.
            (_, Some(stop)) => Some(stop),
            _ => self.buf.first().copied(),
        }
    }

    /// Per property of the round: this seat's total, and the strongest rival's
    /// expected total (face-down cards valued by their back mark).
    fn standings(g: &GhostForSale, seat: SeatId) -> ([f64; PER_ROUND], [f64; PER_ROUND]) {
        let mut mine = [0.0f64; PER_ROUND];
        let mut rivals = [SeatMap::<f64, MAX_PLAYERS>::default(); PER_ROUND];
        if let Some(a) = g.live_auction() {
            for b in g.auctions[a].bids() {
                let BidSpot::Property(lot) = b.spot else {
                    continue;
                };
                let t = lot.index();
                if b.seat == seat {
                    mine[t] += f64::from(b.value);
                } else {
                    let v = if b.face_up {
                        f64::from(b.value)
                    } else {
                        expected(g, g.mark(b.value))
                    };
                    rivals[t][b.seat] += v;
                }
            }
        }
        let top = rivals.map(|r| r.first(MAX_PLAYERS).iter().cloned().fold(0.0, f64::max));
        (mine, top)
    }
}

impl Bot<GhostForSale> for Appraiser {
    fn name(&self) -> &'static str {
        "appraiser"
    }

    fn choose(&mut self, world: &Determinized<GhostForSale>, rng: &mut GameRng) -> Option<Action> {
        let g = world.state();
        let seat = world.seat();
        g.legal_actions(seat, &mut self.buf);
        if self.buf.len() <= 1 {
            return self.buf.first().copied();
        }
        let chosen = match g.phase {
            Phase::SetAside => {
                // Castles are worth more: keep strong cards for round 2, but not all.
                [10u8, 8, 7, 5, 3, 6, 4, 2, 9, 1]
                    .into_iter()
                    .map(|value| Action::SetAside { value })
                    .find(|a| self.buf.contains(a))
            }
            Phase::Choose => rng.pick(&self.buf).copied(),
            Phase::Declare => self.declare(world, rng),
            Phase::Auction(kind) => self.auction(world, kind, rng),
            Phase::Special(p) => self.special_choice(world, p, rng),
            Phase::Over => None,
        };
        chosen
            .filter(|a| self.buf.contains(a))
            .or_else(|| rng.pick(&self.buf).copied())
    }
}
