#!/usr/bin/env python3
"""Change-feed lag: how long after a place write through one instance the place is in another instance's nearby
answers, over PostgreSQL (LISTEN/NOTIFY, with the 1 s poll behind it).

Starts a private PostgreSQL server (or uses --database URL, an empty database), two `places serve` instances on it,
and writes --writes places through the first, one at a time; after each 201 it asks the second for the place's point
(keep-alive, as fast as it answers) until the place is there, and prints the lag's median, p99 and maximum.

Every transaction still open holds the feed back (its horizon), so --hold-open S measures what that costs: it opens a
writing transaction with psql after the first tenth of the writes and commits it S seconds later. The writes made while
it was open are reported apart (they reach the second instance when it ends; the writer waits for each, so those are
few). A seed into the live database holds nothing back (it is announced once it commits): --seed FILE runs `places seed
FILE` meanwhile, reports the writes made while it ran apart, and how long after the seed ended its last row was in the
second instance's answers. Every place must arrive exactly once.

    swift build -c release
    Tests/load/feed-lag.py                      # 1,000 writes
    Tests/load/feed-lag.py --hold-open 2        # with a transaction held open for 2 s among them
    Tests/load/feed-lag.py --seed /tmp/places-load/places-1000000.csv --writes 3000
"""
import argparse, csv, http.client, json, os, random, statistics, subprocess, sys, tempfile, threading, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server
import private_postgres


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


