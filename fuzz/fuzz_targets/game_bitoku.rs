//! bitoku from arbitrary bytes: the bytes choose the setup and every action (listed
//! ones and near misses); `apply` must accept exactly the listed ones, `is_legal`
//! agree, refusals change nothing, and `random_playout` play the checked loop's games
//! (`takuge_engine::conformance::fuzz_actions`). Any disagreement or panic is a find.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(what) = takuge_engine::conformance::fuzz_actions::<takuge_bitoku::Bitoku>(data) {
        panic!("bitoku: {what}");
    }
});
