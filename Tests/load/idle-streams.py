#!/usr/bin/env python3
"""Idle live streams: what --streams open event streams cost while nothing happens, and how fast one event reaches them.

One instance on SQLite (the default): starts `places serve` (release build) on a new SQLite file, signs up one account
per five streams (an account holds at most five), and measures the server over --idle seconds with no stream open,
then again with every stream open and idle (each client read its snapshot and then reads nothing: the keep-alives land
in the sockets' buffers): its CPU time (user + system, from /proc), its resident memory and its open files. Then one
event reaches every stream (a notification to each account) and the script reports how long the last took to arrive.

Several instances on PostgreSQL (--postgres): starts a private PostgreSQL (Tests/tools/private_postgres.py) and
--instances servers on it (3), opens --streams streams (10,000) spread over them, and measures the same two idle
windows, reading the database's own statistics before and after each (pg_stat_database: transactions committed, rows
written) and the CPU time of each instance and of PostgreSQL (the postmaster and its backends); then the resident
memory each stream adds. Then a decision of --members people (50), each holding its stream (spread over the
instances, the idle streams still open), who all vote at once: the delay from each ballot's request to the last
stream that shows it (median, p99, most), and how often the decision's table was read per ballot (pg_stat_user_tables:
seq_scan + idx_scan of `decision`), and before the vote, per stream opened. The decision's streams are read by one
thread under a selector, a time taken at each recv and the events parsed after the vote, while the ballots go from
another process (so that the measuring client is not what delays them; --client threads is the earlier client, a
thread per stream parsing as it reads beside the senders' threads); it also says when each ballot reached its first
stream, the spread to its last, and the CPU each instance and PostgreSQL used during the vote. --log-vote has
PostgreSQL log every statement of the vote (and keeps the vote's times beside it); IDLE_STREAMS_PERF=FILE records the
instances with `perf record -g` during the vote. PostgreSQL reports a backend's statistics
up to 10 s late, so the script waits 11 s before each reading of them.

    swift build -c release
    Tests/load/idle-streams.py                          # 1,000 streams on one instance (SQLite), 30 s idle each way
    Tests/load/idle-streams.py --postgres               # 10,000 streams on 3 instances over one PostgreSQL

Open files: the script holds one socket per stream, and each instance one per stream it serves plus about 100 (the
usual limit of 1,024 stops at about a thousand). The script raises its own soft limit (which the servers inherit) to
--streams + 1,000 when the hard limit allows; otherwise it stops and says what to run first (`ulimit -n 12000` for
10,000 streams; a hard limit is raised as root, or with LimitNOFILE= in a systemd unit).
"""
import argparse, json, multiprocessing, os, random, resource, selectors, socket, statistics, subprocess, sys, tempfile, threading, time
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server
from private_postgres import PrivatePostgres, free_port

PASSWORD = "a long password"
SETTLE = 11  # seconds: PostgreSQL 15 reports an idle backend's statistics up to 10 s late


def cpu_seconds(pid):
    """User and system CPU time of `pid` so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def family_cpu_seconds(pid):
    """CPU time of `pid`, of its children alive now and of those it reaped (PostgreSQL's postmaster and backends)."""
    total = 0.0
    ticks = os.sysconf("SC_CLK_TCK")
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    total += (int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])) / ticks
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def open_files(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def raise_open_files(needed):
    """Raises this process's soft limit on open files (its servers inherit it) to `needed`, or stops saying how."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= needed:
        return
    if hard != resource.RLIM_INFINITY and hard < needed:
        raise SystemExit(f"idle streams: {needed} open files are needed and the hard limit is {hard}: "
                         f"run `ulimit -n {needed}` (as root, or raise LimitNOFILE=) first, or ask for fewer --streams")
    resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))


def sign_up(base, name):
    """Registers `name` and signs in: the session token."""
    for _ in range(10):
        status, answer = places_server.call(base, "POST", "/v1/auth/register",
                                            {"username": name, "email": f"{name}@example.com", "password": PASSWORD})
        if status != 503:
            break
        time.sleep(2)  # the server's password checks are all busy (a machine shared with other work): it says to wait
    if status >= 300:
        raise SystemExit(f"idle streams: registering {name} answered {status}: {answer}")
    return places_server.call(base, "POST", "/v1/auth/login", {"username": name, "password": PASSWORD})[1]["token"]


def expect(base, method, path, body=None, token=None):
    status, answer = places_server.call(base, method, path, body, token)
    if status >= 300:
        raise SystemExit(f"idle streams: {method} {path} answered {status}: {answer}")
    return answer


def open_stream(port, token, path="/v1/notifications/events"):
    """A socket with a stream open on it, once its snapshot arrived."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    received = b""
    while b"event: snapshot" not in received:
        part = connection.recv(65536)
        if not part:
            raise SystemExit(f"idle streams: a stream closed before its snapshot: {received[:200]!r}")
        received += part
    if not received.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"idle streams: a stream was refused: {received[:200]!r}")
    return connection


