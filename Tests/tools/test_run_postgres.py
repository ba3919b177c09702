"""The private PostgreSQL server of one `swift test` run, shared by the run's test processes and stopped when it ends.

    python3 Tests/tools/test_run_postgres.py url TEST_PID   # prints the URL of the run's server, starting it if need be

The TestPostgres target calls it once per test process, with its own pid, when a PostgreSQL suite first needs a server
and PLACES_TEST_POSTGRES_URL is not set.

- The run is the `swift test` process (`swift-test`) that started the test process; a test binary started by anything
  else (run by hand, a debugger) is a run of its own. With `--parallel` every test process has the same parent, so
  they all find the same server.
- A run is named by its pid and its start time (from /proc), so a pid the system hands out again is another run: a
  server left by a run that ended is never reused.
- The first test process of a run starts the server under a lock (flock on a file in the run's folder); the others wait
  for the lock and find it. The server is `private_postgres.PrivatePostgres`: loopback, a free port, a temporary folder.
- A watcher (a detached process of this script) polls the run's pid and stops the server, then removes its folder,
  once the run has ended, however it ended. A run whose watcher was killed too is cleaned up by the next run that
  starts a server.
"""
import fcntl, os, shutil, stat, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import private_postgres  # noqa: E402

ROOT = os.path.join(tempfile.gettempdir(), f"places-test-postgres-{os.getuid()}")
RUN_PROGRAMS = ("swift-test",)


def stat_fields(pid):
    """A process's /proc/PID/stat fields after its name, or None when there is no such process (or no /proc)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()


def start_time(pid):
    """When the process started (clock ticks since boot): with its pid it names one process for the system's life."""
    fields = stat_fields(pid)
    if fields is None:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return None
        except PermissionError:
            pass
        return "0"
    return fields[19]


def program(pid):
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip()
    except OSError:
        return None


def run_of(test_pid):
    """The run a test process belongs to, as (pid, start time): its `swift test` parent, or itself."""
    fields = stat_fields(test_pid)
    parent = int(fields[1]) if fields else None
    if parent and program(parent) in RUN_PROGRAMS:
        return parent, start_time(parent)
    return test_pid, start_time(test_pid)


def alive(pid, started):
    return started is not None and start_time(pid) == started


def locked(folder, blocking=True):
    """The run folder's lock file, held (flock) until closed; None when not blocking and another process holds it."""
    lock = open(os.path.join(folder, "lock"), "a")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX if blocking else fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def read(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def pid_alive(text):
    try:
        os.kill(int(text), 0)
        return True
    except (TypeError, ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True


def tear_down(folder):
    """Stops the folder's server by its pid and removes the folder (the caller holds its lock)."""
    private_postgres.PrivatePostgres(os.path.join(folder, "server")).stop()
    shutil.rmtree(folder, ignore_errors=True)


def clean_up_ended_runs(own):
    """Servers of runs that ended with their watcher killed too: stopped and removed, unless someone holds their lock."""
    for name in os.listdir(ROOT):
        folder = os.path.join(ROOT, name)
        if folder == own or not name.startswith("run-"):
            continue
        try:
            _, pid, started = name.split("-")
            if alive(int(pid), started):
                continue
        except ValueError:
            continue
        lock = locked(folder, blocking=False) if os.path.exists(os.path.join(folder, "lock")) else None
        if lock is not None:
            with lock:
                tear_down(folder)


def url(test_pid):
    run_pid, started = run_of(test_pid)
    if started is None:
        raise SystemExit(f"test_run_postgres: process {test_pid} is not running")
    os.makedirs(ROOT, mode=0o755, exist_ok=True)
    # A folder in /tmp that someone else made (or a link to one) is not ours to run a server in.
    owner = os.lstat(ROOT)
    if owner.st_uid != os.getuid() or not stat.S_ISDIR(owner.st_mode):
        raise SystemExit(f"test_run_postgres: {ROOT} is not a folder of this user's; remove it")
    folder = os.path.join(ROOT, f"run-{run_pid}-{started}")
    os.makedirs(folder, exist_ok=True)
    os.chmod(folder, 0o755)
    with locked(folder):
        known = read(os.path.join(folder, "url"))
        server = private_postgres.PrivatePostgres(os.path.join(folder, "server"))
        if known and pid_alive(server.pid()) and pid_alive(read(os.path.join(folder, "watcher"))):
            return known
        clean_up_ended_runs(folder)
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)
        watcher = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "watch", folder, str(run_pid), started],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        with open(os.path.join(folder, "watcher"), "w") as f:
            f.write(str(watcher.pid))
        server.start()
        with open(os.path.join(folder, "url"), "w") as f:
            f.write(server.url)
        return server.url


def watch(folder, run_pid, started):
    """Waits for the run to end, then stops its server and removes its folder."""
    while alive(run_pid, started):
        time.sleep(0.2)
    try:
        lock = locked(folder)
    except FileNotFoundError:
        return  # a later run cleaned it up
    with lock:
        tear_down(folder)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "url":
        print(url(int(sys.argv[2])))
    elif len(sys.argv) == 5 and sys.argv[1] == "watch":
        watch(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        raise SystemExit("usage: test_run_postgres.py url TEST_PID")


if __name__ == "__main__":
    main()
