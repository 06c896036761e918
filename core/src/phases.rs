//! Where the fuzz loop's time goes: the phases of one case, summed over
//! many (`warpdiff fuzz` prints them; issue #14 asks for them).

use std::fmt;
use std::time::{Duration, Instant};

/// Time spent per phase of checking cases.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Phases {
    /// Generating cases (their interpreter probes included).
    pub generate: Duration,
    /// The reference interpreter's run of each case.
    pub interpret: Duration,
    /// Compiling each case on the other engines (the JIT's Cranelift).
    pub compile: Duration,
    /// Running the compiled code (for the JIT's first bounded run of a
    /// program this includes compiling its stepped code).
    pub run: Duration,
    /// Comparing the outcomes, and blaming a divergence.
    pub compare: Duration,
}

impl Phases {
    /// Adds `o`'s times to these.
    pub fn add(&mut self, o: &Phases) {
        self.generate += o.generate;
        self.interpret += o.interpret;
        self.compile += o.compile;
        self.run += o.run;
        self.compare += o.compare;
    }

    /// The sum of every phase.
    pub fn total(&self) -> Duration {
        self.generate + self.interpret + self.compile + self.run + self.compare
    }
}

/// Runs `f`, adding its time to `slot`.
pub fn timed<T>(slot: &mut Duration, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let r = f();
    *slot += t.elapsed();
    r
}

impl fmt::Display for Phases {
    /// `generate 1.20 s (40.0 %), interpret ...`: seconds of work (summed
    /// over the workers) and shares of their total.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = self.total().as_secs_f64().max(1e-9);
        let parts = [
            ("generate", self.generate),
            ("interpret", self.interpret),
            ("compile", self.compile),
            ("run", self.run),
            ("compare", self.compare),
        ];
        let shown: Vec<String> = parts
            .iter()
            .map(|(name, d)| {
                let s = d.as_secs_f64();
                format!("{name} {s:.2} s ({:.1} %)", 100.0 * s / total)
            })
            .collect();
        write!(f, "{}", shown.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_are_of_the_total() {
        let s = |n| Duration::from_millis(n);
        let p = Phases {
            generate: s(1000),
            interpret: s(500),
            compile: s(2000),
            run: s(500),
            compare: s(0),
        };
        assert_eq!(p.total(), s(4000));
        assert_eq!(
            p.to_string(),
            "generate 1.00 s (25.0 %), interpret 0.50 s (12.5 %), compile 2.00 s (50.0 %), \
             run 0.50 s (12.5 %), compare 0.00 s (0.0 %)"
        );
    }
}
