//! What one viewer sees of the table.

use crate::cards::{bits, ActionCard, ArtCard, Colour, Kind, Letter, Place, PLAYERS};
use crate::components::Components;
use crate::game::{seat_bit, unpack_run, ArtHeist, AuctionResult, Phase, NONE};
use serde::Serialize;
use takuge_engine::{Seat, Viewer};

/// Everything one viewer may see, and nothing more.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    pub viewer: Option<Seat>,
    pub turn: u16,
    pub max_turns: u16,
    pub goal: u8,
    /// What the table is deciding now.
    pub step: Step,
    /// The numbers of the castle beside the leading pawn: how far an exhibit's first and
    /// second place move.
    pub castle: [u8; 2],
    pub players: Vec<PlayerView>,
    pub piles: Vec<PileView>,
    /// The safe (金庫), bottom to top. Only the top card lies face up, but every cheque in
    /// it was shown when it was bid, and players remember (see the rules doc).
    pub safe: Vec<CardFace>,
    /// The cage (檻), cell 1 (the newest prisoner) first.
    pub cage: Vec<CardFace>,
    pub cage_cells: u8,
    /// This turn's sale, once it happened.
    pub auction: Option<AuctionView>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Everyone who plays this turn sets the 「1」 card face down.
    ChoosePlace,
    /// The auction-house players set their 「2」 cards face down.
    AuctionCards,
    /// The highest bidder chooses a pile.
    ChoosePile {
        winner: Seat,
    },
    /// The castle players set their 「2」 cards face down.
    CastleCards,
    /// The exhibitors put their exhibits together, in secret.
    Exhibiting,
    /// A thief chooses the card it steals from an exhibit.
    Stealing {
        thief: Seat,
        from: Seat,
    },
    /// Everyone puts the final exhibit together, in secret.
    FinalExhibit,
    Over,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub colour: Colour,
    pub position: u8,
    /// Rank (順位) on the track: 1 + the pawns strictly ahead.
    pub rank: u8,
    /// Skips this turn (failed exhibit last turn).
    pub resting: bool,
    /// Skips the next turn.
    pub resting_next: bool,
    /// Where the player is this turn, once the places are revealed (own: once chosen).
    pub place: Option<Place>,
    /// Has chosen in the secret choice under way (never what).
    pub has_chosen: bool,
    /// The 「2」 card played this turn, once revealed (own: once chosen).
    pub played: Option<CardFace>,
    /// The action cards the player holds, including one set face down this turn. Every
    /// card's whereabouts follows from what was shown, so they are public.
    pub cards: Vec<CardFace>,
    /// The art cards of this player the viewer can see (own: all of them).
    pub art: Vec<ArtFace>,
    /// How many of this player's art cards the viewer cannot see.
    pub hidden_art: u8,
    /// This turn's exhibit: own while being put together; everyone's once shown (what
    /// is left of it after the thieves).
    pub exhibit: Option<Vec<ArtFace>>,
    /// The letters (first and last) of the exhibit being put together: own only, once
    /// chosen, until the exhibits are revealed.
    pub exhibit_letters: Option<[Letter; 2]>,
    /// Showed no valid exhibit this turn (once revealed).
    pub exhibit_failed: bool,
    /// Strength of the final exhibit, once shown (more cards, then older; 0: none).
    pub final_strength: u16,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PileView {
    pub size: u8,
    pub top: Option<ArtFace>,
}

/// An action card as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CardFace {
    pub id: ActionCard,
    pub colour: Colour,
    pub kind: Kind,
    /// Cheque value in yen, or thief number; absent for the detective and exhibition card.
    pub value: Option<u32>,
}

/// An art card as printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct ArtFace {
    pub id: ArtCard,
    pub series: char,
    pub year: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct AuctionView {
    pub winner: Seat,
    pub art: Option<ArtFace>,
    pub money: CardFace,
    pub stolen_by: Option<Seat>,
}

pub(crate) fn card_face(rules: &Components, card: ActionCard) -> CardFace {
    let value = match card.kind() {
        Kind::Money => Some(u32::from(rules.value(card)) * 1000),
        Kind::Thief => Some(u32::from(rules.value(card))),
        Kind::Detective | Kind::Exhibit => None,
    };
    CardFace {
        id: card,
        colour: card.colour(),
        kind: card.kind(),
        value,
    }
}

pub(crate) fn art_face(rules: &Components, a: ArtCard) -> ArtFace {
    ArtFace {
        id: a,
        series: rules.letter(a),
        year: rules.year(a),
    }
}

