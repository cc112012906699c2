//! The game state and its rules.

use crate::cards::{
    bits, ActionCard, ArtCard, Colour, Kind, Pile, Place, ACTION_CARDS, ALL_SEATS, MAX_ART, PLAYERS,
};
use crate::components::{components, Components};
use serde::{Deserialize, Serialize};
use std::fmt;
use takuge_engine::{
    ActionError, Game, GameMeta, GameRng, Outcome, Seat, SeatSet, SetupError, Viewer,
};

/// Table options. The seed's game has none: it is always five players.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Options {}

/// One decision of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// The 「1」 card: where to play this turn, set face down.
    Go(Place),
    /// The 「2」 card: the action card played this turn, face down. Any card in hand may
    /// be played; one with no use where the player is makes a wasted turn.
    Play(ActionCard),
    /// Put one more art card into the exhibit being put together (one card a step, so
    /// the choice of a whole exhibit never has to be listed).
    Exhibit(ArtCard),
    /// Show the exhibit put together (3 cards or more, letters connected).
    Show,
    /// Show no exhibit (in a turn, the failed-exhibit penalty applies).
    ShowNothing,
    /// The highest bidder takes the face-up card of this pile.
    Take(Pile),
    /// A thief takes this card from the exhibit it is robbing.
    Steal(ArtCard),
}

/// Why an action was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reject {
    /// The table is not deciding this kind of thing now.
    NotNow,
    /// The card is not in the player's hand.
    NotInHand,
    /// That art card cannot be part of a valid exhibit with the cards already chosen.
    BreaksTheRun,
    /// An exhibit has at least 3 cards.
    TooFewCards,
    /// Cards were already put into the exhibit.
    AlreadyExhibiting,
    /// That pile is empty.
    EmptyPile,
    /// That card is not in the exhibit being robbed.
    NotInExhibit,
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Reject::NotNow => "that is not what the table is deciding now",
            Reject::NotInHand => "that card is not in your hand",
            Reject::BreaksTheRun => {
                "that art card cannot make a valid exhibit (3+ cards, letters connected) with the cards chosen"
            }
            Reject::TooFewCards => "an exhibit has at least 3 cards",
            Reject::AlreadyExhibiting => "you have already put cards into your exhibit",
            Reject::EmptyPile => "that pile is empty",
            Reject::NotInExhibit => "that card is not in the exhibit you are robbing",
        })
    }
}

/// A small stack of card or seat numbers in a fixed array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stack<const N: usize> {
    items: [u8; N],
    len: u8,
}

impl<const N: usize> Stack<N> {
    pub(crate) const fn new() -> Self {
        Stack {
            items: [0; N],
            len: 0,
        }
    }

    pub(crate) fn as_slice(&self) -> &[u8] {
        self.items.get(..usize::from(self.len)).unwrap_or(&[])
    }

    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        let len = usize::from(self.len);
        self.items.get_mut(..len).unwrap_or(&mut [])
    }

    pub(crate) fn len(&self) -> usize {
        usize::from(self.len)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub(crate) fn push(&mut self, v: u8) {
        if let Some(slot) = self.items.get_mut(usize::from(self.len)) {
            *slot = v;
            self.len += 1;
        }
    }

    pub(crate) fn pop(&mut self) -> Option<u8> {
        let v = self.top()?;
        self.len -= 1;
        Some(v)
    }

    pub(crate) fn top(&self) -> Option<u8> {
        self.as_slice().last().copied()
    }

    pub(crate) fn get(&self, i: usize) -> Option<u8> {
        self.as_slice().get(i).copied()
    }

    /// Puts `v` in front, shifting the others back.
    pub(crate) fn push_front(&mut self, v: u8) {
        if usize::from(self.len) < N {
            self.len += 1;
            let s = self.as_mut_slice();
            s.rotate_right(1);
            if let Some(first) = s.first_mut() {
                *first = v;
            }
        }
    }

    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.items = [0; N];
    }
}

/// What the table is deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Every seat that plays this turn sets its 「1」 card face down.
    Location,
    /// The auction-house players set their 「2」 cards face down.
    AuctionCards,
    /// The highest bidder chooses a pile (only when both have cards).
    AuctionPile {
        winner: u8,
    },
    /// The castle players set their 「2」 cards face down (after the auction).
    CastleCards,
    /// The exhibitors put their exhibits together in secret (「せーの!」).
    Exhibiting,
    /// A thief chooses the card it steals from one exhibit.
    Stealing,
    /// Everyone puts the final exhibit together.
    FinalExhibit,
    Over,
}

