//! THE rules of what may be played: `legal_actions` and the predicates it is built
//! from, and `refusal` (why an unlisted action is refused). The fast sampler and the
//! fast `is_legal` in `fast.rs` are built from the same predicates.

use crate::state::{GhostForSale, Player, GHOST};
use crate::types::{AuctionKind, BidSpot, Lot, Phase, PropertyId, SeatId};
use crate::{Action, QuestionCard, Reject, Special, Target, Token};
use takuge_engine::{bits, Seat};

/// Every token fits: the mask over `Token::ALL` of a property with no restriction.
pub(crate) const ANY_TOKEN: u8 = 0b1111;

/// The tokens a property takes, as bits over `Token::ALL` (ghost, painting, double
/// ghost up, double painting up; see `Token::bit`).
#[inline]
pub(crate) fn tokens_allowed(special: Option<Special>) -> u8 {
    match special {
        // 暗すぎる: "「絵画」面が上になったトークンしか配置できない".
        Some(Special::TooDark) => Token::Painting.bit() | Token::DoublePainting.bit(),
        // 古来からの伝説: "「幽霊」面が上になったトークンしか配置できない".
        Some(Special::AncientLegend) => Token::Ghost.bit() | Token::DoubleGhost.bit(),
        _ => ANY_TOKEN,
    }
}

/// The tokens a seat still holds, as bits over `Token::ALL`: a double-faced token
/// may go either side up.
#[inline]
pub(crate) fn tokens_held(p: &Player) -> u8 {
    let [ghost, painting, double] = p.tokens.map(|t| u8::from(t > 0));
    ghost | (painting << 1) | (double * 0b1100)
}

/// The spots of an auction, in the order the list gives them: Mrs. Truelight and the
/// pile ("3人プレイの場合、(2)のオークションは開催されません。"), or the six properties
/// in alphabetical order.
#[inline]
pub(crate) fn spots(g: &GhostForSale, kind: AuctionKind) -> &'static [BidSpot] {
    const INFO3: [BidSpot; 1] = [BidSpot::Truelight];
    const INFO: [BidSpot; 2] = [BidSpot::Truelight, BidSpot::Pile];
    const PROPS: [BidSpot; 6] = [
        BidSpot::Property(Lot::ALL[0]),
        BidSpot::Property(Lot::ALL[1]),
        BidSpot::Property(Lot::ALL[2]),
        BidSpot::Property(Lot::ALL[3]),
        BidSpot::Property(Lot::ALL[4]),
        BidSpot::Property(Lot::ALL[5]),
    ];
    match kind {
        AuctionKind::Info if g.has_pile() => &INFO,
        AuctionKind::Info => &INFO3,
        AuctionKind::Property => &PROPS,
    }
}

/// How the turn of an auction may end now, before a spot is chosen: `Done` after a
/// card ("1枚か2枚"); `Pass` only at the start of a turn, and in the information
/// auction only after a card on Mrs. Truelight ("ミセス・トゥルーライトに1枚も賭け金
/// カードを置いていないプレイヤーはパスを選ぶことはできません。"); else nothing.
#[inline]
pub(crate) fn stop(g: &GhostForSale, kind: AuctionKind, p: &Player) -> Option<Action> {
    if g.placed != 0 {
        Some(Action::Done)
    } else if kind == AuctionKind::Property || p.on_truelight {
        Some(Action::Pass)
    } else {
        None
    }
}

/// The seats whose ghost-face token the Magic mirror may remove from `g`, as bits.
pub(crate) fn mirror_owners(state: &GhostForSale, g: PropertyId) -> u8 {
    let mut owners = 0u8;
    for (s, f) in state.decl[g.index()].iter(state.n()) {
        owners |= u8::from(f[GHOST] > 0) << s.index();
    }
    owners
}

