//! THE rules of what may be played, written once: [`SecretMoon::collect_legal`] lists
//! every legal action of a seat from the targets of [`SecretMoon::turn_targets`];
//! [`SecretMoon::why_not`] only explains why an unlisted action is not among them.
//! The sampler and the fast `is_legal` in `fast.rs` read the same `TurnTargets`.

use crate::cards::{CardRef, CardStatus, Slot};
use crate::role::Role;
use crate::state::{Deal, Phase};
use crate::types::{Action, Reject};
use crate::SecretMoon;
use takuge_engine::{bits, Seat};

/// What the actor of a turn may aim each kind of action at, as bit masks over card
/// slots (players' cards are slots `0..players`, so player masks share the bits).
pub(crate) struct TurnTargets {
    /// 観察: a card face down, not protected, not the actor's own.
    pub observe: u16,
    /// 質問: another player still in play (not captured) and not protected.
    pub question: u16,
    /// 指名: the cards that may be observed, each named as any role in the box.
    pub nominate: u16,
    /// The roles a nomination may name: the thief only when the table plays with it.
    pub roles: &'static [Role],
    /// 隠れる/かばう: any card still in play and not protected — none in round 3, and
    /// never for the thief.
    pub protect: u16,
    /// 妨害: another player in play, not protected, holding an order card.
    pub sabotage: u16,
    /// 捕獲: a card revealed by a nomination, not captured, not protected, not the
    /// actor's own, and one this role may take (a soldier only the thief, the princess
    /// only by the minister; the thief captures nobody).
    pub capture: u16,
}

impl TurnTargets {
    /// Every slot of `mask`, as the cards the table names.
    fn cards<'a>(mask: u16, deal: &'a Deal) -> impl Iterator<Item = CardRef> + 'a {
        bits::iter(u64::from(mask)).map(|b| deal.card_ref(Slot(b)))
    }

    /// Every seat of a player mask.
    fn seats(mask: u16) -> impl Iterator<Item = Seat> {
        bits::iter(u64::from(mask)).map(Seat)
    }
}

/// Whether a slot is in a mask.
#[inline]
pub(crate) fn has(mask: u16, slot: Slot) -> bool {
    slot.index() < 16 && mask & (1 << slot.0) != 0
}

/// The most actions a turn can offer: 9 cards to observe, 7 players to question,
/// 8 cards × 6 roles to nominate, 9 to protect, 7 to sabotage, 8 to capture, pass.
const TURN_ACTIONS_MAX: usize = 9 + 7 + 8 * 6 + 9 + 7 + 8 + 1;

