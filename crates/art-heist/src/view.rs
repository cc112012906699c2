//! What one viewer sees of the table, and the English log lines (`describe_for`).

use crate::cards::{ActionCard, ArtCard, Colour, Kind, Letter, Pile, Place, ALL_SEATS, PLAYERS};
use crate::data::{Castle, Components};
use crate::state::{lowest, seat_bit, ArtHeist, Phase};
use crate::types::{Action, AuctionResult, SeatId};
use serde::Serialize;
use takuge_engine::{bits, Seat, Seated, Viewer};

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
    /// The safe (金庫) as the viewer sees it, bottom to top: its top card only (「金庫の
    /// 情報は一番上の情報だけ公開」), or the whole safe with the memory aid option.
    pub safe: Vec<CardFace>,
    /// How many cheques the safe holds (the pile's height is plain to see).
    pub safe_size: u8,
    /// The cage (檻), cell 1 (the newest prisoner) first.
    pub cage: Vec<CardFace>,
    pub cage_cells: u8,
    /// This turn's sale, once it happened.
    pub auction: Option<AuctionView>,
    /// The castles beside the track in track order (the table's components, the same for
    /// everyone), so a client draws the track without a copy of the data file.
    pub castles: &'static [Castle],
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
    /// The action cards the player holds, including one set face down this turn: own
    /// always; another player's only with the memory aid. Every card's whereabouts
    /// follows from what was shown, but a player must remember it, as the safe below
    /// the top card (「前の情報は、記憶を辿ることで推測する」): with every hand on view,
    /// the safe's hidden cheques would be plain (all cards less hands, cage and safe top).
    pub cards: Vec<CardFace>,
    /// How many action cards the player holds (a hand's size is plain to see).
    pub card_count: u8,
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
        let me = viewer.seat().and_then(|s| Seated::check(s, PLAYERS));
        let step = match g.phase {
            Phase::Location => Step::ChoosePlace,
            Phase::AuctionCards => Step::AuctionCards,
            Phase::AuctionPile { winner } => Step::ChoosePile {
                winner: winner.seat(),
            },
            Phase::CastleCards => Step::CastleCards,
            Phase::Exhibiting => Step::Exhibiting,
            // The phase is entered only with a thief pending and an exhibit to rob
            // (`continue_stealing`), so the `Seat(0)` fallbacks are never shown; the
            // fields stay plain seats for the recorded views' shape (an `Option` would
            // change the JSON).
            Phase::Stealing => Step::Stealing {
                thief: lowest(g.pending).map_or(Seat(0), SeatId::seat),
                from: g.robbed().map_or(Seat(0), SeatId::seat),
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
            Phase::Location => ALL_SEATS & !g.resting,
            Phase::AuctionCards => g.at_auction,
            Phase::CastleCards => g.at_castle,
            Phase::Exhibiting | Phase::FinalExhibit => g.exhibitors,
            _ => 0,
        };
        let players = SeatId::all(PLAYERS)
            .map(|p| {
                let bit = seat_bit(p);
                let own = me == Some(p);
                let place = if own || places_public {
                    g.place_of(p)
                } else {
                    None
                };
                let played = g.played[p]
                    .filter(|_| own || g.revealed & bit != 0)
                    .map(|c| card_face(rules, c));
                let visible_art = if own {
                    g.art[p]
                } else {
                    g.art[p] & g.public_art
                };
                let exhibit = if own || g.exhibits_shown {
                    let e = g.exhibit[p];
                    (g.exhibitors & bit != 0)
                        .then(|| bits::iter(e).map(|a| art_face(rules, ArtCard(a))).collect())
                } else {
                    None
                };
                let exhibit_letters = match g.run[p] {
                    Some(run) if own && !g.exhibits_shown => {
                        Some([Letter(run.from() as u8), Letter(run.to() as u8)])
                    }
                    _ => None,
                };
                PlayerView {
                    seat: p.seat(),
                    colour: g.colour[p],
                    position: g.position[p],
                    rank: g.rank(p),
                    resting: g.resting & bit != 0,
                    resting_next: g.next_resting & bit != 0,
                    place,
                    has_chosen: secret_choice && choosing & bit != 0 && g.pending & bit == 0,
                    played,
                    cards: if own || g.options.memory_aid {
                        bits::iter(g.cards[p])
                            .map(|c| card_face(rules, ActionCard(c)))
                            .collect()
                    } else {
                        Vec::new()
                    },
                    card_count: bits::count(g.cards[p]) as u8,
                    art: bits::iter(visible_art)
                        .map(|a| art_face(rules, ArtCard(a)))
                        .collect(),
                    hidden_art: bits::count(g.art[p] & !visible_art) as u8,
                    exhibit,
                    exhibit_letters,
                    exhibit_failed: g.exhibits_shown && g.failed & bit != 0,
                    final_strength: g.final_strength[p],
                }
            })
            .collect();
        View {
            viewer: me.map(SeatId::seat),
            turn: g.turn,
            max_turns: rules.max_turns,
            goal: rules.goal,
            step,
            castle: g.castle_numbers(),
            castles: &rules.castles,
            players,
            piles: g
                .piles
                .iter()
                .map(|pile| PileView {
                    size: pile.len() as u8,
                    top: pile.last().map(|&a| art_face(rules, a)),
                })
                .collect(),
            safe: g
                .safe
                .iter()
                .skip(if g.options.memory_aid {
                    0
                } else {
                    g.safe.len().saturating_sub(1)
                })
                .map(|&c| card_face(rules, c))
                .collect(),
            safe_size: g.safe.len() as u8,
            cage: g.cage.iter().map(|&c| card_face(rules, c)).collect(),
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

impl ArtHeist {
    /// `Game::describe_for`: the pile chosen and the card stolen are chosen in the
    /// open; everything else is a secret choice (「秘密裏に」): the others learn only that
    /// the actor has acted, and what was chosen when all are revealed (in the views).
    pub(crate) fn describe_line(
        &self,
        actor: Seat,
        action: &Action,
        viewer: Viewer,
    ) -> Option<String> {
        match action {
            Action::Take(_) | Action::Steal(_) => Some(self.describe_action(action)),
            _ => (viewer == Viewer::Seat(actor)).then(|| self.describe_action(action)),
        }
    }

    /// `Game::describe`.
    pub(crate) fn describe_action(&self, action: &Action) -> String {
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
