//! The fuzz loop's progress: a bar with the current figures on a terminal
//! (indicatif), a plain line every second where stderr is not one (CI
//! logs, pipes), so logs stay readable and terminals stay tidy.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

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
        crate::output::set_bar(Some(bar.clone()));
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
            crate::output::set_bar(None);
        }
    }
}