/// No card.
pub(crate) const NONE: u8 = u8::MAX;

/// What happened at the auction house this turn (public once it happened).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AuctionResult {
    pub winner: Seat,
    pub art: Option<ArtCard>,
    pub money: ActionCard,
    /// The lone thief who took the money, if there was exactly one.
    pub stolen_by: Option<Seat>,
}

/// The state of a game of art-heist (seed 001).
#[derive(Clone, PartialEq, Eq)]
pub struct ArtHeist {
    pub(crate) rules: Rules,
    pub(crate) options: Options,
    /// Colour per seat, drawn at setup.
    pub(crate) colour: [Colour; PLAYERS],
    /// Seat per colour.
    pub(crate) seat_of: [u8; PLAYERS],
    /// Pawn positions (spaces from the start; may pass the goal).
    pub(crate) position: [u8; PLAYERS],
    /// Action cards held, including one set face down and not yet resolved.
    pub(crate) cards: [u64; PLAYERS],
    /// Art cards held, including those in an exhibit.
    pub(crate) art: [u64; PLAYERS],
    /// Art cards whose whereabouts every player knows: pile tops, cards taken from a pile
    /// top, exhibited or stolen. Everything else is known to its holder only (or to
    /// nobody, below a pile's top).
    pub(crate) public_art: u64,
    /// The two piles, top last.
    pub(crate) piles: [Stack<MAX_ART>; 2],
    /// The safe (金庫), top last.
    pub(crate) safe: Stack<ACTION_CARDS>,
    /// The cage (檻): cell 1 (the newest prisoner) first.
    pub(crate) cage: Stack<10>,
    pub(crate) turn: u16,
    /// Seats that skip this turn (a failed exhibit last turn).
    pub(crate) resting: u8,
    /// Seats that will skip the next turn.
    pub(crate) next_resting: u8,
    pub(crate) phase: Phase,
    pub(crate) pending: u8,
    /// This turn's places: set as the 「1」 cards are chosen, public once all are.
    pub(crate) at_auction: u8,
    pub(crate) at_castle: u8,
    /// This turn's 「2」 cards (NONE when none), public for the seats in `revealed`.
    pub(crate) played: [u8; PLAYERS],
    pub(crate) revealed: u8,
    /// This turn's exhibits: being put together, then what is left of them after thieves.
    pub(crate) exhibit: [u64; PLAYERS],
    pub(crate) exhibitors: u8,
    /// Exhibitors who showed no valid exhibit this turn (once revealed).
    pub(crate) failed: u8,
    /// Whether the exhibits have been revealed.
    pub(crate) exhibits_shown: bool,
    /// Seats in stealing order (highest thief number first), exhibitors in rank order.
    pub(crate) steal_thieves: Stack<PLAYERS>,
    pub(crate) steal_exhibits: Stack<PLAYERS>,
    pub(crate) steal_t: u8,
    pub(crate) steal_e: u8,
    pub(crate) auction: Option<AuctionResult>,
    /// Strength of each seat's final exhibit (0: none).
    pub(crate) final_strength: [u16; PLAYERS],
}

/// The components a state plays with (compared by identity: there is one set).
#[derive(Clone, Copy)]
pub(crate) struct Rules(pub(crate) &'static Components);

impl PartialEq for Rules {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.0, other.0)
    }
}

impl Eq for Rules {}

impl fmt::Debug for ArtHeist {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ArtHeist")
            .field("turn", &self.turn)
            .field("phase", &self.phase)
            .field("pending", &format_args!("{:05b}", self.pending))
            .field("colour", &self.colour)
            .field("position", &self.position)
            .field("cards", &self.cards.map(|c| bits(c).collect::<Vec<_>>()))
            .field("art", &self.art.map(|c| bits(c).collect::<Vec<_>>()))
            .field("public_art", &bits(self.public_art).collect::<Vec<_>>())
            .field("piles", &self.piles.map(|p| p.as_slice().to_vec()))
            .field("safe", &self.safe.as_slice())
            .field("cage", &self.cage.as_slice())
            .field("resting", &self.resting)
            .field("next_resting", &self.next_resting)
            .field("at_auction", &self.at_auction)
            .field("at_castle", &self.at_castle)
            .field("played", &self.played)
            .field("revealed", &self.revealed)
            .field(
                "exhibit",
                &self.exhibit.map(|c| bits(c).collect::<Vec<_>>()),
            )
            .field("exhibitors", &self.exhibitors)
            .field("final_strength", &self.final_strength)
            .finish_non_exhaustive()
    }
}

