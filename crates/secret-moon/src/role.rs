//! Character cards (人物カード), the teams they belong to, and answers to questions.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A character card (人物カード). `Default` only pads inline lists of cards.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// 姫
    Princess,
    /// 旅人
    Traveller,
    /// 大臣
    Minister,
    /// 僧侶
    Monk,
    /// 兵士
    #[default]
    Soldier,
    /// 盗賊 (the optional extra card)
    Thief,
}

impl Role {
    pub const ALL: [Role; 6] = [
        Role::Princess,
        Role::Traveller,
        Role::Minister,
        Role::Monk,
        Role::Soldier,
        Role::Thief,
    ];

    /// The roles of a table without the thief (in the order of [`Role::ALL`]).
    pub const WITHOUT_THIEF: [Role; 5] = [
        Role::Princess,
        Role::Traveller,
        Role::Minister,
        Role::Monk,
        Role::Soldier,
    ];

    pub const fn bit(self) -> RoleMask {
        RoleMask(1 << self as u8)
    }

    pub const fn side(self) -> Side {
        match self {
            Role::Princess | Role::Traveller | Role::Monk => Side::PrincessTeam,
            Role::Minister | Role::Soldier => Side::MinisterTeam,
            Role::Thief => Side::Thief,
        }
    }

    pub const fn name_en(self) -> &'static str {
        match self {
            Role::Princess => "Princess",
            Role::Traveller => "Traveller",
            Role::Minister => "Minister",
            Role::Monk => "Monk",
            Role::Soldier => "Soldier",
            Role::Thief => "Thief",
        }
    }

    pub const fn name_ja(self) -> &'static str {
        match self {
            Role::Princess => "姫",
            Role::Traveller => "旅人",
            Role::Minister => "大臣",
            Role::Monk => "僧侶",
            Role::Soldier => "兵士",
            Role::Thief => "盗賊",
        }
    }

    /// The answers this card may give to 質問: all but the thief have exactly one.
    pub const fn answers(self) -> &'static [Answer] {
        match self {
            Role::Princess | Role::Traveller => &[Answer::Silence],
            Role::Minister => &[Answer::IAmTheMinister],
            Role::Monk | Role::Soldier => &[Answer::HelloComrade],
            Role::Thief => &[Answer::Silence, Answer::IAmTheMinister],
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name_en())
    }
}

/// A set of roles: what a card may still be, given what is known.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RoleMask(pub u8);

impl RoleMask {
    pub const ALL: RoleMask = RoleMask(0b11_1111);
    pub const NONE: RoleMask = RoleMask(0);

    pub const fn contains(self, role: Role) -> bool {
        self.0 & role.bit().0 != 0
    }

    pub const fn and(self, other: RoleMask) -> RoleMask {
        RoleMask(self.0 & other.0)
    }

    pub const fn without(self, role: Role) -> RoleMask {
        RoleMask(self.0 & !role.bit().0)
    }

    pub fn of(roles: &[Role]) -> RoleMask {
        RoleMask(roles.iter().fold(0, |m, r| m | r.bit().0))
    }

    /// The single role, if exactly one remains.
    pub fn single(self) -> Option<Role> {
        if self.0.count_ones() == 1 {
            Role::ALL.get(self.0.trailing_zeros() as usize).copied()
        } else {
            None
        }
    }

    pub fn iter(self) -> impl Iterator<Item = Role> {
        Role::ALL.into_iter().filter(move |r| self.contains(*r))
    }
}

impl Serialize for RoleMask {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// The two teams (チーム), and the thief who stands with neither (第3勢力).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// 姫チーム: princess, traveller, monk.
    PrincessTeam,
    /// 大臣チーム: minister, soldiers.
    MinisterTeam,
    Thief,
}

impl Side {
    pub const fn team_id(self) -> u8 {
        self as u8
    }
}

/// The reply to 質問 「そこにいるのは何者か?」, spoken aloud and marked on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    /// 何もしゃべらない (princess, traveller; the thief may choose it) — a princess-team marker.
    Silence,
    /// 「バカもん!わしは大臣じゃ!」 (minister; the thief may choose it) — a minister-team marker.
    IAmTheMinister,
    /// 「やぁ、ご同輩!」 (monk, soldier) — a minister-team marker.
    HelloComrade,
}

impl Answer {
    pub const ALL: [Answer; 3] = [
        Answer::Silence,
        Answer::IAmTheMinister,
        Answer::HelloComrade,
    ];

    /// The roles that can give this answer.
    pub const fn givers(self) -> RoleMask {
        match self {
            Answer::Silence => {
                RoleMask(Role::Princess.bit().0 | Role::Traveller.bit().0 | Role::Thief.bit().0)
            }
            Answer::IAmTheMinister => RoleMask(Role::Minister.bit().0 | Role::Thief.bit().0),
            Answer::HelloComrade => RoleMask(Role::Monk.bit().0 | Role::Soldier.bit().0),
        }
    }

    /// The colour of the marker placed (チームマーカー): red for the princess team, blue for the minister team.
    pub const fn marker(self) -> Side {
        match self {
            Answer::Silence => Side::PrincessTeam,
            Answer::IAmTheMinister | Answer::HelloComrade => Side::MinisterTeam,
        }
    }

    pub const fn words(self) -> &'static str {
        match self {
            Answer::Silence => "…",
            Answer::IAmTheMinister => "Fool! I am the minister!",
            Answer::HelloComrade => "Hello, comrade!",
        }
    }
}