impl SecretMoon {
    /// Every legal action of `seat`: the one source of legality.
    #[inline]
    pub(crate) fn collect_legal(&self, seat: Seat, out: &mut Vec<Action>) {
        out.clear();
        let deal = &self.deal;
        match self.phase {
            Phase::Turn { actor, .. } if actor == seat => self.collect_turn_actions(actor, out),
            // 質問への返事: the answers the seat's card gives (only the thief has two).
            Phase::Answer { target, .. } if target == seat => {
                for &answer in deal.role(Deal::seat_slot(seat)).answers() {
                    out.push(Action::Answer { answer });
                }
            }
            // パス: any card of the discard pile, face up or down.
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

    /// The targets of each kind of turn action (see [`TurnTargets`] for the rules).
    #[inline]
    pub(crate) fn turn_targets(&self, actor: Seat) -> TurnTargets {
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
            for b in bits::iter(u64::from(free & deal.face_up.0 & !deal.captured.0)) {
                if Self::may_capture(my_role, deal.role(Slot(b))) {
                    capture |= 1 << b;
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
                &Role::WITHOUT_THIEF
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

    /// 捕獲: whether a card of role `mine` may capture a revealed card of role
    /// `target` (the thief, who captures nobody, is excluded before this is asked).
    #[inline]
    fn may_capture(mine: Role, target: Role) -> bool {
        Self::soldier_may_take(mine, target) && Self::princess_may_be_taken(mine, target)
    }

    /// 兵士は盗賊しか捕獲できない: a soldier captures only the thief.
    #[inline]
    fn soldier_may_take(mine: Role, target: Role) -> bool {
        mine != Role::Soldier || target == Role::Thief
    }

    /// 姫を捕獲できるのは大臣だけ: only the minister captures the princess.
    #[inline]
    fn princess_may_be_taken(mine: Role, target: Role) -> bool {
        target != Role::Princess || mine == Role::Minister
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
        for card in TurnTargets::cards(t.observe, deal) {
            put(Action::Observe { card });
        }
        for target in TurnTargets::seats(t.question) {
            put(Action::Question { target });
        }
        for card in TurnTargets::cards(t.nominate, deal) {
            for &role in t.roles {
                put(Action::Nominate { card, role });
            }
        }
        for card in TurnTargets::cards(t.protect, deal) {
            put(Action::Protect { card });
        }
        for target in TurnTargets::seats(t.sabotage) {
            put(Action::Sabotage { target });
        }
        for card in TurnTargets::cards(t.capture, deal) {
            put(Action::Capture { card });
        }
        put(Action::Pass);
        out.extend_from_slice(buf.get(..n).unwrap_or_default());
    }

    /// Why `seat` may not play `action`, asked only once the list said no: the first
    /// rule the action breaks, in words the seat may read (a capture names the role of
    /// a face-up card only). It decides nothing — an action this would find no fault
    /// with is still refused, as [`Reject::NotNow`].
    pub(crate) fn why_not(&self, seat: Seat, action: &Action) -> Reject {
        match (self.phase, *action) {
            (Phase::Turn { actor, .. }, a) if actor == seat => self.turn_refusal(seat, a),
            (Phase::Answer { target, .. }, Action::Answer { .. }) if target == seat => {
                Reject::NotAnAnswerYouCanGive
            }
            (Phase::TakeOrderCard { actor, .. }, Action::TakeOrderCard { .. }) if actor == seat => {
                Reject::NotInDiscardPile
            }
            _ => Reject::NotNow,
        }
    }

    fn turn_refusal(&self, actor: Seat, action: Action) -> Reject {
        let deal = &self.deal;
        let my_role = deal.role(Deal::seat_slot(actor));
        let fault = match action {
            Action::Nominate {
                role: Role::Thief, ..
            } if !self.options.thief => Err(Reject::NoThiefInThisGame),
            Action::Observe { card } | Action::Nominate { card, .. } => self
                .other_card(actor, card)
                .and_then(|slot| self.hidden_fault(slot)),
            Action::Question { target } => self
                .other_player(actor, target)
                .and_then(|slot| self.live_fault(slot)),
            Action::Protect { .. } if deal.last_round() => Err(Reject::NoProtectionInRoundThree),
            Action::Protect { .. } if my_role == Role::Thief => Err(Reject::ThiefCannotProtect),
            Action::Protect { card } => deal
                .slot(card)
                .ok_or(Reject::NoSuchCard)
                .and_then(|slot| self.live_fault(slot)),
            Action::Sabotage { target } => self
                .other_player(actor, target)
                .and_then(|slot| self.live_fault(slot))
                .and(Err(Reject::NoOrderCard)),
            Action::Capture { .. } if my_role == Role::Thief => Err(Reject::ThiefCannotCapture),
            Action::Capture { card } => self
                .other_card(actor, card)
                .and_then(|slot| self.capture_fault(my_role, slot)),
            Action::Pass | Action::TakeOrderCard { .. } | Action::Answer { .. } => Ok(()),
        };
        fault.err().unwrap_or(Reject::NotNow)
    }

    fn other_card(&self, actor: Seat, card: CardRef) -> Result<Slot, Reject> {
        let slot = self.deal.slot(card).ok_or(Reject::NoSuchCard)?;
        if slot == Deal::seat_slot(actor) {
            Err(Reject::NotYourOwnCard)
        } else {
            Ok(slot)
        }
    }

    fn other_player(&self, actor: Seat, target: Seat) -> Result<Slot, Reject> {
        if target.0 >= self.deal.players {
            Err(Reject::NoSuchPlayer)
        } else if target == actor {
            Err(Reject::NotYourself)
        } else {
            Ok(Deal::seat_slot(target))
        }
    }

    /// Why a card may not be observed or nominated.
    fn hidden_fault(&self, slot: Slot) -> Result<(), Reject> {
        if self.deal.status(slot).face_up() {
            Err(Reject::AlreadyFaceUp)
        } else if self.deal.protected.contains(slot) {
            Err(Reject::Protected)
        } else {
            Ok(())
        }
    }

    /// Why a card may not be questioned, protected or sabotaged.
    fn live_fault(&self, slot: Slot) -> Result<(), Reject> {
        if self.deal.status(slot) == CardStatus::Captured {
            Err(Reject::AlreadyCaptured)
        } else if self.deal.protected.contains(slot) {
            Err(Reject::Protected)
        } else {
            Ok(())
        }
    }

    /// Why a card may not be captured by a card of role `mine`.
    fn capture_fault(&self, mine: Role, slot: Slot) -> Result<(), Reject> {
        let deal = &self.deal;
        match deal.status(slot) {
            CardStatus::Hidden => Err(Reject::NotRevealedByNomination),
            CardStatus::Captured => Err(Reject::AlreadyCaptured),
            _ if deal.protected.contains(slot) => Err(Reject::Protected),
            // Face up: its role is public.
            CardStatus::Revealed => {
                let target = deal.role(slot);
                if !Self::soldier_may_take(mine, target) {
                    Err(Reject::SoldiersCaptureOnlyTheThief)
                } else if !Self::princess_may_be_taken(mine, target) {
                    Err(Reject::OnlyTheMinisterCapturesThePrincess)
                } else {
                    Ok(())
                }
            }
        }
    }
}
