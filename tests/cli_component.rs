//! `reqparse component` writes the component (or its WIT) built into the binary, the bytes the
//! crate ships (`reqparse::bundled`), for hosts in other languages.
#![cfg(feature = "cli")]

use std::process::Command;

fn reqparse(args: &[&str]) -> (Option<i32>, Vec<u8>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reqparse"))
        .args(args)
        .output()
        .expect("run reqparse");
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reqparse-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn out_file_holds_the_bundled_component_and_the_receipt_names_its_size_and_sha256() {
    use sha2::{Digest, Sha256};
    let dir = temp_dir("component-out");
    let file = dir.join("reqparse.component.wasm");
    std::fs::write(&file, b"an older file, replaced").unwrap();
    let (status, stdout, stderr) = reqparse(&["component", "--out", file.to_str().unwrap()]);
    assert_eq!(status, Some(0), "{stderr}");
    let written = std::fs::read(&file).unwrap();
    assert_eq!(written, reqparse::bundled::COMPONENT);
    let sha256: String = Sha256::digest(&written)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    let receipt = String::from_utf8(stdout).unwrap();
    assert_eq!(
        receipt,
        format!(
            "wrote {} ({} bytes, sha256 {sha256})\n",
            file.display(),
            written.len()
        )
    );
    // Nothing else left beside it (the temporary file was renamed into place).
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn out_dash_writes_the_bytes_alone_to_stdout() {
    let (status, stdout, stderr) = reqparse(&["component", "--out", "-"]);
    assert_eq!((status, stderr.as_str()), (Some(0), ""));
    assert_eq!(stdout, reqparse::bundled::COMPONENT);
    let (status, stdout, _) = reqparse(&["component", "--wit", "--out", "-"]);
    assert_eq!(status, Some(0));
    assert_eq!(stdout, reqparse::bundled::WIT.as_bytes());
}

#[test]
fn an_unwritable_path_is_one_line_and_exit_status_1() {
    let (status, stdout, stderr) = reqparse(&[
        "component",
        "--out",
        "/nonexistent-dir/reqparse.component.wasm",
    ]);
    assert_eq!(status, Some(1));
    assert!(stdout.is_empty());
    assert!(
        stderr.starts_with("reqparse: cannot write /nonexistent-dir/reqparse.component.wasm: ")
            && stderr.ends_with('\n')
            && stderr.lines().count() == 1,
        "{stderr:?}"
    );
}

#[test]
fn out_is_required() {
    let (status, _, stderr) = reqparse(&["component"]);
    assert_eq!(status, Some(2), "clap's usage error");
    assert!(stderr.contains("--out"), "{stderr}");
}
