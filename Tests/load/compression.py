#!/usr/bin/env python3
"""Compression and nearby's throughput: wrk asking nearby (1 mile, 50 places, `Accept-Encoding: gzip`) of a release
`places serve` holding N generated places (1,000,000 by default), three ways side by side, in alternating rounds:
the server directly (it does not compress), through nginx with gzip off, and through nginx with gzip on (the README's
settings: level 4, JSON and GeoJSON above 1 KB). The first two measure what the proxy costs, the last two what
compressing costs on the same cores; each answer's size is printed plain and gzipped.

    swift build -c release --product places
    apt-get install wrk nginx
    Tests/load/compression.py --rounds 3 --seconds 20

The generated places and their database are those of run-load.py (kept in --work and reused).
"""
import argparse, gzip, http.client, importlib.util, os, re, shutil, statistics, subprocess, sys, tempfile, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)

NGINX = """worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    upstream places {{ server 127.0.0.1:{upstream}; keepalive 64; }}
    server {{
        listen 127.0.0.1:{plain};
        gzip off;
        location / {{ proxy_pass http://places; proxy_http_version 1.1; proxy_set_header Connection ""; }}
    }}
    server {{
        listen 127.0.0.1:{packed};
        gzip on;
        gzip_types application/json application/geo+json;
        gzip_min_length 1024;
        gzip_comp_level 4;
        gzip_proxied any;
        gzip_vary on;
        location / {{ proxy_pass http://places; proxy_http_version 1.1; proxy_set_header Connection ""; }}
    }}
}}
"""


def sizes(base):
    """A 50-place nearby answer's size, plain and as the gzipping nginx sends it."""
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=30)
    connection.request("GET", "/v1/places/nearby?lat=40.7128&lon=-74.006&radius=1&limit=50", headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    body = response.read()
    return len(gzip.decompress(body)) if response.getheader("Content-Encoding") == "gzip" else len(body), len(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    run_load.add_measurement_arguments(parser, seconds=20, warmup=5)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (the machine has 2 cores to share)")
    parser.add_argument("--port", type=int, default=18783)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for tool in ("wrk", "nginx"):
        if not (shutil.which(tool) or os.path.exists(f"/usr/sbin/{tool}")):
            raise SystemExit(f"compression: {tool} not found (apt-get install {tool})")
    database = run_load.seeded_database(args)
    fresh = os.path.join(args.work, "run.sqlite")
    places_server.fresh_copy(database, fresh)
    server = run_load.Server(args, fresh, args.binary)
    folder = tempfile.mkdtemp(prefix="places-compression-")
    plain, packed = args.port + 1, args.port + 2
    with open(os.path.join(folder, "nginx.conf"), "w") as conf:
        conf.write(NGINX.format(folder=folder, upstream=args.port, plain=plain, packed=packed))
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-p", folder, "-c", os.path.join(folder, "nginx.conf"),
                              "-g", "daemon off;"], stderr=subprocess.DEVNULL)
    try:
        ways = [("places serve, directly", server.base), ("nginx, gzip off", f"http://127.0.0.1:{plain}"),
                ("nginx, gzip on (level 4)", f"http://127.0.0.1:{packed}")]
        time.sleep(0.5)
        answer = sizes(ways[2][1])
        results = {name: [] for name, _ in ways}
        latencies = {name: [] for name, _ in ways}
        for _ in range(args.rounds):
            for name, base in ways:
                target = type("Target", (), {"base": base})
                if args.warmup:
                    run_load.wrk(args, target, "nearby.lua", ["1", "50", "gzip"], args.warmup)
                measured = run_load.wrk(args, target, "nearby.lua", ["1", "50", "gzip"], args.seconds)
                results[name].append(measured["rps"])
                latencies[name].append(measured["p99_ms"])
        print(f"compression: {args.places:,} places; nearby 1 mile, 50 places; a 50-place answer is {answer[0]:,} bytes, "
              f"{answer[1]:,} gzipped; {args.rounds} rounds of {args.seconds} s, {args.connections} connections")
        base = statistics.median(results[ways[0][0]])
        print(f"{'way':28} {'requests/s (median)':>20} {'each round':>28} {'ratio':>6} {'p99 ms':>7}")
        for name, _ in ways:
            rounds = ", ".join(f"{value:,.0f}" for value in results[name])
            median = statistics.median(results[name])
            print(f"{name:28} {median:20,.0f} {rounds:>28} {median / base:6.2f} {statistics.median(latencies[name]):7.1f}")
    finally:
        nginx.terminate()
        nginx.wait()
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
