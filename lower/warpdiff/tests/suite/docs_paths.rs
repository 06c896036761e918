//! The repository paths that README.md and docs/**/*.md (but the history
//! in docs/log/) name exist, and the items they name in a file exist
//! there.
//!
//! A path is an inline code span or a link target (`[text](path)`, `[x]:
//! path`) outside fenced code blocks, without spaces, with a `/`, that ends
//! in a known extension or starts with a top-level folder (`core/`, ...).
//! Globs (`corpus/*.ptx`), `<placeholders>`, missing all-caps NAME
//! segments, URLs and `../shared/` paths (when ../shared is absent) are
//! skipped. A path exists when it does from the repository root, from the
//! Markdown file's folder, as the stem of files (`corpus/kernels/k` for
//! `k.ptx` and `k.launch`), or, unless it starts with a top-level folder,
//! as the tail of a repository path (`tests/x.rs` for
//! `lower/warpdiff/tests/x.rs`). `path/to/file.rs::name` and "`file.rs`'s
//! `name`" must name an item, method, variant or field defined in that file
//! (in one of the files so named, for a bare file name).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use syn::visit::{self, Visit};

const TOP: [&str; 8] = [
    "core",
    "lower",
    "fuzz",
    "corpus",
    "docs",
    "examples",
    ".ci",
    ".clusterfuzzlite",
];
const EXTENSIONS: [&str; 14] = [
    "rs", "md", "toml", "ptx", "py", "txt", "json", "sh", "yml", "yaml", "lock", "cu", "c", "h",
];

/// The repository: its root and every file in it (relative, `/`-separated).
struct Repo {
    root: PathBuf,
    files: Vec<String>,
}

impl Repo {
    fn new() -> Repo {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = vec![];
        let mut dirs = vec![String::new()];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(root.join(&dir)).unwrap() {
                let entry = entry.unwrap();
                let rel = format!("{dir}{}", entry.file_name().to_string_lossy());
                if entry.file_type().unwrap().is_dir() {
                    if !matches!(entry.file_name().to_str(), Some("target" | ".git")) {
                        dirs.push(rel + "/");
                    }
                } else {
                    files.push(rel);
                }
            }
        }
        files.sort();
        Repo { root, files }
    }

    /// Whether `path`, named in the Markdown file `md`, exists (see the
    /// module doc).
    fn exists(&self, md: &str, path: &str) -> bool {
        let path = path.trim_start_matches("./");
        let md_dir = Path::new(md).parent().unwrap();
        let tail = format!("/{}", path.trim_end_matches('/'));
        let (file, dir) = (tail.clone(), tail.clone() + "/");
        let stem = |f: &String| {
            f.strip_prefix(path)
                .is_some_and(|rest| rest.starts_with('.'))
        };
        self.root.join(path).exists()
            || self.root.join(md_dir).join(path).exists()
            || self.files.iter().any(stem)
            || (!starts_at_top(path)
                && self
                    .files
                    .iter()
                    .map(|f| format!("/{f}"))
                    .any(|f| f.ends_with(&file) || f.contains(&dir)))
    }

    /// The files a `.rs` name in the docs stands for: the path, or every
    /// file of that name when it has no folder.
    fn rust_files(&self, name: &str) -> Vec<String> {
        if name.contains('/') {
            return vec![name.to_string()];
        }
        self.files
            .iter()
            .filter(|f| f.rsplit('/').next() == Some(name))
            .cloned()
            .collect()
    }

    /// Whether one of `files` defines `item`.
    fn defines(&self, files: &[String], item: &str) -> bool {
        files.iter().any(|f| {
            let text = std::fs::read_to_string(self.root.join(f)).unwrap_or_default();
            let mut names = Names::default();
            if let Ok(ast) = syn::parse_file(&text) {
                names.visit_file(&ast);
            }
            names.0.contains(item)
        })
    }
}

/// The names a file defines at any depth: items, methods, variants, fields.
#[derive(Default)]
struct Names(BTreeSet<String>);

