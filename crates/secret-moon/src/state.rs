//! The state of a Secret Moon match: the current deal (one game of three rounds) and
//! the match around it.

use crate::cards::{CardRef, CardStatus, Slot, SlotSet};
use crate::options::{Options, MAX_CARDS, MAX_PLAYERS, ROUNDS, THIEF_MIN_PLAYERS};
use crate::order::{OrderCards, OrderNumber};
use crate::role::{Answer, Role, RoleMask, Side};
use serde::Serialize;
use takuge_engine::{GameRng, Seat, SeatSet};

/// Who must decide now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Ⅱ. The holder of the lowest order card takes a turn; `number` is that card,
    /// shown as it is played.
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

impl GameResult {
    /// Fills the unused places of [`MatchResults`].
    const UNUSED: GameResult = GameResult {
        reason: EndReason::ThirdRoundEnded,
        winner: Side::PrincessTeam,
        roles: DealtRoles {
            len: 0,
            roles: [Role::Soldier; MAX_CARDS],
        },
        removed: None,
        round: 0,
    };
}

/// The cards of a deal, players' first, then the centre. A fixed array rather than a
/// `Vec` so that ending a game allocates nothing (random playouts end millions);
/// reads as a slice and serialises as a list.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DealtRoles {
    len: u8,
    /// `Role::Soldier` past `len`, so that equal lists compare equal.
    roles: [Role; MAX_CARDS],
}

impl DealtRoles {
    pub(crate) fn new(roles: &[Role]) -> DealtRoles {
        let mut all = [Role::Soldier; MAX_CARDS];
        let len = roles.len().min(MAX_CARDS);
        for (to, from) in all.iter_mut().zip(roles) {
            *to = *from;
        }
        DealtRoles {
            len: len as u8,
            roles: all,
        }
    }

    pub fn as_slice(&self) -> &[Role] {
        self.roles.get(..usize::from(self.len)).unwrap_or_default()
    }
}

impl std::ops::Deref for DealtRoles {
    type Target = [Role];
    fn deref(&self) -> &[Role] {
        self.as_slice()
    }
}

impl std::fmt::Debug for DealtRoles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for DealtRoles {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.as_slice())
    }
}

/// The finished games of a match (at most five), in order, without allocating.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MatchResults {
    len: u8,
    games: [GameResult; MAX_GAMES],
}

/// The longest match: 5 games.
const MAX_GAMES: usize = 5;

impl Default for MatchResults {
    fn default() -> Self {
        MatchResults {
            len: 0,
            games: [GameResult::UNUSED; MAX_GAMES],
        }
    }
}

impl MatchResults {
    pub(crate) fn as_slice(&self) -> &[GameResult] {
        self.games.get(..usize::from(self.len)).unwrap_or_default()
    }

    pub(crate) fn push(&mut self, result: GameResult) {
        if let Some(g) = self.games.get_mut(usize::from(self.len)) {
            *g = result;
            self.len += 1;
        }
    }

    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }
}

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
    pub(crate) answers: [AnswerSet; MAX_PLAYERS],
    /// What every player can deduce each card may be (answers, failed nominations,
    /// what the card's holder has been able to do).
    pub(crate) public_mask: [RoleMask; MAX_CARDS],
    /// Cards each seat has looked at (its own, observed, nominated in the centre).
    pub(crate) known: [SlotSet; MAX_PLAYERS],
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
    /// ゲーム開始時のセットアップ: shuffle the character cards, deal one to each player,
    /// the rest to the centre; with 5 players (or 6 with the thief) one card of the
    /// soldiers and monk (and thief) is first removed at random.
    pub(crate) fn new(options: &Options, players: usize, rng: &mut GameRng) -> Deal {
        let mut deck = [Role::Soldier; MAX_CARDS];
        let mut len = 0;
        let mut push = |r: Role, deck: &mut [Role; MAX_CARDS]| {
            if let Some(slot) = deck.get_mut(len) {
                *slot = r;
                len += 1;
            }
        };
        // The cards a random one is removed from, when a removal applies.
        let mut pool = [Role::Soldier; 6];
        let mut pool_len = 0;
        let mut add_pool = |r: Role, pool: &mut [Role; 6]| {
            if let Some(slot) = pool.get_mut(pool_len) {
                *slot = r;
                pool_len += 1;
            }
        };
        let removal =
            players == 5 && !options.thief || players == THIEF_MIN_PLAYERS && options.thief;
        if options.thief {
            add_pool(Role::Thief, &mut pool);
        }
        add_pool(Role::Monk, &mut pool);
        for _ in 0..4 {
            add_pool(Role::Soldier, &mut pool);
        }
        let pool = &mut pool[..pool_len];
        let mut removed = None;
        let mut removal_pool = RoleMask::NONE;
        if removal {
            removal_pool = RoleMask::of(pool);
            // One draw picks the removed card; the rest are shuffled into the deck.
            let i = rng.index(pool.len());
            if i < pool.len() {
                pool.swap(0, i);
            }
            removed = pool.first().copied();
        }
        for &r in pool.iter().skip(usize::from(removal)) {
            push(r, &mut deck);
        }
        for r in [Role::Minister, Role::Traveller, Role::Princess] {
            push(r, &mut deck);
        }
        rng.shuffle(&mut deck[..len]);
        let mut known = [SlotSet::default(); MAX_PLAYERS];
        for (p, k) in known.iter_mut().enumerate().take(players) {
            k.insert(Slot(p as u8));
        }
        Deal {
            players: players as u8,
            card_count: len as u8,
            roles: deck,
            removed,
            removal_pool,
            face_up: SlotSet::default(),
            captured: SlotSet::default(),
            protected: SlotSet::default(),
            eyes: [SeatSet::EMPTY; MAX_CARDS],
            answers: [AnswerSet::default(); MAX_PLAYERS],
            // Everyone knows whether the thief is in the box.
            public_mask: [if options.thief {
                RoleMask::ALL
            } else {
                RoleMask::ALL.without(Role::Thief)
            }; MAX_CARDS],
            known,
            round: 1,
            order: OrderCards::default(),
        }
    }

    /// Ⅰ. Order cards to every player still in the game who did not reserve one.
    pub(crate) fn deal_order_cards(&mut self, rng: &mut GameRng) {
        let captured = self.captured_seats();
        let reserved = self.order.reserving_seats();
        let everyone = SeatSet::first(usize::from(self.players));
        let needs = SeatSet::from_bits(everyone.bits() & !captured.bits() & !reserved.bits());
        self.order.deal(needs, captured, rng);
    }

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
    pub(crate) fn record_answer(&mut self, seat: Seat, answer: Answer) {
        if let Some(a) = self.answers.get_mut(seat.index()) {
            a.insert(answer);
        }
        self.restrict(Self::seat_slot(seat), answer.givers());
    }

    /// Whether the deal is decided (checked after every action: 即座に1ゲームが終了).
    #[inline]
    pub fn decided(&self) -> Option<EndReason> {
        let (mut princess_up, mut traveller_up, mut minister_captured) = (false, false, false);
        let mut up = self.face_up.0 & self.all_cards();
        while up != 0 {
            let slot = Slot(up.trailing_zeros() as u8);
            up &= up - 1;
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
        if self.status(slot).face_up()
            || self
                .known
                .get(seat.index())
                .is_some_and(|k| k.contains(slot))
        {
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
