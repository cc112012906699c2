//! The seven actions (観察・質問・指名・隠れる/かばう・妨害・捕獲・パス), the two
//! follow-up decisions, and when each is legal.

use crate::cards::{CardRef, CardStatus, Slot};
use crate::options::MAX_CARDS;
use crate::order::OrderNumber;
use crate::role::{Answer, Role};
use crate::state::{Deal, Phase};
use crate::SecretMoon;
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::{GameRng, Seat};

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// 観察: look at another player's card or a centre card in secret.
    Observe { card: CardRef },
    /// 質問: ask another player 「そこにいるのは何者か?」.
    Question { target: Seat },
    /// 指名: name the role of another player's card or a centre card.
    Nominate { card: CardRef, role: Role },
    /// 隠れる/かばう: protect a card (yourself, another player, an NPC) until the round ends.
    Protect { card: CardRef },
    /// 妨害: make another player discard their order card; you are revealed and captured.
    Sabotage { target: Seat },
    /// 捕獲: capture the holder of a card revealed by a nomination.
    Capture { card: CardRef },
    /// パス: do nothing, and take an order card for the next round.
    Pass,
    /// After passing: the card taken from the discard pile.
    TakeOrderCard { number: OrderNumber },
    /// The reply of a questioned player.
    Answer { answer: Answer },
}

/// Why an action is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    NoSuchCard,
    NoSuchPlayer,
    NotYourOwnCard,
    NotYourself,
    AlreadyFaceUp,
    Protected,
    AlreadyCaptured,
    NotRevealedByNomination,
    NoProtectionInRoundThree,
    ThiefCannotProtect,
    ThiefCannotCapture,
    SoldiersCaptureOnlyTheThief,
    OnlyTheMinisterCapturesThePrincess,
    NoOrderCard,
    NoThiefInThisGame,
    NotInDiscardPile,
    NotAnAnswerYouCanGive,
    NotNow,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::NoSuchCard => "there is no such character card on the table",
            Reject::NoSuchPlayer => "there is no such player at the table",
            Reject::NotYourOwnCard => {
                "this action targets another player's card or a centre card, not your own"
            }
            Reject::NotYourself => "this action targets another player, not yourself",
            Reject::AlreadyFaceUp => "that card is already face up",
            Reject::Protected => {
                "that card is protected until the end of the round (隠れる/かばう)"
            }
            Reject::AlreadyCaptured => "that player is already captured",
            Reject::NotRevealedByNomination => {
                "only a card revealed by a nomination can be captured"
            }
            Reject::NoProtectionInRoundThree => "hide/protect cannot be used in round 3",
            Reject::ThiefCannotProtect => "the thief cannot hide or protect",
            Reject::ThiefCannotCapture => "the thief cannot capture",
            Reject::SoldiersCaptureOnlyTheThief => "a soldier can capture only the thief",
            Reject::OnlyTheMinisterCapturesThePrincess => {
                "only the minister can capture the princess"
            }
            Reject::NoOrderCard => "that player holds no action-order card",
            Reject::NoThiefInThisGame => "this table plays without the thief",
            Reject::NotInDiscardPile => "that order card is not in the discard pile",
            Reject::NotAnAnswerYouCanGive => "your card does not give that answer",
            Reject::NotNow => "that is not the decision in front of you now",
        })
    }
}

impl SecretMoon {
    /// Checks an action of `seat` against the rules; `Ok` exactly when it is legal.
    #[inline]
    pub(crate) fn check(&self, seat: Seat, action: &Action) -> Result<(), Reject> {
        let deal = &self.deal;
        match (self.phase, *action) {
            (Phase::Turn { actor, .. }, a) if actor == seat => self.check_turn_action(seat, a),
            (Phase::Answer { target, .. }, Action::Answer { answer }) if target == seat => {
                if deal.role(Deal::seat_slot(seat)).answers().contains(&answer) {
                    Ok(())
                } else {
                    Err(Reject::NotAnAnswerYouCanGive)
                }
            }
            (Phase::TakeOrderCard { actor, .. }, Action::TakeOrderCard { number })
                if actor == seat =>
            {
                if deal.order.in_discard(number) {
                    Ok(())
                } else {
                    Err(Reject::NotInDiscardPile)
                }
            }
            _ => Err(Reject::NotNow),
        }
    }

