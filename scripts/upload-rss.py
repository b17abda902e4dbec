#!/usr/bin/env python3
"""Uploads stream through `reqparse serve` in bounded memory (issue 12's proof).

Starts the release `reqparse serve` (one event loop) on an ephemeral loopback port and sends it
1 GiB uploads generated on the fly (nothing of that size on disk or in memory here):

  chunked    application/octet-stream, Transfer-Encoding: chunked (chunks of varied sizes)
  multipart  multipart/form-data with one 1 GiB file part, by Content-Length
  multipart-chunked  the same multipart body, chunked

For each it reads the server's VmRSS from /proc/PID/status before, samples it while the upload
runs, takes the kernel's own peak (VmHWM, reset before each upload through
/proc/PID/clear_refs where allowed), and checks the JSON answer's size and SHA-256 against what
was sent. It prints one line per upload and fails (exit 1) when an answer is wrong or the peak
RSS grew by 8 MiB or more over the baseline taken before the first request.

  python3 scripts/upload-rss.py            # builds target/release/reqparse first
  python3 scripts/upload-rss.py --size-mib 64 --no-build --bin target/debug/reqparse

This measures memory, not time: machine load does not change it. Linux only (/proc).
"""

import argparse
import hashlib
import json
import os
import socket
import subprocess
import sys
import threading
import time

MIB = 1 << 20
LIMIT = 8 * MIB
BOUNDARY = b"----reqparse-upload-rss-7d1f0c2a9b"


