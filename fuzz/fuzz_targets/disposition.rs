//! Every profile over arbitrary bytes (all accessors, filename both ways, dates), and
//! build → parse round-trips from the fuzz input read as a filename.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::disposition::{
    ContentDisposition, DateTime, DispositionBuilder, FilenameOptions, Profile,
};

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
        if !s.is_empty() {
            let h = DispositionBuilder::new("attachment").filename(s).build();
            assert_eq!(h.len(), h.capacity());
            for p in PROFILES {
                let cd = ContentDisposition::parse_str(&h, p).expect("built header parses");
                assert_eq!(cd.filename().as_deref(), Some(s), "{p:?} {h}");
            }
            let h = DispositionBuilder::new("inline")
                .http_filename(s)
                .param("x", s)
                .build();
            let cd =
                ContentDisposition::parse_str(&h, Profile::Strict).expect("built header parses");
            assert_eq!(cd.filename().as_deref(), Some(s));
        }
    }
});
