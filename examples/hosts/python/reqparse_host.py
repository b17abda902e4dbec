"""The reqparse WebAssembly component from Python, through wasmtime from PyPI.

    pip install -r requirements.txt
    python reqparse_host.py [path/to/reqparse.component.wasm]

The component imports nothing: an empty linker instantiates it. Get the file with
`reqparse component --out reqparse.component.wasm` (or take component/ of the crate).
docs/host-authors.md tells how each WIT type looks in Python.
"""

import sys
from pathlib import Path

import wasmtime
from wasmtime import component as wc

PACKAGE = "reqparse:http/{}@0.1.0"


class ComponentError(Exception):
    """A WIT `result`'s error: a parse-error, build-error or *-error record."""

    def __init__(self, error):
        super().__init__(error.message)
        self.error = error  # its fields: offset (not build-error), message, kind (body errors)


def unwrap(result):
    """A WIT `result` as wasmtime-py returns it: never raised. When ok and err lift to the same
    Python class (both records) it is a Variant tagged 'ok' or 'err'; otherwise it is the bare
    value, and here every error is a Record."""
    if isinstance(result, wc.Variant):
        if result.tag == "err":
            raise ComponentError(result.payload)
        return result.payload
    if isinstance(result, wc.Record):
        raise ComponentError(result)
    return result


def record(fields):
    """A record argument: an object whose attributes are the WIT's field names, hyphens and all
    (`{"max-parts": None}`); every field must be there, an `option` as None or its value."""
    r = wc.Record()
    for name, value in fields.items():
        setattr(r, name, value)
    return r


MULTIPART_LIMITS = ["max-parts", "max-boundary-bytes", "max-headers", "max-header-bytes",
                    "max-value-bytes", "max-body-bytes", "max-preamble-bytes",
                    "max-epilogue-bytes", "max-files", "max-fields", "max-file-bytes",
                    "max-text-bytes", "max-name-bytes", "max-filename-bytes"]


class Reqparse:
    """One instance of the component and one store."""

    def __init__(self, path):
        engine = wasmtime.Engine()
        self.store = wasmtime.Store(engine)
        component = wc.Component.from_file(engine, str(path))
        self.instance = wc.Linker(engine).instantiate(self.store, component)

    def func(self, interface, name):
        """An export: `func("query", "pairs")`, `func("body", "[method]multipart-reader.feed")`."""
        iface = self.instance.get_export_index(self.store, PACKAGE.format(interface))
        index = self.instance.get_export_index(self.store, name, iface)
        return self.instance.get_func(self.store, index)

    def query_pairs(self, query, profile="whatwg"):
        """Decoded pairs: [(name, value), ...]; profile: whatwg, dot-net or strict."""
        return unwrap(self.func("query", "pairs")(self.store, query, profile))

    def disposition(self, header: bytes, profile="strict", decode_2047=False):
        """A Content-Disposition value (bytes: headers may hold obs-text) -> a Record with
        `type`, `filename` (None when absent) and `parameters` [(name, value), ...]."""
        parse = self.func("disposition", "parse")
        return unwrap(parse(self.store, header, profile, decode_2047))


class BodyError(ComponentError):
    """A multipart-error in a feed; `events` are those the feed found before it."""

    def __init__(self, error, events):
        super().__init__(error)
        self.events = events