impl<'ast> Visit<'ast> for Names {
    fn visit_ident(&mut self, _: &'ast proc_macro2::Ident) {}
    fn visit_item(&mut self, i: &'ast syn::Item) {
        use syn::Item as I;
        let name = match i {
            I::Const(i) => Some(&i.ident),
            I::Enum(i) => Some(&i.ident),
            I::Fn(i) => Some(&i.sig.ident),
            I::Macro(i) => i.ident.as_ref(),
            I::Mod(i) => Some(&i.ident),
            I::Static(i) => Some(&i.ident),
            I::Struct(i) => Some(&i.ident),
            I::Trait(i) => Some(&i.ident),
            I::Type(i) => Some(&i.ident),
            I::Union(i) => Some(&i.ident),
            _ => None,
        };
        self.0.extend(name.map(|n| n.to_string()));
        visit::visit_item(self, i);
    }
    fn visit_impl_item_fn(&mut self, i: &'ast syn::ImplItemFn) {
        self.0.insert(i.sig.ident.to_string());
        visit::visit_impl_item_fn(self, i);
    }
    fn visit_impl_item_const(&mut self, i: &'ast syn::ImplItemConst) {
        self.0.insert(i.ident.to_string());
    }
    fn visit_trait_item_fn(&mut self, i: &'ast syn::TraitItemFn) {
        self.0.insert(i.sig.ident.to_string());
        visit::visit_trait_item_fn(self, i);
    }
    fn visit_variant(&mut self, v: &'ast syn::Variant) {
        self.0.insert(v.ident.to_string());
        visit::visit_variant(self, v);
    }
    fn visit_field(&mut self, f: &'ast syn::Field) {
        self.0.extend(f.ident.as_ref().map(|n| n.to_string()));
    }
}

/// A piece of Markdown that may name a path: its line and text, and
/// whether the text right after it is "'s " and another code span.
struct Span {
    line: usize,
    text: String,
    possessive_of: Option<String>,
}

/// Inline code spans and link targets of `md`, outside fenced code blocks.
fn spans(md: &str) -> Vec<Span> {
    // Fenced blocks blanked out, so byte offsets still give line numbers.
    let mut fence = false;
    let mut text = String::new();
    for line in md.split_inclusive('\n') {
        let is_fence = line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
        fence ^= is_fence;
        if fence || is_fence {
            text.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            text.push_str(line);
        }
    }
    let line_at = |at: usize| text[..at].matches('\n').count() + 1;
    let mut out: Vec<Span> = vec![];
    let bytes = text.as_bytes();
    let run = |at: usize| bytes[at..].iter().take_while(|&&b| b == b'`').count();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let n = run(i);
            let body = i + n;
            // The closing run of exactly n backticks, within the paragraph.
            let mut j = body;
            let close = loop {
                match text[j..].find('`') {
                    Some(k) if text[j..j + k].contains("\n\n") => break None,
                    Some(k) if run(j + k) == n => break Some(j + k),
                    Some(k) => j += k + run(j + k),
                    None => break None,
                }
            };
            let Some(close) = close else {
                i = body;
                continue;
            };
            let code = text[body..close].trim().to_string();
            if let Some(last) = out.last_mut().filter(|_| text[..i].ends_with("`'s ")) {
                last.possessive_of = Some(code.clone());
            }
            out.push(Span {
                line: line_at(i),
                text: code,
                possessive_of: None,
            });
            i = close + n;
        } else if bytes[i..].starts_with(b"](")
            || (bytes[i..].starts_with(b"]: ") && definition(&text[..i]))
        {
            let start = i + 2;
            let target = text[start..]
                .trim_start()
                .split([')', ' ', '\n'])
                .next()
                .unwrap_or("");
            let target = target
                .trim_matches(['<', '>'])
                .split('#')
                .next()
                .unwrap()
                .to_string();
            out.push(Span {
                line: line_at(i),
                text: target,
                possessive_of: None,
            });
            i = start;
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `before` ends in the `[label` that starts a line (a link definition).
fn definition(before: &str) -> bool {
    let line = &before[before.rfind('\n').map_or(0, |k| k + 1)..];
    line.starts_with('[') && !line.contains(']')
}

/// The repository path `text` names, if it looks like one.
fn repo_path(text: &str, shared: bool) -> Option<&str> {
    let path = text.split("::").next().unwrap();
    let path = match path.rsplit_once(':') {
        Some((p, line)) if line.chars().all(|c| c.is_ascii_digit()) => p,
        _ => path,
    };
    let ext = path
        .rsplit('/')
        .next()
        .unwrap()
        .rsplit_once('.')
        .map(|(_, e)| e);
    let top = starts_at_top(path);
    let skip = path.contains(['*', '?', '<', '>', '{', '$', ' ', '\\'])
        || path.contains("://")
        || path.starts_with(['/', '~', '-'])
        || (path.starts_with("../shared/") && !shared);
    let looks = path.contains('/') && (top || ext.is_some_and(|e| EXTENSIONS.contains(&e)));
    (looks && !skip).then_some(path)
}

fn starts_at_top(path: &str) -> bool {
    TOP.iter()
        .any(|t| path.strip_prefix(t).is_some_and(|r| r.starts_with('/')))
}

/// Whether `path` has an all-caps NAME placeholder segment.
fn placeholder(path: &str) -> bool {
    path.split('/').any(|seg| {
        let stem = seg.split('.').next().unwrap();
        stem.len() > 1
            && stem
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c == '-')
    })
}

#[test]
fn docs_name_paths_and_items_that_exist() {
    let repo = Repo::new();
    let shared = repo.root.join("../shared").is_dir();
    let mut docs: Vec<&String> = repo
        .files
        .iter()
        // `docs/log/` is history: it names files as they were.
        .filter(|f| f.starts_with("docs/") && !f.starts_with("docs/log/") && f.ends_with(".md"))
        .collect();
    let readme = "README.md".to_string();
    docs.insert(0, &readme);
    let mut missing = vec![];
    for md in docs {
        let text = std::fs::read_to_string(repo.root.join(md)).unwrap();
        for span in spans(&text) {
            let line = span.line;
            let (file, item) = match span.text.split_once("::") {
                Some((file, item)) if file.ends_with(".rs") => (file, Some(item)),
                _ if span.text.ends_with(".rs") => {
                    (span.text.as_str(), span.possessive_of.as_deref())
                }
                _ => (span.text.as_str(), None),
            };
            let item = item.map(|i| i.trim_end_matches("()").rsplit("::").next().unwrap());
            let item = item.filter(|i| i.chars().all(|c| c.is_alphanumeric() || c == '_'));
            if let Some(path) = repo_path(&span.text, shared) {
                if !repo.exists(md, path) && !placeholder(path) {
                    missing.push(format!("{md}:{line}: `{path}` does not exist"));
                    continue;
                }
            }
            if let Some(item) = item {
                let files = repo.rust_files(file);
                if files.is_empty() {
                    missing.push(format!("{md}:{line}: no file is named `{file}`"));
                } else if !repo.defines(&files, item) {
                    missing.push(format!("{md}:{line}: `{file}` defines no `{item}`"));
                }
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the docs name what is not there:\n{}\n",
        missing.join("\n")
    );
}

#[test]
fn finds_code_spans_links_and_possessives() {
    let md = "See `core/src/ir.rs`'s `Inst` and\n[the protocol](docs/p.md#x).\n\n```\n`not/this.rs`\n```\n``a ` b`` `alu.rs::f`\n";
    let spans = spans(md);
    let got: Vec<_> = spans
        .iter()
        .map(|s| (s.line, s.text.as_str(), s.possessive_of.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (1, "core/src/ir.rs", Some("Inst")),
            (1, "Inst", None),
            (2, "docs/p.md", None),
            (7, "a ` b", None),
            (7, "alu.rs::f", None)
        ]
    );
    assert_eq!(repo_path("corpus/*.ptx", true), None);
    assert_eq!(repo_path("add/sub/mul", true), None);
    assert_eq!(repo_path("lower/gpu/src/", true), Some("lower/gpu/src/"));
    assert_eq!(
        repo_path("core/src/ir.rs:120", true),
        Some("core/src/ir.rs")
    );
    assert_eq!(repo_path("../shared/spec/", false), None);
    assert!(placeholder("corpus/NAME.ptx") && !placeholder("corpus/abs.f32-14a5169a.ptx"));
}
