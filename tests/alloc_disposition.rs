//! Counts heap allocations: parsing and enumerating allocate nothing, decoding allocates once
//! and only when something has to be decoded, building allocates exactly once.
//! One `#[test]` runs every case in sequence, so no other test thread disturbs the counter.

mod support;

use reqparse::disposition::{
    ContentDisposition, DateTime, DispositionBuilder, FilenameOptions, Profile,
};
use support::alloc::count;

#[global_allocator]
static GLOBAL: support::alloc::Counting = support::alloc::Counting;

#[test]
fn allocation_counts() {
    let hostile: String = {
        let mut h = String::from("attachment; filename*0*=UTF-8''%41%42");
        for i in 1..63 {
            h.push_str(&format!("; filename*{i}*=%41%42"));
        }
        h
    };
    let mut failures = Vec::new();
    let mut check =
        |what: &str, got: usize, want: usize| support::alloc::check(&mut failures, what, got, want);

    // Parsing and enumerating: 0, every profile.
    let headers = [
        "attachment; filename=\"report.pdf\"",
        "attachment; filename*=UTF-8''%e2%82%ac%20rates.pdf; filename=\"EUR rates.pdf\"",
        "form-data; name=\"file\"; filename=\"a.txt\"",
        "inline; a=1; b=\"x y\"; c=\"q\\\"uoted\"; creation-date=\"Wed, 12 Feb 1997 16:29:51 GMT\"; size=42",
        hostile.as_str(),
    ];
    for h in headers {
        for p in Profile::ALL {
            let (n, cd) = count(|| ContentDisposition::parse_str(h, p).expect(h));
            check(&format!("parse {p:?} {h:.40}"), n, 0);
            let (n, _) = count(|| {
                cd.params()
                    .map(|p| p.name().len() + p.raw_value().len())
                    .sum::<usize>()
            });
            check(&format!("params {p:?} {h:.40}"), n, 0);
            let (n, _) = count(|| cd.size().map(|s| s.is_ok()));
            check(&format!("size {p:?} {h:.40}"), n, 0);
            let (n, _) = count(|| cd.creation_date().map(|d| d.is_ok()));
            check(&format!("creation_date {p:?} {h:.40}"), n, 0);
            // An owned copy: the header's bytes, once; its view again: nothing.
            let (n, owned) = count(|| cd.into_owned());
            check(&format!("into_owned {p:?} {h:.40}"), n, 1);
            let (n, _) = count(|| owned.get().param_count());
            check(&format!("owned get {p:?} {h:.40}"), n, 0);
        }
    }

    // Header bytes: obs-text, UTF-8 or ISO-8859-1, parses without allocating in every
    // profile; a UTF-8 filename is borrowed, a Latin-1 one decoded with one allocation.
    let bytes: &[(&[u8], usize)] = &[
        (
            "form-data; name=\"upload\"; filename=\"résumé 2024 – final.pdf\"".as_bytes(),
            0,
        ),
        (b"attachment; filename=\"\xe4-%41.html\"", 1),
    ];
    for &(h, want) in bytes {
        for p in Profile::ALL {
            let (n, cd) = count(|| ContentDisposition::parse(h, p).expect("obs-text"));
            check(&format!("parse {p:?} {:.40}", h.escape_ascii()), n, 0);
            let (n, _) = count(|| cd.filename().map(|f| f.len()));
            check(&format!("filename {p:?} {:.40}", h.escape_ascii()), n, want);
        }
    }

    // value() borrows without `\`, allocates once with one.
    let cd = ContentDisposition::parse_str(
        "inline; a=tok; b=\"x y\"; c=\"q\\\"uoted\"",
        Profile::Strict,
    )
    .unwrap();
    let vals: Vec<_> = cd.params().collect();
    for (i, want) in [(0, 0), (1, 0), (2, 1)] {
        let (n, _) = count(|| vals[i].value().len());
        check(&format!("value() of {}", vals[i].raw_value()), n, want);
    }

    // filename(): 0 when nothing is decoded, exactly 1 when something is.
    let filenames: &[(&str, Profile, usize)] = &[
        ("attachment; filename=report.pdf", Profile::Strict, 0),
        ("attachment; filename=\"report 1.pdf\"", Profile::Strict, 0),
        ("attachment; filename=\"report 1.pdf\"", Profile::Browser, 0),
        ("attachment; filename=\"report 1.pdf\"", Profile::DotNet, 0),
        ("attachment; filename*=UTF-8''plain.txt", Profile::Strict, 0),
        (
            "attachment; filename*=UTF-8''plain.txt",
            Profile::Browser,
            0,
        ),
        ("attachment; filename*=UTF-8''plain.txt", Profile::DotNet, 0),
        (
            "attachment; filename*0=\"only-part.txt\"",
            Profile::Strict,
            0,
        ),
        (
            "attachment; filename*=UTF-8''%e2%82%ac%20rates.pdf",
            Profile::Strict,
            1,
        ),
        (
            "attachment; filename*=UTF-8''%e2%82%ac%20rates.pdf",
            Profile::Browser,
            1,
        ),
        (
            "attachment; filename*=UTF-8''%e2%82%ac%20rates.pdf",
            Profile::DotNet,
            1,
        ),
        (
            "attachment; filename*=iso-8859-1''%A3%20rates",
            Profile::Strict,
            1,
        ),
        (
            "attachment; filename*0*=UTF-8''foo-%c3%a4; filename*1=\".html\"",
            Profile::Strict,
            1,
        ),
        ("attachment; filename=\"f\\oo.html\"", Profile::Strict, 1),
        (hostile.as_str(), Profile::Strict, 1),
    ];
    for &(h, p, want) in filenames {
        let cd = ContentDisposition::parse_str(h, p).unwrap();
        let (n, f) = count(|| cd.filename().map(|f| f.len()));
        assert!(f.is_some(), "{h}");
        check(&format!("filename() {p:?} {h:.50}"), n, want);
    }
    let cd =
        ContentDisposition::parse_str("attachment; filename=\"=?utf-8?Q?a?=\"", Profile::Strict)
            .unwrap();
    let (n, _) = count(|| {
        cd.filename_with(FilenameOptions { decode_2047: false })
            .map(|f| f.len())
    });
    check("filename_with(decode_2047: false)", n, 0);

    // Building: exactly one allocation, capacity == len.
    let d = DateTime::from_unix_seconds(855_764_991).unwrap();
    let builds: Vec<(&str, DispositionBuilder<'_>)> = vec![
        ("inline", DispositionBuilder::new("inline")),
        (
            "token filename",
            DispositionBuilder::new("attachment").filename("report.pdf"),
        ),
        (
            "quoted filename",
            DispositionBuilder::new("attachment").filename("EUR rates.pdf"),
        ),
        (
            "ext filename",
            DispositionBuilder::new("attachment").filename("€ rates.pdf"),
        ),
        (
            "ASP.NET File?Name.bat",
            DispositionBuilder::new("inline").http_filename("File?Name.bat"),
        ),
        (
            "everything",
            DispositionBuilder::new("form-data")
                .filename("a\"b.txt")
                .param("name", "field 1")
                .param("x", "é")
                .size(123)
                .creation_date(d)
                .modification_date(d)
                .read_date(d),
        ),
    ];
    for (what, b) in &builds {
        let (n, s) = count(|| b.build().expect("valid builder"));
        check(&format!("build {what}"), n, 1);
        check(
            &format!("build {what}: capacity - len"),
            s.capacity() - s.len(),
            0,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
