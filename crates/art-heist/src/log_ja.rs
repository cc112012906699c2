//! The game log in Japanese, in the words of the rules document (seeds/001: 「1」のカード,
//! オークション会場, 城, お金, 泥棒, 探偵, 展示, 美術品, ヤマ, 落札) and of the web board
//! (`web/app/games/art-heist/messages.js`: 赤・青・緑・紫・白, 左のヤマ・右のヤマ). No line
//! names another seat.

use crate::cards::{ActionCard, ArtCard, Colour, Kind, Pile, Place};
use crate::components::Components;
use crate::game::{Action, ArtHeist};
use takuge_engine::{Seat, Viewer};

fn colour(c: Colour) -> &'static str {
    match c {
        Colour::Red => "赤",
        Colour::Blue => "青",
        Colour::Green => "緑",
        Colour::Purple => "紫",
        Colour::White => "白",
    }
}

fn card(rules: &Components, card: ActionCard) -> String {
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

fn art(rules: &Components, a: ArtCard) -> String {
    if rules.all_art() & a.bit() == 0 {
        return format!("不明な美術品 {}", a.0);
    }
    format!("美術品{}({}年)", rules.letter(a), rules.year(a))
}

/// What `viewer` reads of `actor` playing `action`: the same secrecy as the English line
/// (`ArtHeist::describe_for`) — 「秘密裏に」: the place, the action card and the exhibit
/// only to the actor; the pile taken and the art stolen to everyone.
pub(crate) fn describe_for(
    g: &ArtHeist,
    actor: Seat,
    action: &Action,
    viewer: Viewer,
) -> Option<String> {
    match action {
        Action::Take(_) | Action::Steal(_) => Some(describe(g.rules(), action)),
        _ => (viewer == Viewer::Seat(actor)).then(|| describe(g.rules(), action)),
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::PLAYERS;
    use crate::game::Options;
    use takuge_engine::{Game, Lang};

    /// 「1」のカードを秘密裏にセットする / 「2」のアクションも秘密裏に: in Japanese too,
    /// the place and the action card reach only the seat that chose them; the pile
    /// taken and the art stolen reach everyone.
    #[test]
    fn secret_choices_reach_only_their_maker_in_japanese_and_open_ones_everyone() {
        let g = ArtHeist::new(&Options::default(), PLAYERS, 1).expect("setup");
        let actor = Seat(0);
        let others: Vec<Viewer> = Seat::all(PLAYERS)
            .skip(1)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .collect();
        let go = Action::Go(Place::Castle);
        let play = Action::Play(ActionCard::new(Colour::Red, 3));
        let line = |a: &Action, v: Viewer| g.describe_for_in(actor, a, v, Lang::Ja);
        assert_eq!(line(&go, Viewer::Seat(actor)).as_deref(), Some("城へ行く"));
        assert_eq!(
            line(&play, Viewer::Seat(actor)).as_deref(),
            Some("「2」のカード: 赤のお金 22,000を伏せて出す")
        );
        for &v in &others {
            assert_eq!(line(&go, v), None, "{v:?}");
            assert_eq!(line(&play, v), None, "{v:?}");
        }
        let take = Action::Take(Pile::Left);
        let steal = Action::Steal(ArtCard(0));
        for v in others.iter().copied().chain([Viewer::Seat(actor)]) {
            assert_eq!(
                line(&take, v).as_deref(),
                Some("左のヤマの表向きの美術品を落札")
            );
            assert_eq!(line(&steal, v).as_deref(), Some("美術品A(1431年)を盗む"));
        }
    }
}
