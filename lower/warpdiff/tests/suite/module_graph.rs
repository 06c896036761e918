//! No source file imports one that imports it back, within each crate of
//! the workspace; and the crates import each other downward only (README
//! "Layout"): warp-core nothing, warp-jit and warp-gpu warp-core only,
//! warpdiff any of them.
//!
//! Files are the nodes. File A -> file B when A's *code* names an item that
//! B defines (`resolve.rs` finds which): use trees (a `pub use` re-export
//! too), expression, type, pattern and macro paths, trait impls; doc
//! comments and other attributes are not code. A path that names a module
//! alone (`use crate::ir;`) adds no edge, nor does a `mod x;` declaration.
//! A glob import (`use super::*`) adds no edge by itself: each name used in
//! the file is resolved against the glob's module, so a glob leads only to
//! the files whose items are used (a glob of an enum's variants leads to the
//! enum's file; a `pub use m::*` to the files of all of `m`'s items). Macro
//! arguments are parsed as expressions or, failing that, scanned for paths;
//! `$crate::` paths in `macro_rules!` bodies do not count; `#[macro_export]`
//! macros belong to the file that defines them. Limits: local variables are
//! not tracked, so a local named like a glob-imported item counts as a use
//! of it; visibility is not checked (the code compiles, so it holds); a
//! method call (`x.f()`) names no path, so it is no edge.

#[path = "module_graph/resolve.rs"]
mod resolve;

use resolve::Crate;
use std::collections::{BTreeSet, HashMap, VecDeque};
use std::path::{Path, PathBuf};

/// The workspace crates: folder, package name, the packages it may import.
const CRATES: [(&str, &str, &[&str]); 4] = [
    ("core", "warp-core", &[]),
    ("lower/jit", "warp-jit", &["warp-core"]),
    ("lower/gpu", "warp-gpu", &["warp-core"]),
    (
        "lower/warpdiff",
        "warpdiff",
        &["warp-core", "warp-jit", "warp-gpu"],
    ),
];

/// The knots (strongly connected components) of `krate`'s files, each with
/// its files and its circles, as `a.rs -> b.rs -> a.rs` and one example
/// reference per edge. Every edge of a knot is on one circle listed: the
/// shortest through it.
fn knots(krate: &Crate) -> Vec<(Vec<String>, Vec<String>)> {
    let edges = krate.edges();
    let mut next = vec![vec![]; krate.files.len()];
    for &(a, b) in edges.keys() {
        next[a].push(b);
    }
    let reach: Vec<HashMap<usize, usize>> = (0..next.len()).map(|v| bfs(&next, v)).collect();
    let (mut seen, mut knots) = (BTreeSet::new(), vec![]);
    for v in 0..next.len() {
        let mut knot: Vec<usize> = reach[v]
            .keys()
            .copied()
            .filter(|&w| reach[w].contains_key(&v))
            .collect();
        knot.sort();
        if knot.len() < 2 || !seen.insert(knot[0]) {
            continue;
        }
        let (mut covered, mut circles) = (BTreeSet::new(), vec![]);
        for &(a, b) in edges
            .keys()
            .filter(|(a, b)| knot.contains(a) && knot.contains(b))
        {
            if !covered.insert((a, b)) {
                continue;
            }
            // The shortest way back from b to a: a's parents in `reach[b]`.
            let mut back = vec![a];
            while back.last() != Some(&b) {
                back.push(reach[b][back.last().unwrap()]);
            }
            let circle: Vec<usize> = std::iter::once(a).chain(back.into_iter().rev()).collect();
            let mut text: Vec<String> = vec![circle
                .iter()
                .map(|&f| krate.name(f))
                .collect::<Vec<_>>()
                .join(" -> ")];
            for step in circle.windows(2) {
                covered.insert((step[0], step[1]));
                text.push(format!("    {}", edges[&(step[0], step[1])]));
            }
            circles.push(text.join("\n"));
        }
        let mut files: Vec<String> = knot.iter().map(|&f| krate.name(f)).collect();
        files.sort();
        knots.push((files, circles));
    }
    knots
}

