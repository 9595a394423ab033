//! The systemd units of docs/deploy.md pass `systemd-analyze verify` (issue 41, "operating it").
//!
//! Every ```` ```ini ```` block of the doc whose first line is `# /etc/systemd/system/NAME` is
//! written to a temporary directory as `NAME`, with `/usr/local/bin/crown-server` replaced by the
//! `crown-server` binary this test was built with (so that verify finds an executable in a
//! container where nothing is installed), and the files are verified together (the timer names
//! its service). What fails the test: any diagnostic that verify ties to a line of a unit file
//! (`FILE:LINE: ...`: an unknown section or key, a value it cannot parse), which systemd only
//! warns about and then ignores. Other complaints (a missing user, no running systemd in a
//! container) are printed, not failures. Skipped, saying so, without `systemd-analyze`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The program verify runs (`/usr/bin/systemd-analyze`, or the one on `PATH`), if any.
fn systemd_analyze() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/systemd-analyze");
    if fixed.is_file() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|p| {
        std::env::split_paths(&p)
            .map(|d| d.join("systemd-analyze"))
            .find(|f| f.is_file())
    })
}

/// The units of `doc`: `(file name, text)` for every ```` ```ini ```` block that starts with a
/// `# /etc/systemd/system/NAME` comment.
fn units_of(doc: &str) -> Vec<(String, String)> {
    let mut units = Vec::new();
    let mut lines = doc.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```ini" {
            continue;
        }
        let block: Vec<&str> = lines.by_ref().take_while(|l| l.trim() != "```").collect();
        if let Some(name) = block
            .first()
            .and_then(|l| l.strip_prefix("# /etc/systemd/system/"))
        {
            units.push((name.trim().to_string(), block.join("\n") + "\n"));
        }
    }
    units
}

/// Write `units` into `dir` (the program path replaced by `binary`) and verify them together:
/// the diagnostics tied to a line of one of the files, and the whole output.
fn verify(
    analyze: &Path,
    dir: &Path,
    units: &[(String, String)],
    binary: &Path,
) -> (Vec<String>, String) {
    let mut paths = Vec::new();
    for (name, text) in units {
        let path = dir.join(name);
        let text = text.replace("/usr/local/bin/crown-server", &binary.to_string_lossy());
        std::fs::write(&path, text).unwrap();
        paths.push(path);
    }
    let out = Command::new(analyze)
        .arg("verify")
        .arg("--man=no")
        .args(&paths)
        // The units' own directory is searched first for the units they name.
        .current_dir(dir)
        .output()
        .expect("run systemd-analyze verify");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let syntax = text
        .lines()
        .filter(|l| {
            paths.iter().any(|p| {
                l.strip_prefix(&*p.to_string_lossy())
                    .and_then(|rest| rest.strip_prefix(':'))
                    .and_then(|rest| rest.split_once(':'))
                    .is_some_and(|(line, _)| line.parse::<u32>().is_ok())
            })
        })
        .map(str::to_string)
        .collect();
    (syntax, text)
}

#[test]
fn the_deploy_guides_systemd_units_verify_without_syntax_errors() {
    let Some(analyze) = systemd_analyze() else {
        eprintln!("SKIPPED: systemd-analyze is not installed (apt-get install systemd)");
        return;
    };
    let doc_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/deploy.md");
    let doc = std::fs::read_to_string(&doc_path).unwrap();
    let units = units_of(&doc);
    let names: Vec<&str> = units.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "crown.service",
            "crown-backup.service",
            "crown-backup.timer"
        ],
        "the units of docs/deploy.md"
    );
    let binary = Path::new(env!("CARGO_BIN_EXE_crown-server"));

    let dir = tempfile::tempdir().unwrap();
    let (syntax, output) = verify(&analyze, dir.path(), &units, binary);
    if !output.trim().is_empty() {
        eprintln!("systemd-analyze verify said (only FILE:LINE diagnostics fail):\n{output}");
    }
    assert!(
        syntax.is_empty(),
        "docs/deploy.md's units have errors:\n{}",
        syntax.join("\n")
    );

    // The same check on a copy with a misspelt key and a bad value finds both: the check can fail.
    let mut broken = units.clone();
    broken[0].1 = broken[0]
        .1
        .replace("Restart=on-failure", "Restart=sometimes\nRestartSecs=2");
    let dir = tempfile::tempdir().unwrap();
    let (syntax, output) = verify(&analyze, dir.path(), &broken, binary);
    assert_eq!(syntax.len(), 2, "{output}");
    assert!(syntax.iter().any(|l| l.contains("RestartSecs")), "{output}");
}