class Client:
    """One keep-alive connection to an instance."""

    def __init__(self, port):
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def call(self, method, path, body=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
                response = self.connection.getresponse()
                return response.status, json.loads(response.read() or b"null")
            except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
                # A keep-alive connection the server closed while it sat idle (the writer waits while a seed runs).
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                if attempt == 1:
                    raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    parser.add_argument("--database", help="a postgres:// URL of an empty database (default: a private server)")
    parser.add_argument("--writes", type=int, default=1000)
    parser.add_argument("--ports", default="18801,18802")
    parser.add_argument("--hold-open", type=float, help="seconds a psql transaction stays open among the writes")
    parser.add_argument("--seed", help="a seed file loaded into the live database among the writes")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="places-feed-lag-")
    os.chmod(work, 0o755)  # the server runs as the postgres user when we are root
    server = None
    url = args.database
    if url is None:
        server = private_postgres.PrivatePostgres(os.path.join(work, "postgres"), fsync=True).start()
        url = server.url
    ports = [int(p) for p in args.ports.split(",")]
    instances = []
    try:
        for index, port in enumerate(ports):
            instances.append(places_server.start(
                args.binary,
                ["--database", url, "--port", str(port), "--seeds", os.path.join(work, "no-seeds"), "--bcrypt-cost", "4",
                 "--places-per-day", "100000000", "--log-level", "warning"],
                os.path.join(work, f"instance-{index}.log"), f"http://127.0.0.1:{port}", seconds=60, who="feed-lag"))
        writer, reader = Client(ports[0]), Client(ports[1])
        writer.call("POST", "/v1/auth/register", {"username": "lag", "email": "lag@example.com", "password": "a long password"})
        token = writer.call("POST", "/v1/auth/login", {"username": "lag", "password": "a long password"})[1]["token"]
        rng = random.Random(13)
        lags = []
        # What holds the feed back meanwhile, started after the first tenth of the writes: [started, ended].
        holding = {"started": None, "ended": None}

        def hold_open():
            holding["started"] = time.monotonic()
            psql = subprocess.Popen(["psql", "-q", url], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
            psql.stdin.write("BEGIN;\nUPDATE change_counter SET generation = generation;\n")
            psql.stdin.flush()
            time.sleep(args.hold_open)
            psql.stdin.write("COMMIT;\n")
            psql.stdin.close()
            psql.wait()
            holding["ended"] = time.monotonic()

        def seed():
            holding["started"] = time.monotonic()
            subprocess.run([args.binary, "seed", args.seed, "--database", url], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            holding["ended"] = time.monotonic()
            # The seed's last row, in the second instance's answers once the seed has committed and been announced
            # (asked on a connection of its own while the writes go on).
            if not args.seed.endswith(".csv"):
                return
            with open(args.seed, newline="") as rows:
                last = list(csv.DictReader(rows))[-1]
            watcher = Client(ports[1])
            while True:
                _, near = watcher.call("GET", f"/v1/places/nearby?lat={last['lat']}&lon={last['lon']}&radius=0.01&limit=50")
                if any(p["name"] == last["name"] for p in near["places"]):
                    holding["visible_after"] = time.monotonic() - holding["ended"]
                    return
                if time.monotonic() - holding["ended"] > 300:
                    holding["failure"] = "feed-lag: the seed's places never reached the second instance"
                    return
                time.sleep(0.01)

        holder = None
        during = []
        unknown = []
        for n in range(args.writes):
            if n == args.writes // 10 and (args.hold_open or args.seed):
                holder = threading.Thread(target=hold_open if args.hold_open else seed)
                holder.start()
                while holding["started"] is None:
                    time.sleep(0.001)
                time.sleep(0.2)  # the holder's transaction has begun (psql's, or the seed's after reading its first rows)
            lat, lon = rng.uniform(-60, 60), rng.uniform(-170, 170)
            status, place = writer.call("POST", "/v1/places", {"name": f"Lag {n}", "kind": "gem", "lat": lat, "lon": lon}, token)
            written = time.monotonic()
            open_meanwhile = holding["started"] is not None and holding["ended"] is None
            if status == 503 and holding["started"] is not None and args.seed:
                # The seed's writes (and the checkpoint after them) keep the disk busy: a commit that waits longer than
                # a request may (3 s) answers `outcome_unknown`. Counted and reported; the write is not measured.
                unknown.append(n)
                continue
            if status != 201:
                raise SystemExit(f"feed-lag: write {n} answered {status}: {place}")
            while True:
                _, near = reader.call("GET", f"/v1/places/nearby?lat={lat}&lon={lon}&radius=0.1&limit=5")
                matches = [p["id"] for p in near["places"] if p["id"] == place["id"]]
                if len(matches) > 1:
                    raise SystemExit(f"feed-lag: write {n} is in the second instance's answer {len(matches)} times")
                if matches:
                    lag = (time.monotonic() - written) * 1000
                    (during if open_meanwhile else lags).append(lag)
                    break
                if time.monotonic() - written > 120:
                    raise SystemExit(f"feed-lag: write {n} never reached the second instance")
        if holder:
            holder.join()
        if holding.get("failure"):
            raise SystemExit(holding["failure"])
        print(f"feed lag over {len(lags)} writes: median {statistics.median(lags):.2f} ms, p99 {percentile(lags, 0.99):.2f} ms, "
              f"max {max(lags):.2f} ms")
        result = {"writes": len(lags), "median_ms": statistics.median(lags), "p99_ms": percentile(lags, 0.99), "max_ms": max(lags)}
        if during:
            held = holding["ended"] - holding["started"]
            print(f"  {len(during)} write(s) made while the {'transaction' if args.hold_open else 'seed'} was open "
                  f"({held:.1f} s): reached the other instance after a median {statistics.median(during):.1f} ms, "
                  f"p99 {percentile(during, 0.99):.1f} ms, max {max(during):.1f} ms")
            result.update({"held_s": held, "during_writes": len(during), "during_median_ms": statistics.median(during),
                           "during_p99_ms": percentile(during, 0.99), "during_max_ms": max(during)})
        if unknown:
            print(f"  {len(unknown)} write(s) made during or after the seed answered 503 outcome_unknown (the commit waited over 3 s)")
            result["during_unknown"] = len(unknown)
        if "visible_after" in holding:
            print(f"  the seed's last row was in the other instance's answers {holding['visible_after']:.1f} s after the seed ended")
            result["seed_visible_after_s"] = holding["visible_after"]
        print(json.dumps(result))
    finally:
        for instance in instances:
            places_server.stop(instance)
        if server:
            server.stop()


if __name__ == "__main__":
    main()
