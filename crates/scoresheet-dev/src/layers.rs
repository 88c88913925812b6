//! Which module of the library uses which, read from the source, and the
//! cycles among them: the check that the modules form layers (no module
//! uses one that uses it back).
//!
//! A file's module uses another when it names it in a path: `use
//! crate::a::b`, `super::x::f()`, a `use` group (`crate::{a, b::c}`), or, in
//! a folder's `mod.rs`, a child by its bare name (`process::run`). A name a
//! module re-exports (`pub use child::Item`) is followed to the child that
//! defines it. Methods count too where a type's `impl` blocks are spread
//! over several files of a folder: a file that calls a method another file
//! defines for the type uses that file, and an inherent `impl` of a type
//! that another folder's module declares makes every caller of its methods
//! use the file that holds it. A `#[macro_export]` macro uses what its body
//! names (`$crate::daemon::…`) wherever it is invoked, and a crate that
//! names itself (`extern crate self as scoresheet;`) uses a module by that
//! name too (`scoresheet::daemon::…`). Tests (`#[cfg(test)] mod …`) and
//! comments do not count.
//!
//! The `layers` binary prints the graph and its cycles; `tests/layers.rs`
//! fails on any cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// A module: its path from the crate root (`["daemon", "process"]`; the root
/// is empty).
pub type ModPath = Vec<String>;

/// The library's modules, each with its source (comments, strings and tests
/// taken out) and the modules it uses.
#[derive(Debug, Default)]
pub struct Modules {
    pub sources: BTreeMap<ModPath, String>,
    pub uses: BTreeMap<ModPath, BTreeSet<ModPath>>,
}

impl Modules {
    /// Reads every `.rs` file under `src` (the library's root, where
    /// `lib.rs` is). Binaries' files (`main.rs`, `bin/`) and what only they
    /// declare are read too and simply used by nothing.
    pub fn read(src: &Path) -> Result<Modules> {
        let mut files = Vec::new();
        walk(src, &mut files)?;
        let mut sources = BTreeMap::new();
        for f in files {
            let text = std::fs::read_to_string(&f).with_context(|| f.display().to_string())?;
            sources.insert(mod_path(src, &f), without_tests(&code_only(&text)));
        }
        // The crate's own names for itself (`extern crate self as x;`) read as `crate`.
        let aliases = sources.get(&Vec::new()).map(|root| self_aliases(root)).unwrap_or_default();
        for text in sources.values_mut() {
            for a in &aliases {
                *text = as_crate(text, a);
            }
        }
        let mut m = Modules { sources, uses: BTreeMap::new() };
        let reexports = m.reexports();
        let macros = m.exported_macros(&reexports);
        let mut uses: BTreeMap<ModPath, BTreeSet<ModPath>> = BTreeMap::new();
        for (at, text) in &m.sources {
            let entry = uses.entry(at.clone()).or_default();
            for p in paths(text) {
                entry.insert(m.resolve(at, &p, Some(&reexports)));
            }
            for (name, used) in &macros {
                if invokes(text, name) {
                    entry.extend(used.iter().cloned());
                }
            }
            for child in m.children(at) {
                if bare_use(text, &child) {
                    entry.insert([at.clone(), vec![child]].concat());
                }
            }
            entry.remove(at);
        }
        for (from, to) in m.method_uses() {
            uses.entry(from).or_default().insert(to);
        }
        m.uses = uses;
        Ok(m)
    }

    fn children(&self, at: &ModPath) -> BTreeSet<String> {
        self.sources
            .keys()
            .filter(|k| k.len() == at.len() + 1 && k.starts_with(at))
            .map(|k| k[at.len()].clone())
            .collect()
    }

