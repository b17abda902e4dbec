//! Every vector of `tests/vectors/` through the `reqparse` binary: the CLI is the contract other
//! suites script against, so it must give the library's answers, byte for byte, and fail with one
//! line on stderr and exit status 1 where the library rejects the input.
#![cfg(feature = "cli")]

mod support;

use std::ffi::{OsStr, OsString};
use std::fmt::Debug;
use std::process::{Command, Output};

use serde_json::Value;
use support::vectors::{self, flag, optional_text, text};

fn reqparse<A: AsRef<OsStr>>(args: &[A]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_reqparse"))
        .args(args)
        .output()
        .expect("run reqparse")
}

/// Checks one run against a case; returns a description of the mismatch, if any.
fn check(case: &Value, out: &Output, parse_json: bool) -> Option<String> {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(error) = case.get("expect_error") {
        if out.status.code() != Some(1) || !out.stdout.is_empty() {
            return Some(format!("expected an error, got {:?}: {stdout}", out.status));
        }
        if stderr.lines().count() != 1 {
            return Some(format!("error must be one line, got {stderr:?}"));
        }
        if let Some(offset) = error.get("offset").and_then(Value::as_u64) {
            if !stderr.contains(&offset.to_string()) {
                return Some(format!("error does not name offset {offset}: {stderr}"));
            }
        }
        if let Some(message) = error.get("message").and_then(Value::as_str) {
            if !stderr.trim_end().ends_with(message) {
                return Some(format!("error does not end with {message:?}: {stderr}"));
            }
        }
        return None;
    }
    if !out.status.success() {
        return Some(format!("failed: {stderr}"));
    }
    let line = stdout.strip_suffix('\n').unwrap_or(&stdout);
    let expect = &case["expect"];
    let same = if parse_json {
        serde_json::from_str::<Value>(line).ok().as_ref() == Some(expect)
    } else {
        Some(line) == expect.as_str()
    };
    (!same).then(|| format!("expected {expect}, got {line}"))
}

/// `reqparse {subcommand}`, with the case's `--profile` when it names one (else the CLI's
/// default, the same as the library's).
fn command(subcommand: &str, case: &Value) -> Vec<String> {
    let mut args = vec![subcommand.to_owned()];
    if let Some(profile) = optional_text(case, "profile") {
        args.push(format!("--profile={profile}"));
    }
    args
}

/// Runs `args_of` for every case of a vector file and reports all mismatches at once.
fn run_file<A: AsRef<OsStr> + Debug>(
    file: &str,
    parse_json: impl Fn(&Value) -> bool,
    args_of: impl Fn(&Value) -> Vec<A>,
) {
    let mut skipped = 0;
    vectors::run(file, 1, |case, failures| {
        let args = args_of(case);
        // A command line cannot carry NUL: such cases are covered by the library's own tests.
        if args
            .iter()
            .any(|a| a.as_ref().as_encoded_bytes().contains(&0))
        {
            skipped += 1;
            return;
        }
        if let Some(why) = check(case, &reqparse(&args), parse_json(case)) {
            failures.push(format!("{} ({args:?}): {why}", text(case, "source")));
        }
    });
    eprintln!("{file}: {skipped} cases with NUL left to the library tests");
}

#[test]
fn query_vectors() {
    run_file(
        "query.json",
        |_| true,
        |case| {
            let mut args = command("query", case);
            for (key, arg) in [
                ("raw", "--raw"),
                ("map", "--map"),
                ("ignore_case", "--ignore-case"),
            ] {
                if flag(case, key) {
                    args.push(arg.to_owned());
                }
            }
            args.extend(["--".to_owned(), text(case, "input").to_owned()]);
            args
        },
    );
}

#[test]
fn uri_vectors() {
    run_file(
        "uri.json",
        |case| text(case, "op") == "split",
        |case| {
            let op = text(case, "op");
            let mut args = vec!["uri".to_owned(), op.to_owned()];
            if op == "split" {
                args.extend(["--".to_owned(), text(case, "uri").to_owned()]);
                return args;
            }
            let mut keys = vec!["path_base", "path", "query", "fragment"];
            if op == "build" {
                keys.splice(0..0, ["scheme", "host"]);
            }
            for key in keys {
                args.push(format!("--{}={}", key.replace('_', "-"), text(case, key)));
            }
            args
        },
    );
}

