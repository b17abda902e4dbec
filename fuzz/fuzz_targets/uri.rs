//! Arbitrary bytes as the six `build_absolute` arguments and as a `split_absolute` input:
//! nothing may panic, and every built URI must be exactly as long as its allocation.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::uri::{build_absolute, build_relative, split_absolute};

fuzz_target!(|data: &[u8]| {
    // 0xFF never occurs in UTF-8, so it separates the arguments without stealing any text.
    let mut parts = data.split(|&b| b == 0xFF).map(String::from_utf8_lossy);
    let mut next = || parts.next().unwrap_or_default();
    let (s, h, b, p, q, f) = (next(), next(), next(), next(), next(), next());

    if let Ok(uri) = build_absolute(&s, &h, &b, &p, &q, &f) {
        assert_eq!(uri.capacity(), uri.len());
        // The builder's output is a URI the splitter accepts, unless a path held a NUL,
        // which ASP.NET Core's decoder (and ours) refuses as `%00`.
        assert!(
            split_absolute(&uri).is_ok() || uri.contains("%00"),
            "{uri:?}"
        );
    }
    let rel = build_relative(&b, &p, &q, &f);
    assert_eq!(rel.capacity(), rel.len());

    let whole = String::from_utf8_lossy(data);
    if let Ok(parts) = split_absolute(&whole) {
        assert!(parts.path.len() <= whole.len());
    }
});
