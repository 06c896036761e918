//! Lowering of `redux.sync` (see `warp-core`'s `interp/redux.rs` for the
//! page's rules): a loop over the set bits of the participants reduces the
//! sources. With an immediate membermask every lane's group is the same
//! and the reduction runs once; with a register membermask it runs once
//! per distinct membermask among the executing lanes.

use super::builder::{mf, Emitter};
use super::inject::{self, Bug};
use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::{I32, I32X4};
use cranelift_codegen::ir::{InstBuilder, Value};
use warp_core::ir::{Guard, Operand, Redux, ReduxOp, Signedness, WARP};

const CANONICAL_NAN: i64 = 0x7fff_ffff;

/// Emits a loop reducing the 32-bit lanes at `a_base` selected by `set`.
fn reduce(e: &mut Emitter, op: ReduxOp, a_base: u32, set: Value) -> Value {
    let (init, float) = match op {
        ReduxOp::Add(_) | ReduxOp::Or | ReduxOp::Xor => (0, None),
        ReduxOp::And => (-1, None),
        ReduxOp::Min(Signedness::Unsigned) => (-1, None),
        ReduxOp::Max(Signedness::Unsigned) => (0, None),
        ReduxOp::Min(Signedness::Signed) => (i32::MAX as i64, None),
        ReduxOp::Max(Signedness::Signed) => (i32::MIN as i64, None),
        ReduxOp::FMin { abs, nan } => (CANONICAL_NAN, Some((false, abs, nan))),
        ReduxOp::FMax { abs, nan } => (CANONICAL_NAN, Some((true, abs, nan))),
    };
    let head = e.b.create_block();
    let body = e.b.create_block();
    let done = e.b.create_block();
    // (remaining bits, acc, have a number, saw a NaN)
    for blk in [head, done] {
        for _ in 0..4 {
            e.b.append_block_param(blk, I32);
        }
    }
    let acc0 = e.b.ins().iconst(I32, init);
    let zero = e.b.ins().iconst(I32, 0);
    e.b.ins()
        .jump(head, &[set.into(), acc0.into(), zero.into(), zero.into()]);

    e.switch_to(head);
    let ps = e.b.block_params(head).to_vec();
    let (bits, acc, have, sawnan) = (ps[0], ps[1], ps[2], ps[3]);
    e.b.ins().brif(
        bits,
        body,
        &[],
        done,
        &[bits.into(), acc.into(), have.into(), sawnan.into()],
    );

    e.switch_to(body);
    let k = e.b.ins().ctz(bits);
    let rest = e.b.ins().iadd_imm_s(bits, -1);
    let rest = e.b.ins().band(bits, rest);
    let addr = e.lane_addr(a_base, k, 4);
    let x = e.b.ins().load(I32, mf(), addr, 0);
    let (acc2, have2, saw2) = match (op, float) {
        (_, Some((max, abs, _))) => {
            let x = if abs {
                e.b.ins().band_imm_s(x, 0x7fff_ffff)
            } else {
                x
            };
            let mag = e.b.ins().band_imm_s(x, 0x7fff_ffff);
            let is_nan =
                e.b.ins()
                    .icmp_imm_s(IntCC::UnsignedGreaterThan, mag, 0x7f80_0000);
            // Order key: -0.0 < +0.0, then numeric order, as unsigned ints.
            let key = |e: &mut Emitter, v: Value| {
                let neg = e.b.ins().icmp_imm_s(IntCC::SignedLessThan, v, 0);
                let inv = e.b.ins().bnot(v);
                let pos = e.b.ins().bor_imm_s(v, 0x8000_0000u32 as i32 as i64);
                e.b.ins().select(neg, inv, pos)
            };
            let buggy = max && inject::on(Bug::ReduxFmaxZero);
            let key = |e: &mut Emitter, v: Value| {
                if buggy {
                    // -0.0 keyed like +0.0.
                    let z =
                        e.b.ins()
                            .icmp_imm_s(IntCC::Equal, v, 0x8000_0000u32 as i32 as i64);
                    let zero = e.b.ins().iconst(I32, 0);
                    let v0 = e.b.ins().select(z, zero, v);
                    key(e, v0)
                } else {
                    key(e, v)
                }
            };
            let kx = key(e, x);
            let ka = key(e, acc);
            let cc = if max {
                IntCC::UnsignedGreaterThan
            } else {
                IntCC::UnsignedLessThan
            };
            let better = e.b.ins().icmp(cc, kx, ka);
            let first = e.b.ins().icmp_imm_s(IntCC::Equal, have, 0);
            let take = e.b.ins().bor(better, first);
            let not_nan = e.b.ins().bxor_imm_s(is_nan, 1);
            let take = e.b.ins().band(take, not_nan);
            let acc2 = e.b.ins().select(take, x, acc);
            let nn = e.b.ins().uextend(I32, not_nan);
            let have2 = e.b.ins().bor(have, nn);
            let nanw = e.b.ins().uextend(I32, is_nan);
            let saw2 = e.b.ins().bor(sawnan, nanw);
            (acc2, have2, saw2)
        }
        (ReduxOp::Add(_), None) => (e.b.ins().iadd(acc, x), have, sawnan),
        (ReduxOp::And, None) => (e.b.ins().band(acc, x), have, sawnan),
        (ReduxOp::Or, None) => (e.b.ins().bor(acc, x), have, sawnan),
        (ReduxOp::Xor, None) => (e.b.ins().bxor(acc, x), have, sawnan),
        (ReduxOp::Min(Signedness::Unsigned), None) => (e.b.ins().umin(acc, x), have, sawnan),
        (ReduxOp::Max(Signedness::Unsigned), None) => (e.b.ins().umax(acc, x), have, sawnan),
        (ReduxOp::Min(Signedness::Signed), None) => (e.b.ins().smin(acc, x), have, sawnan),
        (ReduxOp::Max(Signedness::Signed), None) => (e.b.ins().smax(acc, x), have, sawnan),
        (ReduxOp::FMin { .. } | ReduxOp::FMax { .. }, None) => unreachable!("f32 has `float`"),
    };
    e.b.ins()
        .jump(head, &[rest.into(), acc2.into(), have2.into(), saw2.into()]);

    e.switch_to(done);
    let ps = e.b.block_params(done).to_vec();
    let (acc, have, sawnan) = (ps[1], ps[2], ps[3]);
    match float {
        None => acc,
        Some((_, _, nan)) => {
            let canon = e.b.ins().iconst(I32, CANONICAL_NAN);
            let r = e.b.ins().select(have, acc, canon);
            if nan {
                e.b.ins().select(sawnan, canon, r)
            } else {
                r
            }
        }
    }
}

