"""A `places serve` process, for the scripts that drive a running server (Tests/load, Tests/crash): start it and
wait until it answers, call its JSON API, read its resident memory, stop it."""
import json, os, shutil, subprocess, time, urllib.error, urllib.request


def start(binary, arguments, log_path, base, seconds, who, log_mode="w"):
    """`binary serve ARGUMENTS`, its output in `log_path`, once GET /health answers 200 at `base`; else it is killed
    and the script stops, its message starting with `who`."""
    log = open(log_path, log_mode)
    process = subprocess.Popen([binary, "serve", *arguments], stdout=log, stderr=log)
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            if call(base, "GET", "/health", timeout=1)[0] == 200:
                return process
        except OSError:
            pass
        if process.poll() is not None:
            break
        time.sleep(0.05)
    process.kill()
    process.wait()
    raise SystemExit(f"{who}: the server did not start; see {log_path}")


def call(base, method, path, body=None, token=None, timeout=30):
    """The status and the JSON body of one request (None for an error's body that is not JSON)."""
    request = urllib.request.Request(base + path, method=method, data=json.dumps(body).encode() if body is not None else None)
    request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        try:
            return error.code, json.loads(error.read() or b"null")
        except ValueError:
            return error.code, None


def fresh_copy(database, copy):
    """`copy` made anew from `database`, without the WAL files a server left beside an earlier copy."""
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(copy + suffix):
            os.remove(copy + suffix)
    shutil.copyfile(database, copy)


def rss_mib(pid):
    """The resident memory of process `pid`, in MiB."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def stop(process):
    """SIGTERM, and SIGKILL if it has not ended within 30 s."""
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
