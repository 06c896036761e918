//! The resolver of tests/suite/module_graph.rs: reads a crate's module tree and
//! resolves each path its code uses to the file that defines the item.
//! Paths are resolved as rustc would within the crate, from `crate::`,
//! `super::`, `self::` or a name in scope (an item of the module, a name a
//! `use` brought in, followed through `pub use` re-exports to the file that
//! defines the item), so `a::b::Item` goes to the file defining `Item`.

use proc_macro2::{TokenStream, TokenTree};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::path::{Path, PathBuf};
use syn::parse::Parser;
use syn::punctuated::Punctuated;
use syn::visit::{self, Visit};

/// What a name in a module stands for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Def {
    /// An item defined in file `file`; `ns` holds its variants if it is an enum.
    Item { file: usize, ns: Option<usize> },
    /// A module.
    Mod(usize),
}

/// A module, or an enum's variants (what `Enum::V` and `use Enum::*` look into).
#[derive(Default)]
struct Module {
    file: usize,
    parent: Option<usize>,
    /// Where `mod x;` in it looks for `x.rs` and `x/mod.rs`.
    dir: PathBuf,
    defs: HashMap<String, Vec<Def>>,
    /// Names a `use` binds, to the path it names (relative to this module).
    uses: HashMap<String, Vec<Vec<String>>>,
    globs: Vec<Vec<String>>,
}

/// A path that code in module `module` uses, on line `line` of its file.
struct Ref {
    module: usize,
    segs: Vec<String>,
    line: usize,
    kind: RefKind,
}

#[derive(Clone, Copy, PartialEq)]
enum RefKind {
    Path,
    Macro,
    Glob { public: bool },
}

/// One crate's files, modules and the paths its code uses.
#[derive(Default)]
pub struct Crate {
    pub files: Vec<PathBuf>,
    modules: Vec<Module>,
    refs: Vec<Ref>,
    /// `macro_rules!` without `#[macro_export]` (textual scope), by name.
    macros: HashMap<String, usize>,
    /// `lookup`'s answers, and the lookups under way (a glob such as `use
    /// Type::*` looks up `Type` through itself: that way finds nothing).
    memo: RefCell<HashMap<(usize, String), Vec<Def>>>,
    busy: RefCell<HashSet<(usize, String)>>,
}

impl Crate {
    /// Loads the module trees of `roots` (`src/lib.rs`, `src/main.rs`, ...)
    /// through `read`, which gives a file's text or `None` if it is absent.
    pub fn load(
        roots: &[PathBuf],
        read: &dyn Fn(&Path) -> Option<String>,
    ) -> Result<Crate, String> {
        let mut krate = Crate::default();
        let mut queue = VecDeque::new();
        for root in roots {
            let dir = root.parent().unwrap().to_path_buf();
            krate.modules.push(Module {
                dir,
                ..Module::default()
            });
            queue.push_back((krate.modules.len() - 1, vec![root.clone()]));
        }
        while let Some((module, candidates)) = queue.pop_front() {
            let Some((path, text)) = candidates.iter().find_map(|p| Some((p, read(p)?))) else {
                return Err(format!("no file for module: {candidates:?}"));
            };
            let ast = syn::parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            krate.files.push(path.clone());
            krate.modules[module].file = krate.files.len() - 1;
            let mut c = Collector {
                krate: &mut krate,
                module,
                pending: vec![],
            };
            c.visit_file(&ast);
            queue.extend(c.pending);
        }
        Ok(krate)
    }

    fn root(&self, mut m: usize) -> usize {
        while let Some(p) = self.modules[m].parent {
            m = p;
        }
        m
    }

    /// What `name` stands for in module `m`: its items, its `use`s, else its globs.
    fn lookup(&self, m: usize, name: &str) -> Vec<Def> {
        match name {
            "crate" => return vec![Def::Mod(self.root(m))],
            "self" => return vec![Def::Mod(m)],
            "super" => return self.modules[m].parent.map(Def::Mod).into_iter().collect(),
            _ => {}
        }
        let key = (m, name.to_string());
        if let Some(found) = self.memo.borrow().get(&key) {
            return found.clone();
        }
        if !self.busy.borrow_mut().insert(key.clone()) {
            return vec![];
        }
        let module = &self.modules[m];
        let mut found = module.defs.get(name).cloned().unwrap_or_default();
        for path in module.uses.get(name).into_iter().flatten() {
            found.extend(self.resolve(m, path));
        }
        if found.is_empty() {
            for glob in &module.globs {
                for space in namespaces(&self.resolve(m, glob)) {
                    found.extend(self.lookup(space, name));
                }
            }
        }
        self.busy.borrow_mut().remove(&key);
        self.memo.borrow_mut().insert(key, found.clone());
        found
    }

    /// What the path `segs`, written in module `m`, names. Past an item
    /// that is no namespace (`Type::assoc`), the item itself.
    fn resolve(&self, m: usize, segs: &[String]) -> Vec<Def> {
        let mut found = self.lookup(m, &segs[0]);
        for seg in &segs[1..] {
            let inner: Vec<Def> = namespaces(&found)
                .flat_map(|n| self.lookup(n, seg))
                .collect();
            if inner.is_empty() {
                found.retain(|d| matches!(d, Def::Item { .. }));
            } else {
                found = inner;
            }
        }
        found
    }