/// Emits a `redux.sync`, on the converged lanes that `guard` leaves on.
pub fn emit(e: &mut Emitter, guard: Option<Guard>, x: &Redux) {
    let Redux {
        op,
        d,
        a,
        membermask,
    } = *x;
    let mut l = e.lanes(guard);
    let exec = e.exec(&mut l);
    let a_base = e.lanes_base(a, 32, 2);
    if let Operand::Imm(m) = membermask {
        let m = e.b.ins().iconst(I32, m as u32 as i64);
        let set = e.b.ins().band(m, exec);
        let r = reduce(e, op, a_base, set);
        let v = e.b.ins().splat(I32X4, r);
        for k in 0..WARP / 4 {
            e.write_vec(d, k, &mut l, v);
        }
        return;
    }
    // Per distinct membermask among the executing lanes (only their
    // results are written): the lowest lane not answered yet gives `m`; the
    // reduction over `m`'s executing lanes is the answer of every executing
    // lane with `m`. (The lanes of several groups that complete together
    // interleave: one reduction per group, not per change of group.)
    let m_base = e.lanes_base(membermask, 32, 3);
    let s_d = e.lay.scratch(0) as i32;
    e.lane_classes(exec, |e, left, lane| {
        let maddr = e.lane_addr(m_base, lane, 4);
        let m = e.b.ins().load(I32, mf(), maddr, 0);
        let set = e.b.ins().band(m, exec);
        let r = reduce(e, op, a_base, set);
        let vecs = std::array::from_fn(|k| e.load(I32X4, (m_base + 16 * k as u32) as i32));
        let alike = e.lanes_equal(vecs, m);
        let alike = e.b.ins().band(alike, left);
        e.lane_loop_over(alike, |e, at| e.store_at(r, at.p4, s_d));
        alike
    });
    e.write_from_scratch(d, 0, &mut l);
}
