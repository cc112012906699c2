//! The log lines, in English and Japanese. Every action is made openly at the table,
//! so a line names only what everyone sees (the card played, the die placed, the
//! choice taken) and never a hidden card.

use crate::state::*;
use crate::types::{Action, HillPart, Spot};

fn yokai(id: u8, ja: bool) -> String {
    c().cards.yokai.get(usize::from(id)).map_or_else(
        || format!("#{id}"),
        |y| {
            if ja {
                y.name_ja.clone()
            } else {
                y.name_en.clone()
            }
        },
    )
}

fn region(id: u8, ja: bool) -> String {
    c().board.region.get(usize::from(id)).map_or_else(
        || format!("#{id}"),
        |r| {
            if ja {
                r.name_ja.clone()
            } else {
                r.name_en.clone()
            }
        },
    )
}

impl Bitoku {
    pub(crate) fn describe_en(&self, action: &Action) -> String {
        match *action {
            Action::Discard { yokai: y } => format!("discards {}", yokai(y, false)),
            Action::Play { yokai: y, slot } => {
                format!("plays {} into slot {}", yokai(y, false), slot + 1)
            }
            Action::Place { die, at } => match at {
                Spot::Forest(r) => format!("places die {} in {}", die + 1, region(r, false)),
                Spot::Abode(s) => format!(
                    "places die {} on the Great Spirit's abode, space {}",
                    die + 1,
                    s + 1
                ),
            },
            Action::Amulet { value } => format!("raises the die with a +{value} amulet"),
            Action::Done => "spends no more amulets".into(),
            Action::Cross { die, hill, take } => format!(
                "crosses the river with die {} to hill {}, taking its {}",
                die + 1,
                hill + 1,
                match take {
                    HillPart::Yokai => "yokai",
                    HillPart::Bitoku => "Bitoku card",
                    HillPart::Effect => "effect",
                }
            ),
            Action::Mitama { index } => format!("uses mitama {}", index + 1),
            Action::Dragonfly { index } => format!("uses dragonfly {}", index + 1),
            Action::Pass => "passes".into(),
            Action::Next { task } => format!("resolves effect {} next", task + 1),
            Action::Skip => "skips".into(),
            Action::Pay => "pays".into(),
            Action::Choose { option } => format!("chooses option {}", option + 1),
            Action::Track { region: r } => format!("moves a kodama in {}", region(r, false)),
            Action::Pilgrim { space } => format!("wakes the pilgrim on space {}", space + 1),
            Action::Tile { slot } => format!("takes the tile on display space {}", slot + 1),
            Action::Region { region: r } => format!("builds in {}", region(r, false)),
            Action::Discount { resource } => format!("saves one {}", resource.en()),
            Action::Socket { socket } => format!("sets the crystal in socket {}", socket + 1),
            Action::Swap { rock } => format!("swaps Iwakura rocks with board space {}", rock + 1),
            Action::Retire { yokai: y } => format!("retires {}", yokai(y, false)),
            Action::Keep { vision } => format!("keeps vision {}", vision + 1),
            Action::UseBuilding { space } => format!("uses the building on space {}", space + 1),
            Action::RetireSlot { slot } => format!("retires the yokai in slot {}", slot + 1),
            Action::Arrange { dice } => {
                format!("puts the dice back as {}-{}-{}", dice[0], dice[1], dice[2])
            }
        }
    }

    pub(crate) fn describe_ja_line(&self, action: &Action) -> String {
        match *action {
            Action::Discard { yokai: y } => format!("{}を捨て札にした", yokai(y, true)),
            Action::Play { yokai: y, slot } => {
                format!("{}を{}番目のスペースに出した", yokai(y, true), slot + 1)
            }
            Action::Place { die, at } => match at {
                Spot::Forest(r) => format!("ダイス{}を{}に置いた", die + 1, region(r, true)),
                Spot::Abode(s) => {
                    format!("ダイス{}を大精霊の住み家の{}番目に置いた", die + 1, s + 1)
                }
            },
            Action::Amulet { value } => format!("御守(+{value})でダイスの目を増やした"),
            Action::Done => "御守の使用を終えた".into(),
            Action::Cross { die, hill, take } => format!(
                "ダイス{}で川を渡り、丘{}の{}を得た",
                die + 1,
                hill + 1,
                match take {
                    HillPart::Yokai => "妖怪カード",
                    HillPart::Bitoku => "美徳カード",
                    HillPart::Effect => "効果",
                }
            ),
            Action::Mitama { index } => format!("御魂{}を使った", index + 1),
            Action::Dragonfly { index } => format!("蜻蛉{}を使った", index + 1),
            Action::Pass => "パスした".into(),
            Action::Next { task } => format!("{}番目の効果を先に解決する", task + 1),
            Action::Skip => "実行しなかった".into(),
            Action::Pay => "支払った".into(),
            Action::Choose { option } => format!("選択肢{}を選んだ", option + 1),
            Action::Track { region: r } => format!("{}の木霊を進めた", region(r, true)),
            Action::Pilgrim { space } => format!("{}番目の巡礼者を目覚めさせた", space + 1),
            Action::Tile { slot } => format!("リザーブの{}番目のタイルを取った", slot + 1),
            Action::Region { region: r } => format!("{}に建設した", region(r, true)),
            Action::Discount { resource } => format!("{}を1つ割り引いた", resource.ja()),
            Action::Socket { socket } => format!("水晶を{}番目に置いた", socket + 1),
            Action::Swap { rock } => format!("岩倉タイルを盤上の{}番目と交換した", rock + 1),
            Action::Retire { yokai: y } => format!("{}を除外した", yokai(y, true)),
            Action::Keep { vision } => format!("幻視カード{}を残した", vision + 1),
            Action::UseBuilding { space } => format!("{}番目の建物を使った", space + 1),
            Action::RetireSlot { slot } => format!("{}番目の妖怪を除外した(精霊の美徳)", slot + 1),
            Action::Arrange { dice } => {
                format!("ダイスを{}-{}-{}の順に戻した", dice[0], dice[1], dice[2])
            }
        }
    }
}