    /// The files a reference leads to: those defining the items it names
    /// (a glob: the enum it names, or every item a `pub use m::*` exports).
    fn targets(&self, r: &Ref) -> BTreeSet<usize> {
        let mut found = self.resolve(r.module, &r.segs);
        if let RefKind::Glob { public } = r.kind {
            let modules = namespaces(&found).filter(|_| public).collect::<Vec<_>>();
            found.extend(
                modules
                    .iter()
                    .flat_map(|&n| self.modules[n].defs.values().flatten()),
            );
        }
        let mut files: BTreeSet<usize> = found.iter().filter_map(Def::file).collect();
        if files.is_empty() && r.kind == RefKind::Macro && r.segs.len() == 1 {
            files.extend(self.macros.get(&r.segs[0]));
        }
        files
    }

    /// Edges file -> file, each with its first reference as an example.
    pub fn edges(&self) -> BTreeMap<(usize, usize), String> {
        let mut edges = BTreeMap::new();
        for r in &self.refs {
            let from = self.modules[r.module].file;
            for to in self.targets(r).into_iter().filter(|&to| to != from) {
                edges.entry((from, to)).or_insert_with(|| self.example(r));
            }
        }
        edges
    }

    /// `file.rs:LINE uses a::b`, for `r`.
    fn example(&self, r: &Ref) -> String {
        let glob = if matches!(r.kind, RefKind::Glob { .. }) {
            "::*"
        } else {
            ""
        };
        let file = self.name(self.modules[r.module].file);
        format!("{file}:{} uses {}{glob}", r.line, r.segs.join("::"))
    }

    pub fn name(&self, file: usize) -> String {
        self.files[file].display().to_string()
    }

    /// The other workspace crates this crate's code names (`warp_core::...`),
    /// each with an example.
    pub fn crate_imports(&self) -> BTreeMap<String, String> {
        let names = ["warp_core", "warp_jit", "warp_gpu", "warpdiff"];
        let mut out = BTreeMap::new();
        for r in self
            .refs
            .iter()
            .filter(|r| names.contains(&r.segs[0].as_str()))
        {
            if self.lookup(r.module, &r.segs[0]).is_empty() {
                out.entry(r.segs[0].replace('_', "-"))
                    .or_insert_with(|| self.example(r));
            }
        }
        out
    }
}

impl Def {
    fn file(&self) -> Option<usize> {
        match *self {
            Def::Item { file, .. } => Some(file),
            Def::Mod(_) => None,
        }
    }
}

/// The modules (and enums' variants) among `defs`, to look names up in.
fn namespaces(defs: &[Def]) -> impl Iterator<Item = usize> + '_ {
    defs.iter().filter_map(|d| match *d {
        Def::Mod(n) | Def::Item { ns: Some(n), .. } => Some(n),
        Def::Item { ns: None, .. } => None,
    })
}

/// Walks one file: what it defines, what its `use`s bind, the paths its code uses.
struct Collector<'c> {
    krate: &'c mut Crate,
    module: usize,
    /// `mod x;` declarations met: the module and the files it may be in.
    pending: Vec<(usize, Vec<PathBuf>)>,
}

impl Collector<'_> {
    fn file(&self) -> usize {
        self.krate.modules[self.module].file
    }

    fn define(&mut self, module: usize, name: &syn::Ident, def: Def) {
        let defs = &mut self.krate.modules[module].defs;
        defs.entry(name.to_string()).or_default().push(def);
    }

    fn new_module(&mut self, parent: usize, dir: PathBuf) -> usize {
        let file = self.file();
        self.krate.modules.push(Module {
            file,
            parent: Some(parent),
            dir,
            ..Module::default()
        });
        self.krate.modules.len() - 1
    }

    fn refer(&mut self, segs: Vec<&syn::Ident>, kind: RefKind) {
        let (module, line) = (self.module, segs[0].span().start().line);
        let segs = segs.iter().map(|s| s.to_string()).collect();
        self.krate.refs.push(Ref {
            module,
            segs,
            line,
            kind,
        });
    }

    fn use_tree<'a>(
        &mut self,
        prefix: &mut Vec<&'a syn::Ident>,
        tree: &'a syn::UseTree,
        public: bool,
    ) {
        let (ident, rename) = match tree {
            syn::UseTree::Path(p) => {
                prefix.push(&p.ident);
                self.use_tree(prefix, &p.tree, public);
                prefix.pop();
                return;
            }
            syn::UseTree::Group(g) => {
                return g
                    .items
                    .iter()
                    .for_each(|t| self.use_tree(prefix, t, public))
            }
            syn::UseTree::Glob(_) => {
                let path = prefix.iter().map(|s| s.to_string()).collect();
                self.krate.modules[self.module].globs.push(path);
                return self.refer(prefix.clone(), RefKind::Glob { public });
            }
            syn::UseTree::Name(n) => (&n.ident, &n.ident),
            syn::UseTree::Rename(r) => (&r.ident, &r.rename),
        };
        let mut path = prefix.clone();
        if ident != "self" {
            path.push(ident);
        }
        let name = if rename == "self" {
            path.last().unwrap()
        } else {
            rename
        };
        let segs: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        let uses = &mut self.krate.modules[self.module].uses;
        uses.entry(name.to_string()).or_default().push(segs);
        self.refer(path, RefKind::Path);
    }

    /// Paths in macro tokens: parsed as expressions if they are, else scanned.
    fn tokens(&mut self, tokens: &TokenStream, macro_rules: bool) {
        let exprs =
            Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated.parse2(tokens.clone());
        match exprs {
            Ok(exprs) if !macro_rules => exprs.iter().for_each(|e| self.visit_expr(e)),
            _ => self.scan(tokens.clone()),
        }
    }

    /// Every `a::b::c` run of identifiers not after `$` (`$crate`, `$x`) or `.` (methods, fields).
    fn scan(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let punct = |i: usize, c: char| matches!(tokens.get(i), Some(TokenTree::Punct(p)) if p.as_char() == c);
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                TokenTree::Group(g) => self.scan(g.stream()),
                TokenTree::Ident(first) => {
                    let after = i > 0 && (punct(i - 1, '$') || punct(i - 1, '.'));
                    let mut segs = vec![first];
                    while punct(i + 1, ':') && punct(i + 2, ':') {
                        let Some(TokenTree::Ident(next)) = tokens.get(i + 3) else {
                            break;
                        };
                        segs.push(next);
                        i += 3;
                    }
                    if !after {
                        self.refer(segs, RefKind::Path);
                    }
                }
                _ => {}
            }
            i += 1;
        }
    }
}

