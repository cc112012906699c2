//! The game log in Japanese, in the words of the rules document (seeds/004: 部屋カード,
//! ゴースト, 電気をつける, 電球, 雷, キャットフード, エレベーター, 時空の穴, 脱出) and of the
//! web board (`web/app/games/ghost-at-home/board.js`: ネコ, 部屋ワイルドカード, 「1階の部屋
//! カード（電球2個）」). Seats are numbered as the table shows them: 「N番席」, from 1.

use crate::cards::{Card, Floor};
use crate::hand::Cards;
use crate::types::Action;
use takuge_engine::{Seat, Viewer};

/// A seat as the web table names an unnamed seat (`seat.n` in `web/app/i18n/ja.js`).
pub(crate) fn seat(s: Seat) -> String {
    format!("{}番席", usize::from(s.0) + 1)
}

fn floor(f: Floor) -> String {
    format!("{}階", f.number())
}

fn card(c: Card) -> String {
    match c {
        Card::Ghost => "ゴースト".into(),
        Card::Cat => "ネコ".into(),
        Card::SpaceTimeHole => "時空の穴".into(),
        Card::LightBulb => "電球".into(),
        Card::CatFood => "キャットフード".into(),
        Card::Elevator => "エレベーター".into(),
        Card::Lightning => "雷".into(),
        Card::WildRoom => "部屋ワイルドカード".into(),
        room => {
            let f = room.room_floor().map_or(0, Floor::number);
            format!("{f}階の部屋カード（電球{}個）", room.bulbs())
        }
    }
}

pub(crate) fn cards(cs: &Cards) -> String {
    cs.to_vec()
        .into_iter()
        .map(card)
        .collect::<Vec<_>>()
        .join("、")
}

/// What `viewer` reads of `actor` playing `action`: the same secrecy as the English line
/// (`GhostAtHome::describe_for`) — the others read only how many cards went face down
/// (捨て札がなんだったかは他のプレイヤーには秘密です).
pub(crate) fn describe_for(actor: Seat, action: &Action, viewer: Viewer) -> Option<String> {
    match action {
        Action::DiscardCards { cards } if viewer != Viewer::Seat(actor) => {
            let n = cards.len();
            Some(format!("カードを{n}枚伏せて捨て、{n}枚引く"))
        }
        _ => Some(describe(action)),
    }
}

fn describe(action: &Action) -> String {
    match *action {
        Action::PlayRooms { cards: cs } => format!("{}を出す", cards(&cs)),
        Action::Light {
            cards: cs,
            floor: f,
        } => {
            format!("{}を表向きに捨てて{}の電気をつける", cards(&cs), floor(f))
        }
        Action::PlayGhost { target } => format!("{}にゴーストを出す", seat(target)),
        Action::PlayCat { floor: f } => format!("{}にネコを出す", floor(f)),
        Action::PlayLightBulb { floor: f } => format!("電球: {}の電気をつける", floor(f)),
        Action::PlayLightning { target } => format!("雷: {}の電気を消す", seat(target)),
        Action::PlayCatFood { from, floor: f, to } => format!(
            "キャットフード: {}の{}のネコを自分の{}に連れてくる",
            seat(from),
            floor(f),
            floor(to)
        ),
        Action::PlayElevator { from, to } => format!(
            "エレベーター: 自分の{}のネコを{}へ移動させる",
            floor(from),
            floor(to)
        ),
        Action::PlaySpaceTimeHole { from, floor: f, to } => format!(
            "時空の穴: {}の{}のゴーストを{}の家へ送る",
            seat(from),
            floor(f),
            seat(to)
        ),
        Action::Discard => "カードを捨てる".into(),
        Action::DiscardCards { cards: cs } => {
            let n = cs.len();
            format!("{}を伏せて捨て、{n}枚引く", cards(&cs))
        }
        Action::DefendWithCat => "ネコを捨ててゴーストを防御する".into(),
        Action::NoDefence => "防御しない".into(),
        Action::StopEscape => "ゴーストを出して脱出を阻止する".into(),
        Action::LetEscape => "脱出を阻止しない".into(),
        Action::Pass => "パス".into(),
    }
}
