//! Differential target: a program generated from the input runs on every
//! engine and is compared with the reference interpreter on its defined
//! lanes (the logic is `warpdiff::fuzz::target::diff_target`).

#![no_main]
#![forbid(unsafe_code)]

libfuzzer_sys::fuzz_target!(|data: &[u8]| warpdiff::fuzz::target::diff_target(data));
