//! The state: what is where on the table, and the accessors the rules, the legal list
//! and the views read it through.

use crate::cards::{ActionCard, ArtCard, Colour, Place, ACTION_CARDS, ALL_SEATS, MAX_ART, PLAYERS};
use crate::data::Components;
use crate::fast::HandList;
use crate::types::{AuctionResult, Options, Run, SeatId};
use std::fmt;
use takuge_engine::{bits, FixedList, Seat, SeatMap, Seated};

/// One `T` per seat.
pub(crate) type PerSeat<T> = SeatMap<T, PLAYERS>;

/// Seats in an order (thieves by number, exhibits by strength). `FixedList` needs a
/// `Default` filler for its unused slots, which the engine's `Seated` does not give, so
/// the seat is wrapped (`SeatId::FIRST` fills, and is never read past the list's end).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Listed(pub(crate) SeatId);

impl Default for Listed {
    fn default() -> Self {
        Listed(SeatId::FIRST)
    }
}

/// Seats in an order, at most one each.
pub(crate) type SeatOrder = FixedList<Listed, PLAYERS>;

/// What the table is deciding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Every seat that plays this turn sets its 「1」 card face down.
    Location,
    /// The auction-house players set their 「2」 cards face down.
    AuctionCards,
    /// The highest bidder chooses a pile (only when both have cards).
    AuctionPile {
        winner: SeatId,
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

/// The state of a game of art-heist (seed 001).
#[derive(Clone, PartialEq, Eq)]
pub struct ArtHeist {
    pub(crate) rules: Rules,
    pub(crate) options: Options,
    /// Colour per seat, drawn at setup.
    pub(crate) colour: PerSeat<Colour>,
    /// Seat per colour (`Colour::index`).
    pub(crate) seat_of: [SeatId; PLAYERS],
    /// Pawn positions (spaces from the start; may pass the goal).
    pub(crate) position: PerSeat<u8>,
    /// Action cards held, including one set face down and not yet resolved.
    pub(crate) cards: PerSeat<u64>,
    /// How many action cards each seat holds (`cards` counted, kept up to date where
    /// cards change hands: the random playout draws a card from every hand every turn).
    pub(crate) hand_len: PerSeat<u8>,
    /// Each hand's cards listed lowest first: the playout's copy of `cards` (see
    /// `fast.rs`), kept up to date by [`ArtHeist::take_card`] / [`ArtHeist::give_card`].
    pub(crate) hand: PerSeat<HandList>,
    /// Art cards held, including those in an exhibit.
    pub(crate) art: PerSeat<u64>,
    /// Art cards whose whereabouts every player knows: pile tops, cards taken from a pile
    /// top, exhibited or stolen. Everything else is known to its holder only (or to
    /// nobody, below a pile's top).
    pub(crate) public_art: u64,
    /// The two piles (ヤマ), top last.
    pub(crate) piles: [FixedList<ArtCard, MAX_ART>; 2],
    /// The safe (金庫), top last.
    pub(crate) safe: FixedList<ActionCard, ACTION_CARDS>,
    /// The cage (檻): cell 1 (the newest prisoner) first.
    pub(crate) cage: FixedList<ActionCard, 10>,
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
    /// This turn's 「2」 cards, public for the seats in `revealed`.
    pub(crate) played: PerSeat<Option<ActionCard>>,
    pub(crate) revealed: u8,
    /// This turn's exhibits: being put together, then what is left of them after thieves.
    pub(crate) exhibit: PerSeat<u64>,
    /// The letters each exhibitor chose this turn.
    pub(crate) run: PerSeat<Option<Run>>,
    pub(crate) exhibitors: u8,
    /// Exhibitors who showed no valid exhibit this turn (once revealed).
    pub(crate) failed: u8,
    /// Whether the exhibits have been revealed.
    pub(crate) exhibits_shown: bool,
    /// Seats in stealing order (highest thief number first), exhibitors in rank order.
    pub(crate) steal_thieves: SeatOrder,
    pub(crate) steal_exhibits: SeatOrder,
    pub(crate) steal_t: u8,
    pub(crate) steal_e: u8,
    pub(crate) auction: Option<AuctionResult>,
    /// Seats whose thief was revealed at the auction house / castle this turn, and
    /// whose detective at the castle (worked out once, when the cards are revealed).
    pub(crate) auction_thieves: u8,
    pub(crate) castle_thieves: u8,
    pub(crate) castle_detectives: u8,
    /// Strength of each seat's final exhibit (0: none).
    pub(crate) final_strength: PerSeat<u16>,
    /// The last reveal, for the log (`news.rs`).
    pub(crate) news: crate::news::News,
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
        let sets = |m: &PerSeat<u64>| -> Vec<Vec<u8>> {
            m.first(PLAYERS)
                .iter()
                .map(|&c| bits::iter(c).collect())
                .collect()
        };
        f.debug_struct("ArtHeist")
            .field("turn", &self.turn)
            .field("phase", &self.phase)
            .field("pending", &format_args!("{:05b}", self.pending))
            .field("colour", &self.colour.first(PLAYERS))
            .field("position", &self.position.first(PLAYERS))
            .field("cards", &sets(&self.cards))
            .field("art", &sets(&self.art))
            .field(
                "public_art",
                &bits::iter(self.public_art).collect::<Vec<_>>(),
            )
            .field("piles", &self.piles)
            .field("safe", &self.safe)
            .field("cage", &self.cage)
            .field("resting", &self.resting)
            .field("next_resting", &self.next_resting)
            .field("at_auction", &self.at_auction)
            .field("at_castle", &self.at_castle)
            .field("played", &self.played.first(PLAYERS))
            .field("revealed", &self.revealed)
            .field("exhibit", &sets(&self.exhibit))
            .field("exhibitors", &self.exhibitors)
            .field("final_strength", &self.final_strength.first(PLAYERS))
            .finish_non_exhaustive()
    }
}

