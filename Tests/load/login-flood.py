#!/usr/bin/env python3
"""bcrypt as a lever: a flood of wrong logins from many addresses, timed against a legitimate login and nearby.

Starts each given release `places serve` in turn (production bcrypt cost 12, behind a trusted proxy so that every
attacker has an address of its own), registers one real account, then runs wrk with --attackers connections sending
wrong passwords for unknown accounts, each request from one of --attackers addresses (so none reaches its own
throttle). Meanwhile one client logs in with the right password and asks for nearby places, one request after the
other, and the script prints their latencies and statuses, and what the attackers were answered.

    swift build -c release
    Tests/load/login-flood.py                                   # the release build
    Tests/load/login-flood.py --binary before=/path/to/old/places --binary after=.build/release/places

Needs wrk (Debian's package: apt-get install wrk). Binaries given together are measured one after the other in one
run, each on a fresh database, so their figures can be compared.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time, urllib.error, urllib.request

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))

ATTACK_LUA = r"""
local addresses = tonumber(os.getenv("FLOOD_ADDRESSES") or "40")
local counter = 0
function request()
    counter = counter + 1
    local address = string.format("198.18.%d.%d", math.floor((counter % addresses) / 250), (counter % addresses) % 250 + 1)
    local body = string.format('{"username":"nobody%d","password":"wrong password %d"}', counter % 1000, counter)
    return wrk.format("POST", "/v1/auth/login", {["Content-Type"] = "application/json", ["X-Forwarded-For"] = address}, body)
end
function done(summary, latency, requests)
    io.write(string.format("FLOOD requests=%d p50_ms=%.1f p99_ms=%.1f\n", summary.requests,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", action="append", help="LABEL=PATH of a `places` binary; repeatable (default: the release build)")
    parser.add_argument("--attackers", type=int, default=40, help="concurrent attacking connections, each address its own")
    parser.add_argument("--seconds", type=int, default=20, help="length of the flood")
    parser.add_argument("--bcrypt-cost", type=int, default=12)
    parser.add_argument("--port", type=int, default=18790)
    parser.add_argument("--json", action="store_true", help="also print the results as one JSON object")
    return parser.parse_args()


def call(base, method, path, body=None, headers=None, timeout=60):
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return status, (time.monotonic() - started) * 1000


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


def measure(label, binary, args, work):
    database = os.path.join(work, f"{label}.sqlite")
    log = open(os.path.join(work, f"{label}.log"), "w")
    server = subprocess.Popen(
        [binary, "serve", "--database", database, "--port", str(args.port), "--seeds", os.path.join(root, "Seeds"),
         "--bcrypt-cost", str(args.bcrypt_cost), "--trusted-proxy", "127.0.0.1", "--log-level", "warning"],
        stdout=log, stderr=log)
    base = f"http://127.0.0.1:{args.port}"
    try:
        for _ in range(600):
            try:
                if call(base, "GET", "/health", timeout=1)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)
        else:
            raise SystemExit(f"login-flood: {label} did not start; see {log.name}")
        owner = {"X-Forwarded-For": "192.0.2.10"}
        account = {"username": "owner", "email": "owner@example.com", "password": "the owner's password"}
        call(base, "POST", "/v1/auth/register", account, owner)
        quiet = [call(base, "POST", "/v1/auth/login", {"username": "owner", "password": account["password"]}, owner) for _ in range(5)]

        script = os.path.join(work, "flood.lua")
        with open(script, "w") as file:
            file.write(ATTACK_LUA)
        environment = dict(os.environ, FLOOD_ADDRESSES=str(args.attackers))
        flood = subprocess.Popen(
            ["wrk", "-t1", f"-c{args.attackers}", f"-d{args.seconds}s", "--timeout", "60s", "-s", script, base],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=environment)
        time.sleep(2)  # let the flood fill the server first
        logins, nearby = [], []
        deadline = time.monotonic() + args.seconds - 4
        while time.monotonic() < deadline:
            logins.append(call(base, "POST", "/v1/auth/login", {"username": "owner", "password": account["password"]}, owner))
            nearby.append(call(base, "GET", "/v1/places/nearby?lat=37.7596&lon=-122.4269&radius=1&limit=10"))
        output, _ = flood.communicate(timeout=args.seconds + 120)
    finally:
        server.terminate()
        server.wait(timeout=30)

    flood_line = next((line for line in output.splitlines() if line.startswith("FLOOD")), "FLOOD requests=0")
    fields = dict(part.split("=") for part in flood_line.split()[1:])
    statuses = {}
    for line in output.splitlines():
        if "Non-2xx" in line:
            statuses["non-2xx"] = int(line.split(":")[1])

    def summary(samples):
        times = [milliseconds for _, milliseconds in samples]
        codes = {}
        for status, _ in samples:
            codes[status] = codes.get(status, 0) + 1
        return {"count": len(samples), "statuses": codes, "p50_ms": round(statistics.median(times), 1) if times else None,
                "p90_ms": round(percentile(times, 0.9), 1), "max_ms": round(max(times), 1) if times else None}

    return {
        "label": label,
        "quiet_login": summary(quiet),
        "login_under_flood": summary(logins),
        "login_ok_under_flood_p50_ms": round(statistics.median([ms for status, ms in logins if status == 200]), 1)
        if any(status == 200 for status, _ in logins) else None,
        "nearby_under_flood": summary(nearby),
        "flood": {"requests": int(fields.get("requests", 0)), "per_second": round(int(fields.get("requests", 0)) / args.seconds, 1),
                  "p50_ms": float(fields.get("p50_ms", "nan")), "p99_ms": float(fields.get("p99_ms", "nan")), **statuses},
    }


def main():
    args = parse_arguments()
    if not shutil.which("wrk"):
        raise SystemExit("login-flood: wrk is missing (apt-get install wrk)")
    binaries = [entry.split("=", 1) for entry in (args.binary or [f"release={os.path.join(root, '.build', 'release', 'places')}"])]
    work = tempfile.mkdtemp(prefix="places-flood-")
    results = []
    try:
        for label, binary in binaries:
            result = measure(label, binary, args, work)
            results.append(result)
            quiet, flood, near = result["quiet_login"], result["login_under_flood"], result["nearby_under_flood"]
            print(f"{label}: quiet login p50 {quiet['p50_ms']} ms; under a flood of {args.attackers} connections "
                  f"({result['flood']['per_second']} wrong logins/s answered, p50 {result['flood']['p50_ms']} ms): "
                  f"login p50 {flood['p50_ms']} ms, p90 {flood['p90_ms']} ms, max {flood['max_ms']} ms, statuses {flood['statuses']}; "
                  f"nearby p50 {near['p50_ms']} ms, p90 {near['p90_ms']} ms, max {near['max_ms']} ms ({near['count']} asked)")
            sys.stdout.flush()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(results))


if __name__ == "__main__":
    main()