    #[inline]
    fn check_turn_action(&self, actor: Seat, action: Action) -> Result<(), Reject> {
        let deal = &self.deal;
        let own = Deal::seat_slot(actor);
        let my_role = deal.role(own);
        match action {
            Action::Observe { card } => {
                let slot = self.other_card(actor, card)?;
                self.hidden_target(slot)
            }
            Action::Question { target } => {
                let slot = self.other_player(actor, target)?;
                self.live_target(slot)
            }
            Action::Nominate { card, role } => {
                if role == Role::Thief && !self.options.thief {
                    return Err(Reject::NoThiefInThisGame);
                }
                let slot = self.other_card(actor, card)?;
                self.hidden_target(slot)
            }
            Action::Protect { card } => {
                if deal.last_round() {
                    return Err(Reject::NoProtectionInRoundThree);
                }
                if my_role == Role::Thief {
                    return Err(Reject::ThiefCannotProtect);
                }
                let slot = deal.slot(card).ok_or(Reject::NoSuchCard)?;
                self.live_target(slot)
            }
            Action::Sabotage { target } => {
                let slot = self.other_player(actor, target)?;
                self.live_target(slot)?;
                if deal.order.holders().contains(target) {
                    Ok(())
                } else {
                    Err(Reject::NoOrderCard)
                }
            }
            Action::Capture { card } => {
                if my_role == Role::Thief {
                    return Err(Reject::ThiefCannotCapture);
                }
                let slot = self.other_card(actor, card)?;
                match deal.status(slot) {
                    CardStatus::Hidden => return Err(Reject::NotRevealedByNomination),
                    CardStatus::Captured => return Err(Reject::AlreadyCaptured),
                    CardStatus::Revealed => {}
                }
                if deal.protected.contains(slot) {
                    return Err(Reject::Protected);
                }
                let target_role = deal.role(slot);
                if my_role == Role::Soldier && target_role != Role::Thief {
                    return Err(Reject::SoldiersCaptureOnlyTheThief);
                }
                if target_role == Role::Princess && my_role != Role::Minister {
                    return Err(Reject::OnlyTheMinisterCapturesThePrincess);
                }
                Ok(())
            }
            Action::Pass => Ok(()),
            Action::TakeOrderCard { .. } | Action::Answer { .. } => Err(Reject::NotNow),
        }
    }

    #[inline]
    fn other_card(&self, actor: Seat, card: CardRef) -> Result<Slot, Reject> {
        let slot = self.deal.slot(card).ok_or(Reject::NoSuchCard)?;
        if slot == Deal::seat_slot(actor) {
            Err(Reject::NotYourOwnCard)
        } else {
            Ok(slot)
        }
    }

    #[inline]
    fn other_player(&self, actor: Seat, target: Seat) -> Result<Slot, Reject> {
        if target.0 >= self.deal.players {
            Err(Reject::NoSuchPlayer)
        } else if target == actor {
            Err(Reject::NotYourself)
        } else {
            Ok(Deal::seat_slot(target))
        }
    }

    /// Face down and not protected (observe, nominate).
    #[inline]
    fn hidden_target(&self, slot: Slot) -> Result<(), Reject> {
        if self.deal.status(slot).face_up() {
            Err(Reject::AlreadyFaceUp)
        } else if self.deal.protected.contains(slot) {
            Err(Reject::Protected)
        } else {
            Ok(())
        }
    }

    /// Not captured and not protected (question, protect, sabotage).
    #[inline]
    fn live_target(&self, slot: Slot) -> Result<(), Reject> {
        if self.deal.status(slot) == CardStatus::Captured {
            Err(Reject::AlreadyCaptured)
        } else if self.deal.protected.contains(slot) {
            Err(Reject::Protected)
        } else {
            Ok(())
        }
    }

