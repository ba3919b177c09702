#!/usr/bin/env python3
"""A decision of 50 members voted through over HTTP, every ballot timed, on a release `places serve`.

Registers --members people (bcrypt cost 4), puts them in one group and starts a tiered decision on five places.
Then it votes two decisions through: the first one ballot after another (each ballot's round trip timed by the
client, the last one completing the decision), the second with every ballot sent at once from its own thread (it
must complete exactly once, counting every ballot). It prints p50, p90 and the slowest ballot, the final ballot's
time, and checks each decision's result. With --compare OTHER_BINARY it does the same on another build, in
alternating rounds, so two builds are measured side by side in one run.

    swift build -c release
    Tests/load/ballots.py                                        # 50 members, one round
    Tests/load/ballots.py --compare ../before/.build/release/places --rounds 3

The places come from run-load.py's generated data set (--places, default 10,000, kept in --work).
"""
import argparse, importlib.util, json, os, statistics, sys, threading, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

spec = importlib.util.spec_from_file_location("run_load", os.path.join(here, "run-load.py"))
run_load = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_load)


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    parser.add_argument("--compare", help="another build of places (e.g. the previous main) run beside --binary")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--members", type=int, default=50)
    parser.add_argument("--places", type=int, default=10_000)
    parser.add_argument("--port", type=int, default=18785)
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--work", default="/tmp/places-load")
    parser.add_argument("--json", action="store_true", help="also print the results as one JSON object")
    return parser.parse_args()


def timed(server, method, path, body, token):
    started = time.perf_counter()
    code, answer = server.call(method, path, body, token)
    return (time.perf_counter() - started) * 1000, code, answer


def start_decision(server, group, tokens, title):
    body = {"groupId": group, "method": "tiered", "title": title, "candidates": {"placeIds": [f"gen-{i}" for i in range(5)]}}
    return server.expect("POST", "/v1/decisions", body, tokens[0], status=201)["id"]


def ranking(voter):
    """Each voter's order of the five candidates, rotated by the voter's number."""
    places = [f"gen-{i}" for i in range(5)]
    return places[voter % 5:] + places[:voter % 5]


def check_completed(server, decision, token, members):
    view = server.expect("GET", f"/v1/decisions/{decision}", None, token)
    if view["status"] != "completed" or view["result"]["ballotCount"] != members or len(view["participants"]) != members:
        raise SystemExit(f"ballots: decision {decision} ended as {view['status']} with {view.get('result')}")
    return view["result"]["winner"]


def one_round(args, database, binary):
    fresh = os.path.join(args.work, "ballots.sqlite")
    run_load.places_server.fresh_copy(database, fresh)
    server = run_load.Server(args, fresh, binary)
    try:
        tokens = []
        for i in range(args.members):
            name = f"voter{i}"
            server.expect("POST", "/v1/auth/register", {"username": name, "email": f"{name}@example.com", "password": "a long password"},
                          status=201)
            tokens.append(server.expect("POST", "/v1/auth/login", {"username": name, "password": "a long password"})["token"])
        group = server.expect("POST", "/v1/groups", {"name": "Fifty"}, tokens[0], status=201)["id"]
        for i in range(1, args.members):
            server.expect("POST", f"/v1/groups/{group}/invitations", {"username": f"voter{i}"}, tokens[0], status=201)
            server.expect("POST", f"/v1/me/invitations/{group}/accept", None, tokens[i])

        one_by_one = start_decision(server, group, tokens, "One by one")
        sequential = []
        for i, token in enumerate(tokens):
            ms, code, answer = timed(server, "PUT", f"/v1/decisions/{one_by_one}/ballot", {"ranking": ranking(i)}, token)
            if code != 200:
                raise SystemExit(f"ballots: ballot {i} answered {code}: {answer}")
            sequential.append(ms)
        check_completed(server, one_by_one, tokens[0], args.members)

        at_once = start_decision(server, group, tokens, "All at once")
        parallel = [None] * args.members
        def cast(i):
            parallel[i] = timed(server, "PUT", f"/v1/decisions/{at_once}/ballot", {"ranking": ranking(i)}, tokens[i])
        threads = [threading.Thread(target=cast, args=(i,)) for i in range(args.members)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        refused = [(code, answer) for _, code, answer in parallel if code != 200]
        if refused:
            raise SystemExit(f"ballots: {len(refused)} simultaneous ballots refused, e.g. {refused[0]}")
        check_completed(server, at_once, tokens[0], args.members)
    finally:
        server.stop()
    ordered = sorted(sequential)
    return {"p50_ms": statistics.median(sequential), "p90_ms": ordered[int(0.9 * (len(ordered) - 1))], "max_ms": ordered[-1],
            "final_ms": sequential[-1], "at_once_p50_ms": statistics.median(ms for ms, _, _ in parallel),
            "at_once_max_ms": max(ms for ms, _, _ in parallel)}


def main():
    args = parse_arguments()
    # The run registers every member from one address.
    os.environ["PLACES_REGISTRATIONS_PER_HOUR"] = str(max(20, 2 * args.members))
    builds = [("this", args.binary)] + ([("compared", args.compare)] if args.compare else [])
    for _, binary in builds:
        if not os.path.exists(binary):
            raise SystemExit(f"ballots: no binary at {binary}; run `swift build -c release` first")
    database = run_load.seeded_database(args)
    runs = {build: [] for build, _ in builds}
    for _ in range(args.rounds):
        for build, binary in builds:
            runs[build].append(one_round(args, database, binary))
    print(f"{args.members} members, tiered, 5 candidates; ballots one after another (client-timed round trips), then all at once; "
          f"median of {args.rounds} round(s)")
    print(f"{'build':9} {'p50 ms':>7} {'p90 ms':>7} {'max ms':>7} {'final ms':>8} {'at once p50':>11} {'at once max':>11}")
    results = {}
    for build, _ in builds:
        r = {key: statistics.median(run[key] for run in runs[build]) for key in runs[build][0]}
        results[build] = r
        print(f"{build:9} {r['p50_ms']:7.2f} {r['p90_ms']:7.2f} {r['max_ms']:7.2f} {r['final_ms']:8.2f} {r['at_once_p50_ms']:11.2f} "
              f"{r['at_once_max_ms']:11.2f}")
    if args.json:
        print(json.dumps(results, sort_keys=True))


if __name__ == "__main__":
    main()
