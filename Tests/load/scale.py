#!/usr/bin/env python3
"""Scale: one instance holding N generated places (1,000,000, then 10,000,000), on SQLite and on PostgreSQL.

For each size and engine, with a release build:

- seed: `places seed` of the generated CSV into a new database, timed (places a second); on PostgreSQL the new rows
  are then vacuumed and analysed, untimed, as autovacuum would in the minutes after;
- ready: the server started on it, stopped, and started again: seconds from the restart until `/ready` answers 200;
- memory: its resident memory once ready, against a server on an empty database of the same engine (bytes a place
  above the empty one);
- nearby and search: medians and p99 over HTTP, one request at a time on a kept-alive connection (the server's answer
  plus one loopback round trip): nearby 1 mile, limit 50, centred on places drawn from the file; search for a name's
  word in a 20-mile circle around such a place, limit 20.

    swift build -c release
    Tests/load/scale.py                                # 1M and 10M, SQLite and PostgreSQL
    Tests/load/scale.py --places 1000000 --engine sqlite --json

The generated CSV files are kept in --work (default /tmp/places-scale; 10M places is about 700 MB of CSV, 2.6 GB of
SQLite and 4 GB of PostgreSQL) and reused by later runs; every database is seeded anew, since its seeding is measured.
Targets (issue "Lean and wide"): at most 300 bytes a place above an empty server at 1M and at 10M on both engines; at
10M ready within 30 s on SQLite and 60 s on PostgreSQL after a restart, seeding at least 150,000 places a second on
SQLite, and nearby and search as fast as at 1M (within 20%).
"""
import argparse, csv, http.client, importlib.util, json, os, random, shutil, statistics, subprocess, sys, time, urllib.parse

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ left beside the shared module
import places_server
import private_postgres

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    parser.add_argument("--places", type=int, action="append", help="sizes (default: 1,000,000 and 10,000,000)")
    parser.add_argument("--engine", choices=["sqlite", "postgres"], action="append", help="engines (default: both)")
    parser.add_argument("--queries", type=int, default=2000, help="nearby and search requests timed at each size")
    parser.add_argument("--work", default="/tmp/places-scale")
    parser.add_argument("--port", type=int, default=18795)
    parser.add_argument("--json", action="store_true", help="print every result as one JSON object at the end")
    args = parser.parse_args()
    args.places = args.places or [1_000_000, 10_000_000]
    args.engine = args.engine or ["sqlite", "postgres"]
    args.log_level = "warning"
    if not os.path.exists(args.binary):
        raise SystemExit(f"scale: no binary at {args.binary}; run `swift build -c release --product places` first")
    return args


def generated(args, count):
    """The CSV of `count` generated places, made once and kept."""
    os.makedirs(args.work, exist_ok=True)
    path = os.path.join(args.work, f"places-{count}.csv")
    if not os.path.exists(path):
        print(f"scale: generating {count:,} places", file=sys.stderr)
        with open(path + ".part", "w") as out:
            subprocess.run([sys.executable, os.path.join(root, "Tests", "tools", "generate_places.py"), "--places", str(count)],
                           stdout=out, check=True)
        os.rename(path + ".part", path)
    return path


def sample(path, count, rng):
    """`count` rows of the CSV drawn at random (reservoir sampling: the file is read once, never held)."""
    chosen = []
    with open(path, newline="") as rows:
        for index, row in enumerate(csv.DictReader(rows)):
            if len(chosen) < count:
                chosen.append(row)
            elif (slot := rng.randrange(index + 1)) < count:
                chosen[slot] = row
    return chosen


class Engine:
    """Where a size's places are stored: a new SQLite file, or a new database of a private PostgreSQL server."""

    def __init__(self, args, name):
        self.args, self.name = args, name
        self.postgres = None
        if name == "postgres":
            self.postgres = private_postgres.PrivatePostgres(os.path.join(args.work, "postgres"), fsync=True).start()

    def new(self, label):
        """A new, empty database called `label`."""
        if self.postgres is None:
            path = os.path.join(self.args.work, f"{label}.sqlite")
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
            return path
        self.psql(f"DROP DATABASE IF EXISTS {label} WITH (FORCE)")
        self.psql(f"CREATE DATABASE {label}")
        return self.postgres.url.replace("/postgres?", f"/{label}?")

    def drop(self, database):
        if self.postgres is None:
            for suffix in ("", "-wal", "-shm"):
                if os.path.exists(database + suffix):
                    os.remove(database + suffix)
        else:
            self.psql(f"DROP DATABASE IF EXISTS {database.split('/')[-1].split('?')[0]} WITH (FORCE)")

    def psql(self, sql, database=None):
        subprocess.run([private_postgres.postgres_bin("psql"), "-q", "-v", "ON_ERROR_STOP=1", "-c", sql, database or self.postgres.url],
                       check=True, stdout=subprocess.DEVNULL)

    def settle(self, database):
        """Does now what PostgreSQL would do in the first minutes after a seed, not in the middle of a measurement:
        vacuums and analyses the new rows (autovacuum's first pass over 10M of them ran until the queries' last seconds,
        on one of the two cores), then writes the dirty pages out."""
        if self.postgres is not None:
            self.psql("VACUUM (ANALYZE)", database)
            self.psql("CHECKPOINT")

    def stop(self):
        if self.postgres is not None:
            self.postgres.stop()