pub(crate) const fn seat_bit(p: usize) -> u8 {
    1 << (p & 7)
}

fn seats(mask: u8) -> impl Iterator<Item = usize> + Clone {
    bits(u64::from(mask)).map(usize::from)
}

/// Whether the series in `letters` are connected (AAB, ABC: yes; AAC, ABD: no).
#[cfg(test)]
pub(crate) fn connected(letters: u16) -> bool {
    if letters == 0 {
        return false;
    }
    let shifted = letters >> letters.trailing_zeros();
    shifted & (shifted + 1) == 0
}

/// Whether a set has at least 3 cards (cheaper than counting them all: this runs on
/// every exhibit step of every playout).
#[inline]
pub(crate) const fn three_or_more(cards: u64) -> bool {
    let two_fewer = cards & cards.wrapping_sub(1);
    two_fewer & two_fewer.wrapping_sub(1) != 0
}

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

impl ArtHeist {
    pub(crate) fn rules(&self) -> &'static Components {
        self.rules.0
    }

    /// The rank (順位) of a seat's pawn on the track: 1 + the pawns strictly ahead
    /// (pawns on the same space share a rank).
    pub(crate) fn rank(&self, p: usize) -> u8 {
        let mine = self.position.get(p).copied().unwrap_or(0);
        1 + self.position.iter().filter(|&&q| q > mine).count() as u8
    }

    fn ranks(&self) -> [u8; PLAYERS] {
        std::array::from_fn(|p| self.rank(p))
    }

    /// The numbers of the castle beside the leading pawn.
    pub(crate) fn castle_numbers(&self) -> [u8; 2] {
        let leader = self.position.iter().copied().max().unwrap_or(0);
        self.rules().castle_numbers(leader)
    }

    fn art_left(&self) -> bool {
        !self.piles[0].is_empty() || !self.piles[1].is_empty()
    }

    /// The art cards that may join the exhibit `sel` being put together from `hand`:
    /// the letters stay connected and the hand can still complete a valid exhibit of 3
    /// cards or more (so a player never gets stuck half-way).
    pub(crate) fn addable(&self, hand: u64, sel: u64) -> u64 {
        let rules = self.rules();
        let in_hand = rules.letters(hand);
        if sel != 0 {
            // Building: only the chosen series and their two neighbours keep the letters
            // connected, within the run of the hand that holds the chosen cards.
            let chosen = rules.letters(sel);
            let (clo, chi) = (chosen.trailing_zeros(), 15 - chosen.leading_zeros());
            let up = (in_hand >> clo).trailing_ones();
            let down = (in_hand << (15 - clo)).leading_ones();
            if up == 0 || down == 0 {
                return 0;
            }
            let (lo, hi) = (clo + 1 - down, clo + up - 1);
            if chi > hi || !three_or_more(hand & rules.series_range(lo, hi)) {
                return 0;
            }
            let window = rules.series_range(clo.saturating_sub(1).max(lo), (chi + 1).min(hi));
            return hand & !sel & window;
        }
        // Starting: any card of a run of the hand holding 3 cards or more.
        let mut ok = 0u64;
        let mut rest = in_hand;
        while rest != 0 {
            let lo = rest.trailing_zeros();
            let len = (rest >> lo).trailing_ones();
            let hi = lo + len - 1;
            rest &= !Components::letter_range(lo, hi);
            let run = rules.series_range(lo, hi);
            if three_or_more(hand & run) {
                ok |= run;
            }
        }
        hand & ok
    }

    pub(crate) fn can_add(&self, hand: u64, sel: u64, a: ArtCard) -> bool {
        usize::from(a.0) < MAX_ART && self.addable(hand, sel) & a.bit() != 0
    }

    /// The seats taking part in the secret choice under way (pending or done).
    fn choosing(&self) -> u8 {
        match self.phase {
            Phase::Location => ALL_SEATS & !self.resting,
            Phase::AuctionCards => self.at_auction,
            Phase::CastleCards => self.at_castle,
            Phase::Exhibiting | Phase::FinalExhibit => self.exhibitors,
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => 0,
        }
    }

    // ---- the flow of a turn ----

    pub(crate) fn start_turn(&mut self) {
        loop {
            if self.turn >= self.rules().max_turns {
                self.start_final();
                return;
            }
            self.turn += 1;
            self.resting = self.next_resting;
            self.next_resting = 0;
            self.clear_turn();
            let active = ALL_SEATS & !self.resting;
            if active == 0 {
                // Everyone skips this turn: nothing happens in it.
                continue;
            }
            if self.art_left() {
                self.phase = Phase::Location;
                self.pending = active;
            } else {
                // 「美術品が枯れた場合は、全員、城のみでのプレイになる。」
                self.at_castle = active;
                self.phase = Phase::CastleCards;
                self.pending = active;
            }
            return;
        }
    }

    fn clear_turn(&mut self) {
        self.at_auction = 0;
        self.at_castle = 0;
        self.played = [NONE; PLAYERS];
        self.revealed = 0;
        self.exhibit = [0; PLAYERS];
        self.exhibitors = 0;
        self.failed = 0;
        self.exhibits_shown = false;
        self.steal_thieves.clear();
        self.steal_exhibits.clear();
        self.steal_t = 0;
        self.steal_e = 0;
        self.auction = None;
    }

    fn after_locations(&mut self) {
        if self.at_auction != 0 {
            self.phase = Phase::AuctionCards;
            self.pending = self.at_auction;
        } else {
            self.start_castle_cards();
        }
    }

    fn played_card(&self, p: usize) -> Option<ActionCard> {
        match self.played.get(p) {
            Some(&c) if c != NONE => Some(ActionCard(c)),
            _ => None,
        }
    }

    /// Seats of `mask` whose played card is of `kind`.
    fn playing(&self, mask: u8, kind: Kind) -> u8 {
        let mut out = 0;
        for p in seats(mask) {
            if self.played_card(p).map(ActionCard::kind) == Some(kind) {
                out |= seat_bit(p);
            }
        }
        out
    }

    fn resolve_auction(&mut self) {
        self.revealed |= self.at_auction;
        let mut best: Option<(u8, usize)> = None;
        for p in seats(self.playing(self.at_auction, Kind::Money)) {
            let v = self.played_card(p).map_or(0, |c| self.rules().value(c));
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, p));
            }
        }
        match best {
            None => self.start_castle_cards(),
            Some((_, w)) => {
                if !self.piles[0].is_empty() && !self.piles[1].is_empty() {
                    self.phase = Phase::AuctionPile { winner: w as u8 };
                    self.pending = seat_bit(w);
                } else {
                    let pile = if self.piles[0].is_empty() {
                        Pile::Right
                    } else {
                        Pile::Left
                    };
                    self.finish_auction(w, pile);
                }
            }
        }
    }

    fn finish_auction(&mut self, winner: usize, pile: Pile) {
        let taken = self.piles[pile.index()].pop();
        if let Some(a) = taken {
            let a = ArtCard(a);
            self.art[winner] |= a.bit();
            self.public_art |= a.bit();
        }
        if let Some(t) = self.piles[pile.index()].top() {
            // The next card of the pile is turned face up.
            self.public_art |= ArtCard(t).bit();
        }
        let Some(money) = self.played_card(winner) else {
            return self.start_castle_cards();
        };
        self.cards[winner] &= !money.bit();
        let thieves = self.playing(self.at_auction, Kind::Thief);
        let stolen_by = if thieves.count_ones() == 1 {
            // 「泥棒を選択したプレイヤーは、落札したお金を盗み、自分の持ち札とする。」
            let t = thieves.trailing_zeros() as usize;
            self.cards[t] |= money.bit();
            Some(Seat(t as u8))
        } else {
            // No thief, or two or more cancelling out (「相殺される」): to the safe.
            self.safe.push(money.0);
            None
        };
        self.auction = Some(AuctionResult {
            winner: Seat(winner as u8),
            art: taken.map(ArtCard),
            money,
            stolen_by,
        });
        self.start_castle_cards();
    }

    fn start_castle_cards(&mut self) {
        if self.at_castle != 0 {
            self.phase = Phase::CastleCards;
            self.pending = self.at_castle;
        } else {
            self.end_turn();
        }
    }

    fn resolve_castle_cards(&mut self) {
        self.revealed |= self.at_castle;
        self.exhibitors = self.playing(self.at_castle, Kind::Exhibit);
        if self.exhibitors != 0 {
            self.phase = Phase::Exhibiting;
            self.pending = self.exhibitors;
        } else {
            self.start_stealing(Stack::new());
        }
    }

    /// Exhibitors in rank order, strongest exhibit first; those who showed nothing are
    /// left out.
    fn exhibit_order(&self) -> Stack<PLAYERS> {
        let rules = self.rules();
        let mut order = Stack::<PLAYERS>::new();
        for p in seats(self.exhibitors) {
            if self.exhibit[p] != 0 {
                order.push(p as u8);
            }
        }
        order.as_mut_slice().sort_unstable_by_key(|&p| {
            std::cmp::Reverse(rules.strength(self.exhibit[usize::from(p)]))
        });
        order
    }

    fn resolve_exhibits(&mut self) {
        // Ranks and the castle are taken before anyone moves: exhibits are revealed and
        // scored together.
        let ranks = self.ranks();
        let [first, second] = self.castle_numbers();
        let order = self.exhibit_order();
        for (place, &p) in order.as_slice().iter().enumerate().take(2) {
            let step = if place == 0 { first } else { second };
            let pos = &mut self.position[usize::from(p)];
            *pos = pos.saturating_add(step);
        }
        for p in seats(self.exhibitors) {
            if self.exhibit[p] == 0 {
                // 「3枚以上出せなかったプレイヤーは、そのマイナス順位分後退し(1位のプレイヤー
                // は5マス後退)、次のターンは1回休みとなる。」
                let back = PLAYERS as u8 + 1 - ranks[p];
                self.position[p] = self.position[p].saturating_sub(back);
                self.next_resting |= seat_bit(p);
                self.failed |= seat_bit(p);
            } else {
                self.public_art |= self.exhibit[p];
            }
        }
        self.exhibits_shown = true;
        self.start_stealing(order);
    }

    fn start_stealing(&mut self, exhibits: Stack<PLAYERS>) {
        let thief_seats = self.playing(self.at_castle, Kind::Thief);
        if thief_seats == 0 {
            // No thief: nothing is stolen and detectives have nobody to catch.
            return self.end_turn();
        }
        let mut thieves = Stack::<PLAYERS>::new();
        for p in seats(thief_seats) {
            thieves.push(p as u8);
        }
        // 「泥棒の数字の多い順から展示品を選ぶ。」
        let rules = self.rules();
        let played = self.played;
        thieves.as_mut_slice().sort_unstable_by_key(|&p| {
            std::cmp::Reverse(rules.value(ActionCard(played[usize::from(p)])))
        });
        self.steal_thieves = thieves;
        self.steal_exhibits = exhibits;
        self.steal_t = 0;
        self.steal_e = 0;
        self.continue_stealing();
    }

    /// Runs the thefts that need no choice, stopping at the next one that does.
    fn continue_stealing(&mut self) {
        loop {
            let Some(t) = self.steal_thieves.get(usize::from(self.steal_t)) else {
                return self.resolve_detectives();
            };
            let Some(e) = self.steal_exhibits.get(usize::from(self.steal_e)) else {
                self.steal_t += 1;
                self.steal_e = 0;
                continue;
            };
            let left = self.exhibit[usize::from(e)];
            match left.count_ones() {
                // 「盗む展示品がない、もしくはなくなった場合は、その泥棒は盗むことができない。」
                0 => self.steal_e += 1,
                1 => {
                    self.steal(
                        usize::from(t),
                        usize::from(e),
                        ArtCard(left.trailing_zeros() as u8),
                    );
                    self.steal_e += 1;
                }
                _ => {
                    self.phase = Phase::Stealing;
                    self.pending = seat_bit(usize::from(t));
                    return;
                }
            }
        }
    }

    fn steal(&mut self, thief: usize, from: usize, a: ArtCard) {
        self.exhibit[from] &= !a.bit();
        self.art[from] &= !a.bit();
        self.art[thief] |= a.bit();
    }

    /// The exhibitor the current thief is robbing.
    pub(crate) fn robbed(&self) -> Option<usize> {
        self.steal_exhibits
            .get(usize::from(self.steal_e))
            .map(usize::from)
    }

    fn resolve_detectives(&mut self) {
        let detectives = self.playing(self.at_castle, Kind::Detective);
        let thieves = self.playing(self.at_castle, Kind::Thief);
        if detectives != 0 && thieves != 0 {
            let ranks = self.ranks();
            // 「捕まえられた泥棒は、強い順番に檻に入れられ、檻から溢れた泥棒は、もとの
            // プレイヤーの元へ返却される。」 Strongest first: each newcomer pushes the
            // earlier prisoners one cell on.
            let thieves_in_order = self.steal_thieves;
            for &t in thieves_in_order.as_slice() {
                let t = usize::from(t);
                let Some(card) = self.played_card(t) else {
                    continue;
                };
                self.cards[t] &= !card.bit();
                if self.cage.len() >= usize::from(self.rules().cage_cells) {
                    if let Some(out) = self.cage.pop() {
                        let owner = usize::from(self.seat_of[ActionCard(out).colour().index()]);
                        self.cards[owner] |= ActionCard(out).bit();
                    }
                }
                self.cage.push_front(card.0);
            }
            // 「泥棒を捕まえたプレイヤーは、自分の順位分、駒を進める。」
            for d in seats(detectives) {
                self.position[d] = self.position[d].saturating_add(ranks[d]);
            }
        }
        self.end_turn();
    }

    fn end_turn(&mut self) {
        // 「コマを進めた後、いずれかのプレイヤーがゴール地点に辿り着いたら、最後の展示を行う。」
        if self.position.iter().any(|&p| p >= self.rules().goal) {
            self.start_final();
        } else {
            self.start_turn();
        }
    }

    fn start_final(&mut self) {
        self.clear_turn();
        self.resting = 0;
        self.next_resting = 0;
        self.phase = Phase::FinalExhibit;
        self.exhibitors = ALL_SEATS;
        self.pending = ALL_SEATS;
    }

    fn resolve_final(&mut self) {
        let order = self.exhibit_order();
        let [first, second] = self.rules().final_exhibit;
        for (place, &p) in order.as_slice().iter().enumerate().take(2) {
            let step = if place == 0 { first } else { second };
            let pos = &mut self.position[usize::from(p)];
            *pos = pos.saturating_add(step);
        }
        for p in 0..PLAYERS {
            self.public_art |= self.exhibit[p];
            self.final_strength[p] = self.rules().strength(self.exhibit[p]);
        }
        self.exhibits_shown = true;
        self.phase = Phase::Over;
        self.pending = 0;
    }

    /// All seats of the current secret choice have chosen: reveal and resolve.
    fn all_chosen(&mut self) {
        match self.phase {
            Phase::Location => self.after_locations(),
            Phase::AuctionCards => self.resolve_auction(),
            Phase::CastleCards => self.resolve_castle_cards(),
            Phase::Exhibiting => self.resolve_exhibits(),
            Phase::FinalExhibit => self.resolve_final(),
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => {}
        }
    }

    /// Checks an action completely, before anything changes.
    fn check(&self, p: usize, action: &Action) -> Result<(), Reject> {
        match (self.phase, *action) {
            (Phase::Location, Action::Go(_)) => Ok(()),
            (Phase::AuctionCards | Phase::CastleCards, Action::Play(card)) => {
                if card.is_valid() && self.cards[p] & card.bit() != 0 {
                    Ok(())
                } else {
                    Err(Reject::NotInHand)
                }
            }
            (Phase::AuctionPile { .. }, Action::Take(pile)) => {
                if self.piles[pile.index()].is_empty() {
                    Err(Reject::EmptyPile)
                } else {
                    Ok(())
                }
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Exhibit(a)) => {
                if self.art[p] & a.bit() == 0 {
                    Err(Reject::NotInHand)
                } else if self.can_add(self.art[p], self.exhibit[p], a) {
                    Ok(())
                } else {
                    Err(Reject::BreaksTheRun)
                }
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::Show) => {
                if three_or_more(self.exhibit[p]) {
                    Ok(())
                } else {
                    Err(Reject::TooFewCards)
                }
            }
            (Phase::Exhibiting | Phase::FinalExhibit, Action::ShowNothing) => {
                if self.exhibit[p] == 0 {
                    Ok(())
                } else {
                    Err(Reject::AlreadyExhibiting)
                }
            }
            (Phase::Stealing, Action::Steal(a)) => match self.robbed() {
                Some(e) if usize::from(a.0) < MAX_ART && self.exhibit[e] & a.bit() != 0 => Ok(()),
                _ => Err(Reject::NotInExhibit),
            },
            _ => Err(Reject::NotNow),
        }
    }
}

