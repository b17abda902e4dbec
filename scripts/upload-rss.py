#!/usr/bin/env python3
"""Uploads stream through `reqparse serve` in bounded memory (issue 12's proof), and through
axum with `reqparse::axum::Multipart` (issue 41).

Starts a server on an ephemeral loopback port and sends it 1 GiB uploads generated on the fly
(nothing of that size on disk or in memory here). The server (`--server`, several separated by
commas, each started afresh):

  serve          the release `reqparse serve` (one event loop); the default
  axum-reqparse  axum + reqparse::axum::Multipart (benches/axum.rs `server-reqparse 1`: a tokio
                 runtime of one worker thread; each file hashed, the fields echoed, a JSON answer)
  axum-multer    axum + axum::extract::Multipart (multer) doing the same (`server-axum 1`), for
                 comparison: its growth is printed, not held to the limit

The uploads (`--kinds`; the axum servers read multipart bodies only, so `chunked` is skipped
for them):

  chunked    application/octet-stream, Transfer-Encoding: chunked (chunks of varied sizes)
  multipart  multipart/form-data with one 1 GiB file part, by Content-Length
  multipart-chunked  the same multipart body, chunked

For each it reads the server's VmRSS from /proc/PID/status before, samples it while the upload
runs, takes the kernel's own peak (VmHWM, reset before each upload through
/proc/PID/clear_refs where allowed), and checks the JSON answer's size and SHA-256 against what
was sent. It prints one line per upload and fails (exit 1) when an answer is wrong or the peak
RSS of a reqparse server grew by 8 MiB or more over the baseline taken before the first request.

  python3 scripts/upload-rss.py            # builds target/release/reqparse first
  python3 scripts/upload-rss.py --size-mib 64 --no-build --bin target/debug/reqparse
  python3 scripts/upload-rss.py --server axum-reqparse,axum-multer   # builds benches/axum.rs

Builds go to $CARGO_TARGET_DIR when it is set.

This measures memory, not time: machine load does not change it. Linux only (/proc).
"""

import argparse
import glob
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


def check_serve(got, kind, framing, body_size, size, file_hash, body_hash):
    """The errors in `reqparse serve`'s JSON answer (its `body` object) to an upload."""
    errors = []
    got = got["body"]
    want = {"framing": framing, "size": body_size, "error": None, "omitted": 0}
    for k, v in want.items():
        if got[k] != v:
            errors.append(f"{k}: {got[k]!r}, sent {v!r}")
    if kind == "chunked":
        if (got["kind"], got["sha256"]) != ("bytes", body_hash.hexdigest()):
            errors.append(f"kind/sha256 {got['kind']} {got['sha256']}, sent {body_hash.hexdigest()}")
        return errors, got.get("sha256")
    part = got["parts"][0] if len(got["parts"]) == 1 else {}
    if (part.get("size"), part.get("sha256"), part.get("filename")) != (
        size, file_hash.hexdigest(), "big.bin"
    ):
        errors.append(f"parts {got['parts']!r}, sent {size} {file_hash.hexdigest()}")
    return errors, part.get("sha256")


def check_axum(got, size, file_hash):
    """The errors in benches/axum.rs's JSON answer (`fields`, `files`) to a multipart upload."""
    want = {
        "fields": [],
        "files": [
            {"name": "file", "filename": "big.bin", "size": size, "sha256": file_hash.hexdigest()}
        ],
    }
    errors = [] if got == want else [f"answer {got!r}, sent {want!r}"]
    files = got.get("files") or [{}]
    return errors, files[0].get("sha256")


def upload(addr, pid, kind, size, server="serve"):
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

    if not status.startswith("HTTP/1.1 200"):
        errors, digest = [f"status {status!r}: {answer[:300]!r}"], None
    elif server == "serve":
        errors, digest = check_serve(
            json.loads(answer), kind, framing, body_size, size, file_hash, body_hash
        )
    else:
        errors, digest = check_axum(json.loads(answer), size, file_hash)
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


def target_dir(repo):
    return os.environ.get("CARGO_TARGET_DIR") or os.path.join(repo, "target")


