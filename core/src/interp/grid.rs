//! Running a kernel's whole launch: every CTA of the grid, one after
//! another, and in each CTA its warps, each run until it finishes or every
//! lane of it that can still run waits at `bar.sync`; when no warp can go
//! on, the barrier completes for all of them (threads that exited are not
//! waited for) and they run on. A warp's last lanes beyond the block's
//! thread count do not exist ([`Lane::Absent`]).
//!
//! Running warps one after another between barriers is one legal schedule;
//! every access another schedule could order differently is a data race
//! (see `memory.rs`), so the buffers' defined bytes are those of every
//! schedule.

use super::atomic_log::{Contested, Log};
use super::converge::Trace;
use super::fuel::DEFAULT_FUEL;
use super::lanes::lanes;
use super::memory::{Ctx, Memory, Region};
use super::place::WarpPlace;
use super::schedule::{advance, release_barrier, Advance};
use super::target;
use super::warp::{Lane, Warp, Watch};
use crate::ir::{windows, Kernel, Module, WARP};
use crate::launch::{BufferOut, Launch, LaunchError, LaunchOutcome, ParamValue};

/// The parameter space of a launch ([`crate::launch::param_space`]).
fn params(k: &Kernel, values: &[ParamValue]) -> Region {
    let (bytes, defined) = crate::launch::param_space(k, values);
    Region::new("param", 0, bytes, defined)
}

/// The launch's global memory: its buffers, then the module's variables.
fn globals(m: &Module, l: &Launch) -> Result<Vec<Region>, LaunchError> {
    let mut v = Vec::new();
    for (i, b) in l.buffers.iter().enumerate() {
        if b.bytes.len() as u64 > windows::BUFFER_STRIDE {
            return Err(LaunchError::Invalid(format!(
                "buffer `{}` is over 4 GiB",
                b.name
            )));
        }
        let base = windows::BUFFERS + i as u64 * windows::BUFFER_STRIDE;
        v.push(Region::new(
            &b.name,
            base,
            b.bytes.clone(),
            vec![true; b.bytes.len()],
        ));
    }
    for g in &m.globals {
        let bytes = g.init.clone().unwrap_or_else(|| vec![0; g.size as usize]);
        let r = Region::new(&g.name, g.address, bytes, vec![true; g.size as usize]);
        v.push(if g.address < windows::GLOBAL_VARS {
            r.read_only()
        } else {
            r
        });
    }
    Ok(v)
}

/// The kernel a launch names and the memory it starts with: its buffers
/// and the module's variables at their generic addresses, and the
/// parameter space (no shared memory yet: each CTA gets its own). Every
/// engine that runs launches starts from this.
///
/// Errors: those of [`Launch::bind`].
pub fn prepare<'m>(
    module: &'m Module,
    launch: &Launch,
) -> Result<(&'m Kernel, Memory), LaunchError> {
    let (k, values) = launch.bind(module)?;
    let mem = Memory {
        globals: globals(module, launch)?,
        shared: None,
        dynamic: None,
        param: Some(params(k, &values)),
        atomics: Default::default(),
    };
    Ok((k, mem))
}

/// Runs `launch` of a kernel of `module` on the reference interpreter.
///
/// Errors: the kernel or a parameter is missing, or a warp runs out of
/// fuel (each warp has [`DEFAULT_FUEL`] warp steps). Undefined behaviour
/// is an outcome ([`LaunchOutcome::ub`]).
///
/// As for one warp (`Interp::run`), when the first run leaves values
/// defined only in part for want of knowing which lanes come to an
/// instruction later (`activemask` after a divergence, say), a second run
/// of the whole launch, taking the same path, knows it.
///
/// Likewise when an atomic's location turned out contested only after it
/// had given out a value (`atomic.rs`): the run is repeated knowing every
/// contested location from the start.
pub fn run_launch(module: &Module, launch: &Launch) -> Result<LaunchOutcome, LaunchError> {
    run_launch_watched(module, launch, &mut Watching::default())
}

/// How [`run_launch_watched`] runs a launch: with an observer, and in
/// which convergence model.
#[derive(Default)]
pub(crate) struct Watching {
    /// The observer; it sees the pass whose outcome the run returns, and
    /// it is here again after the run.
    pub watch: Option<Box<dyn Watch>>,
    /// Makes a fresh observer for a second pass (the first pass's is
    /// dropped then).
    pub fresh: Option<fn() -> Box<dyn Watch>>,
    /// The *spec* convergence model (`Convergence::spec_model`) instead of
    /// the observed one.
    pub spec: bool,
}

/// [`run_launch`], watched and in the model `how` says.
pub(crate) fn run_launch_watched(
    module: &Module,
    launch: &Launch,
    how: &mut Watching,
) -> Result<LaunchOutcome, LaunchError> {
    let (mut first, mut traces, again) = pass(module, launch, None, how, None)?;
    let mut known = None;
    if let Some(c) = again.filter(|_| first.ub.is_none()) {
        if let Some(fresh) = how.fresh {
            how.watch = Some(fresh());
        }
        (first, traces, _) = pass(module, launch, None, how, Some(c.clone()))?;
        known = Some(c);
    }
    if first.ub.is_some() || !traces.iter().any(Trace::has_questions) {
        return Ok(first);
    }
    let answered: Vec<Trace> = traces.iter().map(Trace::answered).collect();
    if !answered.iter().any(Trace::knows_more) {
        return Ok(first);
    }
    if let Some(fresh) = how.fresh {
        how.watch = Some(fresh());
    }
    Ok(pass(module, launch, Some(answered), how, known)?.0)
}

