#!/usr/bin/env python3
"""A cluster, tested for real: three `places serve` instances on one private PostgreSQL, behind nginx
(Tests/cluster/nginx.conf, the configuration the README tells operators to copy), driven through nginx while one
instance is killed -9 and PostgreSQL is restarted, then checked against the database itself.

Usage: Tests/cluster/run-cluster-test.py PLACES_BINARY   (CI runs it from .ci/run with the debug build)

Through nginx it runs the README's three-person tiered decision, 1,000 place writes from parallel threads (midway it
kills one instance with SIGKILL, later it restarts PostgreSQL; writes answered 502 or 503 are tried again and
counted), brings the killed instance back, and sends 50 ballots on one decision at the same moment (then 50 members'
answers in a swipe round, which must end it once). Live streams of
one decision are held meanwhile (on single instances and through nginx) while ballots go through the others: a
latency figure, a removed member's stream ending, and every stream (resumed with Last-Event-ID after the kill
and the restart) checked against the feed itself for no gap and no repeat. Then it checks
that every write answered 2xx is in the database, that every instance's nearby answers (asked of each instance
directly) equal a brute-force scan of the database's live places, that each decision has one result and each event
one notification per recipient, and that the login throttle holds across instances (10 wrong passwords from one
address, spread over the instances, then 429), that nginx compresses answers and keeps the map's anonymous answers
in its cache, revalidating them past their max-age with a 304. Last it stops PostgreSQL with SIGSTOP while requests are in flight:
a write and a signed-in read answer 503 with Retry-After within about 3 s, /ready within a second, an anonymous
nearby 200 from the index, and no answer names the database's address. It stops everything it started by pid, also when it fails, prints a
summary with timings and exits non-zero when a check failed.

Needs Debian's `postgresql` and `nginx` packages (.ci/run installs them) and Python 3's standard library only.
Environment: PLACES_CLUSTER_SEED (default 13) seeds the random coordinates and query points; PLACES_CLUSTER_KEEP=1
keeps the work folder (logs of nginx, the instances and PostgreSQL) after a run that passed, as after one that failed.
"""
import http.client, json, math, os, random, re, shutil, signal, subprocess, sys, tempfile, threading, time, traceback
import urllib.error, urllib.request

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ left beside the shared modules
import gps_jpeg, places_server
from private_postgres import PASSWORD as POSTGRES_PASSWORD, PrivatePostgres, free_port, postgres_bin

NGINX_TEMPLATE = os.path.join(root, "Tests", "cluster", "nginx.conf")
USER_PASSWORD = "a long password"
WRITES = 1000
WRITERS = 4          # accounts that add the places
WRITER_THREADS = 8
KILL_AFTER = 300     # answered writes before one instance is killed -9
RESTART_AFTER = 650  # answered writes before PostgreSQL is restarted
MEMBERS = 50
THROTTLE_BOUND = 10  # wrong passwords one account may get from one address (LoginThrottle.Policy)
WRITE_BOX = ((37.70, 37.80), (-122.50, -122.40))  # where the written places lie: San Francisco
EARTH_RADIUS = 6_371_008.8
ANSWER_WITHIN = 15   # seconds: a write unanswered by then hangs (a database that is down means 503 within 3 s)

failures = []
timings = []  # (what, seconds), in order
notes = []    # one-line facts for the summary


def fail(message):
    """Records a failed check; the run goes on and exits non-zero at the end."""
    print("cluster test: FAIL:", message, file=sys.stderr, flush=True)
    failures.append(message)


def say(message):
    """A line of progress."""
    print("cluster test:", message, flush=True)


class Broken(Exception):
    """A step the rest of the run depends on went wrong: the run stops (and still stops everything it started)."""


class Timed:
    """`with Timed("what"):` adds how long the block took to the summary."""

    def __init__(self, what):
        self.what = what

    def __enter__(self):
        self.started = time.monotonic()
        return self

    def __exit__(self, *_):
        timings.append((self.what, time.monotonic() - self.started))


# HTTP

def send(base, method, path, body=None, token=None, headers=None, timeout=30):
    """One request: its status, its JSON body (None when the body is not JSON) and its headers. Unlike
    places_server.call it sends extra headers (X-Forwarded-For) and gives back the answer's (Retry-After)."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, method=method, data=data)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return response.status, parsed(response.read()), response.headers
        except urllib.error.HTTPError as error:
            return error.code, parsed(error.read()), error.headers
    except http.client.HTTPException as error:
        # An answer cut short (an instance killed between its head and its body, which nginx has begun to pass on)
        # tells the client nothing, just as a connection that closed does.
        raise AnswerCutShort(f"answer cut short: {type(error).__name__}: {error}") from error


class AnswerCutShort(ConnectionError):
    """An answer whose head came and whose body did not: its instance died while sending it. Its outcome is unknown,
    like a 502's; unlike a request that hangs, it is what killing an instance may do to a request in flight."""


def parsed(raw):
    """The JSON of a body, or None."""
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return None


def expect(base, method, path, body=None, token=None, status=(200, 201, 204)):
    """The body of a request that must succeed; anything else breaks the run."""
    code, answer, _ = send(base, method, path, body, token)
    wanted = status if isinstance(status, tuple) else (status,)
    if code not in wanted:
        raise Broken(f"{method} {path} answered {code}: {answer}")
    return answer


def sign_up(base, username):
    """Registers `username` and signs in: the session token."""
    expect(base, "POST", "/v1/auth/register", {"username": username, "email": f"{username}@example.com", "password": USER_PASSWORD}, status=201)
    return expect(base, "POST", "/v1/auth/login", {"username": username, "password": USER_PASSWORD})["token"]


# The processes

# The pool each instance may open (`--database-connections`), the change feed's listener among them: fewer than the
# simultaneous requests below, so that they wait for a connection rather than open more.
CONNECTIONS = 4


