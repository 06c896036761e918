//! Parser target: arbitrary bytes through the `.ptx` case parser (the logic
//! is `warp_lower::fuzzing::parse_target`).

#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| warp_lower::fuzzing::parse_target(data));
