//! The `reqparse` command explains itself: every subcommand's help has an example and every
//! argument a help text, and a refused Content-Disposition names the profiles that accept it.
#![cfg(feature = "cli")]

use std::process::Command;

fn reqparse(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reqparse"))
        .args(args)
        .output()
        .expect("run reqparse");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code(), text(&out.stdout), text(&out.stderr))
}

const SUBCOMMANDS: &[&[&str]] = &[
    &["query"],
    &["uri"],
    &["uri", "build"],
    &["uri", "relative"],
    &["uri", "split"],
    &["disposition"],
    &["serve"],
    &["chunked"],
    &["form"],
    &["multipart"],
    &["component"],
];

#[test]
fn every_subcommand_has_an_example_and_every_argument_a_help_text() {
    let mut failures = Vec::new();
    for &sub in SUBCOMMANDS {
        let args: Vec<&str> = sub.iter().copied().chain(["-h"]).collect();
        let (status, help, _) = reqparse(&args);
        assert_eq!(status, Some(0), "{sub:?}");
        if !help.contains("Example") {
            failures.push(format!("{sub:?}: no example"));
        }
        // In the short help an argument is one line: its spec, two spaces or more, its text.
        let mut section = "";
        for line in help.lines() {
            if line.ends_with(':') && !line.starts_with(' ') {
                section = line;
                continue;
            }
            if !matches!(section, "Options:" | "Arguments:") || !line.starts_with("  ") {
                continue;
            }
            let spec_and_text: Vec<&str> = line.trim().splitn(2, "  ").collect();
            if spec_and_text.len() < 2 || spec_and_text[1].trim().starts_with('[') {
                failures.push(format!("{sub:?}: no help text for {:?}", line.trim()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn top_level_help_says_how_to_install() {
    let (_, help, _) = reqparse(&["--help"]);
    assert!(
        help.contains("cargo install --path . --features cli"),
        "{help}"
    );
}

#[test]
fn a_refused_disposition_names_the_profiles_that_accept_it() {
    let (status, _, err) = reqparse(&["disposition", "attachment; filename=foo bar"]);
    assert_eq!(status, Some(1));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("at byte 25 (accepted with --profile browser)"),
        "{err}"
    );
    let (_, _, err) = reqparse(&["disposition", "attachment; filename=a; filename=b"]);
    assert!(
        err.contains("(accepted with --profile browser or --profile dotnet)"),
        "{err}"
    );
    // Nothing accepts a header over the length limit: no hint then.
    let long = format!("attachment; filename={}", "a".repeat(20_000));
    let (_, _, err) = reqparse(&["disposition", &long]);
    assert!(!err.contains("accepted with"), "{err}");
    // The case parses now: a raw UTF-8 filename in a quoted string.
    let (status, out, _) = reqparse(&[
        "disposition",
        "form-data; name=\"file\"; filename=\"résumé.pdf\"",
    ]);
    assert_eq!(status, Some(0));
    assert!(out.contains("\"filename\":\"résumé.pdf\""), "{out}");
}
