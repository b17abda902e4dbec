//! The host shim's HTTP/1.1 head parser on arbitrary bytes: no panic, and every accepted head
//! respects the limits it was parsed under. Needs `reqparse = { path = "..", features = ["host"] }`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reqparse::host::http1::Framing;
use reqparse::host::{http1, Limits};

fuzz_target!(|data: &[u8]| {
    let tight = Limits {
        max_request_line: 64,
        max_header_bytes: 256,
        max_headers: 8,
        max_body: 1000,
        ..Limits::default()
    };
    for limits in [Limits::default(), tight] {
        match http1::parse(data, &limits) {
            Ok(Some(head)) => {
                assert!(head.len <= data.len());
                assert!(head.method.len() + head.target.len() < limits.max_request_line);
                // A declared length over the limit is a 413, never an accepted head.
                if let Framing::Length(n) = head.framing {
                    assert!(n <= limits.max_body);
                }
                assert!(head.minor_version <= 1);
                // A complete head is found again, unchanged, with more bytes after it.
                let mut more = data[..head.len].to_vec();
                more.extend_from_slice(b"GET / HTTP/1.1\r\n");
                assert_eq!(http1::parse(&more, &limits), Ok(Some(head)));
            }
            Ok(None) => {
                // Incomplete is only allowed while the buffered bytes are within the limits.
                // (leading empty lines, the request line, the header section)
                assert!(data.len() <= 2 * limits.max_request_line + limits.max_header_bytes + 4);
            }
            Err(e) => {
                let (code, _) = e.status();
                assert!(matches!(code, 400 | 413 | 414 | 431 | 501));
            }
        }
    }
});
