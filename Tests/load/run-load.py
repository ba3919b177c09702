#!/usr/bin/env python3
"""Load: wrk against a release `places serve` holding N generated places (1,000,000 by default).

Runs a nearby load (1 mile, limit 50, a new centre every request) and the mixed load (90% nearby, 5% place
reads, 5% writes: new places, ratings, ballots), each after a warm-up, and prints requests/s, p50/p99 latency,
errors, and the server's resident memory before and after each run; then p50/p99 per kind of request, as the
server's access log times them (wrk times only the whole mix). With --compare OTHER_BINARY it runs every load
with both builds in alternating rounds (--rounds) and prints both, medians over the rounds.

    swift build -c release
    Tests/load/run-load.py                          # 1M places, 60 s a run, 64 connections
    Tests/load/run-load.py --places 100000 --seconds 10 --json
    Tests/load/run-load.py --only mixed --compare ../previous/.build/release/places --rounds 3
    Tests/load/run-load.py --postgres --rounds 3    # each load on PostgreSQL beside SQLite, same binary

Needs wrk (Debian's package: apt-get install wrk). The generated CSV and its seeded database are kept in
--work (default /tmp/places-load) and reused by later runs with the same --places; the database is copied
fresh for every run, so writes of one run never reach the next. With --postgres a private PostgreSQL server runs in
--work: the CSV is seeded once into a template database (the seeding time is printed), and every run gets a fresh
database made from it.
"""
import argparse, http.client, json, os, re, shutil, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ left beside the shared module
import places_server
import private_postgres

TARGETS = {"nearby": 12_000, "mixed": 6_000}


def add_measurement_arguments(parser, seconds, warmup):
    """The options of a measured load on a server holding --places generated places (kept in --work, which
    nearby-vs-redis.py shares)."""
    parser.add_argument("--places", type=int, default=1_000_000)
    parser.add_argument("--seconds", type=int, default=seconds, help="length of each measured run")
    parser.add_argument("--warmup", type=int, default=warmup, help="seconds of load before each measured run")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--log-level", default="info", help="the places server's log level (info writes one access line a request)")
    parser.add_argument("--work", default="/tmp/places-load")
    parser.add_argument("--json", action="store_true", help="also print the results as one JSON object")


def time_answers(doc, script, ask, print_rows, port, repeats, repeats_help):
    """The main of a script that times single answers (discover.py, search-as-you-type.py): its options, then
    `report_answer_times`."""
    report_answer_times(answer_time_arguments(doc.splitlines()[0], script, port, repeats, repeats_help), ask, print_rows)


