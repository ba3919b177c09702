#!/usr/bin/env python3
"""Nearby over HTTP against Redis GEOSEARCH asked the same question, side by side in one run.

Both hold the same N generated places (Tests/tools/generate_places.py, 1,000,000 by default) and answer
"the 50 nearest places within 1 mile, with their distances, nearest first" to 64 connections at once:

- places: `places serve` (release) loaded by wrk with Tests/load/nearby-at-places.lua, one thread;
- Redis: redis-server (no persistence) loaded by redis-benchmark, one thread:
  `GEOSEARCH places FROMMEMBER <random place> BYRADIUS 1 mi ASC COUNT 50 WITHDIST`.

The centres are the same on both sides in distribution: each request is centred on a place drawn at random from
the data set (redis-benchmark's `-r` draws a random member, named by its 12-digit row number; wrk draws from a
sample of 100,000 places' coordinates). Redis looks the member's position up first (one hash lookup, which a
FROMLONLAT query would not need, next to a radius search that PERFORMANCE.md measured at about 200 µs).

Each round runs every side once, in an order that rotates from round to round, each after its own warm-up; the
medians over the rounds and their ratio are printed, with every round's figures. With --before BINARY a second
places server (for example a release build of main) runs beside the first, so before and after are measured in
the same run; the places servers' resident memory is printed too (the difference between two builds, divided by
the places, is the memory a build adds per place).

    swift build -c release
    Tests/load/nearby-vs-redis.py                                   # 1M places, 3 rounds of 20 s
    Tests/load/nearby-vs-redis.py --before /work/wt-before/.build/release/places --rounds 3

Needs wrk, redis-server and redis-benchmark (Debian: apt-get install wrk redis-server redis-tools). The generated
CSV and its seeded database are shared with Tests/load/run-load.py (--work, default /tmp/places-load).
"""
import argparse, csv, importlib.util, json, os, random, re, shutil, socket, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ left beside the shared module
import places_server

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"), help="the places server measured")
    parser.add_argument("--before", help="another places binary to measure beside it (e.g. a release build of main)")
    run_load.add_measurement_arguments(parser, seconds=20, warmup=5)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--radius", type=float, default=1, help="miles")
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--port", type=int, default=18790, help="first of the ports used (places, before, Redis)")
    return parser.parse_args()


def free_port(port):
    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", port)) == 0:
            raise SystemExit(f"nearby-vs-redis: port {port} is taken; pass another --port")
    return port


class PlacesSide:
    """A `places serve` on its own copy of the seeded database, loaded by wrk."""

    def __init__(self, name, binary, port, args, database):
        self.name = name
        copy = os.path.join(args.work, f"vs-redis-{name}.sqlite")
        places_server.fresh_copy(database, copy)
        server_args = argparse.Namespace(**vars(args))
        server_args.binary, server_args.port = binary, free_port(port)
        server_args.work = os.path.join(args.work, f"vs-redis-{name}")
        os.makedirs(server_args.work, exist_ok=True)
        self.server = run_load.Server(server_args, copy, binary)
        self.args = args
        self.log = os.path.join(server_args.work, "server.log")

    def index_load_seconds(self):
        """How long the server took to load its index at start-up, from its log."""
        with open(self.log) as log:
            for line in log:
                if "index loaded" in line:
                    found = re.search(r"took=([\d.]+)", line)
                    return float(found.group(1)) if found else None
        return None

    def load(self, seconds, centres):
        command = ["wrk", "-t1", f"-c{self.args.connections}", f"-d{seconds}s", "--timeout", "5s",
                   "-s", os.path.join(here, "nearby-at-places.lua"), self.server.base, "--",
                   centres, f"{self.args.radius:g}", str(self.args.limit)]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        line = next((line for line in output.splitlines() if line.startswith("LOAD ")), None)
        if line is None:
            raise SystemExit("nearby-vs-redis: wrk printed no summary:\n" + output)
        result = {key: float(value) for key, value in re.findall(r"(\w+)=([\d.]+)", line)}
        if result["errors"]:
            raise SystemExit(f"nearby-vs-redis: {self.name} answered with errors: {line}")
        return {"rps": result["rps"], "p50_ms": result["p50_ms"], "p99_ms": result["p99_ms"]}

    def rss_mib(self):
        return self.server.rss_mib()

    def stop(self):
        self.server.stop()


