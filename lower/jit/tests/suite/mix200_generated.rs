//! The generated half of `benches/native.rs` (the `mix200` section between
//! its `BEGIN GENERATED` / `END GENERATED` markers) is what
//! `benches/gen_mix200.py` makes of `benches/programs/mix200.ptx`: runs the
//! script with `--check`, which writes nothing. Needs `python3` on `PATH`;
//! without it the test fails rather than pass unchecked.

use std::path::Path;
use std::process::Command;

#[test]
fn mix200_native_section_is_up_to_date() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/gen_mix200.py");
    let regenerate = format!("python3 {}", script.display());
    let out = Command::new("python3")
        .arg(&script)
        .arg("--check")
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start `python3` ({e}): this test runs `{regenerate} --check` to check \
                 that the generated mix200 section of benches/native.rs matches \
                 benches/programs/mix200.ptx; install Python 3 (standard library only) or put \
                 it on PATH"
            )
        });
    if !out.status.success() {
        panic!(
            "`{regenerate} --check` failed ({}):\n{}{}\nTo regenerate the section, run:\n\n    \
             {regenerate}\n",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
    }
}
