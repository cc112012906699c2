//! What a login name and a password may be.
//!
//! Names: `аdmin` (Cyrillic а), `ａｄｍｉｎ` (full width) and `ADMIN` all looked like
//! `admin` and all registered. Every name now has a key (NFKC, lower case, then the
//! Unicode confusable skeleton of UTS #39) that is unique among accounts, and a name
//! that mixes scripts is refused outright. The name shown stays as typed.
//!
//! Passwords (NIST SP 800-63B §5.1.1.2): 8 to 256 characters, not one of the 10,000
//! most common passwords, and not containing the account's own name.

use crate::error::ApiError;
use std::collections::HashSet;
use std::sync::OnceLock;
use unicode_normalization::UnicodeNormalization;
use unicode_security::{skeleton, MixedScript};

/// The 10,000 most common passwords of 8 characters or more, most common first, taken
/// from the frequency list that the `zxcvbn` crate (3.1.1, MIT) ships
/// (`src/frequency_lists.rs`, `PASSWORDS`), itself from leaked-password corpora.
const COMMON_PASSWORDS: &str = include_str!("../data/common-passwords.txt");

fn common_passwords() -> &'static HashSet<&'static str> {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    SET.get_or_init(|| COMMON_PASSWORDS.lines().map(str::trim).collect())
}

fn folded(s: &str) -> String {
    s.nfkc().collect::<String>().to_lowercase().nfkc().collect()
}

/// The key two names share when a reader could take one for the other.
pub fn name_key(name: &str) -> String {
    skeleton(&folded(name)).collect()
}

/// Login names: 3 to 32 letters, digits, `_`, `-`, `.`, all of one script.
pub fn valid_name(name: &str) -> Result<(), ApiError> {
    let ok = (3..=32).contains(&name.chars().count())
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if !ok {
        return Err(ApiError::bad_request(
            "invalid_name",
            "a name is 3 to 32 letters, digits, `_`, `-` or `.`",
        ));
    }
    if !folded(name).is_single_script() {
        return Err(ApiError::bad_request(
            "confusable_name",
            "a name may not mix scripts (such as Latin and Cyrillic letters): it could pass for another",
        ));
    }
    Ok(())
}

pub fn valid_password(password: &str, name: &str) -> Result<(), ApiError> {
    let n = password.chars().count();
    if !(8..=256).contains(&n) {
        return Err(ApiError::bad_request(
            "weak_password",
            "a password is 8 to 256 characters",
        ));
    }
    let lower = password.to_lowercase();
    if common_passwords().contains(lower.as_str()) {
        return Err(ApiError::bad_request(
            "common_password",
            "that password is among the most common ones; choose another",
        ));
    }
    if folded(password).contains(&folded(name)) {
        return Err(ApiError::bad_request(
            "password_contains_name",
            "a password may not contain the account's name",
        ));
    }
    Ok(())
}

/// Fills in the key of every account that has none (those made before keys existed).
/// Two old accounts whose names share a key keep the older one's; the younger keeps
/// no key and logs in by its exact name only (logged, for the operator to settle).
pub async fn backfill_name_keys(db: &crate::store::Store) -> Result<(), String> {
    let names = db
        .names_without_key()
        .await
        .map_err(|e| format!("reading names to key: {e}"))?;
    for (id, name) in names {
        match db.set_name_key(id, &name_key(&name)).await {
            Ok(()) => {}
            Err(e) if e.conflict().is_some() => {
                tracing::warn!(
                    user = id,
                    "a login name looks like an older account's; it keeps no key"
                );
            }
            Err(e) => return Err(format!("keying login names: {e}")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn look_alike_names_share_a_key_and_mixed_scripts_are_refused() {
        let admin = name_key("admin");
        assert_eq!(name_key("ADMIN"), admin);
        assert_eq!(name_key("ａｄｍｉｎ"), admin);
        assert_eq!(name_key("\u{430}dmin"), admin);
        assert_ne!(name_key("alice"), name_key("bob"));
        assert_eq!(
            valid_name("\u{430}dmin").map_err(|e| e.code),
            Err("confusable_name")
        );
        assert!(valid_name("ａｄｍｉｎ").is_ok());
        assert!(valid_name("たろう太郎").is_ok());
        assert!(valid_name("Алиса").is_ok());
        assert!(valid_name("hanako_2").is_ok());
    }

    #[test]
    fn common_passwords_and_the_name_inside_are_refused() {
        assert_eq!(common_passwords().len(), 10_000);
        let code = |p: &str, n: &str| valid_password(p, n).err().map(|e| e.code);
        assert_eq!(code("short", "hanako"), Some("weak_password"));
        assert_eq!(code("password1", "hanako"), Some("common_password"));
        assert_eq!(code("PassWord1", "hanako"), Some("common_password"));
        assert_eq!(
            code("Hanako2024!", "hanako"),
            Some("password_contains_name")
        );
        assert_eq!(code("correct horse", "hanako"), None);
    }
}