class RedisSide:
    """A redis-server without persistence holding the same places, loaded by redis-benchmark."""

    name = "redis"

    def __init__(self, port, args, csv_path):
        self.port, self.args = free_port(port), args
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 30
        while subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True).stdout.strip() != "PONG":
            if time.time() > deadline or self.process.poll() is not None:
                self.stop()
                raise SystemExit("nearby-vs-redis: redis-server did not start")
            time.sleep(0.1)
        self.fill(csv_path)

    def fill(self, csv_path):
        """GEOADD every place, named by its 12-digit row number (the name redis-benchmark's -r draws)."""
        def command(*words):
            parts = [f"*{len(words)}\r\n"] + [f"${len(word.encode())}\r\n{word}\r\n" for word in words]
            return "".join(parts)

        pipe = subprocess.Popen(["redis-cli", "-p", str(self.port), "--pipe"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL)
        batch = []
        with open(csv_path, newline="") as rows:
            for i, row in enumerate(csv.DictReader(rows)):
                batch += [row["lon"], row["lat"], f"{i:012d}"]
                if len(batch) >= 3_000:
                    pipe.stdin.write(command("GEOADD", "places", *batch).encode())
                    batch = []
        if batch:
            pipe.stdin.write(command("GEOADD", "places", *batch).encode())
        pipe.stdin.close()
        pipe.wait()
        count = int(subprocess.run(["redis-cli", "-p", str(self.port), "zcard", "places"], capture_output=True, text=True).stdout)
        if count != self.args.places:
            raise SystemExit(f"nearby-vs-redis: Redis holds {count} places, not {self.args.places}")

    def load(self, seconds, centres):
        # redis-benchmark counts requests, not seconds: a short probe sets how many make `seconds`.
        probe = self.benchmark(2_000)
        return self.benchmark(max(2_000, int(probe["rps"] * seconds)))

    def benchmark(self, requests):
        command = ["redis-benchmark", "-p", str(self.port), "-c", str(self.args.connections), "-n", str(requests),
                   "-r", str(self.args.places), "--csv",
                   "GEOSEARCH", "places", "FROMMEMBER", "__rand_int__", "BYRADIUS", f"{self.args.radius:g}", "mi",
                   "ASC", "COUNT", str(self.args.limit), "WITHDIST"]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        rows = list(csv.reader(output.strip().splitlines()))
        header, values = rows[0], rows[-1]
        result = dict(zip(header, values))
        return {"rps": float(result["rps"]), "p50_ms": float(result["p50_latency_ms"]), "p99_ms": float(result["p99_latency_ms"])}

    def rss_mib(self):
        return places_server.rss_mib(self.process.pid)

    def stop(self):
        places_server.stop(self.process)


def centres_file(args, csv_path):
    """100,000 places' coordinates drawn at random (seeded), one "LAT LON" line each, for wrk."""
    path = os.path.join(args.work, f"centres-{args.places}.txt")
    if not os.path.exists(path):
        with open(csv_path, newline="") as rows:
            coordinates = [(row["lat"], row["lon"]) for row in csv.DictReader(rows)]
        sample = random.Random(1).sample(coordinates, min(100_000, len(coordinates)))
        with open(path, "w") as out:
            out.writelines(f"{lat} {lon}\n" for lat, lon in sample)
    return path


def main():
    args = parse_arguments()
    for tool in ("wrk", "redis-server", "redis-cli", "redis-benchmark"):
        if shutil.which(tool) is None:
            raise SystemExit(f"nearby-vs-redis: {tool} is not installed (apt-get install wrk redis-server redis-tools)")
    for binary in [args.binary] + ([args.before] if args.before else []):
        if not os.path.exists(binary):
            raise SystemExit(f"nearby-vs-redis: no binary at {binary}; build it with `swift build -c release` first")
    args.binary = os.path.abspath(args.binary)
    database = run_load.seeded_database(args)
    csv_path = os.path.join(args.work, f"places-{args.places}.csv")
    centres = centres_file(args, csv_path)
    sides = []
    try:
        print(f"nearby-vs-redis: starting servers with {args.places:,} places", file=sys.stderr)
        sides.append(PlacesSide("places", args.binary, args.port, args, database))
        if args.before:
            sides.append(PlacesSide("before", os.path.abspath(args.before), args.port + 1, args, database))
        sides.append(RedisSide(args.port + 2, args, csv_path))
        results = {side.name: [] for side in sides}
        memory = {}
        loading = {side.name: side.index_load_seconds() for side in sides if isinstance(side, PlacesSide)}
        for turn in range(args.rounds):
            order = sides[turn % len(sides):] + sides[:turn % len(sides)]
            for side in order:
                print(f"nearby-vs-redis: round {turn + 1}/{args.rounds}: {side.name}", file=sys.stderr)
                side.load(args.warmup, centres)
                result = side.load(args.seconds, centres)
                result["rss_mib"] = round(side.rss_mib(), 1)
                results[side.name].append(result)
                memory[side.name] = result["rss_mib"]
    finally:
        for side in sides:
            side.stop()
    report(args, results, memory, loading)


def report(args, results, memory, loading):
    medians = {name: statistics.median(r["rps"] for r in runs) for name, runs in results.items()}
    print(f"nearby {args.radius:g} mi, limit {args.limit}, {args.connections} connections, {args.places:,} places, "
          f"{args.rounds} rounds of {args.seconds} s (median; every round in brackets)")
    print(f"{'side':8} {'req/s':>9} {'× Redis':>8} {'p50 ms':>7} {'p99 ms':>7} {'RSS MiB':>8}  rounds (req/s)")
    for name, runs in results.items():
        ratio = medians[name] / medians["redis"]
        print(f"{name:8} {medians[name]:9,.0f} {ratio:8.2f} {statistics.median(r['p50_ms'] for r in runs):7.2f} "
              f"{statistics.median(r['p99_ms'] for r in runs):7.2f} {memory[name]:8.0f}  "
              "[" + ", ".join(f"{r['rps']:,.0f}" for r in runs) + "]")
    if "before" in results:
        extra = (memory["places"] - memory["before"]) * 1024 * 1024 / args.places
        print(f"places / before: {medians['places'] / medians['before']:.2f}×; resident memory {extra:+.0f} bytes a place")
    for name, seconds in loading.items():
        print(f"{name}: index loaded at start-up in {seconds} s")
    if args.json:
        print(json.dumps({"medians": medians, "runs": results, "index_load_seconds": loading}, sort_keys=True))


if __name__ == "__main__":
    main()
