//! The state of a Secret Moon match: the current deal (one game of three rounds) and
//! the match around it.

use crate::cards::{CardRef, CardStatus, Slot, SlotSet};
use crate::options::{Options, MAX_CARDS, MAX_PLAYERS, ROUNDS};
use crate::role::{Answer, Role, RoleMask, Side};
use crate::rules::order::{OrderCards, OrderNumber};
use serde::Serialize;
use takuge_engine::list::FixedList;
use takuge_engine::{bits, GameRng, Seat, SeatMap, SeatSet, Seated};

/// A seat checked once against the table (where an action enters `apply_legal`), then
/// used to index per-seat arrays without clamps.
pub(crate) type PlayerSeat = Seated<MAX_PLAYERS>;

/// A Secret Moon match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecretMoon {
    pub(crate) options: Options,
    pub(crate) rng: GameRng,
    /// 勝利点: one per game won.
    pub(crate) victory_points: SeatMap<u8, MAX_PLAYERS>,
    pub(crate) results: MatchResults,
    pub(crate) deal: Deal,
    pub(crate) phase: Phase,
}

impl SecretMoon {
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The role on a card, whoever may know it (for tests and replays of finished games;
    /// never sent to a seat).
    pub fn role_of(&self, card: CardRef) -> Option<Role> {
        self.deal.slot(card).map(|s| self.deal.role(s))
    }

    pub fn status_of(&self, card: CardRef) -> Option<CardStatus> {
        self.deal.slot(card).map(|s| self.deal.status(s))
    }

    pub fn round(&self) -> u8 {
        self.deal.round()
    }

    pub fn results(&self) -> &[GameResult] {
        self.results.as_slice()
    }

    pub fn victory_points(&self) -> &[u8] {
        self.victory_points.first(usize::from(self.deal.players))
    }

    /// The number of centre (NPC) cards.
    pub fn npc_cards(&self) -> u8 {
        self.deal.card_count - self.deal.players
    }

    /// What `seat` knows `card` to be.
    pub fn known_role(&self, seat: Seat, card: CardRef) -> Option<Role> {
        self.deal
            .slot(card)
            .and_then(|s| self.deal.known_role(seat, s))
    }

    pub fn is_protected(&self, card: CardRef) -> bool {
        self.deal
            .slot(card)
            .is_some_and(|s| self.deal.protected.contains(s))
    }

    pub fn order_cards(&self) -> &OrderCards {
        &self.deal.order
    }

    /// The seats that must decide now: the actor of a turn, or the questioned player.
    #[inline]
    pub(crate) fn pending(&self) -> SeatSet {
        match self.phase {
            Phase::Turn { actor, .. } | Phase::TakeOrderCard { actor, .. } => {
                SeatSet::single(actor)
            }
            Phase::Answer { target, .. } => SeatSet::single(target),
            Phase::MatchOver => SeatSet::EMPTY,
        }
    }

    /// The order card being played, while the match is on.
    pub(crate) fn current_number(&self) -> Option<OrderNumber> {
        match self.phase {
            Phase::Turn { number, .. }
            | Phase::Answer { number, .. }
            | Phase::TakeOrderCard { number, .. } => Some(number),
            Phase::MatchOver => None,
        }
    }
}

/// Who must decide now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Ⅱ. The holder of the lowest order card takes a turn; `number` is that card
    /// (shown only to its holder, unless the table plays with the order public: the
    /// table sees whose turn it is, the game calls the player).
    Turn {
        actor: Seat,
        number: OrderNumber,
    },
    /// A questioned player answers aloud (only with the thief in the game does anyone
    /// have a choice, but every questioned player is asked so the pause reveals nothing).
    Answer {
        asker: Seat,
        number: OrderNumber,
        target: Seat,
    },
    /// A player who passed has looked through the discard pile and takes a card for
    /// the next round.
    TakeOrderCard {
        actor: Seat,
        number: OrderNumber,
    },
    MatchOver,
}

impl Phase {
    /// The first turn of a round: the holder of the lowest order card (none if no
    /// card is held, which a dealt round never has).
    pub(crate) fn first_turn(deal: &Deal) -> Phase {
        match deal.order.next_actor() {
            Some((number, actor)) => Phase::Turn { actor, number },
            None => Phase::MatchOver,
        }
    }
}

/// How a game ended (ゲーム終了の4つの条件).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// 第3ラウンドが終了する(姫チームの勝利)
    ThirdRoundEnded,
    /// 大臣が捕獲される(姫チームの勝利)
    MinisterCaptured,
    /// 姫が捕獲される(大臣チームの勝利)
    PrincessCaptured,
    /// 姫と旅人の両方が公開される(大臣チームの勝利)
    PrincessAndTravellerRevealed,
}

