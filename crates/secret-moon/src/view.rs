//! What one viewer sees: public cards and markers, plus the viewer's own knowledge.

use crate::cards::{CardRef, CardStatus};
use crate::role::{Answer, Role, RoleMask, Side};
use crate::rules::order::{OrderLoc, OrderNumber};
use crate::state::{Deal, GameResult, Phase};
use crate::SecretMoon;
use serde::Serialize;
use takuge_engine::{Game, Seat, Viewer};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub viewer: Option<Seat>,
    pub players: u8,
    /// The game of the match being played (1-based), and how many the match has.
    pub game: u8,
    pub games: u8,
    pub round: u8,
    pub victory_points: Vec<u8>,
    pub your_role: Option<Role>,
    /// For the princess and the traveller: where the partner is.
    pub partner: Option<PartnerView>,
    pub cards: Vec<CardView>,
    /// Whether a card was set aside unseen before the deal.
    pub card_removed: bool,
    pub thief_in_box: bool,
    /// The table option `public_order`: the number of the card being played is shown
    /// to everyone and played cards go face up. Off (the rules), each seat sees only
    /// its own number (and a number everyone saw taken by a pass).
    pub public_order: bool,
    pub seats: Vec<SeatOrderView>,
    pub discard: DiscardView,
    pub phase: PhaseView,
    /// Finished games of this match, every card shown.
    pub results: Vec<GameResult>,
    /// Which side each role is on (printed on the role cards, the same for everyone), so
    /// a client draws a role's team without a copy of the rules.
    pub roles: &'static [RoleSide; 6],
}

/// A role and its side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RoleSide {
    pub role: Role,
    pub side: Side,
}