    /// Every legal action of `seat`. This is the hot path of every playout, so it
    /// computes each target's eligibility once instead of calling [`Self::check`] per
    /// candidate; the conformance suite holds the two to agreement (every listed
    /// action applies, and actions not listed are refused).
    #[inline]
    pub(crate) fn collect_legal(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let deal = &self.deal;
        match self.phase {
            Phase::Turn { actor, .. } if actor == seat => self.collect_turn_actions(actor, out),
            Phase::Answer { target, .. } if target == seat => {
                for &answer in deal.role(Deal::seat_slot(seat)).answers() {
                    out.push(Action::Answer { answer });
                }
            }
            Phase::TakeOrderCard { actor, .. } if actor == seat => {
                for (number, _) in deal.order.iter() {
                    if deal.order.in_discard(number) {
                        out.push(Action::TakeOrderCard { number });
                    }
                }
            }
            _ => {}
        }
    }

    /// What the actor can aim each kind of action at, as bit masks over card slots
    /// (players' cards are slots `0..players`, so player masks share the bits).
    #[inline]
    fn turn_targets(&self, actor: Seat) -> TurnTargets {
        let deal = &self.deal;
        let own = Deal::seat_slot(actor);
        let my_role = deal.role(own);
        let holders = deal.order.holders().bits();
        // Which cards may be observed or nominated (face down, not protected), which
        // are still in play (not captured, not protected), which may be captured
        // (revealed, not protected, and a target this role may take).
        let free = deal.all_cards() & !deal.protected.0;
        let mut hidden = free & !deal.face_up.0;
        let live = free & !deal.captured.0;
        let mut capture = 0u16;
        if my_role != Role::Thief {
            let mut revealed = free & deal.face_up.0 & !deal.captured.0;
            while revealed != 0 {
                let i = revealed.trailing_zeros();
                revealed &= revealed - 1;
                let target_role = deal.role(Slot(i as u8));
                if (my_role != Role::Soldier || target_role == Role::Thief)
                    && (target_role != Role::Princess || my_role == Role::Minister)
                {
                    capture |= 1 << i;
                }
            }
        }
        let not_own = !(1u16 << own.0);
        hidden &= not_own;
        capture &= not_own;
        let other_players = ((1u16 << deal.players) - 1) & !(1 << actor.0);
        TurnTargets {
            observe: hidden,
            question: live & other_players,
            nominate: hidden,
            roles: if self.options.thief {
                &Role::ALL
            } else {
                &Role::ALL[..5]
            },
            protect: if !deal.last_round() && my_role != Role::Thief {
                live
            } else {
                0
            },
            sabotage: live & other_players & holders,
            capture,
        }
    }

    #[inline]
    fn collect_turn_actions(&self, actor: Seat, out: &mut Vec<Action>) {
        let deal = &self.deal;
        let t = self.turn_targets(actor);
        // Written into a stack buffer and copied once: the list is rebuilt at every
        // step of every playout.
        let mut buf = [Action::Pass; TURN_ACTIONS_MAX];
        let mut n = 0;
        let mut put = |a: Action| {
            if let Some(slot) = buf.get_mut(n) {
                *slot = a;
                n += 1;
            }
        };
        let card = |bit: u32| deal.card_ref(Slot(bit as u8));
        for b in bits(t.observe) {
            put(Action::Observe { card: card(b) });
        }
        for b in bits(t.question) {
            put(Action::Question {
                target: Seat(b as u8),
            });
        }
        for b in bits(t.nominate) {
            let card = card(b);
            for &role in t.roles {
                put(Action::Nominate { card, role });
            }
        }
        for b in bits(t.protect) {
            put(Action::Protect { card: card(b) });
        }
        for b in bits(t.sabotage) {
            put(Action::Sabotage {
                target: Seat(b as u8),
            });
        }
        for b in bits(t.capture) {
            put(Action::Capture { card: card(b) });
        }
        put(Action::Pass);
        out.extend_from_slice(buf.get(..n).unwrap_or_default());
    }

