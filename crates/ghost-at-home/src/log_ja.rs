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

fn cards(cs: &Cards) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{GhostAtHome, Options};
    use takuge_engine::{Game, Lang};

    /// Plays seeded games until a seat is about to discard cards face down.
    fn before_a_face_down_discard() -> (GhostAtHome, Seat, Action) {
        let mut legal = Vec::new();
        for seed in 0..50 {
            let mut g = GhostAtHome::new(&Options::default(), 3, seed).expect("a game");
            for step in 0..400 {
                let Some(seat) = g.to_move().first_seat() else {
                    break;
                };
                g.legal_actions(seat, &mut legal);
                if let Some(a) = legal
                    .iter()
                    .find(|a| matches!(a, Action::DiscardCards { .. }))
                {
                    return (g, seat, *a);
                }
                let pick = legal
                    .iter()
                    .find(|a| matches!(a, Action::Discard))
                    .copied()
                    .unwrap_or(legal[step % legal.len()]);
                g.apply(seat, &pick).expect("a legal action");
            }
        }
        panic!("no face-down discard in 50 games");
    }

    /// 捨て札がなんだったかは他のプレイヤーには秘密です: in Japanese too, only the
    /// discarding seat reads which cards went; the others and spectators read how many.
    #[test]
    fn face_down_discards_are_named_only_to_the_discarder_in_japanese() {
        let (g, actor, action) = before_a_face_down_discard();
        let Action::DiscardCards { cards: cs } = action else {
            unreachable!()
        };
        let n = cs.len();
        let mine = g
            .describe_for_in(actor, &action, Viewer::Seat(actor), Lang::Ja)
            .expect("a line");
        assert_eq!(mine, format!("{}を伏せて捨て、{n}枚引く", cards(&cs)));
        let others = Seat::all(3)
            .filter(|s| *s != actor)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in others {
            assert_eq!(
                g.describe_for_in(actor, &action, viewer, Lang::Ja),
                Some(format!("カードを{n}枚伏せて捨て、{n}枚引く")),
                "{viewer:?}"
            );
        }
        assert_eq!(
            g.describe_for_in(actor, &action, Viewer::Spectator, Lang::En),
            g.describe_for(actor, &action, Viewer::Spectator)
        );
    }

    #[test]
    fn seats_in_the_log_are_numbered_from_one_as_on_the_table() {
        let g = GhostAtHome::new(&Options::default(), 2, 1).expect("a game");
        let action = Action::PlayGhost { target: Seat(1) };
        assert_eq!(
            g.describe_for_in(Seat(0), &action, Viewer::Spectator, Lang::Ja)
                .as_deref(),
            Some("2番席にゴーストを出す")
        );
        assert_eq!(g.describe(&action), "play a ghost at seat 2");
    }
}