    /// The module a path names: its longest prefix that is a module, after
    /// `crate`, `super` and `self`, and a re-exported name followed.
    fn resolve(&self, at: &ModPath, path: &[String], reexports: Option<&Reexports>) -> ModPath {
        let mut cur = at.clone();
        let mut rest = path;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                cur.clear();
                rest = &rest[1..];
            }
            _ => {
                while let Some(s) = rest.first().filter(|s| *s == "super" || *s == "self") {
                    if s == "super" {
                        cur.pop();
                    }
                    rest = &rest[1..];
                }
            }
        }
        for seg in rest {
            let next = [cur.clone(), vec![seg.clone()]].concat();
            if self.sources.contains_key(&next) {
                cur = next;
                continue;
            }
            if let Some(to) = reexports.and_then(|r| r.get(&(cur.clone(), seg.clone()))) {
                return to.clone();
            }
            break;
        }
        cur
    }

    /// The names each module re-exports (`pub use`, `pub(crate) use`), and
    /// the module each comes from.
    fn reexports(&self) -> Reexports {
        let mut out = Reexports::new();
        for (at, text) in &self.sources {
            for start in pub_uses(text) {
                for mut p in expand(text, start) {
                    if !matches!(p[0].as_str(), "crate" | "super" | "self") {
                        if !self.sources.contains_key(&[at.clone(), vec![p[0].clone()]].concat()) {
                            continue; // another crate's item
                        }
                        p.insert(0, "self".into());
                    }
                    let to = self.resolve(at, &p, None);
                    if &to != at {
                        out.insert((at.clone(), p.last().cloned().unwrap_or_default()), to);
                    }
                }
            }
        }
        out
    }

    /// For each type with an inherent `impl` block in a file that does not
    /// declare it: that file uses the type's own, and a file that calls one
    /// of the block's methods uses that file. A type of the same folder is
    /// found by its name; one of another folder where the name is declared
    /// once in the crate.
    fn method_uses(&self) -> Vec<(ModPath, ModPath)> {
        let mut defined: BTreeMap<(ModPath, String), ModPath> = BTreeMap::new();
        let mut anywhere: BTreeMap<String, Vec<ModPath>> = BTreeMap::new();
        for (at, text) in &self.sources {
            for ty in declared_types(text) {
                defined.insert((parent(at), ty.clone()), at.clone());
                anywhere.entry(ty).or_default().push(at.clone());
            }
        }
        let mut out = Vec::new();
        for (at, text) in &self.sources {
            let own = declared_types(text);
            // A type of the same name declared here is this file's own.
            for (ty, methods) in impl_blocks(text).into_iter().filter(|(ty, _)| !own.contains(ty)) {
                let near = defined.get(&(parent(at), ty.clone()));
                let far = || anywhere.get(&ty).filter(|homes| homes.len() == 1).map(|homes| &homes[0]);
                let Some(home) = near.or_else(far).filter(|h| *h != at) else { continue };
                let same_folder = near.is_some();
                out.push((at.clone(), home.clone()));
                for (caller, ctext) in &self.sources {
                    let reach = !same_folder || parent(caller) == parent(at);
                    if caller != at && reach && methods.iter().any(|m| calls(ctext, &ty, m)) {
                        out.push((caller.clone(), at.clone()));
                    }
                }
            }
        }
        out
    }

    /// Each `#[macro_export]` macro by name, with the modules its body names
    /// (`$crate::a::b`): whoever invokes it uses them.
    fn exported_macros(&self, reexports: &Reexports) -> Vec<(String, BTreeSet<ModPath>)> {
        let mut out = Vec::new();
        for text in self.sources.values() {
            let mut from = 0;
            while let Some(n) = text[from..].find("#[macro_export]") {
                from += n + "#[macro_export]".len();
                let Some(rules) = text[from..].trim_start().strip_prefix("macro_rules!") else { continue };
                let name: String = rules.trim_start().chars().take_while(|c| is_ident(*c)).collect();
                let Some(open) = text[from..].find('{').map(|k| from + k) else { continue };
                let end = matching_brace(text, open).unwrap_or(text.len());
                let used = paths(&text[open..end])
                    .into_iter()
                    .filter(|p| p[0] == "crate")
                    .map(|p| self.resolve(&Vec::new(), &p, Some(reexports)))
                    .collect();
                out.push((name, used));
            }
        }
        out
    }

    /// The graph among the modules right under `folder` (the crate's
    /// top-level modules for `[]`): each is the module and all below it, the
    /// folder's own `mod.rs` is `(mod)`; uses from or to outside are left out.
    pub fn level(&self, folder: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
        let folder: ModPath = folder.iter().map(|s| s.to_string()).collect();
        let name = |m: &ModPath| -> Option<String> {
            if !m.starts_with(&folder) {
                return None;
            }
            Some(m.get(folder.len()).cloned().unwrap_or_else(|| "(mod)".into()))
        };
        let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, tos) in &self.uses {
            // The crate root (lib.rs) only declares and re-exports.
            let Some(a) = name(from).filter(|_| !(folder.is_empty() && from.is_empty())) else { continue };
            let entry = g.entry(a.clone()).or_default();
            for to in tos {
                if let Some(b) = name(to).filter(|b| *b != a && !(folder.is_empty() && to.is_empty())) {
                    entry.insert(b);
                }
            }
        }
        g
    }
}