class Served:
    """`places serve` on `database`, with no seed folder (an empty database stays empty)."""

    def __init__(self, args, database):
        self.started = time.monotonic()
        self.base = f"http://127.0.0.1:{args.port}"
        empty = os.path.join(args.work, "no-seeds")
        os.makedirs(empty, exist_ok=True)
        self.process = places_server.start(
            args.binary,
            ["--database", database, "--port", str(args.port), "--seeds", empty, "--log-level", args.log_level],
            os.path.join(args.work, "server.log"), self.base, seconds=600, who="scale")

    def ready(self):
        """Seconds from the start until /ready answered 200."""
        while places_server.call(self.base, "GET", "/ready", timeout=10)[0] != 200:
            time.sleep(0.02)
        return time.monotonic() - self.started

    def rss_mib(self):
        return places_server.rss_mib(self.process.pid)

    def stop(self):
        places_server.stop(self.process)


def timed(connection, paths):
    """Each path asked once in turn on `connection`: the milliseconds of each answer."""
    times = []
    for path in paths:
        milliseconds, status, body = run_load.timed_get(connection, path)
        if status != 200:
            raise SystemExit(f"scale: {path} answered {status}: {body[:200]}")
        times.append(milliseconds)
    return times


def summary(times):
    return {"median_ms": round(statistics.median(times), 3), "p99_ms": round(run_load.percentile(times, 0.99), 3)}


def measure(args, engine, count, empty_rss):
    """Seeds `count` places into a new database of `engine`, restarts a server on it and measures it."""
    path = generated(args, count)
    rng = random.Random(count)
    rows = sample(path, args.queries, rng)
    database = engine.new(f"scale_{count}")
    started = time.monotonic()
    subprocess.run([args.binary, "seed", path, "--database", database], check=True, stdout=subprocess.DEVNULL)
    seed_s = time.monotonic() - started
    engine.settle(database)
    # The first start after the seed, then the restart that is measured.
    first = Served(args, database)
    first.ready()
    first.stop()
    server = Served(args, database)
    try:
        ready_s = server.ready()
        rss = server.rss_mib()
        connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
        nearby = [f"/v1/places/nearby?lat={row['lat']}&lon={row['lon']}&radius=1&limit=50" for row in rows]
        search = [
            "/v1/places/search?" + urllib.parse.urlencode(
                {"q": row["name"].split()[0].lower(), "lat": row["lat"], "lon": row["lon"], "radius": "20", "limit": "20"})
            for row in rows
        ]
        timed(connection, nearby[: len(nearby) // 10] + search[: len(search) // 10])  # warm-up
        nearby_ms, search_ms = timed(connection, nearby), timed(connection, search)
    finally:
        server.stop()
        engine.drop(database)
    return {
        "engine": engine.name, "places": count, "seed_s": round(seed_s, 1), "seed_per_s": round(count / seed_s),
        "ready_s": round(ready_s, 1), "rss_mib": round(rss), "empty_rss_mib": round(empty_rss),
        "bytes_per_place": round((rss - empty_rss) * 1024 * 1024 / count), "nearby": summary(nearby_ms), "search": summary(search_ms),
    }


def empty_server_rss(args, engine):
    """The resident memory of a ready server on an empty database of `engine`, after a few answers."""
    database = engine.new("scale_empty")
    server = Served(args, database)
    try:
        server.ready()
        connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
        timed(connection, ["/v1/places/nearby?lat=40.7&lon=-74&radius=1", "/v1/places/search?q=cafe"] * 50)
        return server.rss_mib()
    finally:
        server.stop()
        engine.drop(database)


def main():
    args = parse_arguments()
    results = []
    for name in args.engine:
        engine = Engine(args, name)
        try:
            empty = empty_server_rss(args, engine)
            for count in args.places:
                result = measure(args, engine, count, empty)
                results.append(result)
                print(f"{name:8} {count:>11,} places: seeded in {result['seed_s']} s ({result['seed_per_s']:,}/s), "
                      f"ready in {result['ready_s']} s after a restart, {result['rss_mib']} MiB resident "
                      f"({result['bytes_per_place']} bytes a place above an empty server's {result['empty_rss_mib']} MiB); "
                      f"nearby {result['nearby']['median_ms']} ms (p99 {result['nearby']['p99_ms']}), "
                      f"search {result['search']['median_ms']} ms (p99 {result['search']['p99_ms']})", flush=True)
        finally:
            engine.stop()
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
