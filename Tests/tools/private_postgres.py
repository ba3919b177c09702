"""A private PostgreSQL server for tests and scripts: `initdb` in a folder of its own, listening on loopback only at a
free port, stopped by its pid. Run as root, the server runs as the `postgres` user (PostgreSQL refuses root).

    python3 Tests/tools/private_postgres.py start DIR   # prints the URL of its `places` superuser
    python3 Tests/tools/private_postgres.py stop DIR

From Python: `server = PrivatePostgres(folder); server.start(); server.url; server.restart(); server.stop()`.
"""
import glob, os, pwd, shutil, socket, subprocess, sys, time

USER = "places"
PASSWORD = "places-test-password"


def postgres_bin(name):
    """The path of a PostgreSQL server program: Debian keeps them in /usr/lib/postgresql/N/bin, off the PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=lambda p: int(p.split("/")[4]))
    if found:
        return found[-1]
    if shutil.which(name):
        return shutil.which(name)
    raise SystemExit(f"private_postgres: '{name}' not found; install Debian's postgresql package")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivatePostgres:
    def __init__(self, folder, fsync=False):
        self.folder = os.path.abspath(folder)
        self.data = os.path.join(self.folder, "data")
        self.log = os.path.join(self.folder, "postgres.log")
        self.fsync = fsync
        self.port = None

    def _as_server_user(self, command):
        """The command as the user the server runs as: `postgres` when we are root, else ourselves."""
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *command]
        return command

    @property
    def url(self):
        return f"postgres://{USER}:{PASSWORD}@127.0.0.1:{self.port}/postgres?sslmode=disable"

    def start(self):
        os.makedirs(self.folder, exist_ok=True)
        if os.geteuid() == 0:
            postgres = pwd.getpwnam("postgres")
            os.chown(self.folder, postgres.pw_uid, postgres.pw_gid)
        if not os.path.exists(os.path.join(self.data, "PG_VERSION")):
            password_file = os.path.join(self.folder, "password")
            with open(password_file, "w") as f:
                f.write(PASSWORD + "\n")
            if os.geteuid() == 0:
                os.chown(password_file, postgres.pw_uid, postgres.pw_gid)
            subprocess.run(
                self._as_server_user([
                    postgres_bin("initdb"), "-D", self.data, "-U", USER, "--pwfile", password_file,
                    "--auth-local=trust", "--auth-host=scram-sha-256", "--encoding=UTF8", "--locale=C.UTF-8",
                ]),
                check=True, stdout=subprocess.DEVNULL,
            )
        self.port = self.port or free_port()
        self._pg_ctl("start", "-w", "-t", "60", "-l", self.log, "-o", " ".join([
            "-c listen_addresses=127.0.0.1", f"-c port={self.port}", f"-c unix_socket_directories={self.folder}",
            "-c max_connections=300", f"-c fsync={'on' if self.fsync else 'off'}",
        ]))
        with open(os.path.join(self.folder, "port"), "w") as f:
            f.write(str(self.port))
        return self

    def _pg_ctl(self, *arguments):
        subprocess.run(self._as_server_user([postgres_bin("pg_ctl"), "-D", self.data, *arguments]),
                       check=True, stdout=subprocess.DEVNULL)

    def pid(self):
        try:
            with open(os.path.join(self.data, "postmaster.pid")) as f:
                return int(f.readline())
        except (OSError, ValueError):
            return None

    def restart(self):
        """Stops the server (fast: connections are cut) and starts it again on the same port."""
        self._pg_ctl("stop", "-m", "fast", "-w")
        self.start()

    def stop(self):
        """Stops the server by its pid: SIGINT (fast shutdown), SIGKILL when it has not ended within 30 s."""
        pid = self.pid()
        if pid is None:
            return
        try:
            os.kill(pid, 2)
        except ProcessLookupError:
            return
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.1)
        os.kill(pid, 9)


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("start", "stop"):
        raise SystemExit("usage: private_postgres.py start|stop DIR")
    server = PrivatePostgres(sys.argv[2])
    if sys.argv[1] == "start":
        print(server.start().url)
    else:
        server.stop()
        shutil.rmtree(server.folder, ignore_errors=True)


if __name__ == "__main__":
    main()