def status_kib(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise KeyError(field)


def reset_peak(pid):
    """Resets VmHWM to the current RSS (Linux >= 4.0: `echo 5 > clear_refs`); False if refused."""
    try:
        with open(f"/proc/{pid}/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


class Sampler(threading.Thread):
    """The largest VmRSS seen, every 5 ms, until stopped."""

    def __init__(self, pid):
        super().__init__(daemon=True)
        self.pid, self.max_kib, self.samples = pid, 0, 0
        self.done = threading.Event()

    def run(self):
        while not self.done.is_set():
            self.max_kib = max(self.max_kib, status_kib(self.pid, "VmRSS"))
            self.samples += 1
            time.sleep(0.005)

    def stop(self):
        self.done.set()
        self.join()
        return self.max_kib


def blocks(size):
    """`size` bytes of file data in 1 MiB blocks: random bytes without CR (so no delimiter can
    appear), each block numbered in its first 8 bytes (a block lost or repeated changes the hash)."""
    base = bytearray(os.urandom(MIB).replace(b"\r", b"\n"))
    sent = 0
    n = 0
    while sent < size:
        base[:8] = n.to_bytes(8, "little")
        block = bytes(base[: min(MIB, size - sent)])
        yield block
        sent += len(block)
        n += 1


def multipart(size, file_hash):
    head = (
        b"--" + BOUNDARY + b"\r\n"
        b'Content-Disposition: form-data; name="file"; filename="big.bin"\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n"
    )
    tail = b"\r\n--" + BOUNDARY + b"--\r\n"

    def gen():
        yield head
        for b in blocks(size):
            file_hash.update(b)
            yield b
        yield tail

    return len(head) + size + len(tail), gen()


def chunked(pieces):
    """The chunked coding of `pieces`, re-cut into chunks of 1..64 KiB of varying size."""
    sizes = [65536, 1, 4096, 65535, 17, 32768, 8191]
    i = 0
    for piece in pieces:
        view = memoryview(piece)
        while view:
            n = min(sizes[i % len(sizes)], len(view))
            i += 1
            yield b"%x\r\n" % n + bytes(view[:n]) + b"\r\n"
            view = view[n:]
    yield b"0\r\n\r\n"


def read_answer(sock):
    data = b""
    while b"\r\n\r\n" not in data:
        more = sock.recv(65536)
        if not more:
            raise RuntimeError(f"connection closed before the answer's head: {data[:200]!r}")
        data += more
    head, _, rest = data.partition(b"\r\n\r\n")
    status = head.split(b"\r\n")[0].decode()
    length = None
    for line in head.split(b"\r\n")[1:]:
        k, _, v = line.partition(b":")
        if k.strip().lower() == b"content-length":
            length = int(v.strip())
    while length is not None and len(rest) < length:
        more = sock.recv(65536)
        if not more:
            break
        rest += more
    return status, rest


def upload(addr, pid, kind, size):
    host, port = addr.rsplit(":", 1)
    file_hash = hashlib.sha256()
    body_hash = hashlib.sha256()
    if kind == "chunked":
        def gen():
            for b in blocks(size):
                body_hash.update(b)
                yield b
        framing, body_size, body = "chunked", size, chunked(gen())
        ctype = "application/octet-stream"
    else:
        body_size, parts = multipart(size, file_hash)
        ctype = "multipart/form-data; boundary=" + BOUNDARY.decode()
        if kind == "multipart":
            framing, body = "length", parts
        else:
            framing, body = "chunked", chunked(parts)
    coding = (
        f"Content-Length: {body_size}" if framing == "length" else "Transfer-Encoding: chunked"
    )
    head = (
        f"POST /upload HTTP/1.1\r\nHost: {addr}\r\nContent-Type: {ctype}\r\n{coding}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()

    before = status_kib(pid, "VmRSS")
    peak_reset = reset_peak(pid)
    sampler = Sampler(pid)
    sampler.start()
    t0 = time.monotonic()
    with socket.create_connection((host, int(port))) as s:
        s.sendall(head)
        for piece in body:
            s.sendall(piece)
        status, answer = read_answer(s)
    seconds = time.monotonic() - t0
    sampled = sampler.stop()
    hwm = status_kib(pid, "VmHWM")
    after = status_kib(pid, "VmRSS")
    # VmRSS = RssAnon (heap, stacks) + RssFile (the binary's pages, paged in as code first runs).
    anon, file = status_kib(pid, "RssAnon"), status_kib(pid, "RssFile")

    errors = []
    if not status.startswith("HTTP/1.1 200"):
        errors.append(f"status {status!r}: {answer[:300]!r}")
        got = {}
    else:
        got = json.loads(answer)["body"]
        want = {"framing": framing, "size": body_size, "error": None, "omitted": 0}
        for k, v in want.items():
            if got[k] != v:
                errors.append(f"{k}: {got[k]!r}, sent {v!r}")
        if kind == "chunked":
            if (got["kind"], got["sha256"]) != ("bytes", body_hash.hexdigest()):
                errors.append(f"kind/sha256 {got['kind']} {got['sha256']}, sent {body_hash.hexdigest()}")
        else:
            part = got["parts"][0] if len(got["parts"]) == 1 else {}
            if (part.get("size"), part.get("sha256"), part.get("filename")) != (
                size, file_hash.hexdigest(), "big.bin"
            ):
                errors.append(f"parts {got['parts']!r}, sent {size} {file_hash.hexdigest()}")
    digest = got.get("sha256") or (got.get("parts") or [{}])[0].get("sha256")
    return {
        "kind": kind,
        "framing": framing,
        "bytes": body_size,
        "before_kib": before,
        "sampled_max_kib": sampled,
        "samples": sampler.samples,
        "hwm_kib": hwm if peak_reset else None,
        "after_kib": after,
        "anon_kib": anon,
        "file_kib": file,
        "seconds": seconds,
        "sha256": digest,
        "errors": errors,
    }


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size-mib", type=int, default=1024, help="size of each upload (default 1024)")
    p.add_argument("--bin", default=os.path.join(repo, "target", "release", "reqparse"))
    p.add_argument("--no-build", action="store_true", help="do not run cargo build --release")
    p.add_argument(
        "--kinds", default="chunked,multipart,multipart-chunked", help="uploads to send, in order"
    )
    a = p.parse_args()
    size = a.size_mib * MIB
    if not a.no_build:
        subprocess.run(
            ["cargo", "build", "--release", "--features", "cli", "--bin", "reqparse"],
            cwd=repo,
            check=True,
        )
    server = subprocess.Popen(
        [a.bin, "serve", "--addr", "127.0.0.1:0", "--threads", "1", "--max-body", str(2 * size)],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline().strip()
        if not line.startswith("listening on http://"):
            sys.exit(f"reqparse serve did not start: {line!r}")
        addr = line[len("listening on http://") :]
        time.sleep(0.2)
        baseline = status_kib(server.pid, "VmRSS")
        print(
            f"reqparse serve pid {server.pid} on {addr}, one loop; VmRSS at start {baseline} KiB "
            f"(RssAnon {status_kib(server.pid, 'RssAnon')} + RssFile {status_kib(server.pid, 'RssFile')})"
        )
        print(f"uploads of {a.size_mib} MiB; RSS in KiB; growth = peak - start (limit {LIMIT // 1024} KiB)")
        failed = False
        for kind in a.kinds.split(","):
            r = upload(addr, server.pid, kind, size)
            peak = max(r["sampled_max_kib"], r["hwm_kib"] or 0)
            growth = peak - baseline
            ok = not r["errors"] and growth * 1024 < LIMIT
            failed |= not ok
            hwm = r["hwm_kib"] if r["hwm_kib"] is not None else "n/a"
            print(
                f"{'ok  ' if ok else 'FAIL'} {r['kind']:17} {r['framing']:7} {r['bytes']} B: "
                f"before {r['before_kib']}, sampled max {r['sampled_max_kib']} "
                f"({r['samples']} samples), VmHWM {hwm}, after {r['after_kib']} "
                f"(RssAnon {r['anon_kib']} + RssFile {r['file_kib']}); "
                f"growth {growth} KiB; sha256 {r['sha256']} ({r['seconds']:.1f} s)"
            )
            for e in r["errors"]:
                print(f"     {e}")
        sys.exit(1 if failed else 0)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
