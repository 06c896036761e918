//! The fuzz loop's progress: a bar with the current figures on a terminal
//! (indicatif), a plain line every second where stderr is not one (CI
//! logs, pipes), so logs stay readable and terminals stay tidy; and the
//! figures the line shows.

use crate::fuzz::external::Lane;
use crate::fuzz::run::Shared;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use warp_gpu::device::Device;

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

/// The progress line's figures.
pub fn progress_line(
    sh: &Shared,
    gpus: &[Arc<dyn Device>],
    lanes: &[Lane],
    rate: f64,
    gpu_rates: &[f64],
) -> String {
    let t = crate::fuzz::summary::Totals::of(sh);
    let mut line = format!(
        "{rate:>7.0} input sets/s  {} input sets of {} programs  UB {:.1}%  divergences {}",
        t.sets,
        t.programs,
        100.0 * t.ub as f64 / t.sets.max(1) as f64,
        sh.divergences.load(Ordering::Relaxed)
    );
    if t.refused > 0 {
        line.push_str(&format!("  unfinished {}", t.refused));
    }
    if !gpus.is_empty() {
        let per: Vec<String> = gpus
            .iter()
            .zip(gpu_rates)
            .map(|(g, r)| {
                format!(
                    "gpu{} {r:.0}/s{}",
                    g.ordinal(),
                    if g.is_dead() { " (off)" } else { "" }
                )
            })
            .collect();
        line.push_str(&format!(
            "  gpu {} programs ({} cases; programs {})  known bugs {}  hangs {} faults {}",
            sh.gpu_programs.load(Ordering::Relaxed),
            sh.gpu_checked.load(Ordering::Relaxed),
            per.join(", "),
            sh.known_hits(),
            sh.gpu_hangs.load(Ordering::Relaxed),
            sh.gpu_faults.load(Ordering::Relaxed),
        ));
    }
    for lane in lanes {
        line.push_str(&format!(
            "  {} {} checked{}",
            lane.engine.name(),
            lane.checked.load(Ordering::Relaxed),
            if lane.engine.off().is_some() {
                " (off)"
            } else {
                ""
            }
        ));
    }
    line
}
