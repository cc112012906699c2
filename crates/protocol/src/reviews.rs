//! Reviews (レビュー) and rule notes (ルール解説) of catalog games: their bodies, queries
//! and checks. Text is stored as given (HTML included) and shown as text by every
//! client; only its length and control characters are checked here.

use crate::Refusal;
use serde::{Deserialize, Serialize};

/// Longest title, in characters (a title may be empty).
pub const MAX_REVIEW_TITLE: usize = 100;
/// Longest review or rule note, in characters.
pub const MAX_REVIEW_TEXT: usize = 10_000;
/// Longest reason for a report, in characters.
pub const MAX_REPORT_REASON: usize = 1_000;

fn refuse(message: impl Into<String>) -> Refusal {
    Refusal::new("invalid_field", message)
}

/// At most `max` characters, no control characters but newlines and tabs, and (when
/// `required`) something besides white space.
fn check(field: &str, v: &str, max: usize, required: bool) -> Result<(), Refusal> {
    if required && v.trim().is_empty() {
        return Err(refuse(format!("{field}: empty")));
    }
    if v.chars().count() > max {
        return Err(refuse(format!("{field}: at most {max} characters")));
    }
    if v.chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
    {
        return Err(refuse(format!(
            "{field}: control characters are not allowed"
        )));
    }
    Ok(())
}

/// What a piece of writing about a game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReviewKind {
    /// レビュー: what the writer thinks of the game.
    #[default]
    Review,
    /// ルール解説: how to play, a rule explained.
    Rules,
}

impl ReviewKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewKind::Review => "review",
            ReviewKind::Rules => "rules",
        }
    }
}

/// `POST /api/reviews`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewReview {
    /// A catalog id (`12`) or a takuge game id (`secret-moon`).
    pub game: String,
    /// Default `review`.
    #[serde(default)]
    pub kind: ReviewKind,
    /// 0 to 100 characters.
    #[serde(default)]
    pub title: String,
    /// 1 to 10,000 characters, shown as plain text (HTML is not markup).
    pub text: String,
}

impl NewReview {
    pub fn validate(&self) -> Result<(), Refusal> {
        check("game", &self.game, 64, true)?;
        check("title", &self.title, MAX_REVIEW_TITLE, false)?;
        check("text", &self.text, MAX_REVIEW_TEXT, true)
    }
}

/// `PUT /api/reviews/{id}`: the new title and text, whole.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ReviewEdit {
    #[serde(default)]
    pub title: String,
    pub text: String,
}

impl ReviewEdit {
    pub fn validate(&self) -> Result<(), Refusal> {
        check("title", &self.title, MAX_REVIEW_TITLE, false)?;
        check("text", &self.text, MAX_REVIEW_TEXT, true)
    }
}

/// `POST /api/reviews/{id}/reports`: why the admin should look at a review.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct ReviewReport {
    /// 1 to 1,000 characters.
    pub reason: String,
}

impl ReviewReport {
    pub fn validate(&self) -> Result<(), Refusal> {
        check("reason", &self.reason, MAX_REPORT_REASON, true)
    }
}

/// The order of a game's reviews.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReviewOrder {
    /// 新着順: the latest written first.
    #[default]
    Newest,
    /// ナイス!順: most Nice! first, then the latest.
    Liked,
}

/// `GET /api/reviews`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct ReviewsQuery {
    /// The game: a catalog id (`12`) or a takuge game id (`secret-moon`); required.
    pub game: Option<String>,
    /// Only reviews or only rule notes (default both).
    #[cfg_attr(feature = "openapi", param(inline))]
    pub kind: Option<ReviewKind>,
    #[cfg_attr(feature = "openapi", param(inline))]
    pub order: Option<ReviewOrder>,
    /// At most this many (default 20, at most 100).
    pub limit: Option<u32>,
    pub offset: Option<u32>,
}

/// Where a reported review stands in the admin's queue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum ReportState {
    /// Reviews with reports nobody has decided on.
    #[default]
    Open,
    /// Reviews an admin has hidden.
    Hidden,
}

/// `GET /api/reviews/reports`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
pub struct ReportsQuery {
    /// Default `open`.
    #[cfg_attr(feature = "openapi", param(inline))]
    pub state: Option<ReportState>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode_body;

    #[test]
    fn review_bodies_refuse_unknown_fields() {
        assert!(decode_body::<NewReview>(br#"{"game": "a", "text": "b", "x": 1}"#).is_err());
        assert!(decode_body::<NewReview>(br#"{"game": "a", "text": "b", "kind": "x"}"#).is_err());
        assert!(decode_body::<ReviewEdit>(br#"{"text": "b", "x": 1}"#).is_err());
        assert!(decode_body::<ReviewReport>(br#"{"reason": "b", "x": 1}"#).is_err());
    }

    #[test]
    fn a_review_has_text_within_the_limits() {
        let ok = NewReview {
            game: "secret-moon".into(),
            text: "<b>fun</b>".into(),
            ..Default::default()
        };
        assert_eq!(ok.validate(), Ok(()));
        let empty = NewReview {
            text: " \n ".into(),
            ..ok.clone()
        };
        assert!(empty.validate().is_err());
        let long = NewReview {
            text: "あ".repeat(MAX_REVIEW_TEXT + 1),
            ..ok.clone()
        };
        assert!(long.validate().is_err());
        let just = NewReview {
            text: "あ".repeat(MAX_REVIEW_TEXT),
            title: "t".repeat(MAX_REVIEW_TITLE),
            ..ok.clone()
        };
        assert_eq!(just.validate(), Ok(()));
        let control = NewReview {
            text: "a\u{0}b".into(),
            ..ok
        };
        assert!(control.validate().is_err());
        assert!(ReviewReport { reason: "".into() }.validate().is_err());
    }
}
