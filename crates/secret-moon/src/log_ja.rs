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