impl EndReason {
    pub const fn side(self) -> Side {
        match self {
            EndReason::ThirdRoundEnded | EndReason::MinisterCaptured => Side::PrincessTeam,
            EndReason::PrincessCaptured | EndReason::PrincessAndTravellerRevealed => {
                Side::MinisterTeam
            }
        }
    }
}

/// A finished game of the match, all cards shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct GameResult {
    pub reason: EndReason,
    /// The side that scored: the team whose condition was met, or the thief who
    /// stole the win (盗賊の勝利条件).
    pub winner: Side,
    /// Every card in play, players' first, then the centre.
    pub roles: DealtRoles,
    /// The card set aside unseen (5 players; 6 with the thief).
    pub removed: Option<Role>,
    pub round: u8,
}

impl Default for GameResult {
    /// Fills the unused places of [`MatchResults`] (never read).
    fn default() -> Self {
        GameResult {
            reason: EndReason::ThirdRoundEnded,
            winner: Side::PrincessTeam,
            roles: DealtRoles::new(),
            removed: None,
            round: 0,
        }
    }
}

/// The cards of a deal, players' first, then the centre. Inline rather than a `Vec`
/// so that ending a game allocates nothing (random playouts end millions); reads as a
/// slice and serialises as a list.
pub type DealtRoles = FixedList<Role, MAX_CARDS>;

/// The longest match: 5 games.
const MAX_GAMES: usize = 5;

/// The finished games of a match (at most five), in order, without allocating.
pub(crate) type MatchResults = FixedList<GameResult, MAX_GAMES>;

/// One game of the match: three rounds with one deal of character cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deal {
    pub(crate) players: u8,
    /// Cards in play: one per player, the rest in the centre as NPCs.
    pub(crate) card_count: u8,
    pub(crate) roles: [Role; MAX_CARDS],
    /// The card removed unseen before dealing, and the cards it was drawn from.
    pub(crate) removed: Option<Role>,
    pub(crate) removal_pool: RoleMask,
    /// Face-up cards (公開, captured or not) and captured ones (捕獲, a subset): a
    /// card's [`CardStatus`] as two bit sets, so that the targets of a turn and the end
    /// conditions are bit operations (the hot path of every playout).
    pub(crate) face_up: SlotSet,
    pub(crate) captured: SlotSet,
    /// 隠れる/かばう: untargetable until the end of the round.
    pub(crate) protected: SlotSet,
    /// 「目」のマーカー: who has observed which card.
    pub(crate) eyes: [SeatSet; MAX_CARDS],
    /// The answers each player has given to questions (markers on the table).
    pub(crate) answers: SeatMap<AnswerSet, MAX_PLAYERS>,
    /// What every player can deduce each card may be (answers, failed nominations,
    /// what the card's holder has been able to do).
    pub(crate) public_mask: [RoleMask; MAX_CARDS],
    /// Cards each seat has looked at (its own, observed, nominated in the centre).
    pub(crate) known: SeatMap<SlotSet, MAX_PLAYERS>,
    pub(crate) round: u8,
    pub(crate) order: OrderCards,
}

/// A set of answers given by one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct AnswerSet(pub(crate) u8);

impl AnswerSet {
    pub fn insert(&mut self, a: Answer) {
        self.0 |= 1 << a as u8;
    }

    pub fn iter(self) -> impl Iterator<Item = Answer> {
        Answer::ALL
            .into_iter()
            .filter(move |a| self.0 & (1 << *a as u8) != 0)
    }
}

impl Deal {
    pub(crate) fn slots(&self) -> impl Iterator<Item = Slot> + Clone {
        (0..self.card_count).map(Slot)
    }

    /// The slot a card reference names, if that card is on the table.
    #[inline]
    pub fn slot(&self, card: CardRef) -> Option<Slot> {
        let index = match card {
            CardRef::Player(s) => s.0,
            CardRef::Npc(i) => self.players.checked_add(i)?,
        };
        let in_range = match card {
            CardRef::Player(s) => s.0 < self.players,
            CardRef::Npc(_) => index < self.card_count,
        };
        in_range.then_some(Slot(index))
    }

    pub fn card_ref(&self, slot: Slot) -> CardRef {
        if slot.0 < self.players {
            CardRef::Player(Seat(slot.0))
        } else {
            CardRef::Npc(slot.0 - self.players)
        }
    }

    pub(crate) fn seat_slot(seat: Seat) -> Slot {
        Slot(seat.0)
    }

    #[inline]
    pub fn role(&self, slot: Slot) -> Role {
        self.roles
            .get(slot.index())
            .copied()
            .unwrap_or(Role::Soldier)
    }

    #[inline]
    pub fn status(&self, slot: Slot) -> CardStatus {
        if self.captured.contains(slot) {
            CardStatus::Captured
        } else if self.face_up.contains(slot) {
            CardStatus::Revealed
        } else {
            CardStatus::Hidden
        }
    }