#[test]
fn disposition_vectors() {
    run_file(
        "disposition.json",
        |_| true,
        |case| {
            let mut args = command("disposition", case);
            if flag(case, "decode_2047") {
                args.push("--decode-2047".to_owned());
            }
            args.push("--".to_owned());
            // The header's bytes as they are (ISO-8859-1 ones too): argv is bytes on unix.
            let mut args: Vec<OsString> = args.into_iter().map(OsString::from).collect();
            args.push(header_arg(vectors::input_bytes(case)));
            args
        },
    );
}

/// Header bytes as one argument, unchanged.
#[cfg(unix)]
fn header_arg(bytes: Vec<u8>) -> OsString {
    std::os::unix::ffi::OsStringExt::from_vec(bytes)
}

/// Elsewhere an argument is text: bytes that are not UTF-8 cannot be passed.
#[cfg(not(unix))]
fn header_arg(bytes: Vec<u8>) -> OsString {
    String::from_utf8_lossy(&bytes).into_owned().into()
}

#[test]
fn disposition_format_vectors() {
    run_file(
        "disposition_format.json",
        |_| false,
        |case| {
            let mut args = vec!["disposition".to_owned(), "--format".to_owned()];
            args.push(format!("--type={}", text(case, "type")));
            if let Some(name) = optional_text(case, "filename") {
                args.push(format!("--filename={name}"));
            }
            for (name, value) in vectors::parameters(case) {
                args.push(format!("--param={name}={value}"));
            }
            args
        },
    );
}

#[test]
fn bad_usage_is_one_clear_error() {
    let out = reqparse(&["query", "--profile=nope", "a=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nope"));
}

