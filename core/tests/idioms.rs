//! The idioms of the known compiler bugs: each recorded bug is recognised
//! as its idiom, the hardware cases and hand cases that are no bug are
//! not, and a generator told to avoid every idiom makes cases without any.

use arbitrary::Unstructured;
use warp_core::gen::{generate, Config};
use warp_core::idioms::{idioms, Idiom};
use warp_core::interp::Interp;
use warp_core::rng::Rng;
use warp_core::text::parse;

fn corpus(name: &str) -> warp_core::ir::Program {
    let path = format!("{}/../corpus/{name}.ptx", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    parse(&text).expect("parses").program
}

#[test]
fn each_known_bug_is_its_idiom() {
    use Idiom::*;
    for (file, idiom) in [
        ("shl.b64-8b46bd59", GuardRedefinedByCollective),
        ("sub.s64-446c1297", GuardRedefinedByCollective),
        ("vote.sync.any-6be43972", GuardFoldedAfterExit),
        ("sub.f32-27e7f0a1", GuardFoldedAfterExit),
        ("redux.sync.xor.b32-6c379852", UnusedMatchSplitsWarp),
    ] {
        assert_eq!(idioms(&corpus(file)), [idiom], "{file}");
    }
}

#[test]
fn the_hardware_cases_have_no_idiom() {
    for file in [
        "scan-up-sync-h200",
        "rscan-down-sync-h200",
        "bfly-sync-h200",
        "legacy-shfl-vote-h200",
        "activemask-split-after-groups-h200",
        "cases/sync-wait-exit-later-h200",
        "cases/sync-other-instruction-h200",
    ] {
        assert_eq!(idioms(&corpus(file)), [], "{file}");
    }
}

#[test]
fn where_each_idiom_is_and_what_removing_takes_away() {
    // The collective that redefines the guard is the one to remove; a
    // label between the two makes it no idiom.
    let p = parse(".reg .pred p;\n.reg .b32 r;\n@p add.u32 r, r, 1;\n@p vote.sync.any.pred p, p, 0xffffffff;\n")
        .expect("parses")
        .program;
    assert_eq!(Idiom::GuardRedefinedByCollective.find(&p), Some(1));
    let p = parse(
        ".reg .pred p;\n.reg .b32 r;\n@p add.u32 r, r, 1;\nvote.sync.any.pred p, p, 0xffffffff;\n",
    )
    .expect("parses")
    .program;
    assert_eq!(
        Idiom::GuardRedefinedByCollective.find(&p),
        None,
        "unguarded: the scan"
    );
    let p = parse(".reg .pred p;\n.reg .b32 r;\n@p add.u32 r, r, 1;\nL: @p vote.sync.any.pred p, p, 0xffffffff;\n")
        .expect("parses")
        .program;
    assert_eq!(Idiom::GuardRedefinedByCollective.find(&p), None);
    // A match whose result is read later is no idiom.
    let src = ".reg .b32 r, s;\nmatch.any.sync.b32 r, 0, 0x0000ffff;\nredux.sync.add.u32 s, 1, 0xffffffff;\n";
    assert_eq!(
        Idiom::UnusedMatchSplitsWarp.find(&parse(src).expect("parses").program),
        Some(0)
    );
    let read = format!("{src}add.u32 s, s, r;\n");
    assert_eq!(
        Idiom::UnusedMatchSplitsWarp.find(&parse(&read).expect("parses").program),
        None
    );
    assert_eq!(
        Idiom::from_name("guard-folded-after-exit"),
        Some(Idiom::GuardFoldedAfterExit)
    );
    assert_eq!(Idiom::from_name("nope"), None);
}

#[test]
fn a_generator_avoiding_every_idiom_makes_none() {
    let cfg = Config {
        avoid: Idiom::ALL.to_vec(),
        ..Config::default()
    };
    let mut rng = Rng::new(0x1d10);
    let (mut found_without, mut cases) = (0, 0);
    for _ in 0..400 {
        let bytes = rng.bytes(2048);
        let tc = generate(&mut Unstructured::new(&bytes), &cfg).expect("a case");
        let ub = Interp::new(&tc.program)
            .run(&tc.inputs)
            .map(|o| o.ub.is_some())
            .unwrap_or(true);
        // Deliberate UB is inserted after the avoidance and never compared.
        if !ub {
            cases += 1;
            assert_eq!(
                idioms(&tc.program),
                [],
                "{}",
                warp_core::text::print(&tc.to_case())
            );
        }
        let plain = generate(&mut Unstructured::new(&bytes), &Config::default()).expect("a case");
        found_without += usize::from(!idioms(&plain.program).is_empty());
    }
    assert!(cases > 300, "{cases} usable cases");
    // The check is not vacuous: without --avoid the same bytes make idioms.
    assert!(found_without > 0, "no idiom in 400 plain cases");
}
