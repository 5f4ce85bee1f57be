//! The crate's layers only look down.
//!
//! [`LAYERS`] is the one list of hector's layers; CONTRIBUTING.md shows it
//! (a test below keeps the two the same).  The check reads every `.rs` file
//! under `src/`, finds every path into the crate (`crate::…`, `use
//! crate::{…}`, and `super::…` that climbs to the crate root), docs included
//! (an intra-doc link names a module too), and fails when a module names a
//! module of a higher layer, when the modules of one layer name each other
//! in a circle, or when a module of `src/` is missing from the list.  Inside
//! a folder, files side by side may not name each other in a circle either
//! (a parent and its own files may): the circles there when the check came
//! are listed in [`KNOWN_CIRCLES`], and none may be added.  Test code
//! (`#[cfg(test)]` items and the files they declare) is left out: a test may
//! build whatever it needs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// hector's layers, bottom up: `name  modules…  # why`.  A module may name
/// the modules of its own layer (never in a circle) and of the layers below,
/// never one above.  `lib.rs` and `main.rs` are the top and may name any.
pub const LAYERS: &str = "\
base      toml_error audio speech win_console  # name no other module: file errors; tones and sentences out, never a chess type
words     words                                # vocabularies, Lang, templates, folding
rules     clock game notation                  # the clock knows no chess type; game's rules editions pick by its category; typed moves
devices   board scoresheet engine lichess      # the tactile board, the journal and its exports, the UCI engine, lichess's protocol: each sans-IO at its core
sentences phrase view export verify            # every event into one sentence; what the screen shows, as data; an export written to a file; a scoresheet checked
page      companion                            # the opponent's page, sans-IO: below the app, which drives it with Msgs
input     action keymap command config settings_file msg  # what the player asks for, the settings, the messages in and out
app       app                                  # App::update(msg, now) -> effects, no I/O
start     setup                                # what was typed and the settings files, resolved: the App's builder, engine, boards, page, lichess, saved games
run       runtime net                          # one loop, one effect dispatcher, the threads that feed it; the network's thread
front     ui                                   # the front ends of the runtime and the command line's own commands: show what is said, read the player
";

/// One layer: its name and its modules.
#[derive(Debug)]
struct Layer {
    name: String,
    modules: Vec<String>,
}

/// The layers of a list in the form of [`LAYERS`].
fn layers(list: &str) -> Vec<Layer> {
    list.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let name = words.next()?;
            Some(Layer {
                name: name.to_owned(),
                modules: words.map(str::to_owned).collect(),
            })
        })
        .collect()
}

/// What each character of a source file is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Code,
    Comment,
    Text,
}

