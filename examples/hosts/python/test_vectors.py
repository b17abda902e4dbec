"""Every case of tests/vectors/{query,disposition,multipart}.json through the component from
Python: each answer must equal the vector's (the shapes of ARCHITECTURE.md, "Test vectors").
The files are read at run time, so new cases are run as they arrive. Exits non-zero on any
failure; the last line is "python: N passed, N failed".

    python test_vectors.py [path/to/reqparse.component.wasm]
"""

import json
import sys
from pathlib import Path

from reqparse_host import (BodyError, ComponentError, MultipartStream, Reqparse, record,
                           unwrap)

ROOT = Path(__file__).resolve().parents[3]
# The vectors' profile names (the core's) and the WIT's.
PROFILES = {"whatwg": "whatwg", "dotnet": "dot-net", "strict": "strict", "browser": "browser",
            "fetch": "fetch", "lenient": "lenient"}


def load(name):
    cases = json.loads((ROOT / "tests" / "vectors" / name).read_text(encoding="utf-8"))
    assert isinstance(cases, list) and cases, f"{name}: no cases"
    return cases


def lists(pairs):
    """Tuples (how wasmtime-py lifts a WIT tuple) as the JSON's lists."""
    return [list(p) for p in pairs]


def answer(call):
    """("ok", value) or ("err", the error record)."""
    try:
        return ("ok", call())
    except ComponentError as e:
        return ("err", e.error)


def compare(case, got):
    """None when `got` is what the case expects, else why not."""
    tag, value = got
    want_error = case.get("expect_error")
    if want_error is None:
        if tag == "err":
            return f"unexpected error {value.offset}: {value.message}"
        return None if value == case["expect"] else f"got {value!r}, want {case['expect']!r}"
    if tag == "ok":
        return f"expected an error, got {value!r}"
    for key in ("offset", "message"):
        if key in want_error and getattr(value, key) != want_error[key]:
            return f"error {key} {getattr(value, key)!r}, want {want_error[key]!r}"
    return None


def query_case(rp, case):
    store, text = rp.store, case["input"]
    profile = PROFILES[case.get("profile", "whatwg")]
    if case.get("raw"):
        return [compare(case, ("ok", lists(rp.func("query", "raw-pairs")(store, text))))]
    if case.get("map"):
        options = record({"profile": profile, "ignore-case": case.get("ignore_case", False),
                          "max-pairs": None, "max-decoded-bytes": None})

        def entries():
            parse = rp.func("query", "[static]query-map.parse")
            qmap = unwrap(parse(store, text, options))
            try:
                return dict(rp.func("query", "[method]query-map.entries")(store, qmap))
            finally:
                qmap.drop(store)
        return [compare(case, answer(entries))]
    pairs = answer(lambda: lists(rp.query_pairs(text, profile)))

    # The offsets mode gives the same pairs: four numbers a pair, bit 31 set for `decoded`.
    def from_spans():
        spans = unwrap(rp.func("query", "pair-spans")(store, text, profile))
        source = text.encode()

        def part(start, end):
            if start & 0x8000_0000:
                return spans.decoded[start & 0x7FFF_FFFF:end & 0x7FFF_FFFF].decode()
            return source[start:end].decode()
        s = spans.spans
        return [[part(s[i], s[i + 1]), part(s[i + 2], s[i + 3])] for i in range(0, len(s), 4)]
    spans = compare(case, answer(from_spans))
    return [compare(case, pairs), spans and "spans: " + spans]


def header_bytes(case):
    """`input` as UTF-8, or with "input_encoding": "latin1" one byte per character."""
    encoding = "latin-1" if case.get("input_encoding") == "latin1" else "utf-8"
    return case["input"].encode(encoding)


def disposition_case(rp, case):
    def parse():
        cd = rp.disposition(header_bytes(case), PROFILES[case.get("profile", "strict")],
                            case.get("decode_2047", False))
        return {"type": cd.type, "filename": cd.filename, "parameters": lists(cd.parameters)}
    return [compare(case, answer(parse))]