class Instance:
    """One `places serve` of the cluster, on a port of its own, its output in the work folder."""

    def __init__(self, name, binary, database_url, work):
        self.name = name
        self.binary = binary
        self.database_url = database_url
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = os.path.join(work, f"instance-{name}.log")
        self.process = None

    def arguments(self):
        """What `places serve` is given: the shared database, this machine's nginx trusted, limits the test needs."""
        return ["--database", self.database_url, "--port", str(self.port), "--seeds", os.path.join(root, "Seeds"),
                "--bcrypt-cost", "4", "--trusted-proxy", "127.0.0.1", "--registrations-per-hour", "1000",
                "--places-per-day", "1000000", "--log-level", "info", "--database-connections", str(CONNECTIONS)]

    def start(self):
        """Starts it and waits until /health answers (it migrates, and on an empty database seeds, first)."""
        self.process = places_server.start(self.binary, self.arguments(), self.log_path, self.base, seconds=120,
                                           who=f"cluster test: instance {self.name}", log_mode="a")

    @property
    def running(self):
        """Started and not ended (nor killed)."""
        return self.process is not None and self.process.poll() is None

    def kill(self):
        """SIGKILL, as a pulled plug."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        """SIGTERM by its pid (it answers what is in flight first), SIGKILL after 30 s."""
        if self.running:
            places_server.stop(self.process)


class Nginx:
    """nginx, unprivileged in a folder of its own, with the configuration operators copy, pointed at the instances."""

    def __init__(self, work, instances):
        self.folder = os.path.join(work, "nginx")
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.instances = instances
        self.process = None

    @property
    def access_log(self):
        return os.path.join(self.folder, "logs", "access.log")

    def configuration(self):
        """Tests/cluster/nginx.conf with this run's ports in its `listen` line and its upstream's `server` lines."""
        with open(NGINX_TEMPLATE) as file:
            text = file.read()
        ports = iter(instance.port for instance in self.instances)
        text, servers = re.subn(r"(?m)^(\s*server )127\.0\.0\.1:\d+", lambda m: f"{m.group(1)}127.0.0.1:{next(ports)}", text)
        text, listens = re.subn(r"(?m)^(\s*listen )127\.0\.0\.1:\d+;", lambda m: f"{m.group(1)}127.0.0.1:{self.port};", text)
        if servers != len(self.instances) or listens != 1:
            raise Broken(f"{NGINX_TEMPLATE} should have {len(self.instances)} upstream `server 127.0.0.1:PORT` lines and one "
                         f"`listen 127.0.0.1:PORT;`, found {servers} and {listens}")
        return text

    def start(self):
        """Writes the configuration into nginx's folder and starts nginx in the foreground, once it answers /health."""
        for sub in ("logs", "temp"):
            os.makedirs(os.path.join(self.folder, sub), exist_ok=True)
        configuration = os.path.join(self.folder, "nginx.conf")
        with open(configuration, "w") as file:
            file.write(self.configuration())
        output = open(os.path.join(self.folder, "logs", "nginx.out"), "w")
        self.process = subprocess.Popen(
            [nginx_binary(), "-p", self.folder, "-c", configuration, "-e", os.path.join(self.folder, "logs", "error.log"),
             "-g", "daemon off;"], stdout=output, stderr=output)
        deadline = time.time() + 20
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise Broken(f"nginx ended at once; see {self.folder}/logs")
            try:
                if send(self.base, "GET", "/health", timeout=2)[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise Broken(f"nginx did not answer /health within 20 s; see {self.folder}/logs")

    def stop(self):
        """SIGTERM to the master (it ends its workers); SIGKILL to it and its workers by pid if it hangs."""
        if self.process is None or self.process.poll() is not None:
            return
        workers = children(self.process.pid)
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            for pid in [self.process.pid, *workers]:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            self.process.wait()

    def wait_until_balanced(self, seconds=20):
        """Sends /health through nginx until every instance has answered one since the call (nginx tries an instance
        it marked failed again after the upstream's fail_timeout, 10 s)."""
        offset = self.log_size()
        wanted = {f"127.0.0.1:{instance.port}" for instance in self.instances}
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            send(self.base, "GET", "/health", timeout=5)
            if wanted <= set(self.upstreams_since(offset)):
                return
            time.sleep(0.1)
        raise Broken(f"nginx sent nothing to some instance within {seconds} s: {sorted(wanted - set(self.upstreams_since(offset)))}")

    def gave_up_on(self):
        """The instances (by name) of the requests whose client gave up waiting (status 499), with how many each."""
        names = {f"127.0.0.1:{instance.port}": instance.name for instance in self.instances}
        with open(self.access_log) as file:
            upstreams = re.findall(r'" 499 \d+ upstream=(\S+)', file.read())
        return {names.get(upstream, upstream): upstreams.count(upstream) for upstream in sorted(set(upstreams))}

    def upstreams_since(self, offset):
        """The upstream address of each request logged after byte `offset` of the access log."""
        with open(self.access_log) as file:
            file.seek(offset)
            return re.findall(r"upstream=(\S+)", file.read())

    def log_size(self):
        """Where the access log ends now: what a later upstreams_since reads from."""
        return os.path.getsize(self.access_log) if os.path.exists(self.access_log) else 0


def children(pid):
    """The pids of a process's children."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as file:
            return [int(p) for p in file.read().split()]
    except OSError:
        return []


def nginx_binary():
    """nginx's path, or a clear stop saying what to install."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx") else None)
    if not found:
        raise SystemExit("cluster test: nginx not found; install Debian's nginx package (apt-get install nginx); .ci/run does")
    return found


def psql_binary():
    """psql's path, or a clear stop saying what to install."""
    found = shutil.which("psql")
    if found:
        return found
    try:
        return postgres_bin("psql")
    except SystemExit:
        raise SystemExit("cluster test: psql not found; install Debian's postgresql package (apt-get install postgresql)")


# The database, read directly

class Database:
    """psql on the cluster's database; the password goes through PGPASSWORD, never on a command line."""

    def __init__(self, port, name):
        self.url = f"postgres://places@127.0.0.1:{port}/{name}?sslmode=disable"
        self.environment = dict(os.environ, PGPASSWORD=POSTGRES_PASSWORD)

    def rows(self, sql):
        """The rows of `sql`, each a list of text fields."""
        done = subprocess.run([psql_binary(), self.url, "-X", "-q", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                              capture_output=True, text=True, env=self.environment)
        if done.returncode != 0:
            raise Broken(f"psql failed on {sql!r}: {done.stderr.strip()}")
        return [line.split("\t") for line in done.stdout.splitlines() if line]


def quoted(values):
    """A SQL list of string literals (the values are ids the server made: letters, digits and dashes)."""
    for value in values:
        if not re.fullmatch(r"[A-Za-z0-9_-]+", value):
            raise Broken(f"unexpected id {value!r}")
    return ", ".join(f"'{value}'" for value in values)


# 1. The README's decision

def readme_decision(base):
    """The README's three-person tiered decision, every step through the balancer; its decision id and the group's."""
    tokens = {name: sign_up(base, name) for name in ("ana", "ben", "cleo")}
    group = expect(base, "POST", "/v1/groups", {"name": "Friday crew"}, tokens["ana"], status=201)["id"]
    for name in ("ben", "cleo"):
        expect(base, "POST", f"/v1/groups/{group}/invitations", {"username": name}, tokens["ana"], status=201)
    inbox = expect(base, "GET", "/v1/notifications", token=tokens["ben"])
    if not any(n["kind"] == "groupInvitation" and n["subject"].get("groupId") == group for n in inbox["items"]):
        fail(f"ben has no groupInvitation notification for {group}: {inbox}")
    for name in ("ben", "cleo"):
        expect(base, "POST", f"/v1/me/invitations/{group}/accept", token=tokens[name])
    collection = expect(base, "POST", "/v1/collections", {"name": "Dinner in the Mission", "groupId": group}, tokens["ana"], status=201)["id"]
    for who, entry in (("ana", {"placeId": "sf-valencia-sourdough-works"}), ("ana", {"placeId": "sf-lupine-salt"}),
                       ("ben", {"placeId": "sf-taqueria-los-cuates", "position": 0})):
        expect(base, "POST", f"/v1/collections/{collection}/places", entry, tokens[who])
    decision = expect(base, "POST", "/v1/decisions", {"groupId": group, "method": "tiered", "title": "Friday dinner",
                                                       "candidates": {"collectionId": collection}}, tokens["ana"], status=201)["id"]
    vote(base, decision, tokens["ana"], ["sf-lupine-salt", "sf-valencia-sourdough-works"])
    seen = expect(base, "GET", f"/v1/decisions/{decision}", token=tokens["ben"])
    if seen.get("provisional") is not None or sorted(seen.get("waitingFor", [])) != ["ben", "cleo"]:
        fail(f"before voting ben should see no tally and waitingFor ben, cleo: {seen.get('provisional')}, {seen.get('waitingFor')}")
    vote(base, decision, tokens["ben"], ["sf-valencia-sourdough-works", "sf-lupine-salt"])
    vote(base, decision, tokens["cleo"], ["sf-lupine-salt"])
    check_readme_result(expect(base, "GET", f"/v1/decisions/{decision}", token=tokens["ana"]))
    recount = expect(base, "GET", f"/v1/decisions/{decision}/recount", token=tokens["ana"])
    if recount.get("agrees") is not True:
        fail(f"the README decision's recount does not agree: {recount}")
    return decision, group


def vote(base, decision, token, ranking):
    """One ballot, which must be taken."""
    expect(base, "PUT", f"/v1/decisions/{decision}/ballot", {"ranking": ranking}, token)


def check_readme_result(view):
    """The README's outcome: Lupine & Salt wins outright."""
    result = view.get("result") or {}
    wanted = ["sf-lupine-salt", "sf-valencia-sourdough-works", "sf-taqueria-los-cuates"]
    if view.get("status") != "completed" or result.get("winner") != "sf-lupine-salt" or result.get("ranking") != wanted \
            or result.get("tieBreak") != "none":
        fail(f"the README decision ended as {view.get('status')}: winner {result.get('winner')}, ranking "
             f"{result.get('ranking')}, tieBreak {result.get('tieBreak')}")


# 2. 1,000 writes, one instance killed, PostgreSQL restarted

class WriteLoad:
    """WRITES place creations by WRITERS accounts from WRITER_THREADS threads. A write answered 502 (its instance
    died under it), 503 (the database is restarting: it must carry Retry-After) or not at all is sent again, and
    counted; only answers of 201 count as answered writes."""

    def __init__(self, base, tokens, rng):
        self.base = base
        self.tokens = tokens
        self.coordinates = [(rng.uniform(*WRITE_BOX[0]), rng.uniform(*WRITE_BOX[1])) for _ in range(WRITES)]
        self.lock = threading.Lock()
        self.next = 0
        self.answered = []  # place ids answered 201
        self.retried = {"502": 0, "503": 0, "503 outcome_unknown": 0, "504": 0, "answer cut short": 0, "no answer": 0}
        self.without_retry_after = 0
        self.given_up = 0
        self.unanswered = []  # why requests got no answer

    def take(self):
        """The number of the next write to make, or None when all are taken."""
        with self.lock:
            if self.next == WRITES:
                return None
            self.next += 1
            return self.next - 1

    def run(self, deadline):
        """All the writes, from WRITER_THREADS threads at once; returns when every one is answered or time is up."""
        threads = [threading.Thread(target=self.writer, args=(deadline,)) for _ in range(WRITER_THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()

    def writer(self, deadline):
        """One thread's share: writes taken one after another until none is left."""
        try:
            while (number := self.take()) is not None:
                self.write(number, deadline)
        except Exception as error:  # a writer that dies leaves its write uncounted: say so instead of a bare traceback
            fail(f"a writer stopped: {type(error).__name__}: {error}")

    def write(self, number, deadline):
        """One place, sent until it is answered (or the run's time is up)."""
        lat, lon = self.coordinates[number]
        body = {"name": f"Cluster {number}", "lat": lat, "lon": lon, "allowDuplicate": True}
        token = self.tokens[number % len(self.tokens)]
        while time.monotonic() < deadline:
            try:
                status, answer, headers = send(self.base, "POST", "/v1/places", body, token, timeout=ANSWER_WITHIN)
            except AnswerCutShort:
                self.count("answer cut short")
                time.sleep(0.2)
                continue
            except OSError as error:
                self.count("no answer")
                with self.lock:
                    self.unanswered.append(f"{type(error).__name__}: {error}")
                continue
            if status == 201:
                with self.lock:
                    self.answered.append(answer["id"])
                return
            if status in (502, 503, 504):
                # 503 unavailable promises that nothing changed; outcome_unknown that it may have.
                code = (answer or {}).get("error", {}).get("code") if isinstance(answer, dict) else None
                self.count("503 outcome_unknown" if code == "outcome_unknown" else str(status))
                if status == 503 and not headers.get("Retry-After"):
                    with self.lock:
                        self.without_retry_after += 1
                time.sleep(0.2)
                continue
            fail(f"write {number} answered {status}: {answer}")
            return
        with self.lock:
            self.given_up += 1

    def count(self, what):
        """One more request sent again because of `what`."""
        with self.lock:
            self.retried[what] += 1

    def answered_count(self):
        """How many writes were answered 201 so far."""
        with self.lock:
            return len(self.answered)


def writes_with_failures(cluster, tokens, rng, deadline):
    """Runs the write load; when KILL_AFTER writes are answered, one instance is killed -9, when RESTART_AFTER are,
    PostgreSQL restarts. The load, and the instance that was killed."""
    load = WriteLoad(cluster.nginx.base, tokens, rng)
    victim = cluster.instances[1]
    writers = threading.Thread(target=load.run, args=(deadline,))
    writers.start()
    wait_for(lambda: load.answered_count() >= KILL_AFTER or not writers.is_alive(), deadline)
    victim.kill()
    victim.killed_at = time.monotonic()
    notes.append(f"instance {victim.name} killed -9 after {load.answered_count()} answered writes")
    wait_for(lambda: load.answered_count() >= RESTART_AFTER or not writers.is_alive(), deadline)
    at = load.answered_count()
    with Timed("PostgreSQL restart (pg_ctl stop -m fast, start)"):
        cluster.postgres.restart()
    notes.append(f"PostgreSQL restarted after {at} answered writes")
    writers.join()
    return load, victim


def wait_for(condition, deadline):
    """Polls `condition` every 10 ms until it holds or the monotonic `deadline` passes."""
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)


def check_writes(database, nginx, load, writer_names):
    """Every write answered 201 is a live place in the database."""
    if load.given_up:
        fail(f"{load.given_up} writes were still unanswered when the run's time was up")
    if load.unanswered:
        fail(f"{len(load.unanswered)} writes got no answer within {ANSWER_WITHIN} s (sent again after): "
             f"{'; '.join(sorted(set(load.unanswered)))}; nginx logged them (499) as sent to {nginx.gave_up_on()}")
    if load.without_retry_after:
        fail(f"{load.without_retry_after} answers of 503 came without Retry-After")
    if load.retried["answer cut short"] > WRITER_THREADS:
        # Only the writes in flight on the instance when it was killed can lose their answer's body: one per writer.
        fail(f"{load.retried['answer cut short']} answers were cut short, more than the {WRITER_THREADS} writes that "
             f"can be in flight when one instance is killed")
    stored = {row[0] for row in database.rows(
        "SELECT p.id FROM place p JOIN user_account u ON u.id = p.owner_id "
        f"WHERE p.deleted_at IS NULL AND u.username IN ({quoted(writer_names)})")}
    missing = [place for place in load.answered if place not in stored]
    if missing:
        fail(f"{len(missing)} of {len(load.answered)} writes answered 201 are not in the database, e.g. {missing[:3]}")
    extra = len(stored) - len(set(load.answered) & stored)
    # A place made beside the answered ones comes from a request whose outcome its client could not know: no answer,
    # a gateway's 502 or 504, or 503 outcome_unknown. A plain 503 unavailable said nothing was changed.
    unknown = sum(load.retried[what] for what in ("no answer", "answer cut short", "502", "504", "503 outcome_unknown"))
    if extra > unknown:
        fail(f"{extra} places were made by requests answered without a place, but only {unknown} answers left the outcome "
             f"unknown: a 503 unavailable changed something")
    notes.append(f"{len(load.answered)} writes answered 201, all {'' if not missing else 'but some '}in the database; "
                 f"{extra} more were made by requests whose answer was lost; retried: "
                 + ", ".join(f"{count} × {what}" for what, count in load.retried.items()))


# 3. 50 ballots at once

def check_connections(database, running):
    """After the requests at once, the instances hold no more connections than `--database-connections` lets each
    (their pools keep idle ones open for a minute; each instance's wake-up connection has a name of its own)."""
    held = int(database.rows("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'places'")[0][0])
    notes.append(f"connections: the {len(running)} instances hold {held} (each may open {CONNECTIONS})")
    if held > CONNECTIONS * len(running):
        fail(f"the {len(running)} instances hold {held} connections, more than {CONNECTIONS} each")


def members_decision(base, database):
    """MEMBERS people in one group and a tiered decision among five seeded places: the decision, the group, the
    members' tokens and the places."""
    tokens = [sign_up(base, f"voter{i}") for i in range(MEMBERS)]
    group = expect(base, "POST", "/v1/groups", {"name": "Fifty"}, tokens[0], status=201)["id"]
    for i in range(1, MEMBERS):
        expect(base, "POST", f"/v1/groups/{group}/invitations", {"username": f"voter{i}"}, tokens[0], status=201)
        expect(base, "POST", f"/v1/me/invitations/{group}/accept", token=tokens[i])
    places = [row[0] for row in database.rows("SELECT id FROM place WHERE id LIKE 'sf-%' AND deleted_at IS NULL ORDER BY id LIMIT 5")]
    body = {"groupId": group, "method": "tiered", "title": "All at once", "candidates": {"placeIds": places}}
    decision = expect(base, "POST", "/v1/decisions", body, tokens[0], status=201)["id"]
    return decision, group, tokens, places


def at_once(requests, what, expected=200):
    """Each request (base, method, path, body, token) sent at the same moment, each from its own thread: their
    statuses. With `expected`, fails unless every one is answered with it."""
    start = threading.Barrier(len(requests))
    statuses = [None] * len(requests)

    def send_one(i):
        base, method, path, body, token = requests[i]
        start.wait()
        try:
            statuses[i] = send(base, method, path, body, token)[0]
        except OSError as error:
            statuses[i] = f"no answer ({error})"

    threads = [threading.Thread(target=send_one, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [status for status in statuses if status != expected]
    if expected is not None and refused:
        fail(f"{len(refused)} of {len(requests)} simultaneous {what} were not answered {expected}: {sorted(map(str, refused))[:5]}")
    return statuses


def ballots_at_once(base, decision, tokens, places):
    """Every member's ballot sent at the same moment, each from its own thread."""
    rankings = [{"ranking": places[i % len(places):] + places[:i % len(places)]} for i in range(len(tokens))]
    at_once([(base, "PUT", f"/v1/decisions/{decision}/ballot", rankings[i], token) for i, token in enumerate(tokens)], "ballots")
    view = expect(base, "GET", f"/v1/decisions/{decision}", token=tokens[0])
    result = view.get("result") or {}
    if view.get("status") != "completed" or result.get("ballotCount") != len(tokens):
        fail(f"the {len(tokens)}-member decision ended as {view.get('status')} with {result.get('ballotCount')} ballots counted")
    return result


def swipes_at_once(base, database, group, tokens, places):
    """A decision with a swipe round among the same members, whose every answer is sent at the same moment (one
    veto, on the first place): the round ends once, with every answer counted and the vetoed place out."""
    body = {"groupId": group, "method": "tiered", "title": "Swipes at once", "swipe": {"vetoes": 1}, "candidates": {"placeIds": places}}
    decision = expect(base, "POST", "/v1/decisions", body, tokens[0], status=201)["id"]
    answers = [{"answers": [{"placeId": place, "answer": "veto" if i == 0 and place == places[0] else "yes"} for place in places]}
               for i in range(len(tokens))]
    at_once([(base, "PUT", f"/v1/decisions/{decision}/swipes", answers[i], token) for i, token in enumerate(tokens)], "answers")
    ended = database.rows(f"SELECT count(*) FROM feed WHERE kind = 'round' AND subject = {quoted([decision])}")
    stored = database.rows(f"SELECT count(*) FROM swipe WHERE decision_id = {quoted([decision])}")
    survivors = (expect(base, "GET", f"/v1/decisions/{decision}", token=tokens[1]).get("roundResult") or {}).get("survivors")
    if ended != [["1"]] or stored != [[str(len(tokens) * len(places))]] or survivors != places[1:]:
        fail(f"the swipe round of {len(tokens)} answering at once ended {ended} times with {stored} answers stored and "
             f"survivors {survivors} (expected once, {len(tokens) * len(places)}, {places[1:]})")
    return decision


MESSAGES_AT_ONCE = 14  # one person's messages sent at once, spread over the instances: the bound of 10 a minute holds


def messages_at_once(instances, database, decision, token):
    """One person's messages to a decision's conversation, sent at the same moment to every instance in turn: the
    bound a minute (10) is counted in the database, so exactly 10 are stored and the rest refused with 429."""
    requests = [(instances[i % len(instances)].base, "POST", f"/v1/decisions/{decision}/messages", {"text": f"Message {i}"}, token)
                for i in range(MESSAGES_AT_ONCE)]
    statuses = at_once(requests, "messages", expected=None)
    stored = database.rows(f"SELECT count(*) FROM decision_message WHERE decision_id = {quoted([decision])}")
    if sorted(map(str, statuses)) != ["201"] * 10 + ["429"] * (MESSAGES_AT_ONCE - 10) or stored != [["10"]]:
        fail(f"{MESSAGES_AT_ONCE} messages of one person at once on {len(instances)} instances were answered "
             f"{sorted(map(str, statuses))} with {stored} stored (expected 10 stored, the rest 429)")


def check_same_result(instances, decision, token, result):
    """Each instance, asked directly, shows the decision with the result the balancer's answer had."""
    for instance in instances:
        seen = expect(instance.base, "GET", f"/v1/decisions/{decision}", token=token).get("result")
        if seen != result:
            fail(f"instance {instance.name} shows decision {decision} with another result: {seen} instead of {result}")


# 4. The checks against the database

def check_decisions(database, decisions):
    """Each decision completed once, with one result, and each event notified once to each of its recipients:
    groupInvitation to each invitee, decisionStarted to each participant but the starter, decisionCompleted to each
    participant."""
    for decision, group in decisions:
        rows = database.rows(f"SELECT status, result IS NOT NULL, created_by FROM decision WHERE id = {quoted([decision])}")
        if len(rows) != 1 or rows[0][:2] != ["completed", "t"]:
            fail(f"decision {decision} in the database (status, has a result, starter): {rows}")
            continue
        starter = rows[0][2]
        participants = {row[0] for row in database.rows(f"SELECT user_id FROM decision_participant WHERE decision_id = {quoted([decision])}")}
        wanted = {("decisionStarted", p) for p in participants - {starter}} | {("decisionCompleted", p) for p in participants}
        check_notifications(database, f"decision {decision}", f"subject::jsonb->>'decisionId' = {quoted([decision])}", wanted)
        invitees = participants - {starter}
        check_notifications(database, f"group {group}'s invitations",
                            f"kind = 'groupInvitation' AND subject::jsonb->>'groupId' = {quoted([group])}",
                            {("groupInvitation", p) for p in invitees})


def check_notifications(database, what, condition, wanted):
    """Exactly one notification of each (kind, recipient) in `wanted`, and none other, among those matching
    `condition`."""
    counted = {(kind, recipient): int(count) for kind, recipient, count in database.rows(
        f"SELECT kind, recipient_id, count(*) FROM notification WHERE {condition} GROUP BY kind, recipient_id")}
    doubled = {key: count for key, count in counted.items() if count != 1}
    missing = wanted - counted.keys()
    unexpected = counted.keys() - wanted
    if doubled or missing or unexpected:
        fail(f"{what}: notifications made more than once {list(doubled.items())[:3]}, missing {sorted(missing)[:3]}, "
             f"unexpected {sorted(unexpected)[:3]}")


def distance(lat1, lon1, lat2, lon2):
    """Haversine metres, as the index measures them."""
    p1, p2, dl = math.radians(lat1), math.radians(lat2), math.radians(lon2 - lon1)
    h = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_RADIUS * math.asin(min(1, math.sqrt(h)))


def nearby_queries(rng, count=24):
    """Points and radii: most inside the written area, some anywhere."""
    queries = []
    for _ in range(count):
        if rng.random() < 0.75:
            lat, lon = rng.uniform(*WRITE_BOX[0]), rng.uniform(*WRITE_BOX[1])
        else:
            lat, lon = rng.uniform(-50, 60), rng.uniform(-170, 170)
        queries.append((lat, lon, rng.choice([0.25, 1, 2, 5, 20])))
    return queries


def expected_nearby(live, lat, lon, radius_miles, limit):
    """The brute-force answer: ids within the radius, nearest first (then by id), and the ids within a millimetre of
    the edge, which floating point may put on either side."""
    radius = radius_miles * 1609.344
    near = sorted((d, place) for place, plat, plon in live if (d := distance(lat, lon, plat, plon)) <= radius + 0.001)
    edge = {place for d, place in near if abs(d - radius) < 0.001}
    return [place for _, place in near[:limit]], edge


def nearby_mismatches(instance, live, queries, limit=500):
    """The queries whose answer from `instance` differs from the brute-force scan, described."""
    differing = []
    for lat, lon, radius in queries:
        status, answer, _ = send(instance.base, "GET", f"/v1/places/nearby?lat={lat}&lon={lon}&radius={radius}&limit={limit}")
        if status != 200:
            differing.append(f"{lat:.4f},{lon:.4f} r={radius} mi answered {status}")
            continue
        got = [place["id"] for place in answer["places"]]
        expected, edge = expected_nearby(live, lat, lon, radius, limit)
        got, expected = [p for p in got if p not in edge], [p for p in expected if p not in edge]
        if got != expected:
            at = next(i for i in range(max(len(got), len(expected))) if got[i:i + 1] != expected[i:i + 1])
            differing.append(f"{lat:.4f},{lon:.4f} r={radius} mi: {len(got)} places, expected {len(expected)}; "
                             f"at #{at} {got[at:at + 1]} where the scan has {expected[at:at + 1]}")
    return differing


def check_nearby(database, instances, rng):
    """Every running instance, asked directly, answers nearby as a brute-force scan of the live places does. The
    instances follow the database through the change feed on their own: each gets up to 10 s to catch up."""
    live = [(place, float(lat), float(lon)) for place, lat, lon in
            database.rows("SELECT id, latitude, longitude FROM place WHERE deleted_at IS NULL")]
    queries = nearby_queries(rng)
    for instance in instances:
        started = time.monotonic()
        while (differing := nearby_mismatches(instance, live, queries)) and time.monotonic() - started < 10:
            time.sleep(0.25)
        if differing:
            fail(f"instance {instance.name}: {len(differing)} of {len(queries)} nearby answers differ from a brute-force scan "
                 f"of {len(live)} live places, e.g. {differing[0]}")
        else:
            notes.append(f"instance {instance.name}: {len(queries)} nearby answers equal a brute-force scan of {len(live)} "
                         f"live places (caught up within {time.monotonic() - started:.2f} s)")


def check_clusters(database, instances):
    """Every running instance's clusters add up to an independent count of the live places in the database: the whole
    world at zoom 1, and a box across the antimeridian (Fiji's seeds sit on both sides of it) at zooms 2 and 9."""
    live = [(float(lat), float(lon)) for lat, lon in
            database.rows("SELECT latitude, longitude FROM place WHERE deleted_at IS NULL")]
    boxes = [("-180,-90,180,90", 1, lambda lat, lon: True),
             ("179,-18,-179,-16", 2, lambda lat, lon: -18 <= lat <= -16 and (lon >= 179 or lon <= -179)),
             ("179,-18,-179,-16", 9, lambda lat, lon: -18 <= lat <= -16 and (lon >= 179 or lon <= -179))]
    for instance in instances:
        for bbox, zoom, inside in boxes:
            wanted = sum(1 for lat, lon in live if inside(lat, lon))
            status, answer, _ = send(instance.base, "GET", f"/v1/places/clusters?bbox={bbox}&zoom={zoom}")
            counted = sum(f["properties"].get("count", 1) if f["properties"].get("cluster") else 1
                          for f in (answer or {}).get("features", []))
            if status != 200 or answer.get("count") != wanted or counted != wanted:
                fail(f"instance {instance.name}: clusters of {bbox} at zoom {zoom} count {answer and answer.get('count')} "
                     f"(features add up to {counted}), the database holds {wanted} live places there")
    notes.append(f"clusters on every instance add up to the database's count: {len(live)} places in the world, "
                 f"{sum(1 for lat, lon in live if boxes[1][2](lat, lon))} across the antimeridian")


def check_ready(instances, seconds=15):
    """Every running instance answers /ready 200 (it reached the database again after the restart)."""
    for instance in instances:
        deadline = time.monotonic() + seconds
        while (status := ready_status(instance)) != 200 and time.monotonic() < deadline:
            time.sleep(0.2)
        if status != 200:
            fail(f"instance {instance.name}: /ready answered {status} {seconds} s after the checks began")


def ready_status(instance):
    """What /ready answers, asked of the instance directly."""
    try:
        return send(instance.base, "GET", "/ready", timeout=5)[0]
    except OSError as error:
        return f"no answer ({error})"


def check_throttle(nginx):
    """Wrong passwords for one account from one client address, sent through nginx one after another so they spread
    over the instances: the first THROTTLE_BOUND are 401, the rest 429. Then a parallel burst for another account from
    another address: at most THROTTLE_BOUND are let through to a password check."""
    sign_up(nginx.base, "guarded")
    offset = nginx.log_size()
    statuses = [send(nginx.base, "POST", "/v1/auth/login", {"username": "guarded", "password": "not the password"},
                     headers={"X-Forwarded-For": "203.0.113.7"})[0] for _ in range(THROTTLE_BOUND + 3)]
    spread = sorted(set(nginx.upstreams_since(offset)))
    if statuses != [401] * THROTTLE_BOUND + [429] * 3:
        fail(f"login throttle across instances: {THROTTLE_BOUND + 3} wrong passwords from one address answered {statuses} "
             f"(wanted {THROTTLE_BOUND} × 401, then 429), served by {spread}")
    else:
        notes.append(f"login throttle held: {THROTTLE_BOUND} × 401 then 429, the attempts served by {spread}")
    sign_up(nginx.base, "burst")
    burst = [None] * 40
    start = threading.Barrier(len(burst))

    def attempt(i):
        start.wait()
        burst[i] = send(nginx.base, "POST", "/v1/auth/login", {"username": "burst", "password": "not the password"},
                        headers={"X-Forwarded-For": "203.0.113.8"})[0]

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(len(burst))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    checked = burst.count(401)
    if checked > THROTTLE_BOUND or burst.count(401) + burst.count(429) != len(burst):
        fail(f"login throttle, a parallel burst of {len(burst)} wrong passwords through nginx: {checked} were checked "
             f"(at most {THROTTLE_BOUND} may be), answers {sorted(set(map(str, burst)))}")
    else:
        notes.append(f"login throttle held in a parallel burst of {len(burst)}: {checked} checked, the rest 429")


def fetch(base, path, headers):
    """One GET as it arrives: its status, headers and raw body (not decompressed)."""
    request = urllib.request.Request(base + path, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def check_compression_and_tags(nginx):
    """Through nginx: JSON and GeoJSON answers come gzipped to a client that accepts it (and the same once unpacked),
    and a tagged answer revalidates with 304 whichever instance is asked, its tag weakened by the compression."""
    import gzip
    for path, accept in [("/v1/places/nearby?lat=37.7749&lon=-122.4194&radius=20&limit=50", "application/json"),
                         ("/v1/places/within?bbox=-123,37,-122,38&limit=50", "application/geo+json")]:
        status, headers, packed = fetch(nginx.base, path, {"Accept-Encoding": "gzip", "Accept": accept})
        _, _, plain = fetch(nginx.base, path, {"Accept": accept})
        if status != 200 or headers.get("Content-Encoding") != "gzip":
            fail(f"nginx did not compress {path} ({accept}): {status}, Content-Encoding {headers.get('Content-Encoding')}")
            continue
        if json.loads(gzip.decompress(packed)) != json.loads(plain):
            fail(f"{path} ({accept}) unpacked differs from the answer sent plain")
            continue
        notes.append(f"compression: {path.split('?')[0]} ({accept}) {len(plain):,} bytes, {len(packed):,} gzipped")
        tag = headers.get("ETag")
        if path.startswith("/v1/places/within"):
            # Asked several times: nginx's cache (or an instance, once the copy is stale) answers each.
            answers = [fetch(nginx.base, path, {"Accept-Encoding": "gzip", "Accept": accept, "If-None-Match": tag or ""})[0]
                       for _ in range(6)]
            if not tag or answers != [304] * 6:
                fail(f"revalidating {path} with its tag {tag} through nginx answered {answers}, wanted 304 each time")
            else:
                notes.append(f"revalidation through nginx: 6 × 304 for the tag {tag}")


def check_map_cache(nginx):
    """nginx's cache keeps the map's anonymous answers: asked again, the copy answers (HIT); once it is older than its
    max-age (10 s), nginx asks an instance with its ETag and hears 304 (REVALIDATED). A box of open ocean, where no
    write of the run lands, so the answer cannot change meanwhile."""
    path = "/v1/places/clusters?bbox=-150,-40,-149,-39&zoom=5"
    seen = []
    for wait in (0, 0, 11):
        time.sleep(wait)
        status, headers, _ = fetch(nginx.base, path, {"Accept-Encoding": "gzip"})
        seen.append((status, headers.get("X-Cache-Status")))
    if seen != [(200, "MISS"), (200, "HIT"), (200, "REVALIDATED")]:
        fail(f"nginx's cache of {path}: {seen}, wanted a MISS, a HIT, then (past max-age) REVALIDATED by a 304")
    else:
        notes.append("nginx's cache: a clusters answer kept (HIT), then past its max-age revalidated with its ETag (304)")
    # A request with Authorization passes the cache by and reaches an instance, whose answer is not kept. (The clusters
    # route answers everyone alike, so the instance never reads the token's session: 200, as without one.)
    status, headers, _ = fetch(nginx.base, path, {"Authorization": "Bearer not-a-token"})
    answered = (status, headers.get("X-Cache-Status"), headers.get("Cache-Control"))
    if answered != (200, "BYPASS", "no-store"):
        fail(f"a request with a token to {path} through nginx's cache answered {answered}, "
             "wanted 200 from an instance (BYPASS) with Cache-Control: no-store")


def check_secrets(instances):
    """The database password appears in no instance's process title and no log line."""
    for instance in instances:
        if instance.running:
            with open(f"/proc/{instance.process.pid}/cmdline", "rb") as file:
                if POSTGRES_PASSWORD.encode() in file.read():
                    fail(f"instance {instance.name}'s process title shows the database password")
        with open(instance.log_path, errors="replace") as file:
            if POSTGRES_PASSWORD in file.read():
                fail(f"instance {instance.name}'s log shows the database password")


# The run

class Cluster:
    """Everything the run starts, so that all of it is stopped, by pid, however the run ends."""

    def __init__(self, binary, work):
        self.binary = binary
        self.work = work
        self.postgres = PrivatePostgres(os.path.join(work, "postgres"), fsync=True)
        self.instances = []
        self.nginx = None
        self.database = None

    def start(self):
        """PostgreSQL and its `places` database, three instances started together on it, nginx in front of them."""
        with Timed("PostgreSQL: initdb and start"):
            self.postgres.start()
            Database(self.postgres.port, "postgres").rows("CREATE DATABASE places")
            self.database = Database(self.postgres.port, "places")
        url = f"postgres://places:{POSTGRES_PASSWORD}@127.0.0.1:{self.postgres.port}/places?sslmode=disable"
        self.instances = [Instance(name, self.binary, url, self.work) for name in ("a", "b", "c")]
        with Timed("three instances started together (one migration, seeds)"):
            self.start_together(self.instances)
        with Timed("nginx started"):
            self.nginx = Nginx(self.work, self.instances)
            self.nginx.start()

    def start_together(self, instances):
        """Starts the instances at once, as an operator's machines would, and waits for all of them."""
        errors = []

        def start(instance):
            try:
                instance.start()
            except BaseException as error:  # places_server.start stops with SystemExit
                errors.append(f"{error}")

        threads = [threading.Thread(target=start, args=(instance,)) for instance in instances]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise Broken("; ".join(errors))

    def stop(self):
        """nginx, the instances and PostgreSQL, each by its pid; a failure to stop one does not keep the others up."""
        steps = ([self.nginx.stop] if self.nginx else []) + [instance.stop for instance in self.instances] + [self.postgres.stop]
        for step in steps:
            try:
                step()
            except Exception as error:
                fail(f"stopping: {error}")


def run(cluster, rng, started):
    """The scenario, then the checks."""
    cluster.start()
    base = cluster.nginx.base
    with Timed("the README's three-person decision through nginx"):
        readme = readme_decision(base)
    live = LiveScenario(cluster)
    with Timed(f"live streams held; {LIVE_LATENCY_BALLOTS} ballots to one instance timed to a stream on another"):
        live.start()
        live.measure_latency()
    writer_names = [f"writer{i}" for i in range(WRITERS)]
    writer_tokens = [sign_up(base, name) for name in writer_names]
    with Timed(f"{WRITES} writes and ballots every 20 ms, one instance killed -9, PostgreSQL restarted"):
        live.start_ballots()
        load, victim = writes_with_failures(cluster, writer_tokens, rng, deadline=started + 240)
        live.stop_ballots()
    with Timed("live: the killed instance's streams stop counting"):
        live.check_lapsed(victim.killed_at)
    with Timed(f"instance {victim.name} started again"):
        victim.start()
    # Before nginx is asked to balance again: its least_conn counts an open stream as a connection in use.
    with Timed("live: a removed member's stream ends, the last ballot ends the rest; streams checked against the feed"):
        live.finish()
        live.check(cluster.database)
    with Timed(f"{MEMBERS} members signed up, grouped; a decision started"):
        decision, group, tokens, places = members_decision(base, cluster.database)
    with Timed(f"nginx sending to instance {victim.name} again (its fail_timeout)"):
        cluster.nginx.wait_until_balanced()
    with Timed(f"{MEMBERS} ballots at once, {MEMBERS} members' swipe answers at once, {MESSAGES_AT_ONCE} messages of one at once"):
        offset = cluster.nginx.log_size()
        result = ballots_at_once(base, decision, tokens, places)
        in_round = swipes_at_once(base, cluster.database, group, tokens, places)
        messages_at_once([instance for instance in cluster.instances if instance.running], cluster.database, in_round, tokens[0])
        served = cluster.nginx.upstreams_since(offset)
        notes.append(f"the {MEMBERS} simultaneous ballots were served by " + ", ".join(
            f"{instance.name}: {served.count(f'127.0.0.1:{instance.port}')}" for instance in cluster.instances))
    running = [instance for instance in cluster.instances if instance.running]
    check_connections(cluster.database, running)
    with Timed("checks: writes, /ready, nearby and clusters on each instance, decisions and notifications, throttle, gzip, cache, photos"):
        check_writes(cluster.database, cluster.nginx, load, writer_names)
        check_ready(running)
        check_nearby(cluster.database, running, rng)
        check_clusters(cluster.database, running)
        check_decisions(cluster.database, [readme, (decision, group)])
        check_same_result(running, decision, tokens[0], result)
        check_throttle(cluster.nginx)
        check_compression_and_tags(cluster.nginx)
        check_map_cache(cluster.nginx)
        check_photos(cluster.nginx.base, running, writer_tokens[0])
        check_secrets(cluster.instances)
    with Timed("the database frozen (SIGSTOP) while requests are in flight, then thawed"):
        frozen_database(cluster, writer_tokens[0])
    with Timed("SIGTERM to every instance with a live stream open on each"):
        stop_with_streams_open(cluster, writer_tokens[0])


def upload(base, path, body, token, content_type="image/jpeg"):
    """POSTs the bytes `body` as they are: the status and the JSON answer."""
    request = urllib.request.Request(base + path, method="POST", data=body)
    request.add_header("Content-Type", content_type)
    request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, parsed(response.read())
    except urllib.error.HTTPError as error:
        return error.code, parsed(error.read())


def fetch_photo(base, path):
    """GET `path`: the status, the body's bytes and the headers."""
    try:
        with urllib.request.urlopen(base + path, timeout=30) as response:
            return response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.read(), error.headers


def exif_tags(data):
    """What exiftool (an independent reader; CI installs Debian's libimage-exiftool-perl) finds in the image `data`:
    its tags by group:name."""
    exiftool = shutil.which("exiftool")
    if not exiftool:
        raise Broken("exiftool is missing: apt-get install libimage-exiftool-perl")
    with tempfile.NamedTemporaryFile(suffix=".jpg") as image:
        image.write(data)
        image.flush()
        found = subprocess.run([exiftool, "-json", "-a", "-G1", image.name], capture_output=True, check=True).stdout
    return json.loads(found)[0]


def location_tags(tags):
    """The tags that say where, or who and with what: GPS, XMP, comments, the camera."""
    return sorted(name for name in tags if name.split(":")[0] in ("GPS", "Composite") and "GPS" in name
                  or name.startswith("XMP") or name in ("File:Comment", "IFD0:Make", "IFD0:Model"))


def check_photos(base, instances, token):
    """A 2 MiB photo with a GPS position uploaded through nginx (over its 1 MiB default: the photo routes' own bound
    lets it through) and one straight to the first instance: every instance serves each the same cleaned bytes, with
    no location in them, and nearby on every instance shows the place's count and cover."""
    photo = gps_jpeg.jpeg(size=2 * 1024 * 1024)
    if "GPS:GPSLatitude" not in exif_tags(photo):
        fail("exiftool finds no GPS position in the photo the test uploads")
    status, through_nginx = upload(base, "/v1/places/sf-vulcan-street-steps/photos?caption=cluster", photo, token)
    if status != 201:
        fail(f"a 2 MiB photo through nginx answered {status}: {through_nginx}")
        return
    status, direct = upload(instances[0].base, "/v1/places/sf-vulcan-street-steps/photos", gps_jpeg.jpeg(orientation=3), token)
    if status != 201:
        fail(f"a photo sent to instance {instances[0].name} answered {status}: {direct}")
        return
    for added in (through_nginx, direct):
        bodies = set()
        for instance in instances:
            code, body, headers = fetch_photo(instance.base, added["url"])
            if code != 200 or headers.get("Content-Type") != "image/jpeg":
                fail(f"{added['url']} on instance {instance.name} answered {code} {headers.get('Content-Type')}")
                continue
            leaked = [marker for marker in gps_jpeg.location_markers if marker in body]
            tags = exif_tags(body)
            leaked += location_tags(tags)
            if tags.get("File:ImageWidth") != 1 or tags.get("IFD0:Orientation") not in ("Rotate 90 CW", "Rotate 180"):
                fail(f"{added['url']} on instance {instance.name}: exiftool reads {tags}")
            if leaked or len(body) != added["bytes"]:
                fail(f"{added['url']} on instance {instance.name}: {len(body)} bytes (stored {added['bytes']}), location left: {leaked}")
            bodies.add(body)
        if len(bodies) > 1:
            fail(f"the instances serve different bytes for {added['url']}")
    for instance in instances:
        code, answer, _ = send(instance.base, "GET", "/v1/places/nearby?lat=37.7626&lon=-122.4393&radius=0.5&limit=50")
        steps = next((place for place in (answer or {}).get("places", []) if place["id"] == "sf-vulcan-street-steps"), None)
        if code != 200 or not steps or steps.get("photoCount", 0) < 2 or steps.get("coverPhotoURL") != direct["url"]:
            fail(f"nearby on instance {instance.name} shows the steps without their photos: {steps}")
    notes.append(f"a 2 MiB photo through nginx and one to instance {instances[0].name}: each served alike by all "
                 f"{len(instances)} instances ({through_nginx['bytes']} and {direct['bytes']} bytes once cleaned), exiftool finds no location left, the orientation kept")


STOPS_WITHIN = 10  # seconds: SIGTERM with a stream open ends an instance (graceful shutdown ends its streams)


def stop_with_streams_open(cluster, token):
    """A notification stream open on every running instance, then SIGTERM to each: an open stream must not hold the
    instance up (graceful shutdown ends it, and the client sees its stream end)."""
    running = [instance for instance in cluster.instances if instance.running]
    watchers = [StreamWatcher(f"on {instance.name}", token, "/v1/notifications/events", instance.base, instance.base) for instance in running]
    for watcher in watchers:
        watcher.start()
    deadline = time.monotonic() + 20
    while any(watcher.count() < 1 for watcher in watchers) and time.monotonic() < deadline:
        time.sleep(0.01)
    for instance, watcher in zip(running, watchers):
        if watcher.count() < 1:
            fail(f"no stream opened on {instance.name} before stopping it")
        started = time.monotonic()
        instance.process.terminate()
        try:
            instance.process.wait(timeout=STOPS_WITHIN + 20)
        except subprocess.TimeoutExpired:
            pass
        took = time.monotonic() - started
        if instance.running or took > STOPS_WITHIN:
            fail(f"instance {instance.name} took {took:.1f} s to stop on SIGTERM with a stream open (at most {STOPS_WITHIN} s)")
        else:
            notes.append(f"instance {instance.name} stopped {took:.2f} s after SIGTERM with a live stream open")
        watcher.stopping = True


# 6. Live streams

LIVE_LATENCY_BALLOTS = 200  # ballots sent one after another to one instance, each timed to a stream on another
LIVE_ENDS_WITHIN = 10       # seconds: a removed member's open stream ends


class StreamWatcher(threading.Thread):
    """A client of a live stream: it reads `path` as Server-Sent Events and, whenever the connection drops,
    reconnects (through `reconnect_base`) with the Last-Event-ID of the last event it read, until the stream ends
    with its final event, a 204, or a refusal."""

    def __init__(self, name, token, path, first_base, reconnect_base):
        super().__init__(daemon=True)
        self.name, self.token, self.path = name, token, path
        self.first_base, self.reconnect_base = first_base, reconnect_base
        self.events = []       # (id, event name, data, arrival time on the monotonic clock)
        self.connections = 0   # streams opened (answered 200)
        self.refused = None    # the status of a refusal that stopped it
        self.ended = False     # it read an `ended` event, or was answered 204
        self.closed_at = None  # when its last stream was closed by the server
        self.reopened_at = None  # when its last stream opened
        self.stopping = False
        self.lock = threading.Lock()

    def last_id(self):
        with self.lock:
            return next((event[0] for event in reversed(self.events) if event[0]), None)

    def count(self, name=None):
        with self.lock:
            return sum(1 for event in self.events if name is None or event[1] == name)

    def run(self):
        base = self.first_base
        while not self.stopping and not self.ended and self.refused is None:
            try:
                self.read_one(base)
            except (OSError, http.client.HTTPException):
                pass
            self.closed_at = time.monotonic()
            base = self.reconnect_base
            time.sleep(0.2)

    def read_one(self, base):
        host, port = base.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        headers = {"Authorization": "Bearer " + self.token, "Accept": "text/event-stream"}
        last = self.last_id()
        if last:
            headers["Last-Event-ID"] = last
        try:
            connection.request("GET", self.path, headers=headers)
            response = connection.getresponse()
            if response.status == 204:
                self.ended = True
                return
            if response.status in (401, 403, 404):
                self.refused = response.status
                return
            if response.status != 200:
                return  # 502 or 503 while an instance or the database is down: try again
            self.connections += 1
            self.reopened_at = time.monotonic()
            event = {}
            while not self.stopping:
                line = response.readline()
                if not line:
                    return
                line = line.decode().rstrip("\n")
                if line.startswith(":"):
                    continue
                if line == "":
                    if "data" in event:
                        with self.lock:
                            self.events.append((event.get("id"), event.get("event", "message"), event["data"], time.monotonic()))
                        if event.get("event") == "ended":
                            self.ended = True
                            return
                    event = {}
                    continue
                field, _, value = line.partition(": ")
                event[field] = event.get(field, "") + value if field == "data" else value
        finally:
            connection.close()


class LiveScenario:
    """A group of four deciding where to go while watching the decision live: streams held on single instances and
    through nginx, ballots sent through the others, through an instance killed -9 and PostgreSQL restarting."""

    def __init__(self, cluster):
        self.cluster = cluster
        self.base = cluster.nginx.base
        self.ballots_stop = threading.Event()
        self.ballots_sent = 0

    def start(self):
        base = self.base
        self.tokens = {name: sign_up(base, name) for name in ("live_ana", "live_ben", "live_cleo", "live_dan", "live_eve")}
        ana = self.tokens["live_ana"]
        self.group = expect(base, "POST", "/v1/groups", {"name": "Live crew"}, ana, status=201)["id"]
        for name in ("live_ben", "live_cleo", "live_dan"):
            expect(base, "POST", f"/v1/groups/{self.group}/invitations", {"username": name}, ana, status=201)
            expect(base, "POST", f"/v1/me/invitations/{self.group}/accept", token=self.tokens[name])
        self.decision = expect(base, "POST", "/v1/decisions", {
            "groupId": self.group, "method": "tiered", "title": "Live dinner",
            "candidates": {"placeIds": ["sf-lupine-salt", "sf-valencia-sourdough-works", "sf-taqueria-los-cuates"]}},
            ana, status=201)["id"]
        path = f"/v1/decisions/{self.decision}/events"
        first, victim, third = self.cluster.instances
        # Cleo's stream stays on the first instance, Ben's on the one that will be killed, Ana's and Dan's go
        # through nginx; every reconnection goes through nginx.
        self.watchers = {
            "live_cleo": StreamWatcher("live_cleo", self.tokens["live_cleo"], path, first.base, base),
            "live_ben": StreamWatcher("live_ben", self.tokens["live_ben"], path, victim.base, base),
            "live_ana": StreamWatcher("live_ana", ana, path, base, base),
            "live_dan": StreamWatcher("live_dan", self.tokens["live_dan"], path, base, base),
        }
        # Eve holds as many streams as one account may, all on the instance that will be killed: once it is dead they
        # must stop counting (within 30 s), so that her clients, reconnecting through nginx, get them back.
        self.eve = [StreamWatcher(f"live_eve {number}", self.tokens["live_eve"], "/v1/notifications/events", victim.base, base)
                    for number in range(5)]
        for watcher in list(self.watchers.values()) + self.eve:
            watcher.start()
        deadline = time.monotonic() + 20
        while any(watcher.count() < 1 for watcher in self.watchers.values()) and time.monotonic() < deadline:
            time.sleep(0.01)
        while any(watcher.count() < 1 for watcher in self.eve) and time.monotonic() < deadline:
            time.sleep(0.01)
        if any(watcher.count() < 1 for watcher in list(self.watchers.values()) + self.eve):
            raise Broken("a live stream did not open: " + ", ".join(f"{w.name}: {w.count()} events, refused {w.refused}"
                                                                   for w in self.watchers.values()))

    def ranking(self, number):
        places = ["sf-lupine-salt", "sf-valencia-sourdough-works", "sf-taqueria-los-cuates"]
        return places[number % 3:] + places[:number % 3]

    def measure_latency(self):
        """Ballots sent one after another straight to the third instance; each is timed from just before it is sent
        to its event's arrival on Cleo's stream, held on the first instance."""
        third = self.cluster.instances[2]
        cleo = self.watchers["live_cleo"]
        latencies = []
        for number in range(LIVE_LATENCY_BALLOTS):
            voter = ("live_ana", "live_ben")[number % 2]
            before = cleo.count("ballot")
            sent = time.monotonic()
            vote(third.base, self.decision, self.tokens[voter], self.ranking(number))
            deadline = sent + 10
            while cleo.count("ballot") <= before and time.monotonic() < deadline:
                time.sleep(0.0005)
            with cleo.lock:
                arrived = [event[3] for event in cleo.events if event[1] == "ballot"]
            if len(arrived) <= before:
                fail(f"ballot {number} sent to {third.name} did not reach the stream on {self.cluster.instances[0].name} within 10 s")
                return
            latencies.append(arrived[before] - sent)
        latencies.sort()
        def at(share):
            return latencies[min(len(latencies) - 1, int(share * len(latencies)))] * 1000
        notes.append(f"live: {len(latencies)} ballots sent to one instance reached a stream on another in "
                     f"{at(0.5):.1f} ms at the median, {at(0.99):.1f} ms p99, {latencies[-1] * 1000:.1f} ms at most "
                     f"(from before the ballot is sent; target p99 within 200 ms)")

    def start_ballots(self):
        """Ballots through nginx every 20 ms while the write load kills an instance and restarts PostgreSQL (an
        answer of 502 or 503 is only counted: the feed, not the answer, says which were taken)."""
        def send_ballots():
            number = 0
            while not self.ballots_stop.is_set():
                voter = ("live_ana", "live_ben")[number % 2]
                try:
                    status, _, _ = send(self.base, "PUT", f"/v1/decisions/{self.decision}/ballot",
                                        {"ranking": self.ranking(number)}, self.tokens[voter], timeout=ANSWER_WITHIN)
                    if status == 200:
                        self.ballots_sent += 1
                except OSError:
                    pass
                number += 1
                time.sleep(0.02)
        self.ballots = threading.Thread(target=send_ballots, daemon=True)
        self.ballots.start()

    def check_lapsed(self, killed_at):
        """Eve's five streams were on the killed instance: her clients get all five back through nginx (a sixth would
        be refused until the dead instance's leases lapse) within 30 s of the kill."""
        deadline = killed_at + 45
        while any(watcher.connections < 2 for watcher in self.eve) and time.monotonic() < deadline:
            time.sleep(0.05)
        back = [watcher.reopened_at - killed_at for watcher in self.eve if watcher.connections >= 2]
        if len(back) < len(self.eve) or max(back) > 30:
            fail(f"the killed instance's streams still counted: {len(back)} of 5 of live_eve's streams back, the last "
                 f"{max(back) if back else float('nan'):.1f} s after the kill (at most 30 s)")
        else:
            notes.append(f"live: the killed instance's streams stopped counting: live_eve had all 5 back {max(back):.1f} s after the kill")
        for watcher in self.eve:
            watcher.stopping = True

    def stop_ballots(self):
        self.ballots_stop.set()
        self.ballots.join()
        notes.append(f"live: {self.ballots_sent} ballots answered 200 while an instance was killed and PostgreSQL restarted; "
                     + ", ".join(f"{w.name} opened {w.connections} stream(s)" for w in self.watchers.values()))

    def finish(self):
        """Dan leaves the group (his stream must end), then Cleo votes last and the decision ends everywhere."""
        ana = self.tokens["live_ana"]
        dan = self.watchers["live_dan"]
        removed = time.monotonic()
        expect(self.base, "DELETE", f"/v1/groups/{self.group}/members/live_dan", token=ana)
        dan.join(LIVE_ENDS_WITHIN + 5)
        if dan.is_alive() or dan.refused != 403:
            fail(f"live_dan's stream did not end when he left the group (alive {dan.is_alive()}, refused {dan.refused})")
        elif dan.closed_at - removed > LIVE_ENDS_WITHIN:
            fail(f"live_dan's stream ended {dan.closed_at - removed:.1f} s after he left the group")
        else:
            notes.append(f"live: a removed member's open stream ended {dan.closed_at - removed:.2f} s after the removal")
        self.last_vote_at = time.monotonic()
        vote(self.base, self.decision, self.tokens["live_cleo"], ["sf-taqueria-los-cuates"])
        for name in ("live_ana", "live_ben", "live_cleo"):
            self.watchers[name].join(30)

    def check(self, database):
        """Every stream saw, after the snapshot it began with, exactly the feed's ballots of the decision, in the
        feed's order, once each (whichever instances served it and however often it reconnected), then the end; no
        ballot's ranking in any event; and Cleo, who voted last, saw no standings before her own ballot."""
        generation = database.rows("SELECT generation FROM change_counter WHERE id = 1")[0][0]
        tag = re.sub(r"[^A-Za-z0-9]", "", generation)[:8].lower() or "0"
        feed = sorted((int(xid), int(position)) for xid, position in database.rows(
            f"SELECT xid::text, position FROM feed WHERE kind = 'ballot' AND subject = {quoted([self.decision])}"))
        for name in ("live_ana", "live_ben", "live_cleo"):
            watcher = self.watchers[name]
            if watcher.is_alive() or not watcher.ended:
                fail(f"{name}'s stream did not end with the decision (alive {watcher.is_alive()}, refused {watcher.refused})")
            events = list(watcher.events)
            if not events or events[0][1] != "snapshot":
                fail(f"{name}'s stream did not begin with a snapshot: {[event[1] for event in events[:3]]}")
                continue
            _, start, _ = events[0][0].split("-")[:3]
            expected = [f"{tag}-{xid}-{position}" for xid, position in feed if (xid, position) > (int(start), 0)]
            got = [event[0] for event in events if event[1] == "ballot"]
            if got != expected:
                first = next((index for index, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
                notes.append(f"live: {name} first differs from the feed at ballot {first}: got {got[max(0, first - 2):first + 3]}, "
                             f"feed {expected[max(0, first - 2):first + 3]}")
                missing = [id for id in expected if id not in got]
                repeated = sorted({id for id in got if got.count(id) > 1})
                fail(f"{name}'s stream saw {len(got)} ballots, the feed holds {len(expected)} after its start: "
                     f"missing {missing[:5]}, repeated {repeated[:5]}, extra {[id for id in got if id not in expected][:5]}")
            if events[-1][1] != "ended":
                fail(f"{name}'s stream did not end with `ended`: {events[-1][1]}")
            # A ballot's content is a person's ranking: only the reader's own (`myBallot`) may show, and a voter is
            # named, nothing more.
            for event in events:
                data = json.loads(event[2])
                if set((data.get("voter") or {}).keys()) - {"id", "username"} or "ballots" in data.get("decision", {}):
                    fail(f"{name}'s stream carried more of a ballot than who cast it: {event[2][:200]}")
                    break
            notes.append(f"live: {name} saw {len(got)} ballots over {watcher.connections} stream(s), no gap, no repeat")
        for event in self.watchers["live_cleo"].events:
            data = json.loads(event[2])
            if event[3] < self.last_vote_at and (data["decision"].get("tallyVisible") or "provisional" in data["decision"]):
                fail(f"live_cleo saw standings before she voted: {event[1]} {event[0]}")
                break



# 5. A frozen database

FROZEN_WRITE_WITHIN = 4.5  # seconds: a write or signed-in read answers 503 within about 3 s (the request's deadline)
FROZEN_READY_WITHIN = 1.5  # seconds: /ready answers within 1 s, whatever the database does


def frozen_database(cluster, token):
    """PostgreSQL stopped with SIGSTOP (a frozen server, or a network that drops packets) while requests are in
    flight, on an instance whose pool holds idle connections: a write and a signed-in read answer 503 with Retry-After
    within about 3 s, /ready within a second, and a nearby that names its centre answers from the index, with a token
    or without (the token's session is read only by a route that needs the caller). SIGCONT then, and the instance is
    ready again."""
    instance = next(instance for instance in cluster.instances if instance.running)
    expect(instance.base, "GET", "/v1/me", token=token)  # the pool holds a connection that worked a moment ago
    postmaster = cluster.postgres.pid()
    frozen = [postmaster] + children(postmaster)
    requests = {
        "write": ("POST", "/v1/places", {"kind": "gem", "name": "Frozen gem", "lat": 37.77, "lon": -122.42}, token, FROZEN_WRITE_WITHIN),
        "signed-in read": ("GET", "/v1/me", None, token, FROZEN_WRITE_WITHIN),
        "ready": ("GET", "/ready", None, None, FROZEN_READY_WITHIN),
        "anonymous nearby": ("GET", "/v1/places/nearby?lat=37.77&lon=-122.42&radius=5", None, None, FROZEN_READY_WITHIN),
        # A token on a request that does not need its caller changes nothing: its session is never read.
        "ready with a token": ("GET", "/ready", None, token, FROZEN_READY_WITHIN),
        "signed-in nearby naming its centre": ("GET", "/v1/places/nearby?lat=37.77&lon=-122.42&radius=5", None, token, FROZEN_READY_WITHIN),
    }
    answers = {}

    def ask(name):
        method, path, body, bearer, _ = requests[name]
        started = time.monotonic()
        try:
            status, answer, headers = send(instance.base, method, path, body, bearer, timeout=ANSWER_WITHIN)
            answers[name] = (status, answer, headers.get("Retry-After"), time.monotonic() - started)
        except OSError as error:
            answers[name] = (f"no answer ({error})", None, None, time.monotonic() - started)

    for pid in frozen:
        os.kill(pid, signal.SIGSTOP)
    try:
        threads = [threading.Thread(target=ask, args=(name,)) for name in requests]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        for pid in frozen:
            os.kill(pid, signal.SIGCONT)
    for name, (status, answer, retry_after, took) in answers.items():
        within = requests[name][4]
        notes.append(f"database frozen: {name} answered {status} in {took:.2f} s")
        wanted = 200 if "nearby" in name else 503
        if status != wanted:
            fail(f"database frozen: {name} answered {status} {answer}, not {wanted}")
        if took > within:
            fail(f"database frozen: {name} took {took:.2f} s, more than {within} s")
        if wanted == 503 and not retry_after:
            fail(f"database frozen: {name}'s 503 has no Retry-After")
        text = json.dumps(answer)
        if wanted == 503 and (str(cluster.postgres.port) in text or "127.0.0.1" in text):
            fail(f"database frozen: {name}'s 503 names the database's address: {text}")
    check_ready([instance])


def main():
    """Checks what the run needs, runs it, stops everything it started whatever happened, and sums up."""
    if len(sys.argv) != 2:
        raise SystemExit("usage: Tests/cluster/run-cluster-test.py PLACES_BINARY")
    binary = os.path.abspath(sys.argv[1])
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"cluster test: no places binary at {binary}")
    nginx_binary(), psql_binary(), postgres_bin("initdb")  # say what is missing before starting anything
    rng = random.Random(int(os.environ.get("PLACES_CLUSTER_SEED", "13")))
    work = tempfile.mkdtemp(prefix="places-cluster-")
    if os.geteuid() == 0:
        os.chmod(work, 0o755)  # PostgreSQL runs as `postgres` and must reach its folder inside
    cluster = Cluster(binary, work)
    started = time.monotonic()
    try:
        run(cluster, rng, started)
    except Broken as error:
        fail(f"the run stopped: {error}")
    except Exception:
        fail(f"the run stopped on an error of its own:\n{traceback.format_exc()}")
    finally:
        with Timed("stopping everything (an instance with requests in flight waits for them, up to 30 s)"):
            cluster.stop()
    summary(time.monotonic() - started, work)


def summary(seconds, work):
    """The timings, the facts and the failures; exits 1 when a check failed (the work folder is kept then)."""
    say("summary")
    for what, took in timings:
        print(f"  {took:7.2f} s  {what}")
    for note in notes:
        print(f"  - {note}")
    print(f"  {seconds:7.2f} s  in all")
    if failures:
        print(f"cluster test: {len(failures)} failure(s); logs kept in {work}", file=sys.stderr)
        for failure in failures:
            print(f"  ✘ {failure}", file=sys.stderr)
        sys.exit(1)
    if os.environ.get("PLACES_CLUSTER_KEEP"):
        say(f"logs kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    say("ok")


if __name__ == "__main__":
    main()