impl Game for ArtHeist {
    type Options = Options;
    type Action = Action;
    type View = crate::view::View;
    type Reject = Reject;

    fn meta() -> &'static GameMeta {
        &META
    }

    fn validate(_options: &Options, players: usize) -> Result<(), SetupError> {
        if players != PLAYERS {
            return Err(SetupError::PlayerCount {
                game: META.id,
                min: PLAYERS,
                max: PLAYERS,
                got: players,
            });
        }
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
        let mut deck = Stack::<MAX_ART>::new();
        for a in bits(rules.all_art()) {
            deck.push(a);
        }
        let deck = {
            rng.shuffle(deck.as_mut_slice());
            deck.as_slice()
        };
        let mut art = [0u64; PLAYERS];
        let (dealt, rest) = deck.split_at(4 * PLAYERS);
        for (i, &a) in dealt.iter().enumerate() {
            art[i / 4] |= ArtCard(a).bit();
        }
        let (left, right) = rest.split_at(rest.len().div_ceil(2));
        let mut piles = [Stack::new(), Stack::new()];
        let mut public_art = 0;
        for (pile, cards) in piles.iter_mut().zip([left, right]) {
            for &a in cards {
                pile.push(a);
            }
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
            exhibitors: 0,
            failed: 0,
            exhibits_shown: false,
            steal_thieves: Stack::new(),
            steal_exhibits: Stack::new(),
            steal_t: 0,
            steal_e: 0,
            auction: None,
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
            Phase::Exhibiting | Phase::FinalExhibit => {
                let (hand, sel) = (self.art[p], self.exhibit[p]);
                if sel == 0 {
                    out.push(Action::ShowNothing);
                }
                push_all(out, self.addable(hand, sel), |a| {
                    Action::Exhibit(ArtCard(a))
                });
                if three_or_more(sel) {
                    out.push(Action::Show);
                }
            }
            Phase::Stealing => {
                if let Some(e) = self.robbed() {
                    push_all(out, self.exhibit[e], |a| Action::Steal(ArtCard(a)));
                }
            }
            Phase::Over => {}
        }
    }

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
        match self.phase {
            Phase::Location => Some(Action::Go(if rng.below(2) == 0 {
                Place::AuctionHouse
            } else {
                Place::Castle
            })),
            Phase::AuctionCards | Phase::CastleCards => {
                nth_bit(self.cards[p], rng).map(|c| Action::Play(ActionCard(c)))
            }
            Phase::AuctionPile { .. } => {
                let piles = [Pile::Left, Pile::Right]
                    .map(|pile| (!self.piles[pile.index()].is_empty()).then_some(pile));
                let n = piles.iter().flatten().count() as u32;
                piles
                    .into_iter()
                    .flatten()
                    .nth(rng.below(n) as usize)
                    .map(Action::Take)
            }
            Phase::Exhibiting | Phase::FinalExhibit => {
                let (hand, sel) = (self.art[p], self.exhibit[p]);
                let adds = self.addable(hand, sel);
                let nothing = u32::from(sel == 0);
                let show = u32::from(three_or_more(sel));
                let n = nothing + adds.count_ones() + show;
                let k = rng.below(n);
                if k < nothing {
                    Some(Action::ShowNothing)
                } else if k - nothing < adds.count_ones() {
                    Some(Action::Exhibit(ArtCard(nth_set_bit(adds, k - nothing)?)))
                } else if show == 1 {
                    Some(Action::Show)
                } else {
                    None
                }
            }
            Phase::Stealing => {
                let e = self.robbed()?;
                nth_bit(self.exhibit[e], rng).map(|a| Action::Steal(ArtCard(a)))
            }
            Phase::Over => None,
        }
    }

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
        self.check(p, action).map_err(ActionError::Illegal)?;
        let me = seat_bit(p);
        match *action {
            Action::Go(place) => {
                match place {
                    Place::AuctionHouse => self.at_auction |= me,
                    Place::Castle => self.at_castle |= me,
                }
                self.pending &= !me;
            }
            Action::Play(card) => {
                self.played[p] = card.0;
                self.pending &= !me;
            }
            Action::Exhibit(a) => self.exhibit[p] |= a.bit(),
            Action::Show | Action::ShowNothing => self.pending &= !me,
            Action::Take(pile) => {
                self.finish_auction(p, pile);
                return Ok(());
            }
            Action::Steal(a) => {
                if let Some(e) = self.robbed() {
                    self.steal(p, e, a);
                }
                self.steal_e += 1;
                self.continue_stealing();
                return Ok(());
            }
        }
        if self.pending == 0 {
            self.all_chosen();
        }
        Ok(())
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

    fn describe(&self, action: &Action) -> String {
        let rules = self.rules();
        match *action {
            Action::Go(Place::AuctionHouse) => "go to the auction house".into(),
            Action::Go(Place::Castle) => "go to the castle".into(),
            Action::Play(card) => format!("play {}", describe_card(rules, card)),
            Action::Exhibit(a) => format!("put {} into the exhibit", describe_art(rules, a)),
            Action::Show => "show the exhibit".into(),
            Action::ShowNothing => "show no exhibit".into(),
            Action::Take(Pile::Left) => "take the face-up art of the left pile".into(),
            Action::Take(Pile::Right) => "take the face-up art of the right pile".into(),
            Action::Steal(a) => format!("steal {}", describe_art(rules, a)),
        }
    }
}