/// The seat's bit in a seat mask (`pending`, `at_castle`, ...).
#[inline]
pub(crate) const fn seat_bit(p: SeatId) -> u8 {
    1 << p.index()
}

impl ArtHeist {
    /// Where seat `p` plays this turn, once it has chosen (public once all have).
    pub(crate) fn place_of(&self, p: SeatId) -> Option<Place> {
        let bit = seat_bit(p);
        if self.at_auction & bit != 0 {
            Some(Place::AuctionHouse)
        } else if self.at_castle & bit != 0 {
            Some(Place::Castle)
        } else {
            None
        }
    }
}

/// The lowest seat of a mask, if it is a seat at the table.
#[inline]
pub(crate) fn lowest(mask: u8) -> Option<SeatId> {
    Seated::check(Seat(mask.trailing_zeros() as u8), PLAYERS)
}

/// The seats of a mask, lowest first (bits beyond the table are no seats).
#[inline]
pub(crate) fn seats(mask: u8) -> impl Iterator<Item = SeatId> + Clone {
    // Over the set bits, not the table: most masks are empty or one seat.
    bits::iter(u64::from(mask)).filter_map(|b| Seated::check(Seat(b), PLAYERS))
}

/// Kind per slot of a colour's cards (see [`ArtHeist::playing`]): 4 cheques, 2 thieves,
/// detective, exhibition card.
pub(crate) const KIND_OF_SLOT: [usize; 8] = [0, 0, 0, 0, 1, 1, 2, 3];

/// Seat `p`'s bit in the byte of its card's kind, the masks per kind (`playing`) as the
/// bytes of one `u32`: gathered in a register, not OR-ed into an array's bytes in memory
/// and then read whole (a stalled store-to-load forward each time).
#[inline]
pub(crate) fn kind_bit(p: SeatId, card: ActionCard) -> u32 {
    u32::from(seat_bit(p)) << (8 * KIND_OF_SLOT[card.slot()])
}

impl ArtHeist {
    pub(crate) fn rules(&self) -> &'static Components {
        self.rules.0
    }

    /// The rank (順位) of a seat's pawn on the track: 1 + the pawns strictly ahead
    /// (pawns on the same space share a rank).
    pub(crate) fn rank(&self, p: SeatId) -> u8 {
        rank_among(&self.position, p)
    }

    /// The numbers of the castle beside the leading pawn.
    pub(crate) fn castle_numbers(&self) -> [u8; 2] {
        let leader = self
            .position
            .first(PLAYERS)
            .iter()
            .copied()
            .max()
            .unwrap_or(0);
        self.rules().castle_numbers(leader)
    }

    pub(crate) fn art_left(&self) -> bool {
        !self.piles[0].is_empty() || !self.piles[1].is_empty()
    }

    /// The seats taking part in the secret choice under way (pending or done).
    pub(crate) fn choosing(&self) -> u8 {
        match self.phase {
            Phase::Location => ALL_SEATS & !self.resting,
            Phase::AuctionCards => self.at_auction,
            Phase::CastleCards => self.at_castle,
            Phase::Exhibiting | Phase::FinalExhibit => self.exhibitors,
            Phase::AuctionPile { .. } | Phase::Stealing | Phase::Over => 0,
        }
    }

    /// Seats of `mask` whose played card is of `kind`, as masks per kind (money,
    /// thief, detective, exhibition card), in one pass over the table.
    #[inline]
    pub(crate) fn playing(&self, mask: u8) -> [u8; 4] {
        let mut out = 0u32;
        for p in seats(mask) {
            if let Some(c) = self.played[p] {
                out |= kind_bit(p, c);
            }
        }
        out.to_le_bytes()
    }

    /// Takes an action card from a hand, keeping its size and list.
    pub(crate) fn take_card(&mut self, p: SeatId, card: ActionCard) {
        let bit = card.bit();
        if self.cards[p] & bit != 0 {
            self.hand[p].remove(card.0);
            self.cards[p] &= !bit;
            self.hand_len[p] = self.hand_len[p].saturating_sub(1);
        }
    }

    /// Puts an action card into a hand, keeping its size and list.
    pub(crate) fn give_card(&mut self, p: SeatId, card: ActionCard) {
        let bit = card.bit();
        if self.cards[p] & bit == 0 && bit != 0 {
            self.hand[p].insert(card.0);
            self.cards[p] |= bit;
            self.hand_len[p] = self.hand_len[p].saturating_add(1);
        }
    }

    /// Sets seat `p`'s action cards, with their count and list (scenario tests lay out
    /// hands).
    pub(crate) fn set_hand(&mut self, p: SeatId, cards: u64) {
        self.cards[p] = cards;
        self.hand_len[p] = bits::count(cards) as u8;
        self.hand[p] = HandList::of(cards);
    }

    /// The exhibitor the current thief is robbing.
    pub(crate) fn robbed(&self) -> Option<SeatId> {
        self.steal_exhibits
            .get(usize::from(self.steal_e))
            .map(|l| l.0)
    }
}

/// The rank of seat `p` among `positions`: 1 + the pawns strictly ahead.
pub(crate) fn rank_among(positions: &PerSeat<u8>, p: SeatId) -> u8 {
    let mine = positions[p];
    1 + positions
        .first(PLAYERS)
        .iter()
        .filter(|&&q| q > mine)
        .count() as u8
}
