"""A private PostgreSQL cluster for the tests: initdb in a temp folder, started with
pg_ctl on 127.0.0.1 at a free port (its socket in the same folder), stopped by the
postmaster's PID. The binaries come from PATH or Debian's /usr/lib/postgresql/N/bin
(`.ci/run` installs Debian's postgresql). PostgreSQL refuses to run as root: as root the
cluster runs as the `postgres` user Debian's package creates (else `nobody`), through
`runuser`. Each test gets a database of its own (`PgCluster.new_database`).

Without the binaries or psycopg the tests that need PostgreSQL are skipped with the
reason (`pytest -rs` lists it); CI installs both, so they run there.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SUPERUSER = "ragassay"


def pg_bin() -> Path | None:
    """The folder holding initdb and pg_ctl, or None."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(os.path.realpath(found)).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists() and (Path(folder) / "pg_ctl").exists():
            return Path(folder)
    return None


def missing() -> str | None:
    """Why PostgreSQL tests cannot run here, or None."""
    try:
        import psycopg  # noqa: F401
    except ImportError:
        return "psycopg is not installed (pip install 'ragassay[postgres]')"
    if pg_bin() is None:
        return ("PostgreSQL server binaries (initdb, pg_ctl) not found: apt-get install "
                "postgresql")
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _runner() -> tuple[list[str], str | None]:
    """The command prefix that runs the server's tools, and the user they run as."""
    if os.geteuid() != 0:
        return [], None
    for user in ("postgres", "nobody"):
        try:
            pwd.getpwnam(user)
        except KeyError:
            continue
        return ["runuser", "-u", user, "--"], user
    raise RuntimeError("running as root with neither a postgres nor a nobody user")


@dataclass
class PgCluster:
    """A running private cluster."""

    folder: Path
    port: int
    pid: int

    def url(self, database: str = "postgres", password: str | None = None) -> str:
        auth = f"{SUPERUSER}:{password}" if password else SUPERUSER
        return f"postgresql://{auth}@127.0.0.1:{self.port}/{database}"

    def new_database(self, name: str) -> str:
        """A new empty database; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


def start_cluster(fsync: bool = False, max_connections: int = 50) -> Iterator[PgCluster]:
    """Start a cluster, yield it, stop it (SIGINT to the postmaster: a fast shutdown) and
    remove its folder. Tests run without fsync (faster, nothing to keep); a benchmark of
    write rates asks for it (a server's default)."""
    binaries = pg_bin()
    assert binaries is not None
    prefix, user = _runner()
    folder = Path(tempfile.mkdtemp(prefix="ragassay-pg-"))
    data = folder / "data"
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    folder.chmod(0o700)
    port = _free_port()
    env = {**os.environ, "LC_ALL": "C"}
    try:
        subprocess.run([*prefix, str(binaries / "initdb"), "-D", str(data), "-U", SUPERUSER,
                        "--auth=trust", "-E", "UTF8", "--no-sync"], check=True,
                       capture_output=True, env=env, cwd=folder)
        options = (f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
                   f" -c fsync={'on' if fsync else 'off'} -c max_connections={max_connections}")
        subprocess.run([*prefix, str(binaries / "pg_ctl"), "-D", str(data), "-o", options,
                        "-l", str(folder / "log"), "-w", "-t", "60", "start"], check=True,
                       capture_output=True, env=env, cwd=folder)
        pid = int((data / "postmaster.pid").read_text().split()[0])
    except subprocess.CalledProcessError as e:
        log = (folder / "log").read_text() if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(f"PostgreSQL did not start: {e.stderr!r} {log[-2000:]}") from e
    try:
        yield PgCluster(folder=folder, port=port, pid=pid)
    finally:
        try:
            os.kill(pid, signal.SIGINT)
            for _ in range(300):
                os.kill(pid, 0)
                time.sleep(0.1)
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        shutil.rmtree(folder, ignore_errors=True)
