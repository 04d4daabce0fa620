"""A throwaway PostgreSQL cluster for the tests: initdb in a temporary folder, listening on a
Unix socket there only (or, with `tcp=True`, on a free loopback port as well, which its URLs
then name), stopped and deleted at the end of the session.

It uses Debian's server binaries (`apt-get install postgresql`; .ci/run installs them). When
no PostgreSQL binary is found the PostgreSQL tests are skipped, saying so. As root the
cluster runs as the `postgres` user (initdb refuses root), through `runuser`.
"""
from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path


def bindir() -> Path | None:
    """The folder of initdb and pg_ctl: on PATH, or Debian's newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(Path(p).parts[-3]))
    return Path(candidates[-1]).parent if candidates else None


class Cluster:
    """initdb + pg_ctl start in a temporary folder; `url(db)` names a database on its socket,
    or over TCP on 127.0.0.1 with `tcp`."""

    def __init__(self, tcp: bool = False) -> None:
        found = bindir()
        assert found is not None
        self.bin = found
        self.user = "postgres" if os.geteuid() == 0 else pwd.getpwuid(os.geteuid()).pw_name
        self.dir = Path(tempfile.mkdtemp(prefix="truco-pg-"))
        self.data = self.dir / "data"
        self.tcp = tcp
        self.port = _free_port() if tcp else 5432
        if os.geteuid() == 0:
            entry = pwd.getpwnam("postgres")
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)

    def _run(self, *argv: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(prefix + list(argv), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       timeout=120)

    def start(self, *settings: str) -> None:
        """initdb and start; `settings` are more server settings, NAME=VALUE."""
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-A", "trust", "-U", self.user, "-E", "UTF8",
                  "--no-sync")
        listen = "127.0.0.1" if self.tcp else ""
        options = f"-c listen_addresses='{listen}' -c unix_socket_directories={self.dir} -p {self.port} " \
                  "-c fsync=off -c max_connections=200" + "".join(f" -c {setting}" for setting in settings)
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "log"), "-o", options,
                  "-w", "start")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, db: str = "postgres") -> str:
        host = "127.0.0.1" if self.tcp else str(self.dir)
        return f"postgresql://{self.user}@/{db}?host={host}&port={self.port}"

    def new_database(self) -> str:
        import psycopg
        name = "t" + secrets.token_hex(6)
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def drop(self, url: str) -> None:
        """Drop the database of `url` (one of `new_database`'s), ending its connections."""
        import psycopg
        name = url.split("@/", 1)[1].split("?", 1)[0]
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