/// The `k`-th set bit of a mask (lowest first).
fn nth_set_bit(mask: u64, k: u32) -> Option<u8> {
    let mut rest = mask;
    for _ in 0..k {
        rest &= rest.wrapping_sub(1);
    }
    (rest != 0).then(|| rest.trailing_zeros() as u8)
}

/// A uniformly drawn set bit of a non-empty mask.
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

// ---- determinization ----

impl ArtHeist {
    /// Redeals every art card `s` cannot see — other players' unseen cards and the piles
    /// below their face-up tops — keeping how many each holds. Nothing more is known of
    /// them: showing no exhibit is always allowed, so not even a failure tells.
    fn redeal_hidden_art(&mut self, s: usize, rng: &mut GameRng) {
        let hidden = self.rules().all_art() & !self.public_art & !self.art[s];
        let mut pool = Stack::<MAX_ART>::new();
        for a in bits(hidden) {
            pool.push(a);
        }
        rng.shuffle(pool.as_mut_slice());
        let mut next = pool.as_slice().iter().copied();
        for p in (0..PLAYERS).filter(|&p| p != s) {
            let unseen = self.art[p] & !self.public_art;
            let mut fresh = self.art[p] & self.public_art;
            for _ in 0..unseen.count_ones() {
                if let Some(a) = next.next() {
                    fresh |= ArtCard(a).bit();
                }
            }
            self.art[p] = fresh;
        }
        for pile in &mut self.piles {
            let below_top = pile.len().saturating_sub(1);
            for slot in pile.as_mut_slice().iter_mut().take(below_top) {
                if let Some(a) = next.next() {
                    *slot = a;
                }
            }
        }
    }