/// The legal actions of `seat` (empty unless it is pending).
pub(crate) fn legal_actions(g: &GhostForSale, seat: Seat, out: &mut Vec<Action>) {
    out.clear();
    if !g.pending.contains(seat) {
        return;
    }
    let Some(s) = g.seated(seat) else {
        return;
    };
    let p = &g.players[s];
    match g.phase {
        Phase::SetAside => {
            out.extend(bits::iter(u64::from(p.held())).map(|value| Action::SetAside { value }));
        }
        Phase::Choose => {
            out.push(Action::Choose {
                card: QuestionCard::Truth,
            });
            out.push(Action::Choose {
                card: QuestionCard::Lie,
            });
        }
        Phase::Declare => {
            let held = tokens_held(p);
            // Built on the stack and copied out at once: 25 of these steps a round.
            let mut buf = [Action::Done; Lot::ALL.len() * 4];
            let mut k = 0;
            for lot in Lot::ALL {
                let allowed = held & tokens_allowed(g.special_on(lot));
                for i in bits::iter(u64::from(allowed)) {
                    if let (Some(slot), Some(&token)) =
                        (buf.get_mut(k), Token::ALL.get(usize::from(i)))
                    {
                        *slot = Action::Declare {
                            property: lot.get(),
                            token,
                        };
                        k += 1;
                    }
                }
            }
            out.extend_from_slice(buf.get(..k).unwrap_or_default());
        }
        Phase::Auction(kind) => {
            // "the card is held": once a spot is chosen, only a card of the hand.
            if g.pending_target.is_some() {
                out.extend(bits::iter(u64::from(p.held())).map(|value| Action::Play { value }));
                return;
            }
            out.extend(stop(g, kind, p));
            out.extend(
                spots(g, kind)
                    .iter()
                    .map(|s| Action::Bid { target: s.target() }),
            );
        }
        Phase::Special(prop) => match g.special[prop.index()] {
            Some(Special::MagicMirror) => {
                out.push(Action::Decline);
                out.extend(
                    bits::iter(u64::from(mirror_owners(g, prop)))
                        .map(|o| Action::RemoveGhost { owner: Seat(o) }),
                );
            }
            Some(Special::SecretCrypt) => {
                out.push(Action::AddGhost);
                out.push(Action::Decline);
            }
            Some(Special::CrystalBall) => {
                // A guess is between 0 and the number of tokens on the property.
                out.extend((0..=g.tokens_on(prop)).map(|ghosts| Action::Guess { ghosts }));
            }
            _ => {}
        },
        Phase::Over => {}
    }
}

/// Why `seat`, pending, may not play `action` (asked only after the list said no):
/// only about the seat's own cards and tokens or what is public.
pub(crate) fn refusal(g: &GhostForSale, seat: Seat, action: &Action) -> Reject {
    let Some(s) = g.seated(seat) else {
        return Reject::WrongStep;
    };
    let p = &g.players[s];
    match (g.phase, *action) {
        (Phase::SetAside, Action::SetAside { value }) => Reject::NoSuchCard(value),
        (Phase::Declare, Action::Declare { property, token }) => match Lot::new(property) {
            None => Reject::NoSuchProperty(property),
            Some(_) if p.tokens.get(token.supply()).copied().unwrap_or(0) == 0 => Reject::NoToken,
            Some(_) => Reject::FaceForbidden,
        },
        (Phase::Auction(_), Action::Bid { .. } | Action::Done | Action::Pass)
            if g.pending_target.is_some() =>
        {
            Reject::CardPending
        }
        (Phase::Auction(kind), Action::Bid { target }) => spot_refusal(g, kind, target),
        (Phase::Auction(_), Action::Play { value }) => {
            if g.pending_target.is_none() {
                Reject::NoTargetChosen
            } else {
                Reject::NoSuchCard(value)
            }
        }
        (Phase::Auction(_), Action::Done) => Reject::NothingPlaced,
        (Phase::Auction(_), Action::Pass) if g.placed != 0 => Reject::PassOnlyAtTurnStart,
        (Phase::Auction(_), Action::Pass) => Reject::MustBidOnTruelight,
        (Phase::Special(prop), Action::RemoveGhost { .. })
            if g.special[prop.index()] == Some(Special::MagicMirror) =>
        {
            Reject::NoGhostToken
        }
        (Phase::Special(prop), Action::Guess { .. })
            if g.special[prop.index()] == Some(Special::CrystalBall) =>
        {
            Reject::GuessOutOfRange
        }
        _ => Reject::WrongStep,
    }
}

/// Why a target is not one of this auction's spots.
fn spot_refusal(g: &GhostForSale, kind: AuctionKind, target: Target) -> Reject {
    match (kind, target) {
        (AuctionKind::Info, Target::Pile) if !g.has_pile() => Reject::NoPileAuction,
        (AuctionKind::Property, Target::Property(i)) if Lot::new(i).is_none() => {
            Reject::NoSuchProperty(i)
        }
        _ => Reject::WrongTarget,
    }
}

/// The seat is at the table and holds this many tokens of the token's kind (for the
/// fast check in `fast.rs`).
#[inline]
pub(crate) fn may_declare(g: &GhostForSale, s: SeatId, lot: Lot, token: Token) -> bool {
    tokens_held(&g.players[s]) & tokens_allowed(g.special_on(lot)) & token.bit() != 0
}