/// Every file `from` reaches (itself included), each with the file before
/// it on a shortest way there (breadth first).
fn bfs(next: &[Vec<usize>], from: usize) -> HashMap<usize, usize> {
    let mut prev = HashMap::from([(from, from)]);
    let mut queue = VecDeque::from([from]);
    while let Some(v) = queue.pop_front() {
        for &w in &next[v] {
            prev.entry(w).or_insert_with(|| {
                queue.push_back(w);
                v
            });
        }
    }
    prev
}

fn circles(krate: &Crate) -> Vec<String> {
    knots(krate)
        .into_iter()
        .flat_map(|(_, circles)| circles)
        .collect()
}

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The crate in folder `dir` (relative to the workspace): its library,
/// binary and `src/bin/*` module trees.
fn load_crate(dir: &str) -> Crate {
    let ws = workspace();
    let src = Path::new(dir).join("src");
    let mut roots: Vec<PathBuf> = vec![src.join("lib.rs"), src.join("main.rs")];
    for bin in std::fs::read_dir(ws.join(&src).join("bin"))
        .into_iter()
        .flatten()
    {
        let name = bin.unwrap().file_name();
        roots.push(src.join("bin").join(&name));
        roots.push(src.join("bin").join(&name).join("main.rs"));
    }
    roots.retain(|r| ws.join(r).is_file());
    Crate::load(&roots, &|p| std::fs::read_to_string(ws.join(p)).ok()).unwrap()
}

/// The package names in a Cargo.toml's `[dependencies]`.
fn dependencies(toml: &str) -> Vec<String> {
    let (mut inside, mut out) = (false, vec![]);
    for line in toml.lines().map(str::trim) {
        if line.starts_with('[') {
            inside = line == "[dependencies]";
            out.extend(
                line.strip_prefix("[dependencies.")
                    .map(|n| n.trim_end_matches(']').to_string()),
            );
        } else if let Some((key, _)) = line
            .split_once('=')
            .filter(|_| inside && !line.starts_with('#'))
        {
            out.push(key.trim().to_string());
        }
    }
    out
}

#[test]
fn no_file_imports_one_that_imports_it_back() {
    let knots: Vec<_> = CRATES
        .iter()
        .flat_map(|(dir, ..)| knots(&load_crate(dir)))
        .collect();
    let mut report = String::new();
    for (files, circles) in &knots {
        report += &format!(
            "{} files that import each other, round:\n  {}\n\n",
            files.len(),
            files.join("\n  ")
        );
        report += &format!("{}\n\n", circles.join("\n\n"));
    }
    let circles: usize = knots.iter().map(|(_, c)| c.len()).sum();
    assert!(
        knots.is_empty(),
        "{circles} import circles between source files, in {} knots; every edge of a knot is \
         on one circle listed, with the reference that makes it:\n\n{report}",
        knots.len()
    );
}

