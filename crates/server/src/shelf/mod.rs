//! The shelf (issue 17): the catalog of board games (`catalog`, seeded with takuge's
//! own games by `seed`, changed through proposals an admin approves), each person's
//! collection (`collection`), plays (`plays`, recorded by finished matches too), the
//! BoardGameGeek import and the exports (`import`, `export`), reviews and rule notes
//! (`reviews`), recommendations (`recommend`, issue 18). Storage is the server's one
//! database (SQLite or PostgreSQL, the same queries: see `crate::store`; the shelf's
//! are in `store/shelf/`).

pub mod admin;
pub mod bench;
pub mod catalog;
pub mod catalog_api;
pub mod changes;
pub mod collection;
pub mod export;
pub mod import;
pub mod kana;
pub mod plays;
pub mod recommend;
pub mod reviews;
pub mod shelf_cache;
pub mod shelf_select;

// The shelf's storage that moved to the store keeps its old paths.
pub use crate::store::shelf::{matches, seed, sql, versions};

use crate::auth::Auth;
use crate::error::ApiError;
use axum::http::StatusCode;
use serde::Serialize;
use utoipa::ToSchema;

pub use sql::Sql;

/// Writes to the shelf need a registered account: a guest's would be lost with it.
pub fn registered(auth: &Auth) -> Result<(), ApiError> {
    if auth.user.guest {
        return Err(ApiError::forbidden(
            "guest",
            "the shelf is for registered accounts; register first (a guest keeps its id)",
        ));
    }
    Ok(())
}

/// An account as the shelf shows it.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct Person {
    pub id: i64,
    pub name: String,
}

pub fn unknown_user(who: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "unknown_user",
        format!("there is no shelf of {who:?} (or it is not shown to you)"),
    )
}

/// A registered account named by its login name (any spelling with its key) or its id.
pub async fn find_user(db: &crate::store::Store, who: &str) -> Result<Option<Person>, ApiError> {
    let found = match who.parse::<i64>() {
        Ok(id) => db.registered_by_id(id).await?,
        Err(_) if who.len() <= 64 => {
            db.registered_by_name(&crate::policy::name_key(who), who)
                .await?
        }
        Err(_) => None,
    };
    Ok(found.map(|(id, name)| Person { id, name }))
}

/// Whether `viewer` may see the shelf (collection and plays) of `owner`: a private
/// shelf only its owner, a `signed_in` one any registered account.
pub async fn may_see(
    db: &crate::store::Store,
    owner: i64,
    viewer: Option<&Auth>,
) -> Result<bool, ApiError> {
    if viewer.is_some_and(|a| a.user.id == owner) {
        return Ok(true);
    }
    Ok(shown_to(visibility_of(db, owner).await?, owner, viewer))
}

/// [`may_see`] for a visibility already read.
pub fn shown_to(
    visibility: takuge_protocol::Visibility,
    owner: i64,
    viewer: Option<&Auth>,
) -> bool {
    viewer.is_some_and(|a| a.user.id == owner)
        || match visibility {
            takuge_protocol::Visibility::Public => true,
            takuge_protocol::Visibility::SignedIn => viewer.is_some_and(|a| !a.user.guest),
            takuge_protocol::Visibility::Private => false,
        }
}

pub async fn visibility_of(
    db: &crate::store::Store,
    owner: i64,
) -> Result<takuge_protocol::Visibility, ApiError> {
    Ok(db
        .shelf_visibility(owner)
        .await?
        .map_or(takuge_protocol::Visibility::Public, |v| {
            takuge_protocol::Visibility::parse(&v)
        }))
}

/// The shelf of `who` if `viewer` may see it; a private one answers as a missing one.
pub async fn visible_owner(
    db: &crate::store::Store,
    who: &str,
    viewer: Option<&Auth>,
) -> Result<Person, ApiError> {
    let person = find_user(db, who).await?.ok_or_else(|| unknown_user(who))?;
    if !may_see(db, person.id, viewer).await? {
        return Err(unknown_user(who));
    }
    Ok(person)
}

/// The UTC date of Unix seconds `t`, as `YYYY-MM-DD` (Howard Hinnant's civil date).
pub fn date_of(t: i64) -> String {
    let z = t.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn dates_are_the_civil_calendar() {
        assert_eq!(super::date_of(0), "1970-01-01");
        assert_eq!(super::date_of(951_782_400), "2000-02-29");
        assert_eq!(super::date_of(1_795_000_000), "2026-11-18");
    }
}