    /// Redraws the face-down choices of the other seats in the secret choice under way.
    fn redraw_hidden_choices(&mut self, s: usize, rng: &mut GameRng) {
        let others = self.choosing() & !self.pending & !seat_bit(s);
        match self.phase {
            Phase::Location => {
                for p in seats(others) {
                    let bit = seat_bit(p);
                    self.at_auction &= !bit;
                    self.at_castle &= !bit;
                    if rng.chance(1, 2) {
                        self.at_auction |= bit;
                    } else {
                        self.at_castle |= bit;
                    }
                }
            }
            Phase::AuctionCards | Phase::CastleCards => {
                for p in seats(others) {
                    let hand = self.cards[p];
                    let k = rng.below(hand.count_ones());
                    if let Some(c) = bits(hand).nth(k as usize) {
                        self.played[p] = c;
                    }
                }
            }
            Phase::Exhibiting | Phase::FinalExhibit => {
                let choosing = self.choosing() & !seat_bit(s);
                for p in seats(choosing) {
                    self.exhibit[p] = if others & seat_bit(p) != 0 {
                        self.random_exhibit(self.art[p], rng)
                    } else {
                        // Still putting it together: begin again from nothing.
                        0
                    };
                }
            }
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => {}
        }
    }

    /// A random valid exhibit from `hand`, built the way a player builds one (0 if the
    /// hand has none).
    pub(crate) fn random_exhibit(&self, hand: u64, rng: &mut GameRng) -> u64 {
        let mut sel = 0u64;
        loop {
            let options = self.addable(hand, sel);
            let can_show = three_or_more(sel);
            let n = options.count_ones() as usize + usize::from(can_show);
            if n == 0 {
                return if can_show { sel } else { 0 };
            }
            match bits(options).nth(rng.index(n)) {
                Some(a) => sel |= ArtCard(a).bit(),
                None => return sel,
            }
        }
    }
}
