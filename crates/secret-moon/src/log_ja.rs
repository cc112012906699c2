//! The game log in Japanese, in the words of the rules document (seeds/002: 人物カード,
//! 行動順カード, 観察・質問・指名・隠れる/かばう・妨害・捕獲・パス, the spoken answers) and of
//! the web board (`web/app/games/secret-moon/messages.js`: 「中央N」 for a centre card).
//! Seats are numbered as the table shows them: 「N番席」, from 1.

use crate::cards::CardRef;
use crate::role::Answer;
use crate::types::Action;
use takuge_engine::Seat;

/// A seat as the web table names an unnamed seat (`seat.n` in `web/app/i18n/ja.js`).
pub(crate) fn seat(s: Seat) -> String {
    format!("{}番席", usize::from(s.0) + 1)
}

fn card(c: CardRef) -> String {
    match c {
        CardRef::Player(s) => seat(s),
        CardRef::Npc(i) => format!("中央{}", usize::from(i) + 1),
    }
}

fn answer(a: Answer) -> &'static str {
    match a {
        Answer::Silence => "「…」(何もしゃべらない)",
        Answer::IAmTheMinister => "「バカもん!わしは大臣じゃ!」",
        Answer::HelloComrade => "「やぁ、ご同輩!」",
    }
}

/// The Japanese line of an action. Every action of Secret Moon is made openly at the
/// table (an observation is marked with an eye, answers are spoken aloud), so like the
/// English line it is the same for every viewer; an observation names the card looked
/// at, never what it showed.
pub(crate) fn describe(actor: Seat, action: &Action) -> String {
    match *action {
        Action::Observe { card: c } => format!("{}の人物カードを観察", card(c)),
        Action::Question { target } => {
            format!("{}に質問「そこにいるのは何者か?」", seat(target))
        }
        Action::Nominate { card: c, role } => {
            format!("{}を「{}」と指名", card(c), role.name_ja())
        }
        // 隠れる when the card is the actor's own, かばう when it is another's.
        Action::Protect {
            card: CardRef::Player(s),
        } if s == actor => "隠れる".into(),
        Action::Protect { card: c } => format!("{}をかばう", card(c)),
        Action::Sabotage { target } => format!("{}を妨害", seat(target)),
        Action::Capture { card: c } => format!("{}を捕獲", card(c)),
        Action::Pass => "パス".into(),
        Action::TakeOrderCard { number } => {
            format!("次ラウンドの行動順カード{number}を確保")
        }
        Action::Answer { answer: a } => format!("返事: {}", answer(a)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::role::Role;
    use crate::{Options, SecretMoon};
    use takuge_engine::{Game, Lang, Viewer};

    /// 観察: 人物カードを秘密裏に確認する — everyone sees the eye marker, nobody else the
    /// role: the Japanese line names the card looked at, the same for every viewer, and
    /// no role.
    #[test]
    fn an_observation_names_the_card_but_never_its_role_in_japanese() {
        let g = SecretMoon::new(&Options::default(), 5, 7).expect("a game");
        let actor = Seat(0);
        let viewers: Vec<Viewer> = Seat::all(5)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .collect();
        for c in [CardRef::Player(Seat(2)), CardRef::Npc(0)] {
            let action = Action::Observe { card: c };
            let mine = g.describe_for_in(actor, &action, Viewer::Seat(actor), Lang::Ja);
            for &v in &viewers {
                assert_eq!(g.describe_for_in(actor, &action, v, Lang::Ja), mine);
            }
            let mine = mine.expect("a line");
            assert!(
                Role::ALL.iter().all(|r| !mine.contains(r.name_ja())),
                "{mine}"
            );
        }
        let line = |a: Action| g.describe_for_in(actor, &a, Viewer::Spectator, Lang::Ja);
        assert_eq!(
            line(Action::Observe {
                card: CardRef::Npc(0)
            })
            .as_deref(),
            Some("中央1の人物カードを観察")
        );
        assert_eq!(
            line(Action::Question { target: Seat(2) }).as_deref(),
            Some("3番席に質問「そこにいるのは何者か?」")
        );
    }

    #[test]
    fn seats_and_centre_cards_in_the_log_are_numbered_from_one_as_on_the_table() {
        let g = SecretMoon::new(&Options::default(), 5, 7).expect("a game");
        let nominate = Action::Nominate {
            card: CardRef::Player(Seat(0)),
            role: Role::Princess,
        };
        assert_eq!(g.describe(&nominate), "nominate seat 1 as the Princess");
        assert_eq!(
            g.describe_for_in(Seat(1), &nominate, Viewer::Seat(Seat(3)), Lang::Ja)
                .as_deref(),
            Some("1番席を「姫」と指名")
        );
        let protect = |c| Action::Protect { card: c };
        assert_eq!(
            describe(Seat(1), &protect(CardRef::Player(Seat(1)))),
            "隠れる"
        );
        assert_eq!(
            describe(Seat(1), &protect(CardRef::Npc(1))),
            "中央2をかばう"
        );
        assert_eq!(
            g.describe(&Action::Observe {
                card: CardRef::Npc(1)
            }),
            "observe centre card 2"
        );
    }
}