type Reexports = BTreeMap<(ModPath, String), ModPath>;

fn parent(m: &ModPath) -> ModPath {
    m[..m.len().saturating_sub(1)].to_vec()
}

/// The folders of `src` that hold modules (`daemon`, `daemon/desk`, …).
pub fn folders(src: &Path) -> Result<Vec<Vec<String>>> {
    let mut files = Vec::new();
    walk(src, &mut files)?;
    let mut out: BTreeSet<Vec<String>> = BTreeSet::new();
    for f in files {
        if f.file_name().is_some_and(|n| n == "mod.rs") {
            out.insert(mod_path(src, &f));
        }
    }
    Ok(out.into_iter().collect())
}

/// The cycles of a graph: its strongly connected components of more than one
/// node, each sorted (Tarjan's algorithm).
pub fn cycles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'a> {
        g: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        out: Vec<Vec<String>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a str) {
            let i = self.index.len();
            self.index.insert(v, i);
            self.low.insert(v, i);
            self.stack.push(v);
            for w in self.g.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let lw = self.low[w.as_str()];
                    self.low.entry(v).and_modify(|l| *l = (*l).min(lw));
                } else if self.stack.contains(&w.as_str()) {
                    let iw = self.index[w.as_str()];
                    self.low.entry(v).and_modify(|l| *l = (*l).min(iw));
                }
            }
            if self.low[v] == self.index[v] {
                let at = self.stack.iter().rposition(|x| *x == v).unwrap_or(0);
                let mut comp: Vec<String> = self.stack.drain(at..).map(String::from).collect();
                if comp.len() > 1 {
                    comp.sort();
                    self.out.push(comp);
                }
            }
        }
    }
    let mut t = Tarjan { g, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in g.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    for e in std::fs::read_dir(dir).with_context(|| dir.display().to_string())? {
        let p = e?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    Ok(())
}

fn mod_path(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap_or(file).with_extension("");
    let mut parts: ModPath = rel.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
        parts.pop();
    }
    parts
}

