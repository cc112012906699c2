//! What each reveal turned face up, for the log (`Game::revealed_in`). Places, action
//! cards and exhibits are chosen in secret and shown all at once (「「せーの!」で展示する
//! 美術品を公開する」); the log tells them then, so that a player — and a spectator
//! watching the replay — can follow the game. The turn is cleared soon after a reveal
//! (often by the same action), so the state keeps a copy of the last one.

use crate::cards::{ActionCard, Place};
use crate::data::Components;
use crate::state::{seats, ArtHeist, PerSeat};
use crate::types::SeatId;
use takuge_engine::Lang;

/// The last reveal of the game, kept until the next one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct News {
    /// Reveals so far: two alike (the same exhibits twice) are still two.
    pub(crate) count: u16,
    pub(crate) shown: Shown,
}

/// What one reveal showed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Shown {
    #[default]
    Nothing,
    /// The 「1」 cards: who went where.
    Places { auction: u8, castle: u8 },
    /// The 「2」 cards of the seats at one place.
    Cards {
        place: Place,
        seats: u8,
        played: PerSeat<Option<ActionCard>>,
    },
    /// The exhibits (`exhibitors` chose; an empty one is none shown); `last` for the
    /// final exhibit.
    Exhibits {
        exhibitors: u8,
        exhibit: PerSeat<u64>,
        last: bool,
    },
}

impl ArtHeist {
    /// Records a reveal (the rules call this where they turn cards face up, in the
    /// playouts too, so a state is the same whichever path reached it).
    #[inline]
    pub(crate) fn tell(&mut self, shown: Shown) {
        self.news = News {
            count: self.news.count.wrapping_add(1),
            shown,
        };
    }

    /// `Game::revealed_in`.
    pub(crate) fn revealed_since(&self, before: &ArtHeist, lang: Lang) -> Option<String> {
        if self.news == before.news {
            return None;
        }
        let rules = self.rules();
        let parts: Vec<String> = match self.news.shown {
            Shown::Nothing => return None,
            Shown::Places { auction, castle } => seats(auction | castle)
                .map(|p| {
                    let place = if auction & (1 << p.index()) != 0 {
                        Place::AuctionHouse
                    } else {
                        Place::Castle
                    };
                    format!("{}: {}", seat(p, lang), place_name(place, lang))
                })
                .collect(),
            Shown::Cards {
                seats: s, played, ..
            } => seats(s)
                .map(|p| {
                    let card = played[p].map_or_else(String::new, |c| card_name(rules, c, lang));
                    format!("{}: {card}", seat(p, lang))
                })
                .collect(),
            Shown::Exhibits {
                exhibitors,
                exhibit,
                ..
            } => seats(exhibitors)
                .map(|p| {
                    let shown = exhibit_name(rules, exhibit[p], lang);
                    format!("{}: {shown}", seat(p, lang))
                })
                .collect(),
        };
        let head = match (self.news.shown, lang) {
            (Shown::Places { .. }, Lang::En) => "Places revealed".to_string(),
            (Shown::Places { .. }, Lang::Ja) => "「1」のカードを公開".to_string(),
            (Shown::Cards { place, .. }, Lang::En) => {
                format!("Cards at the {} revealed", place_name(place, lang))
            }
            (Shown::Cards { place, .. }, Lang::Ja) => {
                format!("{}の「2」のカードを公開", place_name(place, lang))
            }
            (Shown::Exhibits { last: true, .. }, Lang::En) => "Final exhibits".to_string(),
            (Shown::Exhibits { last: true, .. }, Lang::Ja) => "最後の展示".to_string(),
            (Shown::Exhibits { .. }, Lang::En) => "Exhibits shown".to_string(),
            (Shown::Exhibits { .. }, Lang::Ja) => "展示を公開".to_string(),
            (Shown::Nothing, _) => return None,
        };
        let sep = match lang {
            Lang::En => "; ",
            Lang::Ja => "、",
        };
        Some(format!("{head} — {}", parts.join(sep)))
    }
}

fn seat(p: SeatId, lang: Lang) -> String {
    let n = p.index() + 1;
    match lang {
        Lang::En => format!("seat {n}"),
        Lang::Ja => format!("{n}番席"),
    }
}

fn place_name(place: Place, lang: Lang) -> &'static str {
    match (place, lang) {
        (Place::AuctionHouse, Lang::En) => "auction house",
        (Place::Castle, Lang::En) => "castle",
        (Place::AuctionHouse, Lang::Ja) => "オークション会場",
        (Place::Castle, Lang::Ja) => "城",
    }
}

fn card_name(rules: &Components, card: ActionCard, lang: Lang) -> String {
    match lang {
        Lang::En => crate::view::describe_card(rules, card),
        Lang::Ja => crate::log_ja::card(rules, card),
    }
}

fn exhibit_name(rules: &Components, exhibit: u64, lang: Lang) -> String {
    if exhibit == 0 {
        return match lang {
            Lang::En => "no exhibit".into(),
            Lang::Ja => "展示なし".into(),
        };
    }
    let cards: Vec<String> = takuge_engine::bits::iter(exhibit)
        .map(|a| match lang {
            Lang::En => crate::view::describe_art(rules, crate::cards::ArtCard(a)),
            Lang::Ja => crate::log_ja::art(rules, crate::cards::ArtCard(a)),
        })
        .collect();
    cards.join(match lang {
        Lang::En => ", ",
        Lang::Ja => "・",
    })
}
