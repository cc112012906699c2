//! The end of a round: the "?" cards revealed, the ghosts counted, and round 2 set up
//! (the castles).

use crate::data::PER_ROUND;
use crate::rules::setup::double_tokens;
use crate::state::{GhostForSale, GHOST, PAINTING};
use crate::types::{Phase, PropertyId};
use crate::{QuestionCard, Special};

impl GhostForSale {
    /// "すべてのプレイヤーは「?カード」を表にし ... それぞれの館の幽霊の数を計算し、得点を見ます。"
    pub(crate) fn end_round(&mut self) {
        let r = usize::from(self.round);
        let n = self.n();
        // "「嘘」カードを選択したプレイヤーの置いた宣言トークンはすべて逆の結果": the face
        // that counts as a ghost, per seat, read once for the six properties.
        let counted = self.card[r].first(n).iter().map(|c| match c {
            Some(QuestionCard::Lie) => PAINTING,
            _ => GHOST,
        });
        for g in PropertyId::of_round(self.round) {
            let i = g.index();
            let mut ghosts = u8::from(self.crypt_added[i]);
            for (faces, face) in self.decl[i].first(n).iter().zip(counted.clone()) {
                ghosts += faces[face];
            }
            self.ghosts[i] = Some(ghosts);
            if self.special[i] == Some(Special::CrystalBall)
                && self.owner[i].is_some()
                && self.crystal_guess[i] == Some(ghosts)
            {
                self.crystal_owner = self.owner[i];
            }
        }
        if r == 0 {
            self.start_round_two();
        } else {
            self.final_scoring();
        }
    }

    fn start_round_two(&mut self) {
        // "獲得された館をアルファベット順で並べたときに最初に来る館を獲得していたプレイヤー".
        // If no manor was bought, the first player of round 1 starts again.
        self.first[1] = self.owner[..PER_ROUND]
            .iter()
            .find_map(|o| *o)
            .unwrap_or(self.first[0]);
        self.round = 1;
        let n = self.n();
        let double = double_tokens(n);
        self.passed = 0;
        self.holding = 0;
        for (s, p) in self.players.first_mut(n).iter_mut().enumerate() {
            // "1ラウンド目が終わってから残った賭け金カードと、ゲーム開始時にキャラクター
            // カードの下に入れていた賭け金カードを合わせたもの".
            for (h, a) in p.hand.iter_mut().zip(p.aside) {
                *h += a;
            }
            p.hand_n += p.aside_n;
            self.holding |= u8::from(p.hand_n > 0) << s;
            p.refresh_held();
            p.aside = [0; 11];
            p.aside_n = 0;
            p.tokens = [2, 2, double];
            p.passed = false;
            p.on_truelight = false;
        }
        if self.options.special_cards {
            // "1ラウンド目で使用しなかったスペシャルカードも混ぜてよく切り ... 「水晶球」
            // 「家族の肖像画」はプレイヤーが獲得するものなので、獲得された場合はこの中には
            // 戻しません。"
            let mut deck = [Special::PerfectlyNormal; 8];
            let mut len = 0;
            for s in Special::ALL {
                let kept = match s {
                    Special::CrystalBall => self.crystal_owner.is_some(),
                    Special::FamilyPortrait => self.portrait_owner.is_some(),
                    _ => false,
                };
                if !kept {
                    deck[len] = s;
                    len += 1;
                }
            }
            self.deal_specials(1, &mut deck[..len]);
        }
        self.phase = Phase::Choose;
    }
}