# One instance on SQLite

def single(options):
    streams_wanted = options.streams or 1000
    raise_open_files(streams_wanted + 1000)
    work = tempfile.mkdtemp(prefix="places-idle-streams-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = places_server.start(options.binary, ["--database", os.path.join(work, "places.sqlite"), "--seeds", os.path.join(root, "Seeds"),
                                                  "--port", str(port), "--bcrypt-cost", "4", "--registrations-per-hour", "100000",
                                                  "--log-level", "warning"],
                                 os.path.join(work, "server.log"), base, seconds=60, who="idle streams")
    try:
        accounts = (streams_wanted + 4) // 5
        tokens = [sign_up(base, f"watcher{number}") for number in range(accounts)]
        pid = server.pid
        time.sleep(2)

        def idle_window(what):
            cpu, started = cpu_seconds(pid), time.monotonic()
            time.sleep(options.idle)
            used = cpu_seconds(pid) - cpu
            took = time.monotonic() - started
            print(f"{what}: {used:.2f} s of CPU in {took:.0f} s ({100 * used / took:.2f}% of one core), "
                  f"{places_server.rss_mib(pid):.1f} MiB resident, {open_files(pid)} open files")
            return used

        before_rss = places_server.rss_mib(pid)
        before_files = open_files(pid)
        quiet = idle_window("no stream open")
        started = time.monotonic()
        streams = [open_stream(port, tokens[number // 5]) for number in range(streams_wanted)]
        print(f"{len(streams)} streams opened in {time.monotonic() - started:.1f} s")
        time.sleep(2)
        busy = idle_window(f"{len(streams)} idle streams")
        after_rss = places_server.rss_mib(pid)
        print(f"each idle stream: {(after_rss - before_rss) * 1024 / len(streams):.1f} KiB of resident memory, "
              f"{(open_files(pid) - before_files) / len(streams):.2f} open files; "
              f"CPU while idle: {busy:.2f} s against {quiet:.2f} s with none")

        # One event for every stream but the first account's: each account asks the next to be friends.
        arrivals = []
        lock = threading.Lock()

        def wait_for_event(connection):
            connection.settimeout(30)
            received = b""
            try:
                while b"event: notification" not in received:
                    part = connection.recv(65536)
                    if not part:
                        return
                    received = (received + part)[-65536:]
                with lock:
                    arrivals.append(time.monotonic())
            except OSError:
                return

        readers = [threading.Thread(target=wait_for_event, args=(connection,)) for connection in streams[5:]]
        for reader in readers:
            reader.start()
        sent = time.monotonic()
        for number in range(1, accounts):
            status, answer = places_server.call(base, "POST", "/v1/friends/requests", {"username": f"watcher{number}"}, tokens[number - 1])
            if status >= 300:
                raise SystemExit(f"idle streams: a friend request answered {status}: {answer}")
        sent_all = time.monotonic()
        for reader in readers:
            reader.join()
        last = (max(arrivals) - sent_all) if arrivals else float("nan")
        print(f"a friend request to each of {accounts - 1} accounts ({sent_all - sent:.1f} s to send): "
              f"{len(arrivals)} of {len(readers)} streams got theirs, the last {last:.2f} s after the last was sent")
        for connection in streams:
            connection.close()
    finally:
        places_server.stop(server)


# Several instances on PostgreSQL

def psql(url, sql):
    """One row of `sql`, as strings, read with psql on a connection of its own."""
    output = subprocess.run(["psql", url, "-X", "-A", "-t", "-F", "\t", "-c", sql], capture_output=True, text=True, check=True).stdout
    return output.strip().split("\t")


def database_statistics(url):
    """Transactions committed and rows written so far in the database (PostgreSQL's own counts)."""
    row = psql(url, "SELECT xact_commit, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database WHERE datname = current_database()")
    return dict(zip(("commits", "inserted", "updated", "deleted"), (int(value) for value in row)))


def decision_reads(url):
    """Scans of the decision table so far: sequential and by index."""
    return int(psql(url, "SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'decision'")[0])


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def read_events(connection, want, deadline, arrivals, lock):
    """Reads a decision stream's events until `want` ballots came (or its end, or the deadline), recording when each
    voter's ballot arrived."""
    buffer = b""
    got = 0
    while got < want and time.monotonic() < deadline:
        connection.settimeout(max(0.1, deadline - time.monotonic()))
        try:
            part = connection.recv(65536)
        except OSError:
            return
        if not part:
            return
        now = time.monotonic()
        buffer += part
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            lines = block.decode(errors="replace").split("\n")
            name = next((line[7:] for line in lines if line.startswith("event: ")), None)
            data = next((line[6:] for line in lines if line.startswith("data: ")), None)
            if name == "ballot" and data:
                voter = (json.loads(data).get("voter") or {}).get("username")
                with lock:
                    arrivals.setdefault(voter, []).append(now)
                got += 1
            elif name == "ended":
                return


def read_all_streams(connections, want, deadline):
    """Reads every decision stream in this one thread (non-blocking sockets under one selector) until each has `want`
    ballots (or its end, or the deadline): the raw bytes, each part with the time.monotonic() taken as its recv
    returned. Nothing is parsed here, so the reading costs one recv per wakeup; `ballot_arrivals` parses afterwards."""
    pattern = b"event: ballot"
    selector = selectors.DefaultSelector()
    parts = [[] for _ in connections]
    counts = [0] * len(connections)
    tails = [b""] * len(connections)
    for number, connection in enumerate(connections):
        connection.setblocking(False)
        selector.register(connection, selectors.EVENT_READ, number)
    open_ones = len(connections)
    while open_ones and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            number = key.data
            try:
                part = key.fileobj.recv(262144)
            except BlockingIOError:
                continue
            except OSError:
                part = b""
            now = time.monotonic()
            if not part:
                selector.unregister(key.fileobj)
                open_ones -= 1
                continue
            parts[number].append((now, part))
            window = tails[number] + part
            counts[number] += window.count(pattern)
            tails[number] = window[-(len(pattern) - 1):]
            if counts[number] >= want or b"event: ended" in window:
                selector.unregister(key.fileobj)
                open_ones -= 1
    selector.close()
    for connection in connections:
        connection.setblocking(True)
    return parts


def ballot_arrivals(parts):
    """Per voter, the times its ballot reached each stream: an event arrived with the part holding its last byte."""
    arrivals = {}
    for stream in parts:
        data = b"".join(part for _, part in stream)
        ends, offset = [], 0
        for moment, part in stream:
            offset += len(part)
            ends.append((offset, moment))
        position, which = 0, 0
        while True:
            end = data.find(b"\n\n", position)
            if end < 0:
                break
            while ends[which][0] < end + 2:
                which += 1
            lines = data[position:end].decode(errors="replace").split("\n")
            position = end + 2
            name = next((line[7:] for line in lines if line.startswith("event: ")), None)
            body = next((line[6:] for line in lines if line.startswith("data: ")), None)
            if name == "ballot" and body:
                voter = (json.loads(body).get("voter") or {}).get("username")
                arrivals.setdefault(voter, []).append(ends[which][1])
    return arrivals


def send_ballots(jobs, results):
    """In a process of its own (no GIL shared with the reader): every ballot at once from a thread each; the times
    sent and answered (time.monotonic() is the system's monotonic clock, the same in every process)."""
    sent, answered, errors = {}, {}, []
    barrier = threading.Barrier(len(jobs))

    def vote(job):
        name, base, path, ranking, token = job
        barrier.wait()
        sent[name] = time.monotonic()
        status, answer = places_server.call(base, "PUT", path, {"ranking": ranking}, token)
        answered[name] = time.monotonic()
        if status >= 300:
            errors.append(f"{name}'s ballot answered {status}: {answer}")

    threads = [threading.Thread(target=vote, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    results.put((sent, answered, errors))


def cluster(options):
    streams_wanted = options.streams or 10000
    raise_open_files(streams_wanted + options.members + 1000)
    work = tempfile.mkdtemp(prefix="places-idle-streams-")
    os.chmod(work, 0o755)  # PostgreSQL runs as the postgres user when we are root, and must reach its folder inside
    database = PrivatePostgres(os.path.join(work, "postgres"))
    database.start()
    url = database.url
    instances = []
    try:
        def start(number):
            port = free_port()
            base = f"http://127.0.0.1:{port}"
            process = places_server.start(options.binary, ["--database", url, "--seeds", os.path.join(root, "Seeds"), "--port", str(port),
                                                           "--bcrypt-cost", "4", "--registrations-per-hour", "1000000", "--log-level", "warning"],
                                          os.path.join(work, f"instance-{number}.log"), base, seconds=120, who=f"idle streams: instance {number}")
            return {"port": port, "base": base, "process": process, "pid": process.pid}

        # The first creates the schema and seeds; the others start on it.
        instances.append(start(0))
        instances.extend(start(number) for number in range(1, options.instances))
        bases = [instance["base"] for instance in instances]
        accounts = (streams_wanted + 4) // 5
        started = time.monotonic()
        with ThreadPoolExecutor(8) as pool:
            tokens = list(pool.map(lambda number: sign_up(bases[number % len(bases)], f"watcher{number}"), range(accounts)))
        print(f"{options.instances} instances on PostgreSQL {psql(url, 'SHOW server_version')[0]}; "
              f"{accounts} accounts signed up in {time.monotonic() - started:.1f} s")
        # PostgreSQL's statistics of a backend reach the views up to 10 s after its last transaction: what came before
        # a window is counted before it starts.
        time.sleep(SETTLE)

        def idle_window(what):
            statistics_before = database_statistics(url)
            cpu = [cpu_seconds(instance["pid"]) for instance in instances]
            postgres_cpu = family_cpu_seconds(database.pid())
            began = time.monotonic()
            time.sleep(options.idle)
            took = time.monotonic() - began
            used = [cpu_seconds(instance["pid"]) - before for instance, before in zip(instances, cpu)]
            postgres_used = family_cpu_seconds(database.pid()) - postgres_cpu
            statistics_after = database_statistics(url)
            rates = {key: (statistics_after[key] - statistics_before[key]) / took for key in statistics_after}
            print(f"{what}, over {took:.0f} s: {rates['commits']:.2f} transactions/s committed in the database "
                  f"({rates['updated']:.1f} rows updated/s, {rates['inserted']:.1f} inserted/s, {rates['deleted']:.1f} deleted/s); CPU "
                  + ", ".join(f"instance {number} {100 * seconds / took:.2f}%" for number, seconds in enumerate(used))
                  + f", PostgreSQL {100 * postgres_used / took:.2f}% of one core; resident "
                  + ", ".join(f"{places_server.rss_mib(instance['pid']):.1f}" for instance in instances) + " MiB")
            return rates

        rss_before = [places_server.rss_mib(instance["pid"]) for instance in instances]
        quiet = idle_window("no stream open")
        started = time.monotonic()

        def open_one(number):
            instance = instances[number % len(instances)]
            return open_stream(instance["port"], tokens[number // 5])

        with ThreadPoolExecutor(8) as pool:
            streams = list(pool.map(open_one, range(streams_wanted)))
        print(f"{len(streams)} streams opened in {time.monotonic() - started:.1f} s "
              f"({', '.join(str(open_files(instance['pid'])) for instance in instances)} open files)")
        time.sleep(SETTLE)
        busy = idle_window(f"{len(streams)} idle streams")
        rss_after = [places_server.rss_mib(instance["pid"]) for instance in instances]
        print(f"each idle stream: {(sum(rss_after) - sum(rss_before)) * 1024 / len(streams):.1f} KiB of resident memory "
              f"(all instances together); the streams add {busy['commits'] - quiet['commits']:.2f} transactions/s")

        # A decision of --members people, each holding its stream, who all vote at once.
        members = options.members
        names = [f"voter{number}" for number in range(members)]
        with ThreadPoolExecutor(8) as pool:
            voter_tokens = list(pool.map(lambda number: sign_up(bases[number % len(bases)], names[number]), range(members)))
        admin = voter_tokens[0]
        group = expect(bases[0], "POST", "/v1/groups", {"name": "Idle streams' vote"}, admin)["id"]
        for number in range(1, members):
            expect(bases[number % len(bases)], "POST", f"/v1/groups/{group}/invitations", {"username": names[number]}, admin)
            expect(bases[number % len(bases)], "POST", f"/v1/me/invitations/{group}/accept", None, voter_tokens[number])
        with open(os.path.join(root, "Seeds", "lisbon.json")) as seeds:
            candidates = [place["id"] for place in json.load(seeds)["places"][:4]]
        decision = expect(bases[0], "POST", "/v1/decisions",
                          {"groupId": group, "method": "tiered", "candidates": {"placeIds": candidates}}, admin)["id"]
        path = f"/v1/decisions/{decision}/events"
        time.sleep(SETTLE)
        reads_before_opening = decision_reads(url)
        followers = [open_stream(instances[number % len(instances)]["port"], voter_tokens[number], path) for number in range(members)]
        time.sleep(SETTLE)
        reads_before = decision_reads(url)
        print(f"opening the decision's {members} streams: {(reads_before - reads_before_opening) / members:.1f} scans of the "
              f"decision table per stream ({reads_before - reads_before_opening} in all)")
        statistics_before = database_statistics(url)
        if options.log_vote:
            # Every statement of the vote in PostgreSQL's log, with its time to the millisecond and who ran it.
            psql(url, "ALTER SYSTEM SET log_min_duration_statement = 0")
            psql(url, "ALTER SYSTEM SET log_line_prefix = '%m [%p] %a %x '")
            psql(url, "SELECT pg_reload_conf()")
            time.sleep(0.5)
            print(f"the vote's statements are in {database.log}; wall clock minus monotonic: {time.time() - time.monotonic():.6f} s")
        profiler = None
        if os.environ.get("IDLE_STREAMS_PERF"):
            profiler = subprocess.Popen(["perf", "record", "-F", "1999", "-g", "-o", os.environ["IDLE_STREAMS_PERF"], "-p",
                                         ",".join(str(instance["pid"]) for instance in instances)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1)
        vote_cpu = [cpu_seconds(instance["pid"]) for instance in instances] + [family_cpu_seconds(database.pid())]
        vote_began = time.monotonic()
        deadline = time.monotonic() + 60
        random_rankings = random.Random(7)
        rankings = [random_rankings.sample(candidates, len(candidates)) for _ in range(members)]
        if options.client == "threads":
            arrivals, lock = {}, threading.Lock()
            readers = [threading.Thread(target=read_events, args=(connection, members, deadline, arrivals, lock)) for connection in followers]
            for reader in readers:
                reader.start()
            sent, answered = {}, {}
            barrier = threading.Barrier(members)

            def vote(number):
                barrier.wait()
                sent[names[number]] = time.monotonic()
                status, answer = places_server.call(bases[number % len(bases)], "PUT", f"/v1/decisions/{decision}/ballot",
                                                    {"ranking": rankings[number]}, voter_tokens[number])
                answered[names[number]] = time.monotonic()
                if status >= 300:
                    print(f"idle streams: {names[number]}'s ballot answered {status}: {answer}", file=sys.stderr)

            voters = [threading.Thread(target=vote, args=(number,)) for number in range(members)]
            for voter in voters:
                voter.start()
            for voter in voters:
                voter.join()
            for reader in readers:
                reader.join()
        else:
            # The ballots go from another process; this one only reads, in one thread, and parses after the vote.
            context = multiprocessing.get_context("fork")
            results = context.Queue()
            jobs = [(names[number], bases[number % len(bases)], f"/v1/decisions/{decision}/ballot", rankings[number], voter_tokens[number])
                    for number in range(members)]
            sender = context.Process(target=send_ballots, args=(jobs, results))
            sender.start()
            parts = read_all_streams(followers, members, deadline)
            sent, answered, errors = results.get(timeout=120)
            sender.join()
            for error in errors:
                print(f"idle streams: {error}", file=sys.stderr)
            vote_took = time.monotonic() - vote_began
            if profiler:
                profiler.send_signal(2)
                profiler.wait()
            vote_used = [cpu_seconds(instance["pid"]) for instance in instances] + [family_cpu_seconds(database.pid())]
            arrivals = ballot_arrivals(parts)
            print(f"CPU during the vote's {1000 * vote_took:.0f} ms: "
                  + ", ".join(f"instance {number} {1000 * (after - before):.0f} ms" for number, (before, after)
                              in enumerate(zip(vote_cpu[:-1], vote_used[:-1])))
                  + f", PostgreSQL {1000 * (vote_used[-1] - vote_cpu[-1]):.0f} ms")
            for number in range(len(instances)):
                mine = sorted(moment for stream in range(number, members, len(instances)) for moment, _ in parts[stream])
                if mine:
                    print(f"instance {number}'s streams: bytes from {1000 * (mine[0] - vote_began):.0f} to "
                          f"{1000 * (mine[-1] - vote_began):.0f} ms after the vote began")
            firsts = [min(arrivals[name]) - sent[name] for name in names if name in arrivals and name in sent]
            spreads = [max(arrivals[name]) - min(arrivals[name]) for name in names if name in arrivals]
            answers = [answered[name] - sent[name] for name in answered]
            first_sent = min(sent.values())

            def summary(values):
                return (f"median {1000 * statistics.median(values):.1f}, p99 {1000 * percentile(values, 0.99):.1f}, "
                        f"most {1000 * max(values):.1f} ms")
            print(f"one reader thread, ballots from another process: the first stream a ballot reached: {summary(firsts)} "
                  f"after it was sent; from its first stream to its last: {summary(spreads)}; answered: {summary(answers)}; "
                  f"the ballots were sent within {1000 * (max(sent.values()) - first_sent):.1f} ms, the last answer "
                  f"{1000 * (max(answered.values()) - first_sent):.1f} ms and the last arrival "
                  f"{1000 * (max(max(times) for times in arrivals.values()) - first_sent):.1f} ms after the first was sent")
        if options.log_vote:
            psql(url, "ALTER SYSTEM RESET log_min_duration_statement")
            psql(url, "SELECT pg_reload_conf()")
            with open(os.path.join(work, "vote-times.json"), "w") as times:
                json.dump({"sent": sent, "answered": answered, "arrivals": arrivals,
                           "offset": time.time() - time.monotonic()}, times)
        delays = [max(arrivals[name]) - sent[name] for name in names if name in arrivals and name in sent]
        reached = min((len(arrivals.get(name, [])) for name in names), default=0)
        time.sleep(SETTLE)
        reads = decision_reads(url) - reads_before
        statistics_after = database_statistics(url)
        if delays:
            print(f"{members} members, each holding the decision's stream ({len(streams)} idle streams still open), voted at once: "
                  f"each ballot reached the last of its streams {1000 * statistics.median(delays):.1f} ms after it was sent at the median, "
                  f"{1000 * percentile(delays, 0.99):.1f} ms at p99, {1000 * max(delays):.1f} ms at most "
                  f"({len(delays)} of {members} ballots seen; every ballot reached at least {reached} of {members} streams; the ballots' "
                  f"requests were answered {1000 * statistics.median(answered[name] - sent[name] for name in answered):.1f} ms after "
                  f"they were sent at the median); "
                  f"{reads / members:.1f} scans of the decision table per ballot ({reads} in all), "
                  f"{statistics_after['commits'] - statistics_before['commits']} transactions committed during the vote and its settling")
        else:
            print("idle streams: no ballot reached a stream", file=sys.stderr)
        for connection in streams + followers:
            connection.close()
    finally:
        for instance in instances:
            places_server.stop(instance["process"])
        database.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    parser.add_argument("--streams", type=int, help="streams held open (1,000 on one instance, 10,000 with --postgres)")
    parser.add_argument("--idle", type=float, default=30, help="seconds of each idle window")
    parser.add_argument("--postgres", action="store_true", help="several instances over one private PostgreSQL")
    parser.add_argument("--instances", type=int, default=3, help="instances with --postgres")
    parser.add_argument("--members", type=int, default=50, help="members of the decision who vote at once, with --postgres")
    parser.add_argument("--client", choices=("selector", "threads"), default="selector",
                        help="how the decision's streams are read: one thread under a selector, the ballots sent from another "
                             "process, events parsed after the vote (selector); or a thread per stream parsing as it reads, "
                             "beside the senders' threads (threads, the earlier client)")
    parser.add_argument("--log-vote", action="store_true",
                        help="with --postgres: PostgreSQL logs every statement of the vote, and the vote's times are kept beside it")
    options = parser.parse_args()
    if options.postgres:
        cluster(options)
    else:
        single(options)


if __name__ == "__main__":
    main()