def build_bench(repo):
    """Builds benches/axum.rs (release, features axum and tokio); the path of its binary."""
    out = subprocess.run(
        ["cargo", "bench", "--no-run", "--features", "axum,tokio", "--bench", "axum",
         "--message-format=json"],
        cwd=repo,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    exes = [m["executable"] for m in map(json.loads, out.splitlines())
            if m.get("reason") == "compiler-artifact" and m.get("executable")]
    if not exes:
        sys.exit("benches/axum.rs built no binary")
    return exes[-1]


def start(server, a, size):
    """Starts `server`; the process, its address and how it is described."""
    if server == "serve":
        proc = subprocess.Popen(
            [a.bin, "serve", "--addr", "127.0.0.1:0", "--threads", "1", "--max-body", str(2 * size)],
            stderr=subprocess.PIPE,
            text=True,
        )
        line = proc.stderr.readline().strip()
        if not line.startswith("listening on http://"):
            sys.exit(f"reqparse serve did not start: {line!r}")
        return proc, line[len("listening on http://") :], "reqparse serve, one loop"
    mode = {"axum-reqparse": "server-reqparse", "axum-multer": "server-axum"}[server]
    # The server's limits (benches/axum.rs, LIMIT) take bodies up to 2 GiB; it exits when its
    # stdin closes.
    proc = subprocess.Popen(
        [a.bench_exe, mode, "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    line = proc.stdout.readline().strip()
    if not line.startswith("ADDR "):
        sys.exit(f"{a.bench_exe} {mode} did not start: {line!r}")
    what = {
        "axum-reqparse": "axum + reqparse::axum::Multipart",
        "axum-multer": "axum + axum::extract::Multipart (multer)",
    }[server]
    return proc, line[len("ADDR ") :], f"{what}, one tokio worker thread"


def measure(server, a, size):
    """Every upload of `a.kinds` through a fresh `server`; False if one failed."""
    proc, addr, what = start(server, a, size)
    # Only reqparse's servers are held to the limit; multer's growth is printed for comparison.
    held = server != "axum-multer"
    try:
        time.sleep(0.2)
        baseline = status_kib(proc.pid, "VmRSS")
        print(
            f"{what}: pid {proc.pid} on {addr}; VmRSS at start {baseline} KiB "
            f"(RssAnon {status_kib(proc.pid, 'RssAnon')} + RssFile {status_kib(proc.pid, 'RssFile')})"
        )
        print(
            f"uploads of {a.size_mib} MiB; RSS in KiB; growth = peak - start "
            + (f"(limit {LIMIT // 1024} KiB)" if held else "(not held to the limit)")
        )
        failed = False
        for kind in a.kinds.split(","):
            if server != "serve" and kind == "chunked":
                print(f"skip {kind:17} (a multipart server)")
                continue
            r = upload(addr, proc.pid, kind, size, server)
            peak = max(r["sampled_max_kib"], r["hwm_kib"] or 0)
            growth = peak - baseline
            over = growth * 1024 >= LIMIT
            ok = not r["errors"] and not (held and over)
            failed |= not ok
            hwm = r["hwm_kib"] if r["hwm_kib"] is not None else "n/a"
            mark = "FAIL" if not ok else "over" if over else "ok  "
            print(
                f"{mark} {r['kind']:17} {r['framing']:7} {r['bytes']} B: "
                f"before {r['before_kib']}, sampled max {r['sampled_max_kib']} "
                f"({r['samples']} samples), VmHWM {hwm}, after {r['after_kib']} "
                f"(RssAnon {r['anon_kib']} + RssFile {r['file_kib']}); "
                f"growth {growth} KiB; sha256 {r['sha256']} ({r['seconds']:.1f} s)"
            )
            for e in r["errors"]:
                print(f"     {e}")
        return not failed
    finally:
        if proc.stdin:
            proc.stdin.close()
        proc.terminate()
        proc.wait(timeout=30)


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--size-mib", type=int, default=1024, help="size of each upload (default 1024)")
    p.add_argument("--bin", default=os.path.join(target_dir(repo), "release", "reqparse"))
    p.add_argument(
        "--bench-exe", help="benches/axum.rs's binary (default: built, or found with --no-build)"
    )
    p.add_argument("--no-build", action="store_true", help="do not build with cargo first")
    p.add_argument(
        "--server",
        default="serve",
        help="servers, in order: serve, axum-reqparse, axum-multer (default serve)",
    )
    p.add_argument(
        "--kinds", default="chunked,multipart,multipart-chunked", help="uploads to send, in order"
    )
    a = p.parse_args()
    size = a.size_mib * MIB
    servers = a.server.split(",")
    for s in servers:
        if s not in ("serve", "axum-reqparse", "axum-multer"):
            sys.exit(f"no server {s!r}")
    if "serve" in servers and not a.no_build:
        subprocess.run(
            ["cargo", "build", "--release", "--features", "cli", "--bin", "reqparse"],
            cwd=repo,
            check=True,
        )
    if any(s != "serve" for s in servers) and not a.bench_exe:
        if a.no_build:
            found = sorted(
                glob.glob(os.path.join(target_dir(repo), "release", "deps", "axum-*")),
                key=os.path.getmtime,
            )
            found = [f for f in found if os.access(f, os.X_OK) and not f.endswith(".d")]
            if not found:
                sys.exit("no benches/axum.rs binary: build it or pass --bench-exe")
            a.bench_exe = found[-1]
        else:
            a.bench_exe = build_bench(repo)
    ok = True
    for server in servers:
        ok &= measure(server, a, size)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