/// A multipart refusal says which profile would read the body, as `disposition` errors do:
/// werkzeug's test client writes a CRLF before the first delimiter, which only `lenient` reads.
#[test]
fn multipart_refusal_names_the_profile_that_reads_it() {
    let dir = std::env::temp_dir().join(format!("reqparse-hint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("body");
    let body = "\r\n--b\r\nContent-Disposition: form-data; name=a\r\n\r\n1\r\n--b--\r\n";
    std::fs::write(&file, body).unwrap();
    let out = reqparse(&[
        OsString::from("multipart"),
        "--boundary=b".into(),
        file.into(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        stderr.trim_end(),
        "reqparse: invalid multipart body: body does not start with the boundary at byte 0 \
         (accepted with --profile lenient)"
    );
    // A body no profile reads gets no hint.
    std::fs::write(dir.join("bad"), "--b\r\nX: y\r\n\r\n1\r\n--b--").unwrap();
    let out = reqparse(&[
        OsString::from("multipart"),
        "--boundary=b".into(),
        dir.join("bad").into(),
    ]);
    assert!(!String::from_utf8_lossy(&out.stderr).contains("accepted with"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn chunked_vectors() {
    // A case's limits are given as `--limit NAME=VALUE`.
    let dir = std::env::temp_dir().join(format!("reqparse-chunked-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    vectors::run("chunked.json", 40, |case, failures| {
        let source = vectors::required(case, "source");
        let input = vectors::input_bytes(case);
        let file = dir.join("body");
        std::fs::write(&file, &input).unwrap();
        let data_file = dir.join("data");
        let mut args = vec![
            OsString::from("chunked"),
            "--trailers".into(),
            "--out".into(),
        ];
        args.push(data_file.clone().into_os_string());
        args.extend(limit_args(case));
        args.push(file.clone().into_os_string());
        let out = reqparse(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let trailing = case["expect"].get("consumed").and_then(Value::as_u64);
        let problem = if let Some(error) = case.get("expect_error") {
            let offset = error["offset"].to_string();
            (out.status.code() != Some(1)
                || stderr.lines().count() != 1
                || !stderr.contains(&offset))
            .then(|| {
                format!(
                    "expected one error line naming {offset}, got {:?} {stderr}",
                    out.status
                )
            })
        } else if trailing.is_some_and(|n| n < input.len() as u64) {
            // Bytes after the body: the CLI refuses them, naming where the body ended.
            let at = trailing.unwrap_or_default().to_string();
            (out.status.code() != Some(1) || !stderr.contains(&at))
                .then(|| format!("expected bytes after the body refused at {at}, got {stderr}"))
        } else {
            let data = vectors::required(&case["expect"], "data").as_bytes();
            let stdout = String::from_utf8_lossy(&out.stdout);
            let summary: Value = serde_json::from_str(stdout.trim_end()).unwrap_or_default();
            let want = serde_json::json!({
                "size": data.len(),
                "sha256": sha256_hex(data),
                "trailers": case["expect"]["trailers"],
            });
            // Without --trailers the data itself is stdout.
            let mut plain = vec![OsString::from("chunked")];
            plain.extend(limit_args(case));
            plain.push(file.clone().into_os_string());
            (!out.status.success()
                || std::fs::read(&data_file).ok().as_deref() != Some(data)
                || summary != want
                || reqparse(&plain).stdout != data)
                .then(|| {
                    format!(
                        "got {:?} stdout {:?} stderr {stderr}",
                        out.status,
                        String::from_utf8_lossy(&out.stdout)
                    )
                })
        };
        if let Some(p) = problem {
            failures.push(format!("{source}: {p}"));
        }
    });
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn form_vectors() {
    // A case's limits are given as `--limit NAME=VALUE`.
    let dir = std::env::temp_dir().join(format!("reqparse-form-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    vectors::run("form.json", 10, |case, failures| {
        let file = dir.join("body");
        std::fs::write(&file, vectors::required(case, "input")).unwrap();
        let mut args = vec![OsString::from("form"), file.clone().into_os_string()];
        args.extend(limit_args(case));
        if let Some(profile) = optional_text(case, "profile") {
            args.extend(["--profile".into(), profile.into()]);
        }
        if let Some(problem) = check(case, &reqparse(&args), true) {
            failures.push(format!("{}: {problem}", vectors::required(case, "source")));
        }
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// SHA-256 of `data` in hex, by the system's `sha256sum` (the tests do not link sha2).
fn sha256_hex(data: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new("sha256sum")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("run sha256sum");
    child.stdin.take().unwrap().write_all(data).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn multipart_vectors() {
    // A case's limits are given as `--limit NAME=VALUE`; the per-part decisions of a case
    // (`decisions`) are the library's and the other faces', the CLI has none.
    let dir = std::env::temp_dir().join(format!("reqparse-multipart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    vectors::run("multipart.json", 60, |case, failures| {
        if case.get("decisions").is_some() {
            return;
        }
        let source = vectors::required(case, "source");
        let file = dir.join("body");
        std::fs::write(&file, vectors::input_bytes(case)).unwrap();
        let profiles: Vec<&str> = match case.get("profiles").and_then(Value::as_array) {
            Some(names) => names.iter().filter_map(Value::as_str).collect(),
            None => vec!["fetch"],
        };
        for profile in profiles {
            let mut args = vec![
                OsString::from("multipart"),
                format!("--boundary={}", vectors::required(case, "boundary")).into(),
                format!("--profile={profile}").into(),
            ];
            args.extend(limit_args(case));
            args.push(file.clone().into_os_string());
            let out = reqparse(&args);
            let problem = if case.get("expect_error").is_some() {
                check(case, &out, true).or_else(|| multipart_error_problem(case, &out))
            } else {
                multipart_problem(case, &out)
            };
            if let Some(p) = problem {
                failures.push(format!("{source} [{profile}]: {p}"));
            }
        }
    });
    std::fs::remove_dir_all(&dir).ok();
}

/// A case's `limits` as `--limit NAME=VALUE` arguments.
fn limit_args(case: &Value) -> Vec<OsString> {
    let Some(limits) = case.get("limits").and_then(Value::as_object) else {
        return Vec::new();
    };
    limits
        .iter()
        .flat_map(|(name, n)| ["--limit".into(), format!("{name}={n}").into()])
        .collect()
}

/// What a multipart error line must say beyond its offset: the limit's name, and the part it
/// is in (`in part N`) when the case names one (`expect_error_part`), nothing when it is in
/// none.
fn multipart_error_problem(case: &Value, out: &Output) -> Option<String> {
    let stderr = String::from_utf8_lossy(&out.stderr);
    let kind = vectors::required(&case["expect_error"], "kind");
    if let Some(limit) = kind.strip_prefix("limit:") {
        if !stderr.contains(limit) {
            return Some(format!("error does not name {limit}: {stderr}"));
        }
    }
    match case.get("expect_error_part").map(Value::as_u64) {
        Some(Some(i)) if !stderr.contains(&format!(" in part {i}")) => {
            Some(format!("error does not name part {i}: {stderr}"))
        }
        Some(None) if stderr.contains(" in part ") => {
            Some(format!("error names a part, in none: {stderr}"))
        }
        _ => None,
    }
}

/// How `reqparse multipart`'s answer differs from the parts a case expects, if it does. A
/// case's `mime_types` are each part's `mime_type`; a case without them is not checked for
/// those. `data` is text, bytes that are not UTF-8 replaced: when it holds U+FFFD, its bytes
/// are not known, and `size` and `sha256` are not checked.
fn multipart_problem(case: &Value, out: &Output) -> Option<String> {
    let expect = &case["expect"];
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Some(format!("failed: {}", String::from_utf8_lossy(&out.stderr)));
    }
    let Ok(mut got) = serde_json::from_str::<Value>(stdout.trim_end()) else {
        return Some(format!("not JSON: {stdout}"));
    };
    let mime_types = case.get("mime_types").and_then(Value::as_array);
    let want: Vec<Value> = expect
        .as_array()
        .unwrap_or_else(|| panic!("expect is not an array: {expect}"))
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let text = vectors::required(p, "data");
            let data = text.as_bytes();
            let is_file = !p["filename"].is_null();
            let mut part = serde_json::json!({
                "name": p["name"],
                "filename": p["filename"],
                "content_type": p["content_type"],
                "size": data.len(),
                "sha256": sha256_hex(data),
                "value": if is_file { Value::Null } else { p["data"].clone() },
            });
            if let Some(mime_types) = mime_types {
                part["mime_type"] = mime_types[i].clone();
            }
            if text.contains('\u{FFFD}') {
                part.as_object_mut()
                    .unwrap()
                    .retain(|k, _| k != "size" && k != "sha256");
            }
            part
        })
        .collect();
    if let Some(parts) = got["parts"].as_array_mut() {
        for (part, want) in parts.iter_mut().zip(&want) {
            if let Some(part) = part.as_object_mut() {
                part.retain(|k, _| want.get(k).is_some());
            }
        }
    }
    (got != serde_json::json!({ "parts": want })).then(|| format!("got {got}, want parts {want:?}"))
}

#[test]
fn multipart_content_type_flag() {
    // `--content-type` takes the boundary from the header value: the same answer as
    // `--boundary`; another media type is one line naming where, and exit 1.
    let file = std::env::temp_dir().join(format!("reqparse-ct-{}", std::process::id()));
    std::fs::write(
        &file,
        b"--xY\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--xY--\r\n",
    )
    .unwrap();
    let by_boundary = reqparse(&[
        OsStr::new("multipart"),
        OsStr::new("--boundary"),
        OsStr::new("xY"),
        file.as_os_str(),
    ]);
    let ct = OsStr::new("multipart/form-data; charset=utf-8; boundary=\"xY\"");
    let by_type = reqparse(&[
        OsStr::new("multipart"),
        OsStr::new("--content-type"),
        ct,
        file.as_os_str(),
    ]);
    assert!(
        by_boundary.status.success(),
        "{}",
        String::from_utf8_lossy(&by_boundary.stderr)
    );
    assert_eq!(by_type.stdout, by_boundary.stdout);
    let bad = reqparse(&[
        OsStr::new("multipart"),
        OsStr::new("--content-type"),
        OsStr::new("text/plain"),
        file.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert_eq!(
        (bad.status.code(), stderr.lines().count()),
        (Some(1), 1),
        "{stderr}"
    );
    assert!(
        stderr.contains("not multipart/form-data at byte 0"),
        "{stderr}"
    );
    std::fs::remove_file(&file).ok();
}