impl<'ast> Visit<'ast> for Collector<'_> {
    /// Doc comments and other attributes are not code.
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_item(&mut self, item: &'ast syn::Item) {
        use syn::Item as I;
        let name = match item {
            I::Const(i) => Some(&i.ident),
            I::Fn(i) => Some(&i.sig.ident),
            I::Static(i) => Some(&i.ident),
            I::Struct(i) => Some(&i.ident),
            I::Trait(i) => Some(&i.ident),
            I::TraitAlias(i) => Some(&i.ident),
            I::Type(i) => Some(&i.ident),
            I::Union(i) => Some(&i.ident),
            _ => None,
        };
        if let Some(name) = name {
            let def = Def::Item {
                file: self.file(),
                ns: None,
            };
            self.define(self.module, name, def);
        }
        visit::visit_item(self, item);
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        let file = self.file();
        let dir = self.krate.modules[self.module].dir.clone();
        let ns = self.new_module(self.module, dir);
        self.define(self.module, &item.ident, Def::Item { file, ns: Some(ns) });
        for v in &item.variants {
            self.define(ns, &v.ident, Def::Item { file, ns: None });
        }
        visit::visit_item_enum(self, item);
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        let name = item.ident.to_string();
        let dir = self.krate.modules[self.module].dir.join(&name);
        let child = self.new_module(self.module, dir.clone());
        self.define(self.module, &item.ident, Def::Mod(child));
        if let Some((_, items)) = &item.content {
            let outer = std::mem::replace(&mut self.module, child);
            items.iter().for_each(|i| self.visit_item(i));
            self.module = outer;
            return;
        }
        let mut candidates = vec![dir.with_extension("rs"), dir.join("mod.rs")];
        for attr in item.attrs.iter().filter(|a| a.path().is_ident("path")) {
            if let Ok(syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            })) = attr.meta.require_name_value().map(|nv| &nv.value)
            {
                candidates = vec![self.krate.files[self.file()].with_file_name(s.value())];
            }
        }
        self.pending.push((child, candidates));
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if item.leading_colon.is_none() {
            let public = !matches!(item.vis, syn::Visibility::Inherited);
            self.use_tree(&mut vec![], &item.tree, public);
        }
    }

    fn visit_item_macro(&mut self, item: &'ast syn::ItemMacro) {
        let Some(name) = &item.ident else {
            return visit::visit_item_macro(self, item);
        };
        let file = self.file();
        if item.attrs.iter().any(|a| a.path().is_ident("macro_export")) {
            let root = self.krate.root(self.module);
            self.define(root, name, Def::Item { file, ns: None });
        } else {
            self.krate.macros.insert(name.to_string(), file);
        }
        self.tokens(&item.mac.tokens, true);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.refer(
            mac.path.segments.iter().map(|s| &s.ident).collect(),
            RefKind::Macro,
        );
        self.tokens(&mac.tokens, false);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        if path.leading_colon.is_none() {
            self.refer(
                path.segments.iter().map(|s| &s.ident).collect(),
                RefKind::Path,
            );
        }
        visit::visit_path(self, path);
    }

    /// `CONST` and `Variant` patterns (lower-case names are taken for bindings).
    fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
        if pat.subpat.is_none() && pat.ident.to_string().starts_with(char::is_uppercase) {
            self.refer(vec![&pat.ident], RefKind::Path);
        }
        visit::visit_pat_ident(self, pat);
    }
}
