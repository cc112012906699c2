//! The game log in Japanese, in the words of the rules document (seeds/000: 賭け金カード,
//! 宣言トークン, 真実カード・嘘カード, ミセス・トゥルーライト, 「?」カード, 低額マーク・高額マーク,
//! the special cards) and of the web board (`web/app/games/ghost-for-sale/board.js`:
//! 「{name}館」「{name}城」). Seats are numbered as the table shows them: 「N番席」, from 1.

use crate::data::{self, PER_ROUND};
use crate::state::GhostForSale;
use crate::{Action, Mark, QuestionCard, Target, Token};
use takuge_engine::{Seat, Viewer};

/// A seat as the web table names an unnamed seat (`seat.n` in `web/app/i18n/ja.js`).
pub(crate) fn seat(s: Seat) -> String {
    format!("{}番席", usize::from(s.0) + 1)
}

/// A property of the current round as the board names it: the manors of round 1 (館),
/// the castles of round 2 (城).
fn property(g: &GhostForSale, local: u8) -> String {
    let id = usize::from(g.round) * PER_ROUND + usize::from(local);
    let kind = if id < PER_ROUND { "館" } else { "城" };
    format!("{}{kind}", data::property_name_ja(id))
}

/// What `viewer` reads of `actor` playing `action` (`describe_ja`): the same secrecy
/// as the English line (`view::describe_for`) — the set-aside card, the "?" card played and a
/// face-down card's value stay with the actor; the back mark is public.
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
        Action::SetAside { .. } => {
            Some("2ラウンド用に賭け金カードを1枚キャラクターカードの下に隠す".into())
        }
        Action::Choose { .. } => Some("「?」カードを1枚伏せる".into()),
        Action::Play { value } if g.play_is_face_up() => {
            Some(format!("賭け金カード{value}を表向きに置く"))
        }
        Action::Play { value } => Some(match g.mark(value) {
            Mark::High => "賭け金カードを裏向きに置く(高額マーク)".into(),
            Mark::Low => "賭け金カードを裏向きに置く(低額マーク)".into(),
        }),
        _ => Some(describe(g, action)),
    }
}

/// The full line, as the actor reads it.
fn describe(g: &GhostForSale, action: &Action) -> String {
    match *action {
        Action::SetAside { value } => {
            format!("賭け金カード{value}を2ラウンド用にキャラクターカードの下に隠す")
        }
        Action::Choose { card } => match card {
            QuestionCard::Truth => "真実カードを伏せる".into(),
            QuestionCard::Lie => "嘘カードを伏せる".into(),
        },
        Action::Declare { property: p, token } => {
            let what = match token {
                Token::Ghost => "宣言トークン「幽霊」",
                Token::Painting => "宣言トークン「絵画」",
                Token::DoubleGhost => "両面トークン(幽霊を上)",
                Token::DoublePainting => "両面トークン(絵画を上)",
            };
            format!("{}に{what}を置く", property(g, p))
        }
        Action::Bid { target } => {
            let on = match target {
                Target::Truelight => "ミセス・トゥルーライト".to_string(),
                Target::Pile => "「?」カードの山".to_string(),
                Target::Property(i) => property(g, i),
            };
            format!("{on}に賭ける")
        }
        Action::Play { value } => format!("賭け金カード{value}を置く"),
        Action::Done => "ターン終了".into(),
        Action::Pass => "パス".into(),
        Action::RemoveGhost { owner } => {
            format!("魔法の鏡: {}の幽霊トークンを取り除く", seat(owner))
        }
        Action::AddGhost => "秘密の墓所: 幽霊を1体追加する".into(),
        Action::Decline => "スペシャルカードを使わない".into(),
        Action::Guess { ghosts } => format!("水晶玉: 幽霊は{ghosts}体と予想"),
    }
}