impl View {
    pub(crate) fn new(g: &ArtHeist, viewer: Viewer) -> View {
        let rules = g.rules();
        let me = viewer.seat().map(Seat::index).filter(|&s| s < PLAYERS);
        let step = match g.phase {
            Phase::Location => Step::ChoosePlace,
            Phase::AuctionCards => Step::AuctionCards,
            Phase::AuctionPile { winner } => Step::ChoosePile {
                winner: Seat(winner),
            },
            Phase::CastleCards => Step::CastleCards,
            Phase::Exhibiting => Step::Exhibiting,
            Phase::Stealing => Step::Stealing {
                thief: Seat(g.pending.trailing_zeros() as u8),
                from: Seat(g.robbed().unwrap_or(0) as u8),
            },
            Phase::FinalExhibit => Step::FinalExhibit,
            Phase::Over => Step::Over,
        };
        let places_public = g.phase != Phase::Location;
        let secret_choice = matches!(
            g.phase,
            Phase::Location
                | Phase::AuctionCards
                | Phase::CastleCards
                | Phase::Exhibiting
                | Phase::FinalExhibit
        );
        let choosing = match g.phase {
            Phase::Location => crate::cards::ALL_SEATS & !g.resting,
            Phase::AuctionCards => g.at_auction,
            Phase::CastleCards => g.at_castle,
            Phase::Exhibiting | Phase::FinalExhibit => g.exhibitors,
            _ => 0,
        };
        let players = (0..PLAYERS)
            .map(|p| {
                let bit = seat_bit(p);
                let own = me == Some(p);
                let place = if own || places_public {
                    if g.at_auction & bit != 0 {
                        Some(Place::AuctionHouse)
                    } else if g.at_castle & bit != 0 {
                        Some(Place::Castle)
                    } else {
                        None
                    }
                } else {
                    None
                };
                let played = match g.played[p] {
                    c if c != crate::game::NONE && (own || g.revealed & bit != 0) => {
                        Some(card_face(rules, ActionCard(c)))
                    }
                    _ => None,
                };
                let visible_art = if own {
                    g.art[p]
                } else {
                    g.art[p] & g.public_art
                };
                let exhibit = if own || g.exhibits_shown {
                    let e = g.exhibit[p];
                    (g.exhibitors & bit != 0)
                        .then(|| bits(e).map(|a| art_face(rules, ArtCard(a))).collect())
                } else {
                    None
                };
                let exhibit_letters = match g.run[p] {
                    run if own && run != NONE && !g.exhibits_shown => {
                        let (from, to) = unpack_run(run);
                        Some([Letter(from as u8), Letter(to as u8)])
                    }
                    _ => None,
                };
                PlayerView {
                    seat: Seat(p as u8),
                    colour: g.colour[p],
                    position: g.position[p],
                    rank: g.rank(p),
                    resting: g.resting & bit != 0,
                    resting_next: g.next_resting & bit != 0,
                    place,
                    has_chosen: secret_choice && choosing & bit != 0 && g.pending & bit == 0,
                    played,
                    cards: bits(g.cards[p])
                        .map(|c| card_face(rules, ActionCard(c)))
                        .collect(),
                    art: bits(visible_art)
                        .map(|a| art_face(rules, ArtCard(a)))
                        .collect(),
                    hidden_art: (g.art[p] & !visible_art).count_ones() as u8,
                    exhibit,
                    exhibit_letters,
                    exhibit_failed: g.exhibits_shown && g.failed & bit != 0,
                    final_strength: g.final_strength[p],
                }
            })
            .collect();
        View {
            viewer: me.map(|s| Seat(s as u8)),
            turn: g.turn,
            max_turns: rules.max_turns,
            goal: rules.goal,
            step,
            castle: g.castle_numbers(),
            players,
            piles: g
                .piles
                .iter()
                .map(|pile| PileView {
                    size: pile.len() as u8,
                    top: pile.top().map(|a| art_face(rules, ArtCard(a))),
                })
                .collect(),
            safe: g
                .safe
                .as_slice()
                .iter()
                .map(|&c| card_face(rules, ActionCard(c)))
                .collect(),
            cage: g
                .cage
                .as_slice()
                .iter()
                .map(|&c| card_face(rules, ActionCard(c)))
                .collect(),
            cage_cells: rules.cage_cells,
            auction: g.auction.map(|a: AuctionResult| AuctionView {
                winner: a.winner,
                art: a.art.map(|x| art_face(rules, x)),
                money: card_face(rules, a.money),
                stolen_by: a.stolen_by,
            }),
        }
    }
}
