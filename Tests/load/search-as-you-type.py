#!/usr/bin/env python3
"""Search as you type: a release `places serve` holding N generated places (1,000,000 by default), asked for every
prefix of a few words as a search box asks while the user types, on SQLite and on PostgreSQL (--postgres).

Each prefix is asked --repeats times over one kept-alive connection (so the figures are the server's answer time
plus one loopback round trip), plain and inside a 20-mile circle around a city. Prints the median and p99 of each
word's prefixes, and of all of them, with the server's resident memory and how long it took to be ready.

    swift build -c release --product places
    Tests/load/search-as-you-type.py                      # SQLite, 1M places
    Tests/load/search-as-you-type.py --postgres           # SQLite, then PostgreSQL, same binary

The generated places and their databases are those of run-load.py (kept in --work and reused).
"""
import argparse, http.client, importlib.util, json, os, statistics, sys, time, urllib.parse

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.dont_write_bytecode = True

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)

WORDS = ["lantern", "cafe", "harbor cafe"]
CITY = (40.71, -74.01)


def prefixes(words):
    """What a search box holds as the words are typed: "l", "la", …, "harbor c", …"""
    return [words[:n] for n in range(1, len(words) + 1) if not words[:n].endswith(" ")]


def measure(args, name, database):
    server = run_load.Server(args, database, args.binary)
    try:
        ready = server.wait_until_ready()
        connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=30)
        rows = []
        for circle in (False, True):
            for words in WORDS:
                times, matches = [], {}
                for prefix in prefixes(words):
                    query = {"q": prefix, "limit": "20"}
                    if circle:
                        query.update(lat=str(CITY[0]), lon=str(CITY[1]), radius="20")
                    path = "/v1/places/search?" + urllib.parse.urlencode(query)
                    for _ in range(args.repeats):
                        began = time.perf_counter()
                        connection.request("GET", path)
                        response = connection.getresponse()
                        body = response.read()
                        times.append((time.perf_counter() - began) * 1000)
                        if response.status != 200:
                            raise SystemExit(f"search: {path} answered {response.status}: {body[:200]}")
                    matches[prefix] = len(json.loads(body)["items"])
                rows.append((words + (" within 20 mi" if circle else ""), times))
        rss = server.rss_mib()
    finally:
        server.stop()
    return {"engine": name, "ready_s": round(ready, 1), "rss_mib": round(rss), "rows": rows}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    run_load.add_measurement_arguments(parser, seconds=0, warmup=0)
    parser.add_argument("--port", type=int, default=18781)
    parser.add_argument("--repeats", type=int, default=20, help="times each prefix is asked")
    parser.add_argument("--postgres", action="store_true", help="measure on PostgreSQL too, after SQLite")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"search: no binary at {args.binary}; run `swift build -c release --product places` first")
    results = run_load.on_each_engine(args, measure)
    for result in results:
        print(f"{result['engine']}: {args.places:,} places, ready in {result['ready_s']} s, {result['rss_mib']} MiB resident")
        print(f"{'typed (every prefix)':32} {'asked':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
        everything = []
        for name, times in result["rows"]:
            everything += times
            print(f"{name:32} {len(times):6} {statistics.median(times):10.2f} {run_load.percentile(times, 0.99):8.2f} {max(times):8.2f}")
        print(f"{'all':32} {len(everything):6} {statistics.median(everything):10.2f} {run_load.percentile(everything, 0.99):8.2f} "
              f"{max(everything):8.2f}\n")
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