class MultipartStream:
    """A multipart/form-data body fed read by read. `feed` returns the read's events as tuples:
    ("part", name, filename or None, content_type bytes or None, mime_type bytes or None, index),
    ("data", bytes), ("part-end",), ("end",); with `decide`, it decides about each part before
    its data. `content_type` is the header as sent; `mime_type` the MIME type Fetch reads in it,
    serialized (b"text/plain;charset=utf-8": the essence up to the first `;`, then the
    parameters), None when there is no Content-Type or it is not a MIME type."""

    def __init__(self, rp, boundary: bytes, profile="fetch", limits=None):
        fields = dict.fromkeys(MULTIPART_LIMITS)  # None: the crate's default
        fields.update(limits or {})  # e.g. {"max-parts": 10}
        create = rp.func("body", "[static]multipart-reader.create")
        self.reader = unwrap(create(rp.store, boundary, profile, record(fields)))
        self.store = rp.store
        self._feed_whole = rp.func("body", "[method]multipart-reader.feed")
        self._feed_to_part = rp.func("body", "[method]multipart-reader.feed-to-part")
        self._limit_part = rp.func("body", "[method]multipart-reader.limit-part")
        self._skip_part = rp.func("body", "[method]multipart-reader.skip-part")
        self.held = b""  # the bytes the guest kept from the last feed: the next window's head

    def feed(self, read: bytes, eof=False, decide=None):
        """The events `read` completes. `decide(stream, part_event)`, when given, is called at
        each part before any of its data is read, and may call `limit_part` or `skip_part`:
        the reads go through `feed-to-part`, which stops right after a part event, and on
        (with no new bytes) once it is decided."""
        if decide is None:
            return self._feed(read, eof, False)
        events = []
        while True:
            try:
                fed = self._feed(read, eof, True)
            except BodyError as e:
                e.events = events + e.events
                raise
            events += fed
            if not fed or fed[-1][0] != "part":  # stopped where `feed` stops
                return events
            decide(self, fed[-1])
            read = b""  # on with what the guest holds

    def _feed(self, read, eof, to_part):
        """One call: `feed`, or with `to_part` `feed-to-part`."""
        window = self.held + read  # every span of this feed indexes the window
        feed = self._feed_to_part if to_part else self._feed_whole
        fed = feed(self.store, self.reader, read, eof)
        over = fed.error is not None or (fed.events and fed.events[-1].tag == "end")
        self.held = window[len(window) - fed.held:] if fed.held and not over else b""

        def raw(span):
            return window[span.start:span.start + span.len]

        def raw_or_decoded(t):  # a `text` or `bytes` variant: a span of the window, or of
            source = window if t.tag == "window" else fed.decoded  # this feed's `decoded`
            return source[t.payload.start:t.payload.start + t.payload.len]

        def text(t):
            return raw_or_decoded(t).decode()

        events = []
        for event in fed.events:
            if event.tag == "part":
                p = event.payload
                ct, mime = getattr(p, "content-type"), getattr(p, "mime-type")
                filename = text(p.filename.effective) if p.filename else None
                events.append(("part", text(p.name), filename, raw(ct) if ct else None,
                               raw_or_decoded(mime) if mime else None, p.index))
            elif event.tag == "data":
                events.append(("data", raw(event.payload)))
            else:
                events.append((event.tag,))
        if fed.error is not None:  # final: every later feed answers it again
            raise BodyError(fed.error, events)
        return events

    def limit_part(self, max_bytes: int) -> bool:
        """The current part's data limit, in place of max-file-bytes or max-value-bytes
        (`limit-part`): False, and no change, outside a part."""
        return self._limit_part(self.store, self.reader, max_bytes)

    def skip_part(self) -> bool:
        """Reads past the current part's data without data events (`skip-part`): False, and
        no change, outside a part."""
        return self._skip_part(self.store, self.reader)

    def close(self):
        self.reader.drop(self.store)  # frees the reader in the guest


def main():
    default = Path(__file__).resolve().parents[3] / "component" / "reqparse.component.wasm"
    rp = Reqparse(sys.argv[1] if len(sys.argv) > 1 else default)

    print(rp.query_pairs("?name=J%C3%BCrgen+M&tag=a&tag=b"))
    try:
        rp.query_pairs("a=%zz", "strict")
    except ComponentError as e:
        print("strict:", e.error.offset, e.error.message)

    cd = rp.disposition(b"attachment; filename*=UTF-8''%E2%82%AC%20rates.txt")
    print(cd.type, cd.filename, cd.parameters)

    body = (b"--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhello\r\n"
            b"--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
            b"Content-Type: Text/Plain; Charset=\"UTF-8\"\r\n\r\nfile body\r\n--XyZ--\r\n")
    stream = MultipartStream(rp, b"XyZ")
    reads = [body[i:i + 7] for i in range(0, len(body), 7)]  # reads cut anywhere
    for i, read in enumerate(reads):
        for event in stream.feed(read, eof=i + 1 == len(reads)):
            print(event)
    stream.close()

    # A decision per part, made before its data is read: files of at most 4 bytes, and
    # fields named "note" dropped unread.
    def decide(stream, part):
        _, name, filename, _content_type, _mime_type, _index = part
        if filename is not None:
            stream.limit_part(4)
        elif name == "note":
            stream.skip_part()

    stream = MultipartStream(rp, b"XyZ")
    try:
        stream.feed(body, eof=True, decide=decide)
    except BodyError as e:  # "file body" is 9 bytes
        print([ev for ev in e.events if ev[0] != "part-end"], e.error.kind.payload, e.error.part)
    stream.close()


if __name__ == "__main__":
    main()
