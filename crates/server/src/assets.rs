//! The web client's files (`web/app/`), served by the binary itself.
//!
//! Release builds embed the folder, so `takuge serve` needs nothing beside it; debug builds
//! read it from disk on every request (rust-embed's default), so editing the client needs no
//! rebuild. Any GET that is not an API route and names no file gets `index.html`: the
//! client routes by path (`/t/12`, `/replay/12`), and a reload or an invite link must land.

use axum::http::{header, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "../../web/app/"]
struct Web;

pub async fn serve(method: Method, uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    let read = method == Method::GET || method == Method::HEAD;
    if !read || path.starts_with("api/") || path == "ws" {
        return crate::error::ApiError::new(StatusCode::NOT_FOUND, "not_found", "no such endpoint")
            .into_response();
    }
    if let Some(file) = (!path.is_empty()).then(|| Web::get(path)).flatten() {
        return file_response(path, file);
    }
    // A path with an extension is a missing file, not a client route.
    if path
        .rsplit('/')
        .next()
        .is_some_and(|last| last.contains('.'))
    {
        return (StatusCode::NOT_FOUND, "not found").into_response();
    }
    match Web::get("index.html") {
        Some(file) => file_response("index.html", file),
        None => (StatusCode::NOT_FOUND, "the web client is not built in").into_response(),
    }
}

fn file_response(path: &str, file: rust_embed::EmbeddedFile) -> Response {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    // index.html must be re-read so a new release's module URLs are picked up; the modules
    // themselves are revalidated by ETag.
    let etag = format!("\"{}\"", hex_prefix(&file.metadata.sha256_hash()));
    (
        [
            (header::CONTENT_TYPE, mime.as_ref().to_string()),
            (header::CACHE_CONTROL, "no-cache".to_string()),
            (header::ETAG, etag),
            (
                header::HeaderName::from_static("x-content-type-options"),
                "nosniff".to_string(),
            ),
        ],
        file.data.into_owned(),
    )
        .into_response()
}

fn hex_prefix(hash: &[u8; 32]) -> String {
    hash.iter().take(8).map(|b| format!("{b:02x}")).collect()
}