/// Every role's side, in `Role::ALL` order (built at compile time).
pub static ROLE_SIDES: [RoleSide; 6] = {
    let mut out = [RoleSide {
        role: Role::Princess,
        side: Side::PrincessTeam,
    }; 6];
    let mut i = 0;
    while i < Role::ALL.len() {
        out[i] = RoleSide {
            role: Role::ALL[i],
            side: Role::ALL[i].side(),
        };
        i += 1;
    }
    out
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartnerView {
    Player(Seat),
    /// The partner's card lies in the centre (it is an NPC).
    InCentre,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CardView {
    pub card: CardRef,
    pub status: CardStatus,
    /// The role, if this viewer knows it (face up, its own, observed, or the partner).
    pub role: Option<Role>,
    /// What anyone can deduce it may be (answers, failed nominations, what its holder did).
    pub possible: RoleMask,
    pub protected: bool,
    /// 「目」のマーカー: who has looked at it.
    pub observed_by: Vec<Seat>,
    /// Answers its holder has given to questions (players only).
    pub answers: Vec<Answer>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatOrderView {
    pub seat: Seat,
    pub captured: bool,
    /// Holds an unplayed order card this round (its number is secret but to its holder).
    pub holds_card: bool,
    /// The number of that card, if the viewer knows it: its own; one everyone saw
    /// taken by a pass; with the order public, the card being played.
    pub number: Option<OrderNumber>,
    /// Whether everyone sees that number (taken by a pass, or the card being played
    /// with the order public), not only its holder.
    pub number_public: bool,
    /// The card taken by passing, for the next round (public).
    pub reserved: Option<OrderNumber>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DiscardView {
    pub face_up: Vec<OrderNumber>,
    pub face_down: u8,
    /// Face-down cards this viewer has seen (its own card, played or sabotaged, or the
    /// pile it looked through after passing).
    pub face_down_seen: Vec<OrderNumber>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum PhaseView {
    /// Whose turn it is (everyone sees who acts); the number of the card being played
    /// only if the viewer may know it (its own card, one taken by a pass, or the order
    /// is public).
    Turn {
        actor: Seat,
        number: Option<OrderNumber>,
    },
    Answer {
        asker: Seat,
        target: Seat,
    },
    TakeOrderCard {
        actor: Seat,
    },
    MatchOver,
}

impl SecretMoon {
    pub(crate) fn build_view(&self, viewer: Viewer) -> View {
        let deal = &self.deal;
        let me = viewer.seat().filter(|s| s.0 < deal.players);
        let your_role = me.map(|s| deal.role(Deal::seat_slot(s)));
        let partner = your_role.and_then(Deal::partner_role).and_then(|p| {
            let slot = deal.slot_of_role(p)?;
            Some(match deal.card_ref(slot) {
                CardRef::Player(s) => PartnerView::Player(s),
                CardRef::Npc(_) => PartnerView::InCentre,
            })
        });
        let cards = deal
            .slots()
            .map(|slot| {
                let role = match me {
                    Some(s) => deal.known_role(s, slot),
                    None if deal.status(slot).face_up() => Some(deal.role(slot)),
                    None => deal.public_mask.get(slot.index()).and_then(|m| m.single()),
                };
                let card = deal.card_ref(slot);
                CardView {
                    card,
                    status: deal.status(slot),
                    role,
                    possible: deal
                        .public_mask
                        .get(slot.index())
                        .copied()
                        .unwrap_or(RoleMask::ALL),
                    protected: deal.protected.contains(slot),
                    observed_by: deal
                        .eyes
                        .get(slot.index())
                        .map(|e| e.iter().collect())
                        .unwrap_or_default(),
                    answers: match card {
                        CardRef::Player(s) => deal
                            .answers
                            .get(s)
                            .map(|a| a.iter().collect())
                            .unwrap_or_default(),
                        CardRef::Npc(_) => Vec::new(),
                    },
                }
            })
            .collect();
        let current = self.current_number();
        let order = &deal.order;
        // 「行動順カードによる順番は公開されません」: a number is shown to its holder, or to
        // everyone if it was seen taken, or (option) if it is the card being played.
        let shown_to_all =
            |n: OrderNumber| order.is_open(n) || order.public() && current == Some(n);
        let shown = |holder: Seat, n: OrderNumber| me == Some(holder) || shown_to_all(n);
        let seats = Seat::all(self.players())
            .map(|seat| {
                let held = deal.order.held_by(seat);
                SeatOrderView {
                    seat,
                    captured: deal.is_captured(seat),
                    holds_card: held.is_some(),
                    number: held.filter(|n| shown(seat, *n)),
                    number_public: held.is_some_and(shown_to_all),
                    reserved: deal.order.reserved_by(seat),
                }
            })
            .collect();
        let mut discard = DiscardView {
            face_up: Vec::new(),
            face_down: 0,
            face_down_seen: Vec::new(),
        };
        for (n, loc) in deal.order.iter() {
            match loc {
                OrderLoc::DiscardUp => discard.face_up.push(n),
                OrderLoc::DiscardDown => {
                    discard.face_down += 1;
                    if me.is_some_and(|s| order.seen_face_down(n, s)) {
                        discard.face_down_seen.push(n);
                    }
                }
                _ => {}
            }
        }
        let phase = match self.phase {
            Phase::Turn { actor, number } => PhaseView::Turn {
                actor,
                number: shown(actor, number).then_some(number),
            },
            Phase::Answer { asker, target, .. } => PhaseView::Answer { asker, target },
            Phase::TakeOrderCard { actor, .. } => PhaseView::TakeOrderCard { actor },
            Phase::MatchOver => PhaseView::MatchOver,
        };
        View {
            viewer: me,
            players: deal.players,
            game: (self.results.len() as u8 + 1).min(self.options.games.games()),
            games: self.options.games.games(),
            round: deal.round,
            victory_points: self.victory_points().to_vec(),
            your_role,
            partner,
            cards,
            card_removed: deal.removed.is_some(),
            thief_in_box: self.options.thief,
            public_order: self.options.public_order,
            seats,
            discard,
            phase,
            results: self.results().to_vec(),
            roles: &ROLE_SIDES,
        }
    }
}
