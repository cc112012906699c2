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
    format!("{}{kind}", data::property_name(id))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Options;
    use takuge_engine::{Game, Lang};

    /// キャラクターカードの下に裏向きに隠す: in Japanese too, only the seat that sets a
    /// bidding card aside reads its value; the others and spectators read that a card
    /// went under the character card.
    #[test]
    fn a_card_set_aside_is_named_only_to_its_owner_in_japanese() {
        let g = GhostForSale::new(&Options::default(), 4, 3).expect("a game");
        let actor = Seat(1);
        let mut legal = Vec::new();
        g.legal_actions(actor, &mut legal);
        let action = legal
            .iter()
            .copied()
            .find(|a| matches!(a, Action::SetAside { .. }))
            .expect("setup sets cards aside");
        let Action::SetAside { value } = action else {
            unreachable!()
        };
        assert_eq!(
            g.describe_for_in(actor, &action, Viewer::Seat(actor), Lang::Ja),
            Some(format!(
                "賭け金カード{value}を2ラウンド用にキャラクターカードの下に隠す"
            ))
        );
        let others = Seat::all(4)
            .filter(|s| *s != actor)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for v in others {
            let line = g.describe_for_in(actor, &action, v, Lang::Ja);
            assert_eq!(
                line.as_deref(),
                Some("2ラウンド用に賭け金カードを1枚キャラクターカードの下に隠す"),
                "{v:?}"
            );
        }
    }

    #[test]
    fn seats_in_the_log_are_numbered_from_one_as_on_the_table() {
        let g = GhostForSale::new(&Options::default(), 3, 3).expect("a game");
        let mirror = Action::RemoveGhost { owner: Seat(2) };
        assert_eq!(
            g.describe_for_in(Seat(0), &mirror, Viewer::Spectator, Lang::Ja)
                .as_deref(),
            Some("魔法の鏡: 3番席の幽霊トークンを取り除く")
        );
        assert_eq!(
            g.describe(&mirror),
            "Magic mirror: remove a ghost token of seat 3"
        );
    }
}