def error_shape(e, case):
    """A multipart-error as the vectors write it: {"kind", "offset"}, and "part" (the index of
    the part the error is in, or None) when the case has an `expect_error_part`."""
    kind = e.kind.tag
    if kind == "limit":  # limit(multipart-limit): "limit:max_parts"
        kind += ":" + e.kind.payload.replace("-", "_")
    shape = {"error": {"kind": kind, "offset": e.offset}}
    if "expect_error_part" in case:
        shape["part"] = e.part
    return shape


def multipart_outcome(rp, case, profile, reads, deciding):
    """`deciding`: fed through `feed-to-part`, making the case's `decisions` ({"<part index>":
    "skip" | {"limit": n}}) at each part before its data is read."""
    limits = {k.replace("_", "-"): v for k, v in case.get("limits", {}).items()}
    decisions, refused = case.get("decisions", {}), []

    def decide(stream, part):
        index = part[-1]
        decision = decisions.get(str(index))
        if decision == "skip":
            taken = stream.skip_part()
        elif decision is not None:
            taken = stream.limit_part(decision["limit"])
        else:
            return
        if not taken:
            refused.append(index)

    try:
        stream = MultipartStream(rp, case["boundary"].encode(), profile, limits)
    except ComponentError as e:
        return error_shape(e.error, case)
    parts, mime_types = [], []
    try:
        for i, read in enumerate(reads):
            eof = i + 1 == len(reads)
            for event in stream.feed(read, eof, decide if deciding else None):
                if event[0] == "part":
                    _, name, filename, content_type, mime_type, _index = event
                    parts.append({"name": name, "filename": filename, "data": b"",
                                  "content_type": content_type})
                    mime_types.append(mime_type)
                elif event[0] == "data":
                    parts[-1]["data"] += event[1]
                elif event[0] == "end":
                    if not eof:
                        return {"error": "end before the end of the input"}
                    if refused:
                        return {"error": f"no decision taken in parts {refused}"}
                    for p in parts:  # bytes as the vectors write them (lossy UTF-8)
                        for key in ("data", "content_type"):
                            if p[key] is not None:
                                p[key] = p[key].decode("utf-8", "replace")
                    got = {"parts": parts}
                    if "mime_types" in case:  # one serialized MIME type (or None) per part
                        got["mime_types"] = [m and m.decode("utf-8", "replace")
                                             for m in mime_types]
                    return got
        return {"error": "no end after the last read"}
    except BodyError as e:
        if refused:
            return {"error": f"no decision taken in parts {refused}"}
        return error_shape(e.error, case)
    finally:
        stream.close()


def splits(data):
    """Whole, and one byte at a time (then an empty read): no window, then a window and a held
    tail at nearly every feed. (The Rust and JS tests also split at every point; here a feed
    costs half a millisecond, wasmtime-py reading the types through ctypes as it lifts.)
    """
    yield "whole", [data]
    yield "one byte at a time", [data[i:i + 1] for i in range(len(data))] + [b""]


def multipart_case(rp, case):
    if "expect_error" in case:
        want = {"error": case["expect_error"]}
        if "expect_error_part" in case:
            want["part"] = case["expect_error_part"]
    else:
        want = {"parts": case["expect"]}
        if "mime_types" in case:
            want["mime_types"] = case["mime_types"]
    data = header_bytes(case)
    # A case with decisions needs feed-to-part; the others run through both feeds.
    feeds = [True] if case.get("decisions") else [False, True]
    for profile in case.get("profiles", ["fetch"]):
        for deciding in feeds:
            for label, reads in splits(data):
                got = multipart_outcome(rp, case, PROFILES[profile], reads, deciding)
                if got != want:
                    feed = "feed-to-part" if deciding else "feed"
                    return [f"[{profile}, {feed}] {label}: got {got!r}, want {want!r}"]
    return [None]


def main():
    default = ROOT / "component" / "reqparse.component.wasm"
    rp = Reqparse(sys.argv[1] if len(sys.argv) > 1 else default)
    passed, failures = 0, []
    for name, run in [("query.json", query_case), ("disposition.json", disposition_case),
                      ("multipart.json", multipart_case)]:
        cases = load(name)
        for case in cases:
            problems = [p for p in run(rp, case) if p]
            if problems:
                failures.append(f"{name}: {case['source']}: " + "; ".join(problems))
            else:
                passed += 1
        print(f"{name}: {len(cases)} cases")
    for failure in failures:
        print("FAIL", failure)
    print(f"python: {passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