#[test]
fn crates_import_downward_only() {
    let mut wrong = vec![];
    for (dir, name, allowed) in CRATES {
        let ok =
            |dep: &str| dep == name || allowed.contains(&dep) || CRATES.iter().all(|c| c.1 != dep);
        let toml = std::fs::read_to_string(workspace().join(dir).join("Cargo.toml")).unwrap();
        for dep in dependencies(&toml).into_iter().filter(|d| !ok(d)) {
            wrong.push(format!("{dir}/Cargo.toml: {name} depends on {dep}"));
        }
        for (dep, example) in load_crate(dir)
            .crate_imports()
            .into_iter()
            .filter(|(d, _)| !ok(d))
        {
            wrong.push(format!("{example}: {name} imports {dep}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "crates import upward or sideways:\n{}",
        wrong.join("\n")
    );
}

/// A crate made of `files` (path, text), rooted at `src/lib.rs`.
fn snippet(files: &[(&str, &str)]) -> Crate {
    let files: HashMap<PathBuf, String> = files
        .iter()
        .map(|(p, t)| (PathBuf::from(p), t.to_string()))
        .collect();
    Crate::load(&["src/lib.rs".into()], &|p| files.get(p).cloned()).unwrap()
}

#[test]
fn finds_a_circle_through_a_type_and_a_re_export() {
    let krate = snippet(&[
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\npub use c::Thing;"),
        ("src/a.rs", "use crate::Thing;\npub struct A;"),
        (
            "src/b.rs",
            "use crate::a;\nuse warp_jit::JitEngine;\npub struct B;",
        ),
        (
            "src/c.rs",
            "pub struct Thing;\nfn f() -> Vec<crate::a::A> {\n    vec![]\n}",
        ),
    ]);
    assert_eq!(
        circles(&krate),
        ["src/a.rs -> src/c.rs -> src/a.rs\n    \
          src/a.rs:1 uses crate::Thing\n    \
          src/c.rs:2 uses crate::a::A"]
    );
    let imports: Vec<String> = krate.crate_imports().into_values().collect();
    assert_eq!(imports, ["src/b.rs:2 uses warp_jit::JitEngine"]);
}

#[test]
fn a_doc_comment_or_attribute_is_no_reference() {
    let krate = snippet(&[
        ("src/lib.rs", "mod a;\nmod b;"),
        ("src/a.rs", "pub struct A(pub crate::b::B);"),
        (
            "src/b.rs",
            "/// Held by [`crate::a::A`].\n#[doc = \"crate::a::A\"]\npub struct B;",
        ),
    ]);
    assert!(circles(&krate).is_empty());
    assert_eq!(
        krate.edges().into_values().collect::<Vec<_>>(),
        ["src/a.rs:1 uses crate::b::B"]
    );
}

#[test]
fn macros_count_where_defined_and_their_arguments_are_code() {
    let krate = snippet(&[
        ("src/lib.rs", "mod a;\nmod b;"),
        (
            "src/a.rs",
            "#[macro_export]\nmacro_rules! m {\n    () => { $crate::b::helper() };\n}",
        ),
        (
            "src/b.rs",
            "pub fn helper() {}\nfn g() {\n    crate::m!();\n}",
        ),
    ]);
    // `$crate::b::helper` in the macro's body does not count.
    assert!(circles(&krate).is_empty());
    let krate = snippet(&[
        ("src/lib.rs", "mod a;\nmod b;"),
        ("src/a.rs", "fn f() {\n    assert!(matches!(crate::b::helper(), ()));\n}\n#[macro_export]\nmacro_rules! m {\n    () => {};\n}"),
        ("src/b.rs", "use crate::m;\npub fn helper() {\n    m!();\n}"),
    ]);
    assert_eq!(circles(&krate).len(), 1, "{:?}", circles(&krate));
}

#[test]
fn a_glob_leads_to_the_files_whose_items_are_used() {
    let files = |child: &'static str| {
        snippet(&[
            ("src/lib.rs", "mod ir;\nmod other;"),
            (
                "src/ir/mod.rs",
                "mod child;\npub use crate::other::Op;\npub use child::C;\npub struct P;",
            ),
            ("src/ir/child.rs", child),
            ("src/other.rs", "pub enum Op { Add }"),
        ])
    };
    // Only `Op`, which ir re-exports from other.rs: no edge to ir/mod.rs.
    let krate =
        files("use super::*;\npub struct C;\nfn f(o: Op) -> bool {\n    matches!(o, Op::Add)\n}");
    assert!(circles(&krate).is_empty());
    let krate = files("use super::*;\npub struct C;\nfn f(_: P) {}");
    assert_eq!(
        circles(&krate),
        ["src/ir/mod.rs -> src/ir/child.rs -> src/ir/mod.rs\n    \
          src/ir/mod.rs:3 uses child::C\n    \
          src/ir/child.rs:3 uses P"]
    );
}