def answer_time_arguments(description, script, port, repeats, repeats_help):
    """The options of a script that times single answers of a release binary on each engine (discover.py,
    search-as-you-type.py): --binary, the measured load's, --port, --repeats and --postgres. Exits when there is no
    binary to run."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    add_measurement_arguments(parser, seconds=0, warmup=0)
    parser.add_argument("--port", type=int, default=port)
    parser.add_argument("--repeats", type=int, default=repeats, help=repeats_help)
    parser.add_argument("--postgres", action="store_true", help="measure on PostgreSQL too, after SQLite")
    args = parser.parse_args()
    if not os.path.exists(args.binary):
        raise SystemExit(f"{script}: no binary at {args.binary}; run `swift build -c release --product places` first")
    return args


def answer_times(args, ask):
    """On each engine (`on_each_engine`): serves the database with --binary and hands `ask(args, connection)` one
    kept-alive connection to it (so what it times is the server's answer plus one loopback round trip). Answers each
    engine's result: how long the server took to be ready, its resident memory after the questions, and the rows `ask`
    answered."""
    def served(args, name, database):
        server = Server(args, database, args.binary)
        try:
            ready = server.wait_until_ready()
            rows = ask(args, http.client.HTTPConnection("127.0.0.1", args.port, timeout=30))
            rss = server.rss_mib()
        finally:
            server.stop()
        return {"engine": name, "ready_s": round(ready, 1), "rss_mib": round(rss), "rows": rows}
    return on_each_engine(args, served)


def report_answer_times(args, ask, print_rows):
    """Runs `answer_times` and prints each engine's results: a line of its places, readiness and memory, then
    `print_rows(result)`, then a blank line; with --json, all of them after as one JSON object."""
    results = answer_times(args, ask)
    for result in results:
        print(f"{result['engine']}: {args.places:,} places, ready in {result['ready_s']} s, {result['rss_mib']} MiB resident")
        print_rows(result)
        print()
    if args.json:
        print(json.dumps(results))


def timed_get(connection, path):
    """GETs `path` on a kept-alive connection: (milliseconds until the whole answer was read, its status, its body)."""
    began = time.perf_counter()
    connection.request("GET", path)
    response = connection.getresponse()
    body = response.read()
    return (time.perf_counter() - began) * 1000, response.status, body


def timed_gets(connection, path, repeats, script, refusal_ends=False):
    """GETs `path` `repeats` times: (each answer's milliseconds, the last body, the field a 400 named or None). A 400
    ends the repeats when `refusal_ends` (a build that does not know a parameter refuses it); any other status but 200
    ends the script."""
    times = []
    for _ in range(repeats):
        milliseconds, status, body = timed_get(connection, path)
        times.append(milliseconds)
        if status == 400 and refusal_ends:
            return times, body, json.loads(body)["error"]["field"]
        if status != 200:
            raise SystemExit(f"{script}: {path} answered {status}: {body[:200]}")
    return times, body, None


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    add_measurement_arguments(parser, seconds=60, warmup=10)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (the machine has 2 cores to share)")
    parser.add_argument("--port", type=int, default=18780)
    parser.add_argument("--only", choices=["nearby", "mixed"], help="run one of the two loads")
    parser.add_argument("--compare", help="another build of places (e.g. the previous main) run beside --binary")
    parser.add_argument("--rounds", type=int, default=1, help="alternating rounds of each build (with --compare or --postgres)")
    parser.add_argument("--postgres", action="store_true",
                        help="run every load on a PostgreSQL-backed instance too, beside the SQLite-backed one (same binary)")
    parser.add_argument("--database-connections", type=int,
                        help="the PostgreSQL-backed instance's pool (`serve --database-connections`; default the server's)")
    return parser.parse_args()


class Server:
    """A `places serve` on a copy of the seeded database, its log in the work folder."""

    def __init__(self, args, database, binary):
        self.started = time.monotonic()
        self.base = f"http://127.0.0.1:{args.port}"
        self.log_path = os.path.join(args.work, "server.log")
        self.process = places_server.start(
            binary,
            ["--database", database, "--port", str(args.port), "--seeds", os.path.join(root, "Seeds"),
             "--log-level", args.log_level, "--bcrypt-cost", "4", "--places-per-day", "100000000"]
            + (["--database-connections", str(args.database_connections)] if getattr(args, "database_connections", None) else []),
            self.log_path, self.base, seconds=120, who="load")

    def call(self, method, path, body=None, token=None, timeout=30):
        return places_server.call(self.base, method, path, body, token, timeout)

    def expect(self, method, path, body=None, token=None, status=200):
        code, answer = self.call(method, path, body, token)
        if code != status:
            raise SystemExit(f"load: {method} {path} answered {code}: {answer}")
        return answer

    def rss_mib(self):
        return places_server.rss_mib(self.process.pid)

    def wait_until_ready(self):
        """Waits for /ready (the index loaded and caught up); answers the seconds since `started`."""
        while places_server.call(self.base, "GET", "/ready", timeout=5)[0] != 200:
            time.sleep(0.05)
        return time.monotonic() - self.started

    def stop(self):
        places_server.stop(self.process)


def seeded_database(args):
    """The generated CSV seeded into a database, made once per size and reused."""
    os.makedirs(args.work, exist_ok=True)
    csv = os.path.join(args.work, f"places-{args.places}.csv")
    database = os.path.join(args.work, f"places-{args.places}.sqlite")
    if not os.path.exists(database):
        if not os.path.exists(csv):
            print(f"load: generating {args.places:,} places", file=sys.stderr)
            with open(csv + ".part", "w") as out:
                subprocess.run([sys.executable, os.path.join(root, "Tests", "tools", "generate_places.py"), "--places", str(args.places)],
                               stdout=out, check=True)
            os.rename(csv + ".part", csv)
        print(f"load: seeding {csv}", file=sys.stderr)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(database + ".part" + suffix):
                os.remove(database + ".part" + suffix)
        subprocess.run([args.binary, "seed", csv, "--database", database + ".part"], check=True)
        os.rename(database + ".part", database)
    return database


class Postgres:
    """A private PostgreSQL server in the work folder, holding the generated places in a template database."""

    def __init__(self, args):
        self.server = private_postgres.PrivatePostgres(os.path.join(args.work, "postgres"), fsync=True).start()
        self.template = f"places_{args.places}"
        self.runs = 0

    def url(self, database):
        return self.server.url.replace("/postgres?", f"/{database}?")

    def psql(self, sql):
        subprocess.run([private_postgres.postgres_bin("psql"), "-q", "-v", "ON_ERROR_STOP=1", "-c", sql, self.server.url],
                       check=True, stdout=subprocess.DEVNULL)

    def seeded(self, args, csv):
        """The template database, seeded from the CSV with `places seed` (timed) unless it is there already."""
        exists = subprocess.run([private_postgres.postgres_bin("psql"), "-tAc",
                                 f"SELECT 1 FROM pg_database WHERE datname = '{self.template}'", self.server.url],
                                capture_output=True, text=True, check=True).stdout.strip() == "1"
        if not exists:
            self.psql(f"CREATE DATABASE {self.template}_part")
            started = time.monotonic()
            subprocess.run([args.binary, "seed", csv, "--database", self.url(self.template + "_part")], check=True)
            print(f"load: seeded {args.places:,} places into PostgreSQL in {time.monotonic() - started:.1f} s", file=sys.stderr)
            self.psql(f"ALTER DATABASE {self.template}_part RENAME TO {self.template}")
        return self

    def fresh(self):
        """A new database copied from the template, for one run (the one before it dropped)."""
        if self.runs:
            self.psql(f"DROP DATABASE IF EXISTS run_{self.runs} WITH (FORCE)")
        self.runs += 1
        self.psql(f"DROP DATABASE IF EXISTS run_{self.runs} WITH (FORCE)")  # left by a run that was stopped
        self.psql(f"CREATE DATABASE run_{self.runs} TEMPLATE {self.template}")
        # The copy's pages are written out now, not by the checkpointer in the middle of the measured run.
        self.psql("CHECKPOINT")
        return self.url(f"run_{self.runs}")

    def stop(self):
        self.server.stop()


def on_each_engine(args, measure):
    """`measure(args, engine, database)` on a fresh copy of the seeded SQLite database, then, with --postgres, on a
    fresh PostgreSQL database seeded from the same CSV; their results, in that order."""
    database = seeded_database(args)
    fresh = os.path.join(args.work, "run.sqlite")
    places_server.fresh_copy(database, fresh)
    results = [measure(args, "sqlite", fresh)]
    if args.postgres:
        postgres = Postgres(args).seeded(args, os.path.join(args.work, f"places-{args.places}.csv"))
        try:
            results.append(measure(args, "postgres", postgres.fresh()))
        finally:
            postgres.stop()
    return results


def wrk(args, server, script, script_args, seconds):
    command = ["wrk", f"-t{args.threads}", f"-c{args.connections}", f"-d{seconds}s", "--timeout", "5s",
               "-s", os.path.join(here, script), server.base, "--"] + script_args
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    line = next((line for line in output.splitlines() if line.startswith("LOAD ")), None)
    if line is None:
        raise SystemExit("load: wrk printed no summary:\n" + output)
    return {key: float(value) for key, value in re.findall(r"(\w+)=([\d.]+)", line)}


def mixed_setup(args, server):
    """Eight users in a group with an open tiered decision (a ninth member never votes, so it stays open)."""
    tokens = []
    for i in range(9):
        name = f"load{i}"
        server.expect("POST", "/v1/auth/register", {"username": name, "email": f"{name}@example.com", "password": "a long password"},
                      status=201)
        tokens.append(server.expect("POST", "/v1/auth/login", {"username": name, "password": "a long password"})["token"])
    group = server.expect("POST", "/v1/groups", {"name": "Load crew"}, tokens[0], status=201)["id"]
    for i in range(1, 9):
        server.expect("POST", f"/v1/groups/{group}/invitations", {"username": f"load{i}"}, tokens[0], status=201)
        server.expect("POST", f"/v1/me/invitations/{group}/accept", None, tokens[i])
    candidates = [f"gen-{i}" for i in range(5)]
    decision = server.expect("POST", "/v1/decisions", {"groupId": group, "method": "tiered", "title": "Load test",
                                                        "candidates": {"placeIds": candidates}}, tokens[0], status=201)["id"]
    path = os.path.join(args.work, "mixed-setup.txt")
    with open(path, "w") as setup:
        setup.write(" ".join(["places", str(args.places), decision] + candidates) + "\n")
        setup.write("\n".join(tokens[:8]) + "\n")
    return [path]


KINDS = [
    ("nearby", re.compile(r"^GET /v1/places/nearby\b")),
    ("place", re.compile(r"^GET /v1/places/[^/?]+$")),
    ("add", re.compile(r"^POST /v1/places$")),
    ("rating", re.compile(r"^PUT /v1/places/[^/]+/rating$")),
    ("ballot", re.compile(r"^PUT /v1/decisions/[^/]+/ballot$")),
]
ACCESS = re.compile(r"latency_ms=([\d.]+).* ((?:GET|PUT|POST|PATCH|DELETE) \S+) \d{3}$")


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def per_kind(log_path, offset):
    """p50/p99 (ms) and count per kind of request, from the access lines the server logged after `offset`."""
    latencies = {kind: [] for kind, _ in KINDS}
    with open(log_path, errors="replace") as log:
        log.seek(offset)
        for line in log:
            match = ACCESS.search(line.rstrip())
            if not match:
                continue
            for kind, pattern in KINDS:
                if pattern.search(match.group(2)):
                    latencies[kind].append(float(match.group(1)))
                    break
    return {kind: {"n": len(values), "p50_ms": percentile(values, 0.5), "p99_ms": percentile(values, 0.99)}
            for kind, values in latencies.items() if values}


def run(args, name, database, binary, postgres=None):
    if postgres:
        fresh = postgres.fresh()
    else:
        fresh = os.path.join(args.work, "run.sqlite")
        places_server.fresh_copy(database, fresh)
    # What the copy (or the database made from the template) and the run before left to write reaches the disk now,
    # not in the middle of this run.
    os.sync()
    server = Server(args, fresh, binary)
    try:
        script, script_args = ("nearby.lua", ["1", "50"]) if name == "nearby" else ("mixed.lua", mixed_setup(args, server))
        started = server.rss_mib()
        wrk(args, server, script, script_args, args.warmup)
        before = server.rss_mib()
        offset = os.path.getsize(server.log_path)
        result = wrk(args, server, script, script_args, args.seconds)
        after = server.rss_mib()
    finally:
        server.stop()
    result.update(rss_start_mib=round(started, 1), rss_before_mib=round(before, 1), rss_after_mib=round(after, 1),
                  rss_growth_pct=round(100 * (after - before) / before, 1), kinds=per_kind(server.log_path, offset))
    return result


def median_result(results):
    """The median of each figure over rounds (per kind too)."""
    merged = {key: statistics.median(r[key] for r in results) for key in results[0] if key != "kinds"}
    kinds = {}
    for kind in results[0]["kinds"]:
        rows = [r["kinds"][kind] for r in results if kind in r["kinds"]]
        kinds[kind] = {key: statistics.median(row[key] for row in rows) for key in rows[0]}
    merged["kinds"] = kinds
    return merged


def main():
    args = parse_arguments()
    if shutil.which("wrk") is None:
        raise SystemExit("load: wrk is not installed (apt-get install wrk)")
    builds = [("this", args.binary, None)] + ([("compared", args.compare, None)] if args.compare else [])
    for _, binary, _ in builds:
        if not os.path.exists(binary):
            raise SystemExit(f"load: no binary at {binary}; run `swift build -c release` first")
    database = seeded_database(args)
    postgres = None
    if args.postgres:
        postgres = Postgres(args).seeded(args, os.path.join(args.work, f"places-{args.places}.csv"))
        builds = [("sqlite", args.binary, None), ("postgres", args.binary, postgres)]
        if args.compare:
            builds.append(("compared", args.compare, postgres))  # the other build on PostgreSQL too
    rounds = args.rounds if args.compare or args.postgres else 1
    try:
        results, rates = measure(args, builds, database, rounds)
    finally:
        if postgres:
            postgres.stop()
    report(args, results)
    if args.postgres:
        report_ratios(rates)


def measure(args, builds, database, rounds):
    """Every load with every build, in alternating rounds (each round begins with the next build); the medians by
    (load, build), and each round's rate by (load, build)."""
    results, rates = {}, {}
    for name in [args.only] if args.only else ["nearby", "mixed"]:
        print(f"load: {name}, {args.places:,} places, {args.connections} connections, {args.warmup} s warm-up, {args.seconds} s measured"
              f", {rounds} round(s) of {len(builds)} build(s)", file=sys.stderr)
        runs = {build: [] for build, _, _ in builds}
        for number in range(rounds):
            # Each round starts with the next build, so that none always runs right after the same one (the one before
            # a run leaves it its files to write, and the host's slower minutes fall on every build alike).
            for build, binary, postgres in builds[number % len(builds):] + builds[:number % len(builds)]:
                runs[build].append(run(args, name, database, binary, postgres))
        for build, _, _ in builds:
            results[(name, build)] = median_result(runs[build])
            rates[(name, build)] = [r["rps"] for r in runs[build]]
    return results, rates


def report_ratios(rates):
    """Each round's rate on PostgreSQL over SQLite's in the same round, and their median: a round's runs follow one
    another, so a slower stretch of the host weighs on both sides of its ratio."""
    print("\nPostgreSQL's rate over SQLite's, round by round:")
    for (name, build), rounds in rates.items():
        if build == "sqlite":
            continue
        ratios = [rate / sqlite for rate, sqlite in zip(rounds, rates[(name, "sqlite")])]
        print(f"{name:8} {build:9} " + "  ".join(f"{ratio:.2f}" for ratio in ratios) + f"   median {statistics.median(ratios):.2f}")


def report(args, results):
    print(f"{'load':8} {'build':9} {'req/s':>9} {'target':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} {'RSS MiB before→after':>21} {'growth':>7}")
    for (name, build), r in results.items():
        print(f"{name:8} {build:9} {r['rps']:9,.0f} {TARGETS[name]:7,} {r['p50_ms']:7.2f} {r['p99_ms']:7.2f} {int(r['errors']):6} "
              f"{r['rss_before_mib']:10.0f} → {r['rss_after_mib']:<8.0f} {r['rss_growth_pct']:6.1f}%")
    print(f"\nper kind, as the server timed it (log level info):\n{'load':8} {'build':9} {'kind':7} {'count':>7} {'p50 ms':>7} {'p99 ms':>8}")
    for (name, build), r in results.items():
        for kind, k in r["kinds"].items():
            print(f"{name:8} {build:9} {kind:7} {int(k['n']):7} {k['p50_ms']:7.2f} {k['p99_ms']:8.2f}")
    if args.json:
        print(json.dumps({f"{name}/{build}": r for (name, build), r in results.items()}, sort_keys=True))


if __name__ == "__main__":
    main()
