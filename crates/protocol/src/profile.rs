//! The account's profile: its display name (表示名), shown at tables and in the lobby
//! instead of the ASCII login name. Japanese (any script) is welcome; what could make a
//! name look like something else on a page is not.

use crate::Refusal;
use serde::{Deserialize, Serialize};

/// Longest display name, in characters.
pub const MAX_DISPLAY_NAME: usize = 32;

/// `PUT /api/me`: the account's display name.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ProfileChange {
    /// 1 to 32 characters, any script; no control or invisible formatting characters
    /// (bidirectional overrides, zero-width characters), no white space at either end.
    pub display_name: String,
}

/// Characters that are invisible or rearrange the text around them: a name with them
/// could pass for another on a page (a right-to-left override turns "abc" into "cba").
fn is_hidden_format(c: char) -> bool {
    matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}' | '\u{E0000}'..='\u{E0FFF}')
}

impl ProfileChange {
    pub fn validate(&self) -> Result<(), Refusal> {
        let name = self.display_name.as_str();
        let refuse = |m: &str| Refusal::new("invalid_display_name", m.to_string());
        if name.trim().is_empty() {
            return Err(refuse("display_name: empty"));
        }
        if name.chars().count() > MAX_DISPLAY_NAME {
            return Err(refuse("display_name: at most 32 characters"));
        }
        if name.chars().any(char::is_control) {
            return Err(refuse("display_name: control characters are not allowed"));
        }
        if name.chars().any(is_hidden_format) {
            return Err(refuse(
                "display_name: invisible or direction-changing characters are not allowed",
            ));
        }
        if name.trim() != name {
            return Err(refuse(
                "display_name: no white space at the start or the end",
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::ProfileChange;

    fn check(name: &str) -> Result<(), &'static str> {
        ProfileChange {
            display_name: name.to_string(),
        }
        .validate()
        .map_err(|r| r.code)
    }

    #[test]
    fn japanese_names_pass_and_hidden_tricks_do_not() {
        assert_eq!(check("たくげ太郎"), Ok(()));
        assert_eq!(check("Hanako 花子"), Ok(()));
        assert_eq!(check(&"字".repeat(32)), Ok(()));
        for bad in [
            "",
            "   ",
            " lead",
            "trail　",
            "a\u{0007}b",
            "line\nbreak",
            "evil\u{202E}cba",
            "zero\u{200B}width",
            &"字".repeat(33),
        ] {
            assert_eq!(check(bad), Err("invalid_display_name"), "{bad:?}");
        }
    }
}
