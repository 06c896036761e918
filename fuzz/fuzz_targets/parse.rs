//! Parser target: arbitrary bytes through the `.ptx` case parser (the logic
//! is `warpdiff::fuzz::target::parse_target`).

#![no_main]
#![forbid(unsafe_code)]

libfuzzer_sys::fuzz_target!(|data: &[u8]| warpdiff::fuzz::target::parse_target(data));