/// The text with comments taken out and string and character literals
/// emptied, so that neither is read as a path.
fn code_only(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            i = text[i..].find('\n').map_or(b.len(), |n| i + n);
        } else if b[i..].starts_with(b"/*") {
            let mut depth = 0;
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if let Some(end) = raw_string_end(text, i) {
            out.push_str("\"\"");
            i = end;
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if let Some(end) = char_literal_end(text, i) {
            out.push_str("' '");
            i = end;
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// Where a raw string (`r"…"`, `r#"…"#`, `br"…"`) starting at `i` ends.
fn raw_string_end(text: &str, i: usize) -> Option<usize> {
    let b = text.as_bytes();
    let ident_before = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
    if b[i] != b'r' || ident_before {
        return None;
    }
    let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
    if b.get(i + 1 + hashes) != Some(&b'"') {
        return None;
    }
    let close = format!("\"{}", "#".repeat(hashes));
    let body = i + 2 + hashes;
    Some(text[body..].find(&close).map_or(b.len(), |n| body + n + close.len()))
}

/// Where a character literal starting at `i` ends (not a lifetime).
fn char_literal_end(text: &str, i: usize) -> Option<usize> {
    let rest = text.get(i..)?;
    let mut chars = rest.char_indices();
    if chars.next()?.1 != '\'' {
        return None;
    }
    let (_, c) = chars.next()?;
    if c == '\\' {
        let close = rest[2..].find('\'')?;
        return (close <= 10).then_some(i + 2 + close + 1);
    }
    let (j, q) = chars.next()?;
    (q == '\'').then_some(i + j + 1)
}

/// The text without its test modules (`#[cfg(test)] mod name { … }`).
fn without_tests(text: &str) -> String {
    let mut s = text.to_string();
    while let Some(at) = s.find("#[cfg(test)]") {
        let after = &s[at..];
        let Some(open) = after.find('{') else { break };
        let head = &after["#[cfg(test)]".len()..open];
        if !head.split_whitespace().any(|w| w == "mod") {
            // A test-only item that is not a module: left, but not found again.
            s.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        }
        let end = matching_brace(&s, at + open).unwrap_or(s.len());
        s.replace_range(at..end, "");
    }
    s
}

fn matching_brace(s: &str, open: usize) -> Option<usize> {
    let mut depth = 0;
    for (k, c) in s[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// The names a crate gives itself in its root: `extern crate self as x;`.
fn self_aliases(root: &str) -> Vec<String> {
    root.match_indices("extern crate self as ")
        .map(|(k, m)| root[k + m.len()..].chars().take_while(|c| is_ident(*c)).collect::<String>())
        .filter(|a| !a.is_empty())
        .collect()
}

/// `text` with paths through the crate's name `alias` (`x::a::b`) written
/// through `crate`.
fn as_crate(text: &str, alias: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(n) = rest.find(alias) {
        out.push_str(&rest[..n]);
        let whole = !out.chars().next_back().is_some_and(|c| is_ident(c) || c == ':');
        rest = &rest[n + alias.len()..];
        out.push_str(if whole && rest.trim_start().starts_with("::") { "crate" } else { alias });
    }
    out.push_str(rest);
    out
}

/// Whether `text` invokes macro `name` (`name!`, `crate::name!`).
fn invokes(text: &str, name: &str) -> bool {
    text.match_indices(name).any(|(k, _)| {
        !text[..k].chars().next_back().is_some_and(is_ident)
            && text[k + name.len()..].starts_with('!')
            && !text[..k].trim_end().ends_with("macro_rules!")
    })
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Every path that starts with `crate`, `super` or `self`, use groups
/// expanded into one path per leaf.
fn paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for kw in ["crate", "super", "self"] {
        let mut from = 0;
        while let Some(n) = text[from..].find(kw) {
            let at = from + n;
            from = at + kw.len();
            let before = text[..at].chars().next_back();
            if before.is_some_and(|c| is_ident(c) || c == ':') {
                continue;
            }
            if text[from..].trim_start().starts_with("::") {
                out.extend(expand(text, at));
            }
        }
    }
    out
}

/// The paths written at `at`: `a::b::c`, or `a::{b, c::d}` as `a::b`,
/// `a::c::d`.
fn expand(text: &str, at: usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    let mut i = at;
    loop {
        let rest = &text[i..];
        let trimmed = rest.trim_start();
        i += rest.len() - trimmed.len();
        let word: String = trimmed.chars().take_while(|c| is_ident(*c)).collect();
        if word.is_empty() {
            if trimmed.starts_with('{') {
                let end = matching_brace(text, i).unwrap_or(text.len());
                let inner = &text[i + 1..end.saturating_sub(1)];
                return split_group(inner)
                    .into_iter()
                    .flat_map(|part| {
                        let part = part.trim();
                        if part.is_empty() || part == "*" {
                            return Vec::new();
                        }
                        expand(part, 0).into_iter().map(|p| [prefix.clone(), p].concat()).collect::<Vec<_>>()
                    })
                    .collect();
            }
            break;
        }
        prefix.push(word.trim_start_matches("r#").to_string());
        i += word.len();
        let rest = &text[i..];
        let trimmed = rest.trim_start();
        if !trimmed.starts_with("::") {
            break;
        }
        i += rest.len() - trimmed.len() + 2;
    }
    if prefix.is_empty() { Vec::new() } else { vec![prefix] }
}

fn split_group(inner: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (k, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..k]);
                start = k + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
}

/// Where the paths of each `pub use` / `pub(…) use` start.
fn pub_uses(text: &str) -> Vec<usize> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(n) = text[from..].find("pub") {
        let at = from + n;
        from = at + 3;
        if text[..at].chars().next_back().is_some_and(is_ident) {
            continue;
        }
        let mut rest = text[from..].trim_start();
        if rest.starts_with('(') {
            let Some(close) = rest.find(')') else { continue };
            rest = rest[close + 1..].trim_start();
        }
        if let Some(after) = rest.strip_prefix("use ") {
            out.push(text.len() - after.len());
        }
    }
    out
}

/// Whether `text` names its child module `child` by its bare name
/// (`child::item`), not as a field or a method (`x.child::<T>`).
fn bare_use(text: &str, child: &str) -> bool {
    let mut from = 0;
    while let Some(n) = text[from..].find(child) {
        let at = from + n;
        from = at + child.len();
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':' || c == '.') {
            continue;
        }
        if text[from..].trim_start().starts_with("::") {
            return true;
        }
    }
    false
}

/// The structs, enums and type aliases a file declares.
fn declared_types(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for kw in ["struct ", "enum ", "type "] {
        let mut from = 0;
        while let Some(n) = text[from..].find(kw) {
            let at = from + n;
            from = at + kw.len();
            if text[..at].chars().next_back().is_some_and(is_ident) {
                continue;
            }
            let name: String = text[from..].chars().take_while(|c| is_ident(*c)).collect();
            if name.chars().next().is_some_and(char::is_uppercase) {
                out.push(name);
            }
        }
    }
    out
}

/// The inherent `impl Type { … }` blocks of a file: the type and the
/// methods each defines.
fn impl_blocks(text: &str) -> Vec<(String, Vec<Method>)> {
    let mut out = Vec::new();
    for line_start in std::iter::once(0).chain(text.match_indices('\n').map(|(k, _)| k + 1)) {
        let line = &text[line_start..];
        let Some(rest) = line.strip_prefix("impl") else { continue };
        let rest = if rest.starts_with('<') { &rest[rest.find('>').map_or(0, |k| k + 1)..] } else { rest };
        let Some(open) = rest.find('{') else { continue };
        let head = rest[..open].trim();
        if head.contains(" for ") || head.is_empty() {
            continue;
        }
        let ty: String = head.chars().take_while(|c| is_ident(*c)).collect();
        let body_at = line_start + (line.len() - rest.len()) + open;
        let end = matching_brace(text, body_at).unwrap_or(text.len());
        let body = &text[body_at..end];
        let methods = body
            .match_indices("fn ")
            .filter(|(k, _)| !body[..*k].chars().next_back().is_some_and(is_ident))
            .filter_map(|(k, _)| {
                let name: String = body[k + 3..].chars().take_while(|c| is_ident(*c)).collect();
                let params = &body[k..];
                let params = &params[params.find('(')? + 1..];
                let first = params.split([',', ')']).next().unwrap_or("");
                let takes_self = first.split_whitespace().any(|w| w.trim_start_matches('&') == "self");
                (!name.is_empty()).then_some(Method { name, takes_self })
            })
            .collect();
        out.push((ty, methods));
    }
    out
}

/// A method of an `impl` block: its name, and whether it takes `self` (only
/// such a method is called as `.name(`: an associated function is called
/// by its type, and `.parse(` is far more often `str::parse`).
struct Method {
    name: String,
    takes_self: bool,
}

/// Whether `text` calls method `m` of `ty` (`.m(` where it takes `self`,
/// `Self::m(`, `Ty::m(`).
fn calls(text: &str, ty: &str, m: &Method) -> bool {
    let mut from = 0;
    while let Some(n) = text[from..].find(&m.name) {
        let at = from + n;
        from = at + m.name.len();
        let before = &text[..at];
        let by_type = before.ends_with("Self::") || before.ends_with(&format!("{ty}::"));
        let called = by_type || (m.takes_self && before.ends_with('.'));
        let after = text[from..].trim_start();
        if called && (after.starts_with('(') || after.starts_with("::<")) {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn use_groups_expand_to_one_path_each() {
        let p = paths("use crate::{config::Config, daemon::{outcome::X, names}};\nfn f() { super::a::b(); }");
        assert!(p.contains(&vec!["crate".into(), "config".into(), "Config".into()]), "{p:?}");
        assert!(p.contains(&vec!["crate".into(), "daemon".into(), "outcome".into(), "X".into()]), "{p:?}");
        assert!(p.contains(&vec!["super".into(), "a".into(), "b".into()]), "{p:?}");
    }

    #[test]
    fn comments_strings_and_tests_are_not_read() {
        let t = without_tests(&code_only(
            "// crate::a::x\nlet s = \"crate::b::y\"; let c = '\"';\n#[cfg(test)]\nmod tests { use crate::c::z; }\n",
        ));
        assert!(paths(&t).is_empty(), "{t}");
    }

    #[test]
    fn a_cycle_is_found_and_a_chain_is_not() {
        let g = |edges: &[(&str, &str)]| {
            let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
            for (a, b) in edges {
                g.entry(a.to_string()).or_default().insert(b.to_string());
                g.entry(b.to_string()).or_default();
            }
            g
        };
        assert!(cycles(&g(&[("a", "b"), ("b", "c")])).is_empty());
        assert_eq!(cycles(&g(&[("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")])), vec![vec!["a", "b", "c"]]);
    }

    /// The top-level cycles of a crate made of `files` (path under `src/`, text).
    fn planted(files: &[(&str, &str)]) -> Vec<Vec<String>> {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let f = dir.path().join(path);
            std::fs::create_dir_all(f.parent().unwrap()).unwrap();
            std::fs::write(f, text).unwrap();
        }
        cycles(&Modules::read(dir.path()).unwrap().level(&[]))
    }

    const SHEET_AND_DAEMON: (&str, &str) = ("lib.rs", "pub mod sheet;\npub mod daemon;\n");

    #[test]
    fn a_method_a_higher_folder_adds_to_a_lower_type_is_a_use_of_it() {
        let found = planted(&[
            SHEET_AND_DAEMON,
            ("sheet.rs", "pub struct Sheet;\nimpl Sheet {\n    pub fn size(&self) -> usize { self.extra() }\n}\n"),
            ("daemon/mod.rs", "mod extra;\n"),
            ("daemon/extra.rs", "use crate::sheet::Sheet;\nimpl Sheet {\n    pub fn extra(&self) -> usize { 1 }\n}\n"),
        ]);
        assert_eq!(found, [["daemon", "sheet"]]);
    }

    #[test]
    fn an_exported_macro_is_a_use_of_what_its_body_names_where_it_is_invoked() {
        let found = planted(&[
            SHEET_AND_DAEMON,
            ("sheet.rs", "pub struct Sheet;\npub fn f() { spawn!(); }\n"),
            (
                "daemon.rs",
                "use crate::sheet::Sheet;\n#[macro_export]\nmacro_rules! spawn { () => { $crate::daemon::run() } }\npub fn run() {}\n",
            ),
        ]);
        assert_eq!(found, [["daemon", "sheet"]]);
    }

    #[test]
    fn the_crate_by_its_own_name_is_a_use_of_the_module_named() {
        let found = planted(&[
            ("lib.rs", "extern crate self as scoresheet;\npub mod sheet;\npub mod daemon;\n"),
            ("sheet.rs", "pub struct Sheet;\npub fn f() { scoresheet::daemon::run(); }\n"),
            ("daemon.rs", "use crate::sheet::Sheet;\npub fn run() {}\n"),
        ]);
        assert_eq!(found, [["daemon", "sheet"]]);
    }
}
