//! What one viewer may see: everything public, the seat's own cards and bids, and
//! what the seat itself saw through Mrs. Truelight or the "?" pile — kept for the
//! rest of the game, so a returning player can read it again.

use crate::data::{self, PER_ROUND};
use crate::state::{GhostForSale, GHOST, PAINTING};
use crate::types::{AuctionKind, BidSpot, Phase, PropertyId};
use crate::{Action, Mark, QuestionCard, Special, Target, Token};
use serde::Serialize;
use takuge_engine::{Seat, Viewer};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct View {
    /// `None` for a spectator.
    pub viewer: Option<Seat>,
    pub players: usize,
    /// 1 (manors) or 2 (castles).
    pub round: u8,
    pub step: Step,
    /// The first player of the current round; it acts first in every step.
    pub first_player: Seat,
    /// Who the table waits for (public).
    pub to_move: Vec<Seat>,
    /// The seat whose turn it is in the declarations and auctions.
    pub turn: Option<TurnView>,
    pub seats: Vec<SeatView>,
    /// The properties laid out so far: the manors, then (from round 2) the castles.
    pub properties: Vec<PropertyView>,
    /// Special cards of the advanced variant not placed on a property this round.
    pub spare_special_cards: Vec<Special>,
    /// Every auction begun so far, with its cards in the order they were placed.
    pub auctions: Vec<AuctionView>,
    /// Mrs. Truelight's looks (the magnifying-glass tokens), per round.
    pub looks: Vec<LookView>,
    /// Who saw the unused "?" cards, per round.
    pub pile: Vec<PileView>,
    /// The viewer's own secrets.
    pub me: Option<PrivateView>,
    /// The back mark of each bidding card, values 1 to 10 in order (printed on the cards,
    /// the same for everyone), so a client never keeps its own copy of the data file.
    pub card_marks: [Mark; 10],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Step {
    /// Setup: everyone secretly sets four bidding cards aside for round 2.
    SetAside,
    /// ① Everyone secretly plays the truth or the lie card.
    TruthOrLie,
    /// ② Declarations, one token per turn.
    Declarations,
    /// ③ Mrs. Truelight and the "?" pile.
    InformationAuction,
    /// ④ The manors or the castles.
    PropertyAuction,
    /// The buyer of a property decides on its special card.
    SpecialCard {
        round: u8,
        property: u8,
        card: Special,
    },
    GameOver,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TurnView {
    pub seat: Seat,
    /// Cards already placed this turn (a turn is one or two cards).
    pub cards_placed: u8,
    /// Where the card being placed goes (chosen, the card not yet played).
    pub placing_on: Option<Target>,
    /// The last-player rule is in force: this seat, the only one with cards left, may
    /// play one card and then the auction ends.
    pub last_card: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SeatView {
    pub seat: Seat,
    pub hand_count: u8,
    pub set_aside_count: u8,
    /// Has played its "?" card this round (never which one, until the reveal).
    pub has_chosen: bool,
    /// The "?" card of each round already revealed (index 0 = round 1).
    pub revealed_cards: Vec<QuestionCard>,
    pub passed: bool,
    pub bid_on_truelight: bool,
    pub tokens_left: TokensLeft,
    /// Its bidding cards in the box (paid or lost), by value.
    pub paid: Vec<u8>,
    pub crystal_ball: bool,
    pub family_portrait: bool,
    /// Points so far (properties of revealed rounds and the special cards it holds).
    pub score: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TokensLeft {
    pub ghost: u8,
    pub painting: u8,
    pub double_faced: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PropertyKind {
    /// 館
    Manor,
    /// 城
    Castle,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PropertyView {
    pub round: u8,
    /// Place in alphabetical order within its round (the `Target::Property` index).
    pub index: u8,
    pub name: String,
    pub kind: PropertyKind,
    /// Points for 0..4 ghosts; 5 or more score 0.
    pub points: [u8; 5],
    pub special: Option<Special>,
    /// Declaration tokens on it, per seat, by the face they were placed on.
    pub declarations: Vec<SeatTokens>,
    /// Magic mirror: whose ghost-face token was removed.
    pub mirror_removed: Option<Seat>,
    /// Secret crypt: a ghost was added.
    pub crypt_ghost_added: bool,
    pub crystal_guess: Option<u8>,
    pub owner: Option<Seat>,
    /// Resolved with no bid: gone to the box.
    pub boxed: bool,
    /// Ghosts actually seen, after the "?" cards are revealed.
    pub ghosts: Option<u8>,
    pub score: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SeatTokens {
    pub ghost: u8,
    pub painting: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AuctionView {
    pub round: u8,
    /// "information" or "property".
    pub kind: &'static str,
    /// Turned face up (the auction is over).
    pub revealed: bool,
    pub bids: Vec<BidView>,
    /// Once revealed: per spot bid on (in the order first bid on), the bidders best
    /// first by the rules' order (total, then highest card, then who placed it first).
    pub ranking: Vec<SpotRanking>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SpotRanking {
    pub target: Target,
    pub bidders: Vec<Bidder>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Bidder {
    pub seat: Seat,
    /// The sum of the seat's cards on the spot.
    pub total: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct BidView {
    pub seat: Seat,
    pub target: Target,
    /// The back, which everyone sees.
    pub mark: Mark,
    /// The value, to its owner, once revealed, or when placed face up.
    pub value: Option<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LookView {
    pub round: u8,
    /// Mrs. Truelight's rank of the looker (1 = first).
    pub rank: u8,
    pub looker: Seat,
    /// Whose "?" card it saw; it holds that seat's magnifying-glass token.
    pub looked_at: Seat,
    /// What it saw: shown to the looker, and to all once the round's cards are revealed.
    pub seen: Option<QuestionCard>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PileView {
    pub round: u8,
    pub seer: Seat,
    /// What it saw: shown to the seer, and to all once the round's cards are revealed.
    pub seen: Option<PileCounts>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PileCounts {
    pub truth: u8,
    pub lie: u8,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PrivateView {
    /// Bidding cards in hand, by value.
    pub hand: Vec<u8>,
    /// The cards under the character card, for round 2.
    pub set_aside: Vec<u8>,
    /// The "?" card played this round.
    pub question_card: Option<QuestionCard>,
}

fn values(counts: &[u8; 11]) -> Vec<u8> {
    let mut out = Vec::new();
    for (v, &c) in counts.iter().enumerate() {
        for _ in 0..c {
            out.push(v as u8);
        }
    }
    out
}

pub(crate) fn build(g: &GhostForSale, viewer: Viewer) -> View {
    let n = g.n();
    let me = viewer.seat().and_then(|s| g.seated(s));
    let round = usize::from(g.round);
    let step = match g.phase {
        Phase::SetAside => Step::SetAside,
        Phase::Choose => Step::TruthOrLie,
        Phase::Declare => Step::Declarations,
        Phase::Auction(AuctionKind::Info) => Step::InformationAuction,
        Phase::Auction(AuctionKind::Property) => Step::PropertyAuction,
        Phase::Special(p) => Step::SpecialCard {
            round: p.round() + 1,
            property: p.lot().get(),
            card: g.special[p.index()].unwrap_or(Special::PerfectlyNormal),
        },
        Phase::Over => Step::GameOver,
    };
    let turn = match g.phase {
        Phase::Declare | Phase::Auction(_) | Phase::Special(_) => Some(TurnView {
            seat: g.turn.seat(),
            cards_placed: g.placed,
            placing_on: g.pending_target.map(|s| s.target()),
            last_card: g.last_call,
        }),
        _ => None,
    };
    let seats = g
        .seats()
        .map(|s| {
            let p = &g.players[s];
            SeatView {
                seat: s.seat(),
                hand_count: p.hand_n,
                set_aside_count: p.aside_n,
                has_chosen: g.card[round][s].is_some(),
                revealed_cards: (0..2)
                    .filter(|&r| g.round_revealed(r))
                    .filter_map(|r| g.card[r][s])
                    .collect(),
                passed: p.passed,
                bid_on_truelight: p.on_truelight,
                tokens_left: TokensLeft {
                    ghost: p.tokens[0],
                    painting: p.tokens[1],
                    double_faced: p.tokens[2],
                },
                paid: values(&p.paid),
                crystal_ball: g.crystal_owner == Some(s),
                family_portrait: g.portrait_owner == Some(s),
                score: g.score(s),
            }
        })
        .collect();
    let properties = PropertyId::all()
        .take((round + 1) * PER_ROUND)
        .map(|p| {
            let i = p.index();
            PropertyView {
                round: p.round() + 1,
                index: p.lot().get(),
                name: data::property_name(i),
                kind: if p.round() == 0 {
                    PropertyKind::Manor
                } else {
                    PropertyKind::Castle
                },
                points: g.points[i],
                special: g.special[i],
                declarations: g.decl[i]
                    .first(n)
                    .iter()
                    .map(|f| SeatTokens {
                        ghost: f[GHOST],
                        painting: f[PAINTING],
                    })
                    .collect(),
                mirror_removed: g.mirror_removed[i].map(|s| s.seat()),
                crypt_ghost_added: g.crypt_added[i],
                crystal_guess: g.crystal_guess[i],
                owner: g.owner[i].map(|s| s.seat()),
                boxed: g.resolved[i] && g.owner[i].is_none(),
                ghosts: g.ghosts[i],
                score: g.property_points(p),
            }
        })
        .collect();
    let spare_special_cards = Special::ALL
        .into_iter()
        .filter(|s| g.spare[round] & (1 << s.index()) != 0)
        .collect();
    let auctions = g
        .auctions
        .iter()
        .enumerate()
        .filter(|(_, a)| a.started)
        .map(|(i, a)| AuctionView {
            round: (i / 2 + 1) as u8,
            kind: if i % 2 == 0 {
                "information"
            } else {
                "property"
            },
            revealed: a.revealed,
            bids: a
                .bids()
                .iter()
                .map(|b| BidView {
                    seat: b.seat.seat(),
                    target: b.spot.target(),
                    mark: g.mark(b.value),
                    value: (a.revealed || b.face_up || me == Some(b.seat)).then_some(b.value),
                })
                .collect(),
            ranking: if a.revealed {
                ranking(g, i)
            } else {
                Vec::new()
            },
        })
        .collect();
    let mut looks = Vec::new();
    let mut pile = Vec::new();
    for r in 0..=round {
        let open = g.round_revealed(r);
        let chain = g.chain[r]
            .get(..usize::from(g.chain_len[r]))
            .unwrap_or_default();
        for (rank, w) in chain.windows(2).enumerate() {
            let (looker, looked_at) = (w[0], w[1]);
            looks.push(LookView {
                round: r as u8 + 1,
                rank: rank as u8 + 1,
                looker: looker.seat(),
                looked_at: looked_at.seat(),
                seen: (open || me == Some(looker))
                    .then(|| g.card[r][looked_at])
                    .flatten(),
            });
        }
        if let Some(seer) = g.pile_seer[r] {
            // The pile holds every seat's unused card: a lie card for each truth-teller.
            let truth_tellers = g.card[r]
                .first(n)
                .iter()
                .filter(|c| **c == Some(QuestionCard::Truth))
                .count() as u8;
            pile.push(PileView {
                round: r as u8 + 1,
                seer: seer.seat(),
                seen: (open || me == Some(seer)).then_some(PileCounts {
                    truth: n as u8 - truth_tellers,
                    lie: truth_tellers,
                }),
            });
        }
    }
    let me_view = me.map(|s| {
        let p = &g.players[s];
        PrivateView {
            hand: values(&p.hand),
            set_aside: values(&p.aside),
            question_card: g.card[round][s],
        }
    });
    View {
        viewer: me.map(|s| s.seat()),
        players: n,
        round: g.round + 1,
        step,
        first_player: g.first[round].seat(),
        to_move: g.pending.iter().collect(),
        turn,
        seats,
        properties,
        spare_special_cards,
        auctions,
        looks,
        pile,
        me: me_view,
        card_marks: std::array::from_fn(|i| g.mark(i as u8 + 1)),
    }
}

/// The name of property `lot` of the current round (any index: a line may describe
/// an action that was refused).
fn property_name(g: &GhostForSale, lot: u8) -> String {
    data::property_name(usize::from(g.round) * PER_ROUND + usize::from(lot))
}

/// The full line, as the actor reads it.
pub(crate) fn describe(g: &GhostForSale, action: &Action) -> String {
    match *action {
        Action::SetAside { value } => format!("set a {value} aside for round 2"),
        Action::Choose { card } => match card {
            QuestionCard::Truth => "play the truth card".into(),
            QuestionCard::Lie => "play the lie card".into(),
        },
        Action::Declare { property, token } => {
            let what = match token {
                Token::Ghost => "a ghost token",
                Token::Painting => "a painting token",
                Token::DoubleGhost => "a double-faced token, ghost up",
                Token::DoublePainting => "a double-faced token, painting up",
            };
            format!("declare {what} on {}", property_name(g, property))
        }
        Action::Bid { target } => {
            let on = match target {
                Target::Truelight => "Mrs. Truelight".to_string(),
                Target::Pile => "the \"?\" pile".to_string(),
                Target::Property(i) => property_name(g, i),
            };
            format!("bid on {on}")
        }
        Action::Play { value } => format!("play a {value}"),
        Action::Done => "end the turn".into(),
        Action::Pass => "pass".into(),
        Action::RemoveGhost { owner } => {
            format!(
                "Magic mirror: remove a ghost token of seat {}",
                u16::from(owner.0) + 1
            )
        }
        Action::AddGhost => "Secret crypt: add a ghost".into(),
        Action::Decline => "do not use the special card".into(),
        Action::Guess { ghosts } => format!("Crystal ball: guess {ghosts} ghosts"),
    }
}

/// Declarations, targets, passes and special-card decisions are public; which card
/// was set aside, which "?" card was played and a face-down card's value are not
/// (its back mark is).
pub(crate) fn describe_for(
    g: &GhostForSale,
    actor: Seat,
    action: &Action,
    viewer: Viewer,
) -> Option<String> {
    if viewer == Viewer::Seat(actor) {
        return Some(describe(g, action));
    }
    match *action {
        Action::SetAside { .. } => Some("set a card aside for round 2".into()),
        Action::Choose { .. } => Some("play a \"?\" card face down".into()),
        Action::Play { value } if g.play_is_face_up() => Some(format!("play a {value}, face up")),
        Action::Play { value } => Some(match g.mark(value) {
            Mark::High => "play a card face down (high mark)".into(),
            Mark::Low => "play a card face down (low mark)".into(),
        }),
        _ => Some(describe(g, action)),
    }
}

/// A revealed auction's standings per spot, as the rules rank them (`Tally`).
fn ranking(g: &GhostForSale, a: usize) -> Vec<SpotRanking> {
    let tally = g.tally(a);
    let mut spots: Vec<BidSpot> = Vec::new();
    for b in g.auctions[a].bids() {
        if !spots.contains(&b.spot) {
            spots.push(b.spot);
        }
    }
    spots
        .into_iter()
        .map(|spot| {
            let (order, len) = tally.ranking(spot, g.n());
            SpotRanking {
                target: spot.target(),
                bidders: order[..len]
                    .iter()
                    .map(|&s| Bidder {
                        seat: s.seat(),
                        total: tally.total(spot, s),
                    })
                    .collect(),
            }
        })
        .collect()
}
