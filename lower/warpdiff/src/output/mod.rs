//! Everything warpdiff prints goes through here: a closed pipe (`warpdiff
//! run big.ptx | head -1`) ends the process quietly with status 141, as a
//! shell reports a process killed by SIGPIPE, instead of the panic of
//! `println!`; any other write error ends it with status 2 and a message.
//! While a progress bar is on the terminal ([`set_bar`]), lines are
//! printed above it.
//!
//! Use [`outln!`](crate::outln) for stdout and [`errln!`](crate::errln) for
//! stderr; the crate denies `println!`/`eprintln!` elsewhere.

#![allow(clippy::print_stdout, clippy::print_stderr)]

pub mod json;
pub mod table;

use indicatif::ProgressBar;
use std::fmt;
use std::io::{self, Write};
use std::sync::Mutex;

/// The exit status after the output pipe closed (128 + SIGPIPE).
pub const EXIT_PIPE_CLOSED: u8 = 141;

/// The progress bar on the terminal, while one is shown: lines are
/// printed above it.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// Sets the progress bar that lines are printed above (`None`: no bar
/// any more).
pub fn set_bar(bar: Option<ProgressBar>) {
    *BAR.lock().unwrap_or_else(|p| p.into_inner()) = bar;
}

/// Runs `f` (which prints) with the bar, if any, hidden meanwhile.
pub fn suspend<T>(f: impl FnOnce() -> T) -> T {
    let bar = BAR
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .as_ref()
        .cloned();
    match bar {
        Some(b) => b.suspend(f),
        None => f(),
    }
}

/// Prints a line on stdout.
#[macro_export]
macro_rules! outln {
    () => { $crate::output::out(format_args!("\n")) };
    ($($t:tt)*) => { $crate::output::out(format_args!("{}\n", format_args!($($t)*))) };
}

/// Prints on stdout without a newline.
#[macro_export]
macro_rules! out {
    ($($t:tt)*) => { $crate::output::out(format_args!($($t)*)) };
}

/// Prints a line on stderr.
#[macro_export]
macro_rules! errln {
    ($($t:tt)*) => { $crate::output::err(format_args!("{}\n", format_args!($($t)*))) };
}

/// Writes to stdout (see the module doc).
pub fn out(args: fmt::Arguments) {
    suspend(|| {
        let mut o = io::stdout().lock();
        if let Err(e) = o.write_fmt(args).and_then(|()| o.flush()) {
            closed(e, "stdout");
        }
    });
}

/// Writes to stdout what `f` writes, straight to the locked stream (for
/// output too big to format at once: a kernel's buffers), handling a
/// closed pipe as [`out()`] does.
pub fn out_with(f: impl FnOnce(&mut dyn Write) -> io::Result<()>) {
    suspend(|| {
        let mut o = io::stdout().lock();
        if let Err(e) = f(&mut o).and_then(|()| o.flush()) {
            closed(e, "stdout");
        }
    });
}

/// Writes to stderr (see the module doc).
pub fn err(args: fmt::Arguments) {
    suspend(|| {
        let mut o = io::stderr().lock();
        if let Err(e) = o.write_fmt(args) {
            closed(e, "stderr");
        }
    });
}

fn closed(e: io::Error, what: &str) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(EXIT_PIPE_CLOSED.into());
    }
    let _ = writeln!(io::stderr(), "warpdiff: cannot write to {what}: {e}");
    std::process::exit(2);
}
