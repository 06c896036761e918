//! The GPU runner process (`warpdiff gpu-runner --device N`): it owns a
//! CUDA context on one GPU and runs the batches its parent sends on stdin
//! ([`Request`]: modules compiled beforehand), answering each on stdout
//! ([`Reply`]). It holds nothing its parent needs: when a batch hangs or
//! faults it says so and exits (its exit is what frees the GPU from a hung
//! kernel or a poisoned context), and when a driver call never returns its
//! parent kills it ([`crate::remote`]). Either way the parent starts a
//! fresh runner and the GPU goes on.

use super::config::SimFault;
use super::driver;
use super::exec::{self, Stopped};
use super::wire::{Hello, Reply, Request};
use std::io::{self, BufReader, BufWriter};
use std::time::Duration;

/// The subcommand a runner process runs.
pub const RUNNER_COMMAND: &str = "gpu-runner";

/// Exit status after answering a hang.
pub const EXIT_HANG: u8 = 3;
/// Exit status after answering a fault.
pub const EXIT_FAULT: u8 = 4;
/// Exit status when no context could be opened (the hello says why).
pub const EXIT_NO_GPU: u8 = 5;

/// The runner's loop, on GPU `device` (or on the simulated GPU of a
/// fault-injection build when `simulate` is given: its wrong-value rules
/// read `sim_opt_level`, the level the parent compiles at, and `dirty`).
/// Returns the exit status: 0 when the parent closed the pipe.
pub fn runner_main(
    device: usize,
    simulate: Option<SimFault>,
    dirty: Option<u32>,
    sim_opt_level: Option<u32>,
) -> u8 {
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = BufWriter::new(io::stdout().lock());
    if let Some(rule) = simulate {
        return simulated(
            &rule,
            device,
            (sim_opt_level, dirty),
            &mut input,
            &mut output,
        );
    }
    let opened = driver::open_context(device).and_then(|ctx| {
        ctx.bind_to_thread()
            .map_err(|e| driver::NoGpu(format!("binding the context: {e:?}")))?;
        Ok(ctx)
    });
    let ctx = match opened {
        Ok(c) => c,
        Err(e) => {
            let _ = Hello {
                description: format!("no GPU: {}", e.0),
            }
            .write(&mut output);
            return EXIT_NO_GPU;
        }
    };
    let stream = ctx.default_stream();
    let name = ctx.name().unwrap_or_else(|_| "unknown GPU".into());
    let cc = ctx.compute_capability().unwrap_or((0, 0));
    let hello = Hello {
        description: format!("{name} (sm_{}{}{})", cc.0, cc.1, driver::driver_version()),
    };
    if hello.write(&mut output).is_err() {
        return 2;
    }
    loop {
        let req = match Request::read(&mut input) {
            Ok(Some(r)) => r,
            Ok(None) => return 0,
            Err(e) => {
                eprintln!("warpdiff {RUNNER_COMMAND}: a request it cannot read: {e}");
                return 2;
            }
        };
        let deadline = Duration::from_millis(req.deadline_ms);
        let (reply, status) = match exec::execute(&ctx, &stream, &req.modules, deadline, dirty) {
            Ok(ex) => (Reply::Ran(ex.results), None),
            Err(Stopped::Hang(m)) => (Reply::Hang(m), Some(EXIT_HANG)),
            Err(Stopped::Fault(m)) => (Reply::Fault(m), Some(EXIT_FAULT)),
        };
        if reply.write(&mut output).is_err() {
            return 2;
        }
        if let Some(s) = status {
            // A hung kernel cannot be stopped and a fault is sticky: only
            // this process's end frees the GPU. Exit without unloading
            // anything (that would wait for the kernels).
            std::process::exit(s.into());
        }
    }
}

/// The runner on the simulated GPU, compiling at `setup.0` and filling
/// the registers from `setup.1`.
fn simulated(
    rule: &SimFault,
    device: usize,
    setup: (Option<u32>, Option<u32>),
    input: &mut impl io::Read,
    output: &mut impl io::Write,
) -> u8 {
    #[cfg(not(feature = "inject-bugs"))]
    {
        let _ = (rule, device, setup, input);
        let _ = Hello {
            description: "no GPU: the simulated GPU needs a build with `--features inject-bugs`"
                .into(),
        }
        .write(output);
        EXIT_NO_GPU
    }
    #[cfg(feature = "inject-bugs")]
    {
        let hello = Hello {
            description: format!(
                "simulated GPU {device} (inject-bugs build; fails as {})",
                rule.name()
            ),
        };
        if hello.write(output).is_err() {
            return 2;
        }
        // Batches this process ran: what its registers hold.
        let mut earlier = 0;
        loop {
            let req = match Request::read(input) {
                Ok(Some(r)) => r,
                Ok(None) => return 0,
                Err(_) => return 2,
            };
            let state = super::sim_wrong::SimState {
                opt_level: setup.0,
                dirty: setup.1,
                earlier,
                seq: req.seq as usize,
            };
            earlier += 1;
            let reply = super::sim::run_modules(rule, &state, &req.modules);
            let status = match reply {
                Reply::Ran(_) => None,
                Reply::Hang(_) => Some(EXIT_HANG),
                Reply::Fault(_) => Some(EXIT_FAULT),
            };
            if reply.write(output).is_err() {
                return 2;
            }
            if let Some(s) = status {
                return s;
            }
        }
    }
}
