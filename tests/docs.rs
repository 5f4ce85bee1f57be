//! The manual stays whole: the README is short and points into `docs/`,
//! every link between the project's Markdown files reaches a file and a
//! heading that exist, and the test command the README gives is the one CI
//! runs.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The Markdown files of the manual and of the developers.
fn pages() -> Vec<PathBuf> {
    let r = root();
    let mut pages = vec![
        r.join("README.md"),
        r.join("CONTRIBUTING.md"),
        r.join("benches/RESULTS.md"),
        r.join("hardware/OCCUPANCY.md"),
    ];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(r.join("docs"))
        .expect("docs/ exists")
        .map(|e| e.expect("a docs/ entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The lines outside fenced code blocks.
fn prose(text: &str) -> Vec<&str> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
        } else if !fenced {
            out.push(line);
        }
    }
    out
}

/// A heading's anchor as GitHub makes it: lower case, letters, digits,
/// `-` and `_` kept, spaces made `-`, everything else left out.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| {
            if c == ' ' {
                Some('-')
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else {
                None
            }
        })
        .flat_map(char::to_lowercase)
        .collect()
}

fn anchors(text: &str) -> BTreeSet<String> {
    prose(text)
        .into_iter()
        .filter(|l| l.starts_with('#'))
        .map(|l| anchor(l.trim_start_matches('#')))
        .collect()
}

/// The targets of the inline links `[text](target)` of a page's prose.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            rest = &rest[i + 2..];
            if let Some(end) = rest.find(')') {
                out.push(rest[..end].to_owned());
                rest = &rest[end..];
            }
        }
    }
    out
}

#[test]
fn every_link_between_the_pages_reaches_a_file_and_a_heading() {
    let mut broken = Vec::new();
    let mut count = 0;
    for page in pages() {
        let text = read(&page);
        let dir = page.parent().expect("a folder");
        for link in links(&text) {
            if link.starts_with("http://") || link.starts_with("https://") {
                continue;
            }
            count += 1;
            let (file, fragment) = match link.split_once('#') {
                Some((f, a)) => (f, Some(a)),
                None => (link.as_str(), None),
            };
            let target = if file.is_empty() {
                page.clone()
            } else {
                dir.join(file)
            };
            if !target.exists() {
                broken.push(format!("{}: {link}: no such file", page.display()));
                continue;
            }
            if let Some(a) = fragment
                && (target.is_dir() || !anchors(&read(&target)).contains(a))
            {
                broken.push(format!("{}: {link}: no such heading", page.display()));
            }
        }
    }
    assert!(
        count > 30,
        "only {count} links found: is the link reader broken?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_short_and_points_to_every_page_of_the_manual() {
    let readme = read(&root().join("README.md"));
    let lines = readme.lines().count();
    assert!(
        lines < 200,
        "README.md has {lines} lines: the manual belongs in docs/"
    );
    let linked = links(&readme);
    for page in pages() {
        if page.parent().and_then(Path::file_name) == Some("docs".as_ref()) {
            let name = page.file_name().and_then(|n| n.to_str()).expect("a name");
            assert!(
                linked.iter().any(|l| l == &format!("docs/{name}")),
                "README.md does not point to docs/{name}"
            );
        }
    }
}

#[test]
fn ci_runs_the_test_command_the_readme_gives() {
    let readme = read(&root().join("README.md"));
    let ci = read(&root().join(".ci/run"));
    assert!(readme.contains("./test.sh        # installs what is missing and runs every test"));
    assert!(
        ci.lines()
            .any(|l| !l.trim_start().starts_with('#') && l.contains("./test.sh")),
        ".ci/run does not run ./test.sh"
    );
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    assert_eq!(
        anchor(" Speech through the screen reader (NVDA, JAWS)"),
        "speech-through-the-screen-reader-nvda-jaws"
    );
    assert_eq!(
        anchor(" The words hector speaks (`voices/`)"),
        "the-words-hector-speaks-voices"
    );
    assert_eq!(
        anchor(" The opponent's own electronic board"),
        "the-opponents-own-electronic-board"
    );
    assert_eq!(
        links("see [a](docs/a.md#b) and [c](d.md)"),
        ["docs/a.md#b", "d.md"]
    );
}
