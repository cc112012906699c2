//! The game log in Japanese, in the words of the rules document (seeds/001: 「1」のカード,
//! オークション会場, 城, お金, 泥棒, 探偵, 展示, 美術品, ヤマ, 落札) and of the web board
//! (`web/app/games/art-heist/messages.js`: 赤・青・緑・紫・白, 左のヤマ・右のヤマ). No line
//! names another seat.

use crate::cards::{ActionCard, ArtCard, Colour, Kind, Pile, Place};
use crate::data::Components;
use crate::state::ArtHeist;
use crate::types::Action;

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Red => "赤",
        Colour::Blue => "青",
        Colour::Green => "緑",
        Colour::Purple => "紫",
        Colour::White => "白",
    }
}

pub(crate) fn card(rules: &Components, card: ActionCard) -> String {
    if !card.is_valid() {
        return format!("不明なカード {}", card.0);
    }
    let c = colour(card.colour());
    match card.kind() {
        Kind::Money => format!("{c}のお金 {},000", rules.value(card)),
        Kind::Thief => format!("{c}の泥棒 {}", rules.value(card)),
        Kind::Detective => format!("{c}の探偵"),
        Kind::Exhibit => format!("{c}の展示カード"),
    }
}

pub(crate) fn art(rules: &Components, a: ArtCard) -> String {
    if rules.all_art() & a.bit() == 0 {
        return format!("不明な美術品 {}", a.0);
    }
    format!("美術品{}({}年)", rules.letter(a), rules.year(a))
}

/// `Game::describe_ja`: the Japanese of the English line, asked only when the English
/// line exists (`ArtHeist::describe_line`), so it hides exactly what that hides —
/// 「秘密裏に」: the place, the action card and the exhibit only to the actor; the pile
/// taken and the art stolen to everyone.
pub(crate) fn describe_ja(g: &ArtHeist, action: &Action) -> String {
    describe(g.rules(), action)
}

fn describe(rules: &Components, action: &Action) -> String {
    match *action {
        Action::Go(Place::AuctionHouse) => "オークション会場へ行く".into(),
        Action::Go(Place::Castle) => "城へ行く".into(),
        Action::Play(c) => format!("「2」のカード: {}を伏せて出す", card(rules, c)),
        Action::Exhibit { from, to } if from == to => format!("{from}の美術品を展示する"),
        Action::Exhibit { from, to } => format!("{from}〜{to}の美術品を展示する"),
        Action::Cards(set) => {
            let cards: Vec<String> = set.cards().map(|a| art(rules, a)).collect();
            format!("{}を出す", cards.join("、"))
        }
        Action::ShowNothing => "展示しない".into(),
        Action::Take(Pile::Left) => "左のヤマの表向きの美術品を落札".into(),
        Action::Take(Pile::Right) => "右のヤマの表向きの美術品を落札".into(),
        Action::Steal(a) => format!("{}を盗む", art(rules, a)),
    }
}
