//! How much the engine's RNG costs per call (a development aid).
use takuge_engine::GameRng;
fn main() {
    let mut rng = GameRng::from_seed(1);
    let n = 50_000_000u32;
    let t = std::time::Instant::now();
    let mut acc = 0u32;
    for i in 0..n { acc = acc.wrapping_add(rng.below(3 + (i & 7))); }
    println!("below: {:.2} ns/call ({acc})", t.elapsed().as_secs_f64() * 1e9 / n as f64);
    let t = std::time::Instant::now();
    for _ in 0..n { acc = acc.wrapping_add(rng.next_u32()); }
    println!("next_u32: {:.2} ns/call ({acc})", t.elapsed().as_secs_f64() * 1e9 / n as f64);
}
