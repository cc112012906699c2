// `sqlx::migrate!` embeds the migrations at compile time, but stable Rust cannot tell
// cargo that the macro read them: without this a new migration file alone would not
// rebuild the server, which would then start without it.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