/// One run of the whole launch; `answers` are the traces of a first run's
/// warps answered (in CTA, then warp order), for a second; `contested`
/// the contested locations of atomics a run before found. Returns the
/// outcome, every warp's trace (none when the run hit UB), and the
/// contested locations when the run must be repeated knowing them.
fn pass(
    module: &Module,
    launch: &Launch,
    answers: Option<Vec<Trace>>,
    how: &mut Watching,
    contested: Option<Contested>,
) -> Result<(LaunchOutcome, Vec<Trace>, Option<Contested>), LaunchError> {
    let mut given = answers.map(|v| v.into_iter());
    let mut traces = Vec::new();
    let (k, mut mem) = prepare(module, launch)?;
    if let Some(c) = contested {
        mem.atomics = Log::knowing(c);
    }
    let prog = &k.program;
    let [bx, by, bz] = launch.block;
    let threads = bx as u64 * by as u64 * bz as u64;
    let nwarps = threads.div_ceil(WARP as u64) as u32;
    let nbuf = launch.buffers.len();
    let [gx, gy, gz] = launch.grid;
    let mut total = 0;
    let mut cta = 0u32;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                mem.next_cta(k.shared_size, launch.shared);
                let mut warps: Vec<Warp> = (0..nwarps)
                    .map(|wi| {
                        let trace = given.as_mut().and_then(|t| t.next()).unwrap_or_default();
                        let mut w = Warp::new(prog, trace);
                        if how.spec {
                            w.conv.spec_model();
                        }
                        let place = WarpPlace::new(launch, [x, y, z], wi);
                        let absent = place.absent;
                        for l in lanes(absent) {
                            w.lane[l] = Lane::Absent;
                        }
                        if absent != 0 {
                            w.conv.exit(u32::MAX, absent);
                        }
                        let local = (0..WARP)
                            .map(|_| Region::undefined("local", 0, k.local_size))
                            .collect();
                        w.kernel = Some(Box::new(Ctx {
                            mem: Memory::default(),
                            local,
                            place,
                            cta,
                            epoch: 0,
                        }));
                        w
                    })
                    .collect();
                let mut done = vec![false; warps.len()];
                let mut steps = vec![0u64; warps.len()];
                let mut epoch = 0;
                let here = |wi: usize| format!("cta ({x},{y},{z}) warp {wi}");
                let ub_out = |mem: &Memory, at: String, ub, total| {
                    let out = LaunchOutcome {
                        buffers: outputs(mem, nbuf),
                        ub: Some((at, ub)),
                        steps: total,
                    };
                    Ok((out, Vec::new(), None))
                };
                if let Some(ub) = target::check(prog) {
                    return ub_out(&mem, here(0), ub, total);
                }
                loop {
                    for (wi, w) in warps.iter_mut().enumerate() {
                        if done[wi] {
                            continue;
                        }
                        let ctx = w.kernel.as_mut().expect("a kernel warp");
                        ctx.mem = std::mem::take(&mut mem);
                        ctx.epoch = epoch;
                        let before = steps[wi];
                        w.watch = how.watch.take();
                        let r = advance(w, &mut steps[wi], DEFAULT_FUEL, false);
                        how.watch = w.watch.take();
                        total += steps[wi] - before;
                        mem = std::mem::take(&mut w.kernel.as_mut().expect("a kernel warp").mem);
                        match r {
                            Err(fuel) => {
                                return Err(LaunchError::OutOfFuel {
                                    cta: [x, y, z],
                                    warp: wi as u32,
                                    fuel,
                                })
                            }
                            Ok(Advance::Finished(Some(ub))) => {
                                return ub_out(&mem, here(wi), ub, total)
                            }
                            Ok(Advance::Finished(None)) => done[wi] = true,
                            Ok(Advance::Barrier) => {}
                            Ok(Advance::Stopped(_)) => unreachable!("kernel runs are unbounded"),
                        }
                    }
                    if done.iter().all(|&d| d) {
                        break;
                    }
                    for (wi, w) in warps.iter_mut().enumerate() {
                        if !done[wi] {
                            if let Some(ub) = release_barrier(w) {
                                return ub_out(&mem, here(wi), ub, total);
                            }
                        }
                    }
                    epoch += 1;
                }
                traces.extend(warps.iter_mut().map(|w| std::mem::take(&mut w.conv.trace)));
                cta += 1;
            }
        }
    }
    let out = LaunchOutcome {
        buffers: outputs(&mem, nbuf),
        ub: None,
        steps: total,
    };
    let again = mem.atomics.rerun();
    Ok((out, traces, again))
}

/// The first `n` global regions (the launch's buffers) as outputs.
fn outputs(mem: &Memory, n: usize) -> Vec<BufferOut> {
    mem.globals[..n]
        .iter()
        .map(|r| BufferOut {
            name: r.name.clone(),
            bytes: r.bytes.clone(),
            defined: r.defined.clone(),
        })
        .collect()
}
