//! Properties of the host shim's head parser: no input panics, a complete head is stable under
//! appended bytes, and every strict prefix of a valid head is "incomplete".
#![cfg(feature = "host")]

use proptest::prelude::*;
use reqparse::host::{http1, Limits};

fn tight() -> Limits {
    Limits {
        max_request_line: 64,
        max_header_bytes: 256,
        max_headers: 8,
        ..Limits::default()
    }
}

/// Valid request heads built from the RFC 9110 token and field-value grammar.
fn valid_head() -> impl Strategy<Value = String> {
    let method = prop::sample::select(vec!["GET", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]);
    let target = "/[a-zA-Z0-9._~%!$&'()*+,;=:@/?-]{0,30}";
    let headers = prop::collection::vec(("[A-Za-z][A-Za-z0-9-]{0,10}", "[ -~]{0,20}"), 0..5);
    (method, target, headers, any::<bool>()).prop_map(|(m, t, hs, v11)| {
        let mut s = format!("{m} {t} HTTP/1.{}\r\nHost: example.com\r\n", u8::from(v11));
        for (n, v) in hs {
            if ["host", "content-length", "transfer-encoding"]
                .contains(&n.to_ascii_lowercase().as_str())
            {
                continue;
            }
            s.push_str(&format!("{n}: {}\r\n", v.trim()));
        }
        s + "\r\n"
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_input_panics(data in prop::collection::vec(any::<u8>(), 0..600)) {
        for limits in [Limits::default(), tight()] {
            match http1::parse(&data, &limits) {
                Ok(Some(head)) => {
                    prop_assert!(head.len <= data.len());
                    prop_assert!(head.method.len() + head.target.len() < limits.max_request_line);
                }
                // "Incomplete" never asks the server to keep more than the limits allow.
                Ok(None) => prop_assert!(data.len() <= 2 * limits.max_request_line + limits.max_header_bytes + 4),
                Err(_) => {}
            }
        }
    }

    #[test]
    fn complete_heads_are_found_and_prefixes_are_incomplete(head in valid_head(), tail in "[ -~]{0,40}") {
        let limits = Limits::default();
        let parsed = http1::parse(head.as_bytes(), &limits).unwrap().expect("complete");
        prop_assert_eq!(parsed.len, head.len());
        let mut more = head.clone();
        more.push_str(&tail);
        prop_assert_eq!(http1::parse(more.as_bytes(), &limits), Ok(Some(parsed)));
        for cut in 0..head.len() {
            prop_assert_eq!(http1::parse(&head.as_bytes()[..cut], &limits), Ok(None), "cut {}", cut);
        }
    }
}