    /// Every card on the table, as a slot mask.
    #[inline]
    pub(crate) fn all_cards(&self) -> u16 {
        (1u16 << self.card_count.min(MAX_CARDS as u8)) - 1
    }

    pub(crate) fn is_player_slot(&self, slot: Slot) -> bool {
        slot.0 < self.players
    }

    pub fn slot_of_role(&self, role: Role) -> Option<Slot> {
        self.slots().find(|s| self.role(*s) == role)
    }

    pub fn captured_seats(&self) -> SeatSet {
        // Players' cards are slots 0..players, so the bits are the seats'.
        SeatSet::from_bits(self.captured.0 & SeatSet::first(usize::from(self.players)).bits())
    }

    pub fn is_captured(&self, seat: Seat) -> bool {
        self.status(Self::seat_slot(seat)) == CardStatus::Captured
    }

    #[inline]
    pub(crate) fn restrict(&mut self, slot: Slot, mask: RoleMask) {
        if let Some(m) = self.public_mask.get_mut(slot.index()) {
            *m = m.and(mask);
        }
    }

    /// 公開: the card turns face up; a soldier revealed is captured at once
    /// (「自身の役職が公開されると捕獲された状態になります」).
    #[inline]
    pub(crate) fn reveal(&mut self, slot: Slot, current: OrderNumber) {
        if self.face_up.contains(slot) {
            return;
        }
        self.face_up.insert(slot);
        self.restrict(slot, self.role(slot).bit());
        if self.role(slot) == Role::Soldier {
            self.capture(slot, current);
        }
    }

    /// 捕獲: face up and out; an unplayed order card goes with it.
    #[inline]
    pub(crate) fn capture(&mut self, slot: Slot, current: OrderNumber) {
        self.face_up.insert(slot);
        self.captured.insert(slot);
        self.restrict(slot, self.role(slot).bit());
        if self.is_player_slot(slot) {
            self.order.discard_unplayed(Seat(slot.0), current);
        }
    }

    #[inline]
    pub(crate) fn record_answer(&mut self, seat: PlayerSeat, answer: Answer) {
        self.answers[seat].insert(answer);
        self.restrict(Self::seat_slot(seat.seat()), answer.givers());
    }

    /// Whether the deal is decided (checked after every action: 即座に1ゲームが終了).
    #[inline]
    pub fn decided(&self) -> Option<EndReason> {
        let (mut princess_up, mut traveller_up, mut minister_captured) = (false, false, false);
        for slot in bits::iter(u64::from(self.face_up.0 & self.all_cards())).map(Slot) {
            let status = self.status(slot);
            match self.role(slot) {
                Role::Princess if status == CardStatus::Captured => {
                    return Some(EndReason::PrincessCaptured)
                }
                Role::Princess => princess_up = true,
                Role::Traveller => traveller_up = true,
                Role::Minister => minister_captured |= status == CardStatus::Captured,
                _ => {}
            }
        }
        if minister_captured {
            Some(EndReason::MinisterCaptured)
        } else if princess_up && traveller_up {
            Some(EndReason::PrincessAndTravellerRevealed)
        } else {
            None
        }
    }

    /// The partner a princess or traveller knows (お互いの役割を知ることができます).
    pub fn partner_role(role: Role) -> Option<Role> {
        match role {
            Role::Princess => Some(Role::Traveller),
            Role::Traveller => Some(Role::Princess),
            _ => None,
        }
    }

    /// What `seat` knows a card to be, if it knows.
    pub fn known_role(&self, seat: Seat, slot: Slot) -> Option<Role> {
        let role = self.role(slot);
        if self.status(slot).face_up() || self.known.get(seat).is_some_and(|k| k.contains(slot)) {
            return Some(role);
        }
        let mine = self.role(Self::seat_slot(seat));
        if Self::partner_role(mine) == Some(role) && self.is_player_slot(slot) {
            return Some(role);
        }
        self.public_mask.get(slot.index()).and_then(|m| m.single())
    }

    /// The roles `seat` must allow a card to be, for redealing what it does not know.
    pub(crate) fn possible_for(&self, seat: Seat, slot: Slot) -> RoleMask {
        if let Some(r) = self.known_role(seat, slot) {
            return r.bit();
        }
        let mut mask = self
            .public_mask
            .get(slot.index())
            .copied()
            .unwrap_or(RoleMask::ALL);
        let mine = self.role(Self::seat_slot(seat));
        if let Some(partner) = Self::partner_role(mine) {
            // The partner is known: a player's card exactly, or "somewhere in the centre".
            let partner_is_player = self
                .slot_of_role(partner)
                .is_some_and(|s| self.is_player_slot(s));
            if partner_is_player || self.is_player_slot(slot) {
                mask = mask.without(partner);
            }
        }
        mask
    }

    pub fn round(&self) -> u8 {
        self.round
    }

    pub fn last_round(&self) -> bool {
        self.round >= ROUNDS
    }
}