/// The kind of each character of `src` (comments, string and character
/// literals, code).
fn kinds(src: &[char]) -> Vec<Kind> {
    let mut out = vec![Kind::Code; src.len()];
    let mut i = 0;
    let at = |i: usize| src.get(i).copied().unwrap_or('\0');
    while i < src.len() {
        let c = src[i];
        let start = i;
        if c == '/' && at(i + 1) == '/' {
            while i < src.len() && src[i] != '\n' {
                i += 1;
            }
            out[start..i].fill(Kind::Comment);
            continue;
        }
        if c == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < src.len() {
                if src[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if src[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out[start..i.min(src.len())].fill(Kind::Comment);
            continue;
        }
        let ident_before = start > 0 && (src[start - 1].is_alphanumeric() || src[start - 1] == '_');
        if (c == 'r' || (c == 'b' && at(i + 1) == 'r')) && !ident_before {
            // A raw string: r"…", r#"…"#, br"…".
            let mut j = if c == 'b' { i + 2 } else { i + 1 };
            let mut hashes = 0;
            while at(j) == '#' {
                hashes += 1;
                j += 1;
            }
            if at(j) == '"' {
                j += 1;
                loop {
                    if j >= src.len() {
                        break;
                    }
                    if src[j] == '"' && (1..=hashes).all(|k| at(j + k) == '#') {
                        j += 1 + hashes;
                        break;
                    }
                    j += 1;
                }
                out[start..j.min(src.len())].fill(Kind::Text);
                i = j;
                continue;
            }
        }
        if c == '"' {
            i += 1;
            while i < src.len() && src[i] != '"' {
                if src[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out[start..i.min(src.len())].fill(Kind::Text);
            continue;
        }
        if c == '\'' {
            // A character literal ('a', '\n', '\u{1F600}'), else a lifetime.
            let end = if at(i + 1) == '\\' {
                (i + 2..src.len()).find(|&j| src[j] == '\'')
            } else if at(i + 2) == '\'' {
                Some(i + 2)
            } else {
                None
            };
            if let Some(end) = end {
                out[start..=end].fill(Kind::Text);
                i = end + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The end (exclusive) of the item starting at `from` in `code` (comments
/// and literals blanked): its first `;`, or its balanced `{…}`.
fn item_end(code: &[char], from: usize) -> usize {
    let mut i = from;
    while i < code.len() {
        match code[i] {
            ';' => return i + 1,
            '{' => {
                let mut depth = 0;
                while i < code.len() {
                    match code[i] {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                return i + 1;
                            }
                        }
                        _ => {}
                    }
                    i += 1;
                }
                return code.len();
            }
            _ => i += 1,
        }
    }
    code.len()
}

/// The words of `code` from `i` on, skipping blanks: up to `n` identifiers
/// or single punctuation characters.
fn next_tokens(code: &[char], mut i: usize, n: usize) -> Vec<String> {
    let mut out = Vec::new();
    while out.len() < n && i < code.len() {
        if code[i].is_whitespace() {
            i += 1;
        } else if code[i].is_alphanumeric() || code[i] == '_' {
            let s = i;
            while i < code.len() && (code[i].is_alphanumeric() || code[i] == '_') {
                i += 1;
            }
            out.push(code[s..i].iter().collect());
        } else {
            out.push(code[i].to_string());
            i += 1;
        }
    }
    out
}

/// One file read: the ranges that are test code, the inline modules (range
/// and name) and the test modules it declares in files of their own.
struct Scan {
    tests: Vec<(usize, usize)>,
    inline: Vec<(usize, usize, String)>,
    test_files: Vec<String>,
}

fn find_all(hay: &[char], needle: &str) -> Vec<usize> {
    let n: Vec<char> = needle.chars().collect();
    (0..hay.len().saturating_sub(n.len() - 1))
        .filter(|&i| hay[i..i + n.len()] == n[..])
        .collect()
}

fn scan(code: &[char]) -> Scan {
    let mut s = Scan {
        tests: Vec::new(),
        inline: Vec::new(),
        test_files: Vec::new(),
    };
    for at in find_all(code, "#[cfg(") {
        // Test code: `cfg(test)`, `cfg(all(test, …))`; not `any(test, …)`
        // (compiled with the test-support feature too).
        let Some(end) = (at..code.len()).find(|&j| code[j] == ']') else {
            continue;
        };
        let attribute: String = code[at..=end]
            .iter()
            .filter(|c| !c.is_whitespace())
            .collect();
        if attribute != "#[cfg(test)]" && !attribute.starts_with("#[cfg(all(test,") {
            continue;
        }
        let mut i = end + 1;
        // Further attributes on the same item.
        loop {
            while i < code.len() && code[i].is_whitespace() {
                i += 1;
            }
            if code.get(i) == Some(&'#') {
                i = (i..code.len())
                    .find(|&j| code[j] == ']')
                    .map_or(code.len(), |j| j + 1);
            } else {
                break;
            }
        }
        let t = next_tokens(code, i, 3);
        if t.len() == 3 && t[0] == "mod" && t[2] == ";" {
            s.test_files.push(t[1].clone());
        }
        s.tests.push((at, item_end(code, i)));
    }
    for at in find_all(code, "mod ") {
        if at > 0 && (code[at - 1].is_alphanumeric() || code[at - 1] == '_') {
            continue;
        }
        let t = next_tokens(code, at + 4, 2);
        if t.len() == 2 && t[1] == "{" {
            s.inline.push((at, item_end(code, at), t[0].clone()));
        }
    }
    s
}

/// Where one file names a module of the crate.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Import {
    /// The importing module's path (`["board", "cli"]`; `[]` for the root).
    from: Vec<String>,
    /// The path named, from the crate root (`["words", "vocab", "Lang"]`).
    to: Vec<String>,
    /// 1-based line.
    line: usize,
}

/// The paths after `crate::` or `super::…::` at `i` (a `{…}` group gives
/// several).
fn paths_at(text: &[char], i: usize) -> Vec<Vec<String>> {
    let mut j = i;
    let mut path = Vec::new();
    loop {
        let s = j;
        while j < text.len() && (text[j].is_alphanumeric() || text[j] == '_') {
            j += 1;
        }
        if j > s {
            path.push(text[s..j].iter().collect::<String>());
        }
        if text.get(j) == Some(&':') && text.get(j + 1) == Some(&':') {
            j += 2;
            continue;
        }
        break;
    }
    if text.get(j) != Some(&'{') {
        return vec![path];
    }
    // A group: each entry at depth one starts a path of its own.
    let mut out = Vec::new();
    let mut depth = 0;
    let mut entry_start = true;
    let mut k = j;
    while k < text.len() {
        match text[k] {
            '{' => {
                depth += 1;
                if depth == 1 {
                    entry_start = true;
                }
            }
            '}' => {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
            ',' if depth == 1 => entry_start = true,
            c if depth == 1 && entry_start && (c.is_alphanumeric() || c == '_') => {
                entry_start = false;
                for tail in paths_at(text, k) {
                    let mut p = path.clone();
                    p.extend(tail);
                    out.push(p);
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

/// Every path into the crate in one file of module `module`, test code
/// left out; and the test modules it declares in files of their own.
fn imports(module: &[String], src: &str) -> (Vec<Import>, Vec<String>) {
    let chars: Vec<char> = src.chars().collect();
    let kind = kinds(&chars);
    let code: Vec<char> = chars
        .iter()
        .zip(&kind)
        .map(|(&c, &k)| if k == Kind::Code || c == '\n' { c } else { ' ' })
        .collect();
    // Comments kept (docs name modules too), literals blanked.
    let text: Vec<char> = chars
        .iter()
        .zip(&kind)
        .map(|(&c, &k)| if k != Kind::Text || c == '\n' { c } else { ' ' })
        .collect();
    let s = scan(&code);
    let in_test = |i: usize| s.tests.iter().any(|&(a, b)| (a..b).contains(&i));
    let line_of = |i: usize| text[..i].iter().filter(|&&c| c == '\n').count() + 1;
    let mut out = Vec::new();
    let starts = |i: usize, w: &str| {
        let n: Vec<char> = w.chars().collect();
        text.get(i..i + n.len()) == Some(&n[..])
            && (i == 0
                || !(text[i - 1].is_alphanumeric() || text[i - 1] == '_' || text[i - 1] == '$'))
    };
    let mut i = 0;
    while i < text.len() {
        if in_test(i) {
            i += 1;
            continue;
        }
        let (base, after) = if starts(i, "crate::") {
            (Vec::new(), i + "crate::".len())
        } else if starts(i, "super::") {
            // The module this `super` is in: the file's, and the inline
            // modules around it.
            let mut here: Vec<String> = module.to_vec();
            let mut around: Vec<_> = s
                .inline
                .iter()
                .filter(|(a, b, _)| (*a..*b).contains(&i))
                .collect();
            around.sort_by_key(|(a, _, _)| *a);
            here.extend(around.iter().map(|(_, _, n)| n.clone()));
            let mut j = i;
            while starts(j, "super::") {
                here.pop();
                j += "super::".len();
            }
            (here, j)
        } else {
            i += 1;
            continue;
        };
        for tail in paths_at(&text, after) {
            let mut to = base.clone();
            to.extend(tail);
            if !to.is_empty() {
                out.push(Import {
                    from: module.to_vec(),
                    to,
                    line: line_of(i),
                });
            }
        }
        i = after;
    }
    (out, s.test_files)
}

/// A module path from a file's path under `src/` (`board/cli.rs` →
/// `["board", "cli"]`; `lib.rs`, `main.rs` → `[]`).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// Every import of the crate under `src`, test code left out, and the
/// top-level modules found.
fn crate_imports(src: &Path) -> (Vec<Import>, BTreeSet<String>, BTreeSet<Vec<String>>) {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut all = Vec::new();
    let mut tests: Vec<Vec<String>> = Vec::new();
    let mut per_file = Vec::new();
    for f in &files {
        let module = module_of(f.strip_prefix(src).unwrap());
        let text = std::fs::read_to_string(f).unwrap();
        let (imports, test_files) = imports(&module, &text);
        for t in test_files {
            let mut p = module.clone();
            p.push(t);
            tests.push(p);
        }
        per_file.push((module, imports));
    }
    let is_test = |m: &[String]| tests.iter().any(|t| m.starts_with(t));
    let mut tops = BTreeSet::new();
    let mut modules = BTreeSet::new();
    for (module, imports) in per_file {
        if is_test(&module) {
            continue;
        }
        if let Some(top) = module.first() {
            tops.insert(top.clone());
        }
        modules.insert(module);
        all.extend(imports);
    }
    (all, tops, modules)
}

/// What is wrong with `imports` against `list`: one line per fault.
fn faults(list: &str, imports: &[Import], tops: &BTreeSet<String>) -> Vec<String> {
    let layers = layers(list);
    let layer_of: BTreeMap<&str, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(n, l)| l.modules.iter().map(move |m| (m.as_str(), n)))
        .collect();
    let mut out = Vec::new();
    for t in tops {
        if !layer_of.contains_key(t.as_str()) {
            out.push(format!("src/{t}: in no layer (add it to LAYERS)"));
        }
    }
    for m in layer_of.keys() {
        if !tops.contains(*m) {
            out.push(format!("{m}: in LAYERS, but src/ has no such module"));
        }
    }
    let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for i in imports {
        let (Some(from), Some(to)) = (i.from.first(), i.to.first()) else {
            continue; // the root names what it likes
        };
        if from == to {
            continue;
        }
        let Some(&f) = layer_of.get(from.as_str()) else {
            continue; // reported above
        };
        let where_ = format!("{} line {}", i.from.join("::"), i.line);
        match layer_of.get(to.as_str()) {
            None => out.push(format!(
                "{where_}: crate::{} names no module of a layer (name the module, not a re-export of lib.rs)",
                i.to.join("::")
            )),
            Some(&t) if t > f => out.push(format!(
                "{where_}: {from} ({}) names crate::{}, of the higher layer {}",
                layers[f].name,
                i.to.join("::"),
                layers[t].name
            )),
            Some(_) => {
                edges.entry(from.as_str()).or_default().insert(to.as_str());
            }
        }
    }
    out.extend(
        circles(&edges)
            .into_iter()
            .map(|c| format!("a circle of imports: {c}")),
    );
    out
}

/// Every circle in `edges`, each once, shown from its first module by name
/// by the shortest way round (`a → b → a`).
fn circles(edges: &BTreeMap<&str, BTreeSet<&str>>) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for start in edges.keys() {
        let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
        let mut todo = std::collections::VecDeque::from([*start]);
        while let Some(m) = todo.pop_front() {
            let next = edges.get(m).into_iter().flatten().copied();
            if next.clone().any(|n| n == *start) {
                let mut way = vec![m];
                while let Some(&p) = came_from.get(way[way.len() - 1]) {
                    way.push(p);
                }
                way.reverse();
                // From its least name, so one circle reads one way.
                let least = (0..way.len()).min_by_key(|&i| way[i]).unwrap_or(0);
                way.rotate_left(least);
                way.push(way[0]);
                out.insert(way.join(" → "));
                break;
            }
            for n in next {
                if n != *start && !came_from.contains_key(n) {
                    came_from.insert(n, m);
                    todo.push_back(n);
                }
            }
        }
    }
    out
}

/// The module a path names: its longest beginning that is a module.
fn module_named<'a>(path: &'a [String], modules: &BTreeSet<Vec<String>>) -> &'a [String] {
    (1..=path.len())
        .rev()
        .map(|n| &path[..n])
        .find(|p| modules.contains(*p))
        .unwrap_or(&path[..0])
}

/// The circles between the files of one folder (`board: dgt → dgt_clock →
/// dgt`): modules side by side under one parent that name each other.  A
/// parent and its own child are no circle (`mod.rs` declares its files).
fn sibling_circles(imports: &[Import], modules: &BTreeSet<Vec<String>>) -> BTreeSet<String> {
    let mut by_parent: BTreeMap<Vec<String>, BTreeMap<&str, BTreeSet<&str>>> = BTreeMap::new();
    for i in imports {
        let to = module_named(&i.to, modules);
        let common = i.from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common == 0 || i.from.len() <= common || to.len() <= common {
            continue; // the top layers, or a parent and its child
        }
        by_parent
            .entry(i.from[..common].to_vec())
            .or_default()
            .entry(i.from[common].as_str())
            .or_default()
            .insert(to[common].as_str());
    }
    by_parent
        .iter()
        .flat_map(|(parent, edges)| {
            circles(edges)
                .into_iter()
                .map(move |c| format!("{}: {c}", parent.join("::")))
        })
        .collect()
}

/// The circles between files of one folder that were there when the check
/// came (issue 21); none may be added, and each one removed leaves this
/// list.
const KNOWN_CIRCLES: &[&str] = &[
    "board: dgt → dgt_clock → dgt",
    "board: dgt → event → dgt_clock → dgt",
    "scoresheet: journal → replay → journal",
    "ui::tui: bigtext → render → bigtext",
    "words: arguments → vocab → arguments",
    "words: joins → numbers → vocab → joins",
    "words: numbers → template → numbers",
];

/// The modules that do I/O below the app's layer (a thread, a port, a
/// process): the app names none of them; what crosses their edge is owned
/// by a sans-IO module beside them (`board::link`, the engine's session),
/// as `net`'s is by `lichess::io` and `companion`.
const IO_MODULES: &[&str] = &["board::transport", "board::cli", "engine::process"];

/// Where `imports` from `app` name one of `io`: one line each.
fn app_names_io(imports: &[Import], io: &[&str]) -> Vec<String> {
    imports
        .iter()
        .filter(|i| i.from.first().is_some_and(|m| m == "app"))
        .filter(|i| {
            let to = i.to.join("::");
            io.iter()
                .any(|m| to == *m || to.starts_with(&format!("{m}::")))
        })
        .map(|i| {
            format!(
                "{} line {}: crate::{}",
                i.from.join("::"),
                i.line,
                i.to.join("::")
            )
        })
        .collect()
}

fn strings(xs: &[&str]) -> Vec<String> {
    xs.iter().map(|&x| x.to_owned()).collect()
}

#[test]
fn every_module_imports_only_its_own_layer_and_the_layers_below() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (imports, tops, _) = crate_imports(&src);
    assert!(
        imports.len() > 100,
        "too few imports found: {}",
        imports.len()
    );
    let f = faults(LAYERS, &imports, &tops);
    assert!(f.is_empty(), "the layers are broken:\n{}", f.join("\n"));
}

#[test]
fn the_app_names_no_io_module() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (all, _, modules) = crate_imports(&src);
    for m in IO_MODULES {
        let path: Vec<String> = m.split("::").map(str::to_owned).collect();
        assert!(
            modules.contains(&path),
            "{m}: no such module (update IO_MODULES)"
        );
    }
    let found = app_names_io(&all, IO_MODULES);
    assert!(
        found.is_empty(),
        "the app names an I/O module (own the type in a sans-IO module):\n{}",
        found.join("\n")
    );
    // The check itself: an import of the serial transport is found.
    let planted = imports(
        &strings(&["app", "board"]),
        "use crate::board::transport::LinkEvent;",
    )
    .0;
    assert_eq!(app_names_io(&planted, IO_MODULES).len(), 1);
}

#[test]
fn no_new_circle_between_the_files_of_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let (imports, _, modules) = crate_imports(&src);
    let found = sibling_circles(&imports, &modules);
    let known: BTreeSet<String> = KNOWN_CIRCLES.iter().map(|&c| c.to_owned()).collect();
    let new: Vec<&String> = found.difference(&known).collect();
    let gone: Vec<&String> = known.difference(&found).collect();
    assert!(
        new.is_empty(),
        "new circles between files of one folder: {new:#?}"
    );
    assert!(
        gone.is_empty(),
        "circles gone (take them off KNOWN_CIRCLES): {gone:#?}"
    );
}

#[test]
fn the_checker_finds_a_circle_between_files_of_one_folder() {
    let modules: BTreeSet<Vec<String>> = [&["e"][..], &["e", "p"], &["e", "s"], &["e", "s", "t"]]
        .iter()
        .map(|m| strings(m))
        .collect();
    let at = |m: &[&str], text: &str| imports(&strings(m), text).0;
    // A parent and its child may name each other; siblings one way only.
    let mut fine = at(&["e"], "use crate::e::s::Item;");
    fine.extend(at(
        &["e", "s"],
        "use super::p::ExitInfo;\nuse crate::e::Shared;",
    ));
    fine.extend(at(&["e", "s", "t"], "use crate::e::p::X;"));
    assert_eq!(sibling_circles(&fine, &modules), BTreeSet::new());
    // engine::session ⇄ engine::process, as it was.
    let mut circle = fine.clone();
    circle.extend(at(&["e", "p"], "use super::s::Fault;"));
    let found: Vec<String> = sibling_circles(&circle, &modules).into_iter().collect();
    assert_eq!(found, strings(&["e: p → s → p"]));
}

#[test]
fn the_checker_finds_an_upward_import_a_circle_and_a_missing_module() {
    let list = "low a b  # a comment\nhigh c\n";
    let file = |module: &str, text: &str| imports(&strings(&[module]), text).0;
    let tops: BTreeSet<String> = strings(&["a", "b", "c"]).into_iter().collect();
    // Down is fine.
    let down = file("c", "use crate::a::X;\nfn f() { crate::b::g(); }\n");
    assert_eq!(faults(list, &down, &tops), Vec::<String>::new());
    // Up is not: in a `use`, in a group, in a path in code, in a doc link.
    for text in [
        "use crate::c::Y;",
        "use crate::{b::Z, c::Y};",
        "fn f() { let _ = crate::c::y(); }",
        "/// See [`Y`](crate::c::Y).\nfn f() {}",
    ] {
        let f = faults(list, &file("a", text), &tops);
        assert_eq!(f.len(), 1, "{text}: {f:?}");
        assert!(f[0].contains("of the higher layer high"), "{}", f[0]);
    }
    // Two modules of one layer naming each other.
    let mut circle = file("a", "use crate::b::B;");
    circle.extend(file("b", "use crate::a::A;"));
    let f = faults(list, &circle, &tops);
    assert!(f.iter().any(|l| l.contains("circle")), "{f:?}");
    // A module in no layer, a listed one that is gone.
    let more: BTreeSet<String> = strings(&["a", "c", "d"]).into_iter().collect();
    let f = faults(list, &[], &more);
    assert!(
        f.iter().any(|l| l.starts_with("src/d: in no layer")),
        "{f:?}"
    );
    assert!(f.iter().any(|l| l.starts_with("b: in LAYERS")), "{f:?}");
    // A name re-exported by lib.rs is no module.
    let f = faults(list, &file("a", "/// [`crate::Msg`]\nfn f() {}"), &tops);
    assert!(f.iter().any(|l| l.contains("names no module")), "{f:?}");
}

#[test]
fn test_code_strings_and_macros_are_left_out() {
    let text = r##"
use crate::a::A;
const S: &str = "crate::c::Y";
const R: &str = r#"crate::c::Y"#;
const Q: char = '"';
macro_rules! m { () => { $crate::c::y() } }
#[cfg(test)]
mod tests {
    use crate::c::Y;
    fn f() -> &'static str { "}" }
}
#[cfg(test)]
use crate::c::Z;
#[cfg(all(test, unix))]
mod unix_tests {
    use crate::c::W;
}
#[cfg(any(test, feature = "test-support"))]
pub use crate::b::Support;
#[cfg(test)]
mod more_tests;
fn g<'a>(x: &'a str) -> &'a str { crate::b::h(x) }
"##;
    let (found, test_files) = imports(&strings(&["a"]), text);
    let named: Vec<String> = found.iter().map(|i| i.to.join("::")).collect();
    assert_eq!(named, strings(&["a::A", "b::Support", "b::h"]));
    assert_eq!(test_files, strings(&["more_tests"]));
}

#[test]
fn super_climbing_to_the_root_names_a_top_module() {
    let text = "use super::x::X;\nmod inner {\n    use super::super::y::Y;\n}\n";
    let (found, _) = imports(&strings(&["top", "file"]), text);
    let named: Vec<String> = found.iter().map(|i| i.to.join("::")).collect();
    assert_eq!(named, strings(&["top::x::X", "top::y::Y"]));
    let (found, _) = imports(&strings(&["view"]), "use super::ui::X;\n");
    assert_eq!(found[0].to, strings(&["ui", "X"]));
}

#[test]
fn contributing_shows_the_layer_list() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("CONTRIBUTING.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let section = text
        .split("\n## ")
        .find(|s| s.starts_with("Layers"))
        .expect("CONTRIBUTING.md has a \"## Layers\" section");
    assert!(
        section.contains(LAYERS),
        "CONTRIBUTING.md's Layers section must show tests/layers.rs's LAYERS exactly:\n{LAYERS}"
    );
}
