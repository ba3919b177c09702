#!/usr/bin/env python3
"""Serving many large photos at once: what it costs the server's memory.

Starts `places serve` on a new SQLite file (or --postgres URL), uploads --photos different photos of about 5 MiB each
(PNGs of random pixels, which no compressor shrinks, made here with the standard library), then fetches them all at
once over --photos connections whose clients read slowly (a small receive buffer, a pause between reads), and samples
the server's resident memory meanwhile. A server that read each photo whole before answering would grow by their
sum (about 250 MiB for 50); one that streams each photo a 256 KiB chunk at a time grows by about a chunk (and the
socket's buffers) per connection. Every body is checked against the bytes uploaded.

    swift build -c release
    Tests/load/photo-memory.py                        # 50 photos of ~5 MiB, SQLite
    Tests/load/photo-memory.py --binary .build/debug/places --photos 20
"""
import argparse, hashlib, os, random, socket, struct, sys, tempfile, threading, time, urllib.request, zlib

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server
from private_postgres import free_port


def png(side, seed):
    """A side×side RGB PNG of random pixels (about 3·side² bytes: random bytes do not compress)."""
    generator = random.Random(seed)
    rows = b"".join(b"\x00" + generator.randbytes(side * 3) for _ in range(side))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")


def upload(base, token, place, body):
    request = urllib.request.Request(f"{base}/v1/places/{place}/photos", data=body, method="POST")
    request.add_header("Content-Type", "image/png")
    request.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(request, timeout=60) as response:
        import json
        return json.loads(response.read())


def slow_fetch(port, path, results, index, pause):
    """GET `path` reading 16 KiB at a time with a pause between reads; the body's SHA-256 goes to results[index]."""
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 32 * 1024)
    connection.connect(("127.0.0.1", port))
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    received = bytearray()
    while True:
        part = connection.recv(16 * 1024)
        if not part:
            break
        received += part
        time.sleep(pause)
    connection.close()
    head, _, body = bytes(received).partition(b"\r\n\r\n")
    results[index] = (head.split(b"\r\n")[0], hashlib.sha256(body).hexdigest(), len(body))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    parser.add_argument("--postgres", help="a PostgreSQL URL to serve from instead of a new SQLite file")
    parser.add_argument("--photos", type=int, default=50)
    parser.add_argument("--side", type=int, default=1300, help="pixels a side: 1300 makes PNGs of about 4.8 MiB")
    parser.add_argument("--pause", type=float, default=0.002, help="seconds between a client's reads")
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="places-photo-memory-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    database = options.postgres or os.path.join(work, "places.sqlite")
    server = places_server.start(options.binary, ["--database", database, "--seeds", os.path.join(root, "Seeds"), "--port", str(port),
                                                  "--bcrypt-cost", "4", "--log-level", "warning"],
                                 os.path.join(work, "server.log"), base, seconds=120, who="photo memory")
    try:
        places_server.call(base, "POST", "/v1/auth/register", {"username": "photographer", "email": "p@example.com", "password": "a long password"})
        token = places_server.call(base, "POST", "/v1/auth/login", {"username": "photographer", "password": "a long password"})[1]["token"]
        status, nearby = places_server.call(base, "GET", "/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=20&limit=10")
        places = [place["id"] for place in nearby["places"]]
        expected = {}
        total = 0
        started = time.monotonic()
        for number in range(options.photos):
            body = png(options.side, number)
            photo = upload(base, token, places[number % len(places)], body)
            expected[photo["url"]] = hashlib.sha256(body).hexdigest()
            total += len(body)
        print(f"uploaded {options.photos} photos, {total / 1048576:.1f} MiB in all ({total / options.photos / 1048576:.2f} MiB each), "
              f"in {time.monotonic() - started:.1f} s")
        time.sleep(2)
        idle = places_server.rss_mib(server.pid)
        urls = list(expected)
        results = [None] * len(urls)
        peak = idle
        threads = [threading.Thread(target=slow_fetch, args=(port, url, results, index, options.pause)) for index, url in enumerate(urls)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        while any(thread.is_alive() for thread in threads):
            peak = max(peak, places_server.rss_mib(server.pid))
            time.sleep(0.05)
        took = time.monotonic() - started
        bad = [url for url, result in zip(urls, results) if result is None or not result[0].startswith(b"HTTP/1.1 200") or result[1] != expected[url]]
        if bad:
            raise SystemExit(f"photo memory: {len(bad)} bodies differ from what was uploaded, e.g. {bad[0]}: {results[urls.index(bad[0])]}")
        print(f"{len(urls)} photos served at once to slow readers in {took:.1f} s, every body as uploaded")
        print(f"resident memory: {idle:.1f} MiB before, {peak:.1f} MiB at the peak: +{peak - idle:.1f} MiB "
              f"for {total / 1048576:.1f} MiB served ({(peak - idle) / (total / 1048576) * 100:.1f}% of their sum, "
              f"{(peak - idle) * 1024 / len(urls):.0f} KiB a connection)")
    finally:
        places_server.stop(server)


if __name__ == "__main__":
    main()