    /// A uniformly random legal action, drawn by counting instead of listing: the
    /// random playouts bots run spend most of their time here.
    #[inline]
    pub(crate) fn sample(
        &self,
        seat: Seat,
        rng: &mut GameRng,
        buf: &mut Vec<Action>,
    ) -> Option<Action> {
        let actor = match self.phase {
            Phase::Turn { actor, .. } if actor == seat => actor,
            _ => {
                self.collect_legal(seat, buf);
                return rng.pick(buf).copied();
            }
        };
        let deal = &self.deal;
        let t = self.turn_targets(actor);
        let roles = t.roles.len() as u32;
        let hidden = count(t.observe);
        let sizes = [
            hidden,
            count(t.question),
            hidden * roles,
            count(t.protect),
            count(t.sabotage),
            count(t.capture),
            1,
        ];
        let mut k = rng.below(sizes.iter().sum());
        let card = |bit: u32| deal.card_ref(Slot(bit as u8));
        for (kind, &size) in sizes.iter().enumerate() {
            if k >= size {
                k -= size;
                continue;
            }
            return Some(match kind {
                0 => Action::Observe {
                    card: card(nth_bit(t.observe, k)),
                },
                1 => Action::Question {
                    target: Seat(nth_bit(t.question, k) as u8),
                },
                2 => Action::Nominate {
                    card: card(nth_bit(t.nominate, k / roles)),
                    role: t
                        .roles
                        .get((k % roles) as usize)
                        .copied()
                        .unwrap_or(Role::Soldier),
                },
                3 => Action::Protect {
                    card: card(nth_bit(t.protect, k)),
                },
                4 => Action::Sabotage {
                    target: Seat(nth_bit(t.sabotage, k) as u8),
                },
                5 => Action::Capture {
                    card: card(nth_bit(t.capture, k)),
                },
                _ => Action::Pass,
            });
        }
        Some(Action::Pass)
    }
}

struct TurnTargets {
    observe: u16,
    question: u16,
    nominate: u16,
    roles: &'static [Role],
    protect: u16,
    sabotage: u16,
    capture: u16,
}

/// The number of cards in a set of slots. A table, because the default x86-64 target
/// has no popcount instruction and its software fallback costs more than a turn's
/// other bit operations together; every slot set fits in `MAX_CARDS` bits.
#[inline]
fn count(mask: u16) -> u32 {
    u32::from(SLOT_SET_SIZES.get(usize::from(mask)).copied().unwrap_or(0))
}

const SLOT_SET_SIZES: [u8; 1 << MAX_CARDS] = {
    let mut sizes = [0u8; 1 << MAX_CARDS];
    let mut m = 1;
    while m < sizes.len() {
        sizes[m] = sizes[m >> 1] + (m & 1) as u8;
        m += 1;
    }
    sizes
};

/// The position of the `n`-th set bit of `mask` (counting from 0).
fn nth_bit(mut mask: u16, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask.wrapping_sub(1);
    }
    mask.trailing_zeros()
}

/// The most actions a turn can offer: 9 cards to observe, 7 players to question,
/// 8 cards × 6 roles to nominate, 9 to protect, 7 to sabotage, 8 to capture, pass.
const TURN_ACTIONS_MAX: usize = 9 + 7 + 8 * 6 + 9 + 7 + 8 + 1;

/// The set bits of a mask, lowest first.
fn bits(mut mask: u16) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let b = mask.trailing_zeros();
            mask &= mask - 1;
            b
        })
    })
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Observe { card } => write!(f, "observe {card}"),
            Action::Question { target } => write!(f, "question seat {}", u16::from(target.0) + 1),
            Action::Nominate { card, role } => write!(f, "nominate {card} as the {role}"),
            Action::Protect { card } => write!(f, "hide/protect {card}"),
            Action::Sabotage { target } => write!(f, "sabotage seat {}", u16::from(target.0) + 1),
            Action::Capture { card } => write!(f, "capture {card}"),
            Action::Pass => write!(f, "pass"),
            Action::TakeOrderCard { number } => {
                write!(f, "take order card {number} for the next round")
            }
            Action::Answer { answer } => write!(f, "answer \"{}\"", answer.words()),
        }
    }
}
