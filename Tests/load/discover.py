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
import importlib.util, json, os, statistics, sys, urllib.parse

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


def ask(args, connection):
    rows = []
    for label, extra in QUERIES:
        times, counts, refused = [], [], None
        for lat, lon in generate_places.CITIES:
            query = {"lat": str(lat), "lon": str(lon), "radius": "20", "limit": "50", **extra}
            path = "/v1/places/nearby?" + urllib.parse.urlencode(query)
            asked, body, refused = run_load.timed_gets(connection, path, args.repeats, "discover", refusal_ends=True)
            times += asked
            if refused:
                break
            counts.append(json.loads(body)["count"])
        rows.append((label, times, counts, refused))
    return rows


def print_rows(result):
    print(f"{'20-mile circles, 50 places':32} {'asked':>6} {'median ms':>10} {'p99 ms':>8} {'places':>7}")
    for label, times, counts, refused in result["rows"]:
        if refused:
            print(f"{label:32} refused: 400 naming {refused}")
            continue
        print(f"{label:32} {len(times):6} {statistics.median(times):10.2f} {run_load.percentile(times, 0.99):8.2f} "
              f"{statistics.mean(counts):7.1f}")


if __name__ == "__main__":
    run_load.time_answers(__doc__, "discover", ask, print_rows, port=18782, repeats=10, repeats_help="times each query is asked at each city")
