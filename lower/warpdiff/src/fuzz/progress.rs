//! The fuzz loop's progress: a bar with the current figures on a terminal
//! (indicatif), a plain line every second where stderr is not one (CI
//! logs, pipes), so logs stay readable and terminals stay tidy.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// The bar on the terminal, while one is shown.
static BAR: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// A progress display for a run of `seconds`.
pub struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A bar when stderr is a terminal, plain lines otherwise.
    pub fn new(seconds: u64) -> Progress {
        if !std::io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(Some(seconds), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("[{elapsed_precise}] {bar:24} {pos}/{len} s  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(250));
        *BAR.lock().unwrap_or_else(|p| p.into_inner()) = Some(bar.clone());
        Progress { bar: Some(bar) }
    }

    /// Shows the figures after `secs` seconds.
    pub fn update(&self, secs: u64, line: &str) {
        match &self.bar {
            Some(b) => {
                b.set_position(secs.min(b.length().unwrap_or(secs)));
                b.set_message(line.to_string());
            }
            None => crate::errln!("[{secs:>4}s] {line}"),
        }
    }

    /// Removes the bar (the summary follows).
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
            *BAR.lock().unwrap_or_else(|p| p.into_inner()) = None;
        }
    }
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
