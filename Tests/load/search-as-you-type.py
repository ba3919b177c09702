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
import importlib.util, json, os, statistics, sys, urllib.parse

here = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)

WORDS = ["lantern", "cafe", "harbor cafe"]
CITY = (40.71, -74.01)


def prefixes(words):
    """What a search box holds as the words are typed: "l", "la", …, "harbor c", …"""
    return [words[:n] for n in range(1, len(words) + 1) if not words[:n].endswith(" ")]


def ask(args, connection):
    rows = []
    for circle in (False, True):
        for words in WORDS:
            times, matches = [], {}
            for prefix in prefixes(words):
                query = {"q": prefix, "limit": "20"}
                if circle:
                    query.update(lat=str(CITY[0]), lon=str(CITY[1]), radius="20")
                path = "/v1/places/search?" + urllib.parse.urlencode(query)
                asked, body, _ = run_load.timed_gets(connection, path, args.repeats, "search")
                times += asked
                matches[prefix] = len(json.loads(body)["items"])
            rows.append((words + (" within 20 mi" if circle else ""), times))
    return rows


def print_rows(result):
    print(f"{'typed (every prefix)':32} {'asked':>6} {'median ms':>10} {'p99 ms':>8} {'max ms':>8}")
    everything = []
    for name, times in result["rows"]:
        everything += times
        print(f"{name:32} {len(times):6} {statistics.median(times):10.2f} {run_load.percentile(times, 0.99):8.2f} {max(times):8.2f}")
    print(f"{'all':32} {len(everything):6} {statistics.median(everything):10.2f} {run_load.percentile(everything, 0.99):8.2f} "
          f"{max(everything):8.2f}")


if __name__ == "__main__":
    run_load.time_answers(__doc__, "search", ask, print_rows, port=18781, repeats=20, repeats_help="times each prefix is asked")
