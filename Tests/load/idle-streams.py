#!/usr/bin/env python3
"""Idle live streams: what --streams open event streams cost one instance while nothing happens.

Starts `places serve` (release build) on a new SQLite file, signs up one account per five streams (an account holds
at most five), and measures the server over --idle seconds with no stream open, then again with every stream open and
idle (each client read its snapshot and then reads nothing: the keep-alives land in the sockets' buffers): its CPU time
(user + system, from /proc), its resident memory and its open files. Then one event reaches every stream (a
notification to each account) and the script reports how long the last took to arrive.

    swift build -c release
    Tests/load/idle-streams.py                   # 1,000 streams, 30 s idle each way
"""
import argparse, os, socket, statistics, sys, tempfile, threading, time

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(here))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server
from private_postgres import free_port


def cpu_seconds(pid):
    """User and system CPU time of `pid` so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def open_files(pid):
    return len(os.listdir(f"/proc/{pid}/fd"))


def open_stream(port, token):
    """A socket with a notification stream open on it, once its snapshot arrived."""
    connection = socket.create_connection(("127.0.0.1", port))
    connection.sendall(f"GET /v1/notifications/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    received = b""
    while b"event: snapshot" not in received:
        part = connection.recv(65536)
        if not part:
            raise SystemExit(f"idle streams: a stream closed before its snapshot: {received[:200]!r}")
        received += part
    if not received.startswith(b"HTTP/1.1 200"):
        raise SystemExit(f"idle streams: a stream was refused: {received[:200]!r}")
    return connection


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=os.path.join(root, ".build", "release", "places"))
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--idle", type=float, default=30)
    options = parser.parse_args()
    work = tempfile.mkdtemp(prefix="places-idle-streams-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = places_server.start(options.binary, ["--database", os.path.join(work, "places.sqlite"), "--seeds", os.path.join(root, "Seeds"),
                                                  "--port", str(port), "--bcrypt-cost", "4", "--registrations-per-hour", "100000",
                                                  "--log-level", "warning"],
                                 os.path.join(work, "server.log"), base, seconds=60, who="idle streams")
    try:
        accounts = (options.streams + 4) // 5
        tokens = []
        for number in range(accounts):
            name = f"watcher{number}"
            places_server.call(base, "POST", "/v1/auth/register", {"username": name, "email": f"{name}@example.com", "password": "a long password"})
            tokens.append(places_server.call(base, "POST", "/v1/auth/login", {"username": name, "password": "a long password"})[1]["token"])
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
        streams = [open_stream(port, tokens[number // 5]) for number in range(options.streams)]
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


if __name__ == "__main__":
    main()
