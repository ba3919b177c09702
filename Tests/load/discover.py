#!/usr/bin/env python3
"""Discover over HTTP: a release `places serve` holding N generated places (1,000,000 by default), asked for the best
places in 20-mile circles around the generator's cities (`sort=score`), and for nearby with a `minRating` that no
generated place meets (nobody has rated them), beside the plain nearby, on SQLite and on PostgreSQL (--postgres).

Each query is asked --repeats times at each city over one kept-alive connection (so the figures are the server's
answer time plus one loopback round trip). Prints the median and p99 of each, with the server's resident memory and
how long it took to be ready. --binary measures another build (one without `sort` refuses it: that row says so).

    swift build -c release --product places
    Tests/load/discover.py                      # SQLite, 1M places
    Tests/load/discover.py --postgres           # SQLite, then PostgreSQL, same binary

The generated places and their databases are those of run-load.py (kept in --work and reused).
"""
import argparse, http.client, importlib.util, json, os, statistics, sys, time, urllib.parse

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.dont_write_bytecode = True

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)
spec = importlib.util.spec_from_file_location("generate_places", os.path.join(root, "Tests", "tools", "generate_places.py"))
generate_places = importlib.util.module_from_spec(spec)
spec.loader.exec_module(generate_places)

QUERIES = [
    ("nearby, by distance", {}),
    ("sort=score", {"sort": "score"}),
    ("sort=score&kind=gem", {"sort": "score", "kind": "gem"}),
    ("minRating=4 (none meets it)", {"minRating": "4"}),
    ("minRating=4&sort=score", {"minRating": "4", "sort": "score"}),
]


def measure(args, name, database):
    server = run_load.Server(args, database, args.binary)
    try:
        ready = server.wait_until_ready()
        connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
        rows = []
        for label, extra in QUERIES:
            times, counts, refused = [], [], None
            for lat, lon in generate_places.CITIES:
                query = {"lat": str(lat), "lon": str(lon), "radius": "20", "limit": "50", **extra}
                path = "/v1/places/nearby?" + urllib.parse.urlencode(query)
                for _ in range(args.repeats):
                    began = time.perf_counter()
                    connection.request("GET", path)
                    response = connection.getresponse()
                    body = response.read()
                    times.append((time.perf_counter() - began) * 1000)
                    if response.status == 400:
                        refused = json.loads(body)["error"]["field"]
                        break
                    if response.status != 200:
                        raise SystemExit(f"discover: {path} answered {response.status}: {body[:200]}")
                if refused:
                    break
                counts.append(json.loads(body)["count"])
            rows.append((label, times, counts, refused))
        rss = server.rss_mib()
    finally:
        server.stop()
    return {"engine": name, "ready_s": round(ready, 1), "rss_mib": round(rss), "rows": rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    run_load.add_measurement_arguments(parser, seconds=0, warmup=0)
    parser.add_argument("--port", type=int, default=18782)
    parser.add_argument("--repeats", type=int, default=10, help="times each query is asked at each city")
    parser.add_argument("--postgres", action="store_true", help="measure on PostgreSQL too, after SQLite")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"discover: no binary at {args.binary}; run `swift build -c release --product places` first")
    results = run_load.on_each_engine(args, measure)
    for result in results:
        print(f"{result['engine']}: {args.places:,} places, ready in {result['ready_s']} s, {result['rss_mib']} MiB resident")
        print(f"{'20-mile circles, 50 places':32} {'asked':>6} {'median ms':>10} {'p99 ms':>8} {'places':>7}")
        for label, times, counts, refused in result["rows"]:
            if refused:
                print(f"{label:32} refused: 400 naming {refused}")
                continue
            print(f"{label:32} {len(times):6} {statistics.median(times):10.2f} {run_load.percentile(times, 0.99):8.2f} "
                  f"{statistics.mean(counts):7.1f}")
        print()
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
