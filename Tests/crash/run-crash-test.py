#!/usr/bin/env python3
"""A pulled plug: kill -9 the server during writes and `places seed` in the middle of a large file, restart,
and check that nothing answered 2xx is lost, no seed file is half loaded, the database is intact, and nearby
answers after the restart match a brute-force scan of the database's live places.

Usage: Tests/crash/run-crash-test.py PLACES_BINARY   (CI runs it from .ci/run with the debug build)
Deterministic enough to never be flaky: the kill moments are random (seeded), the checks are not timing-bound.
"""
import math, os, random, signal, sqlite3, subprocess, sys, tempfile, threading, time

binary = os.path.abspath(sys.argv[1])
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ left beside the shared module
import places_server

work = tempfile.mkdtemp(prefix="places-crash-")
database = os.path.join(work, "places.sqlite")
port = int(os.environ.get("PLACES_CRASH_PORT", "18766"))
base = f"http://127.0.0.1:{port}"
rng = random.Random(int(os.environ.get("PLACES_CRASH_SEED", "7")))
failures = []


def fail(message):
    print("crash test: FAIL:", message, file=sys.stderr)
    failures.append(message)


def request(method, path, body=None, token=None, timeout=10):
    return places_server.call(base, method, path, body, token, timeout)


def start_server():
    return places_server.start(
        binary,
        ["--database", database, "--seeds", os.path.join(root, "Seeds"), "--port", str(port),
         "--bcrypt-cost", "4", "--log-level", "warning", "--places-per-day", "1000000"],
        os.path.join(work, "server.log"), base, seconds=60, who="crash test", log_mode="a")


def integrity_ok(where):
    with sqlite3.connect(database) as db:
        result = db.execute("PRAGMA integrity_check").fetchall()
    if result != [("ok",)]:
        fail(f"{where}: integrity_check says {result[:3]}")


# 1. Writes answered 2xx survive kill -9 at random moments.
server = start_server()
request("POST", "/v1/auth/register", {"username": "crash", "email": "crash@example.com", "password": "crash test password"})
token = request("POST", "/v1/auth/login", {"username": "crash", "password": "crash test password"})[1]["token"]
answered = []  # (id, name, lat, lon) of places whose creation was answered 201
for round_number in range(4):
    stop = threading.Event()

    def write():
        n = 0
        while not stop.is_set():
            n += 1
            name = f"Crash {round_number}-{n}"
            lat, lon = rng.uniform(37.70, 37.80), rng.uniform(-122.50, -122.40)
            try:
                status, body = request("POST", "/v1/places", {"name": name, "lat": lat, "lon": lon, "allowDuplicate": True}, token, timeout=5)
            except OSError:
                return  # the server died mid-request: that write was never answered
            if status == 201:
                answered.append(body["id"])
            elif status is not None:
                fail(f"a write was answered {status}")

    writer = threading.Thread(target=write)
    writer.start()
    time.sleep(rng.uniform(0.3, 1.5))
    server.send_signal(signal.SIGKILL)
    server.wait()
    stop.set()
    writer.join()
    integrity_ok(f"after kill -9 #{round_number + 1}")
    server = start_server()
    missing = [place_id for place_id in answered if request("GET", "/v1/places/" + place_id)[0] != 200]
    if missing:
        fail(f"round {round_number + 1}: {len(missing)} answered writes lost, e.g. {missing[:3]}")
print(f"crash test: {len(answered)} writes answered 201 across 4 kill -9s, all present after restart")

# 2. kill -9 `places seed` in the middle of a large file: all of it or none of it.
server.send_signal(signal.SIGTERM)
server.wait()
big = os.path.join(work, "big.csv")
with open(big, "w") as file:
    file.write("id,name,kind,lat,lon\n")
    for n in range(150_000):
        file.write(f"big-{n},Big {n},gem,{rng.uniform(-60, 60):.6f},{rng.uniform(-179, 179):.6f}\n")
outcomes = []
for attempt in range(3):
    seeding = subprocess.Popen([binary, "seed", big, "--database", database], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0.2, 1.0))
    seeding.send_signal(signal.SIGKILL)
    seeding.wait()
    integrity_ok(f"after killing places seed #{attempt + 1}")
    with sqlite3.connect(database) as db:
        loaded = db.execute("SELECT COUNT(*) FROM place WHERE seed_source = 'big.csv'").fetchone()[0]
    outcomes.append(loaded)
    if loaded not in (0, 150_000):
        fail(f"killing places seed left {loaded} of 150000 rows: a half-loaded file")
subprocess.run([binary, "seed", big, "--database", database], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
with sqlite3.connect(database) as db:
    if db.execute("SELECT COUNT(*) FROM place WHERE seed_source = 'big.csv'").fetchone()[0] != 150_000:
        fail("seeding the file whole after the kills did not load all of it")
print(f"crash test: places seed killed 3 times, rows of the file after each: {outcomes} (all or nothing); then loaded whole")

# 3. After the restart, nearby answers match a brute-force scan of the live places.
server = start_server()
with sqlite3.connect(database) as db:
    live = db.execute("SELECT id, latitude, longitude FROM place WHERE deleted_at IS NULL").fetchall()


def distance(lat1, lon1, lat2, lon2):
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6_371_008.8 * math.asin(min(1, math.sqrt(h)))


checked = 0
for _ in range(20):
    lat, lon = (rng.uniform(37.70, 37.80), rng.uniform(-122.50, -122.40)) if rng.random() < 0.7 else (rng.uniform(-50, 50), rng.uniform(-170, 170))
    radius_miles = rng.choice([0.5, 1, 5, 20])
    radius = radius_miles * 1609.344
    status, answer = request("GET", f"/v1/places/nearby?lat={lat}&lon={lon}&radius={radius_miles}&limit=100")
    if status != 200:
        fail(f"nearby answered {status}")
        continue
    got = [place["id"] for place in answer["places"]]
    near = sorted((distance(lat, lon, plat, plon), pid) for pid, plat, plon in live if distance(lat, lon, plat, plon) <= radius)
    expected = [pid for _, pid in near[:100]]
    # Places within a millimetre of the edge may fall either way in floating point: leave them out of the comparison.
    edge = {pid for d, pid in near if abs(d - radius) < 0.001}
    if [p for p in got if p not in edge] != [p for p in expected if p not in edge]:
        fail(f"nearby at {lat},{lon} r={radius_miles} mi differs from a brute-force scan: {got[:5]} vs {expected[:5]}")
    checked += 1
server.send_signal(signal.SIGTERM)
server.wait()
print(f"crash test: {checked} nearby answers after the restarts match a brute-force scan of {len(live)} live places")

if failures:
    print(f"crash test: {len(failures)} failure(s); work folder kept at {work}", file=sys.stderr)
    sys.exit(1)
subprocess.run(["rm", "-rf", work])
print("crash test: ok")
