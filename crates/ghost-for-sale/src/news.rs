//! What each reveal turned face up, for the log (`Game::revealed_in`): the bidding
//! cards of an auction when they are turned over (「1枚ずつ表にしていきます」), and the
//! "?" cards with the ghosts counted at the end of a round (「すべてのプレイヤーは
//! 「?カード」を表にし」). The board shows both from then on; the log says them once,
//! when they come out, so a player and a spectator reading the replay can follow.

use crate::data::{self, PER_ROUND};
use crate::state::GhostForSale;
use crate::types::{BidSpot, SeatId};
use crate::QuestionCard;
use takuge_engine::Lang;

/// `Game::revealed_in`: the auctions and rounds revealed between `before` and `g`.
pub(crate) fn revealed_since(
    g: &GhostForSale,
    before: &GhostForSale,
    lang: Lang,
) -> Option<String> {
    let mut parts = Vec::new();
    for a in 0..g.auctions.len() {
        if g.auctions[a].revealed && !before.auctions[a].revealed {
            parts.push(auction(g, a, lang));
        }
    }
    for r in 0..2 {
        if g.round_revealed(r) && !before.round_revealed(r) {
            parts.push(round(g, r, lang));
        }
    }
    (!parts.is_empty()).then(|| parts.join(" / "))
}

fn seat(p: SeatId, lang: Lang) -> String {
    let n = p.index() + 1;
    match lang {
        Lang::En => format!("seat {n}"),
        Lang::Ja => format!("{n}番席"),
    }
}

fn property(round: usize, lot: u8, lang: Lang) -> String {
    let id = round * PER_ROUND + usize::from(lot);
    match (lang, round) {
        (Lang::En, _) => data::property_name(id),
        (Lang::Ja, 0) => format!("{}館", data::property_name_ja(id)),
        (Lang::Ja, _) => format!("{}城", data::property_name_ja(id)),
    }
}

/// Auction `a` (round `a / 2`; information, then property): every card by seat.
fn auction(g: &GhostForSale, a: usize, lang: Lang) -> String {
    let round = a / 2;
    let mut seats = Vec::new();
    for p in SeatId::all(g.n()) {
        let bids: Vec<String> = g.auctions[a]
            .bids()
            .iter()
            .filter(|b| b.seat == p)
            .map(|b| {
                let on = match (b.spot, lang) {
                    (BidSpot::Truelight, Lang::En) => "Mrs. Truelight".to_string(),
                    (BidSpot::Truelight, Lang::Ja) => "ミセス・トゥルーライト".to_string(),
                    (BidSpot::Pile, Lang::En) => "the \"?\" pile".to_string(),
                    (BidSpot::Pile, Lang::Ja) => "「?」カードの山".to_string(),
                    (BidSpot::Property(lot), _) => property(round, lot.get(), lang),
                };
                match lang {
                    Lang::En => format!("{} on {on}", b.value),
                    Lang::Ja => format!("{on}に{}", b.value),
                }
            })
            .collect();
        if !bids.is_empty() {
            let sep = if lang == Lang::En { ", " } else { "・" };
            seats.push(format!("{}: {}", seat(p, lang), bids.join(sep)));
        }
    }
    let head = match (lang, a % 2) {
        (Lang::En, 0) => "Information auction, cards turned over",
        (Lang::En, _) => "Property auction, cards turned over",
        (Lang::Ja, 0) => "情報オークションの賭け金カードを公開",
        (Lang::Ja, _) => "物件オークションの賭け金カードを公開",
    };
    if seats.is_empty() {
        let none = if lang == Lang::En {
            "no cards"
        } else {
            "賭け金カードなし"
        };
        return format!("{head} — {none}");
    }
    let sep = if lang == Lang::En { "; " } else { "、" };
    format!("{head} — {}", seats.join(sep))
}

/// The "?" cards of round `r` and the ghosts they make.
fn round(g: &GhostForSale, r: usize, lang: Lang) -> String {
    let cards: Vec<String> = SeatId::all(g.n())
        .filter_map(|p| g.card[r][p].map(|c| (p, c)))
        .map(|(p, c)| {
            let card = match (c, lang) {
                (QuestionCard::Truth, Lang::En) => "truth",
                (QuestionCard::Lie, Lang::En) => "lie",
                (QuestionCard::Truth, Lang::Ja) => "真実カード",
                (QuestionCard::Lie, Lang::Ja) => "嘘カード",
            };
            format!("{}: {card}", seat(p, lang))
        })
        .collect();
    let ghosts: Vec<String> = (0..PER_ROUND as u8)
        .filter_map(|lot| {
            let id = r * PER_ROUND + usize::from(lot);
            g.ghosts.get(id).copied().flatten().map(|n| (lot, n))
        })
        .map(|(lot, n)| match lang {
            Lang::En => format!("{} {n}", property(r, lot, lang)),
            Lang::Ja => format!("{}{n}体", property(r, lot, lang)),
        })
        .collect();
    match lang {
        Lang::En => format!(
            "Round {}: \"?\" cards turned over — {}; ghosts: {}",
            r + 1,
            cards.join("; "),
            ghosts.join(", ")
        ),
        Lang::Ja => format!(
            "{}ラウンド目の「?」カードを公開 — {}。幽霊: {}",
            r + 1,
            cards.join("、"),
            ghosts.join("、")
        ),
    }
}
