//! Every profile over arbitrary bytes (all accessors, filename both ways, dates), and
//! build → parse round-trips from the fuzz input read as a filename, a type and a parameter
//! (whatever builds parses back to what was given; a build error is fine).
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::disposition::{
    ContentDisposition, DateTime, DispositionBuilder, FilenameOptions, Profile,
};
use reqparse::percent::{encode_into, ATTR_CHAR};

const PROFILES: [Profile; 3] = [Profile::Strict, Profile::Browser, Profile::DotNet];

fuzz_target!(|data: &[u8]| {
    for p in PROFILES {
        if let Ok(cd) = ContentDisposition::parse(data, p) {
            let _ = (cd.disposition_type(), cd.is_attachment(), cd.is_inline());
            let mut n = 0;
            for param in cd.params() {
                let _ = (
                    param.name(),
                    param.raw_value(),
                    param.value(),
                    param.is_quoted(),
                );
                n += 1;
            }
            assert_eq!(n, cd.param_count());
            let _ = cd.filename();
            let _ = cd.filename_with(FilenameOptions { decode_2047: true });
            let _ = (
                cd.size(),
                cd.creation_date(),
                cd.modification_date(),
                cd.read_date(),
            );
        }
    }
    if let Ok(s) = core::str::from_utf8(data) {
        let _ = DateTime::parse(s);
        // Build ok ⇒ the header parses back to what was given; build error ⇒ nothing written.
        // (Browser reads an empty filename as none: only non-empty ones round-trip everywhere.)
        let built = DispositionBuilder::new("attachment").filename(s).build();
        if let (Ok(h), false) = (built, s.is_empty()) {
            assert_eq!(h.len(), h.capacity());
            for p in PROFILES {
                let cd = ContentDisposition::parse_str(&h, p).expect("built header parses");
                assert_eq!(cd.filename().as_deref(), Some(s), "{p:?} {h}");
            }
        }
        // The input also as the type and one `name=value` parameter.
        let (kind, rest) = s.split_once(';').unwrap_or(("inline", s));
        let (name, value) = rest.split_once('=').unwrap_or(("x", rest));
        let built = DispositionBuilder::new(kind)
            .http_filename(s)
            .param(name, value)
            .build();
        if let Ok(h) = built {
            let cd =
                ContentDisposition::parse_str(&h, Profile::Strict).expect("built header parses");
            assert_eq!(cd.disposition_type(), kind, "{h}");
            assert_eq!(cd.filename().as_deref(), (!s.is_empty()).then_some(s), "{h}");
            let p = cd.params().last().expect("the parameter");
            let mut ext = String::from("UTF-8''");
            encode_into(value, &ATTR_CHAR, &mut ext);
            let same = match p.name().strip_prefix(name) {
                Some("") if !name.ends_with('*') => p.value() == value,
                Some("") | Some("*") => p.raw_value() == ext,
                _ => false,
            };
            assert!(same, "{name}={value:?} comes back as {p:?} in {h}");
        }
    }
});
