"""What a hostile neighbour can do to `chase serve`: each attack measured against the real server.

Run from the project folder (bounded: about a minute in all)::

    .venv/bin/python bench/edge_attacks.py
    .venv/bin/python bench/edge_attacks.py --port 8000          # against a server already running
    .venv/bin/python bench/edge_attacks.py --files 600          # the server allowed 600 open files

It starts `chase serve` as the README's embedded default (SQLite file, 2 workers x 4 threads, a
free port; ``--files``: its limit of open files, hard and soft) unless ``--port`` names one, and
measures:

1. trickled headers: ``--trickle`` connections each sending a header byte a second; how long the
   server keeps them (the attack stops at 20 s);
2. a flood of idle connections from one address (``--addresses``: from that many): how many it
   takes before ``GET /health`` no longer answers within 3 seconds (at most ``--flood``);
3. a 10 MB body: what the client reads (a 413, or a reset);
4. a short body (Content-Length 100, 10 bytes sent; meanwhile 1): how long the connection is
   held (at most ``--seconds``), and what the client reads.

The attacks come from 127.0.0.2, the checks of /health from 127.0.0.1: two clients.
"""
from __future__ import annotations

import sys
from pathlib import Path

# Run as a script, this file's folder comes first on sys.path, and bench/http.py would shadow the
# standard library's ``http`` package: take it off.
HERE, ROOT = Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != HERE]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import argparse  # noqa: E402
import selectors  # noqa: E402
import socket  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402

from tests.e2e.served_process import ChaseServe, allow_open_files  # noqa: E402

ATTACKER = "127.0.0.2"  # the attacks' address (all of 127/8 is this machine); the checks come from 127.0.0.1


def trickled_headers(port: int, connections: int, seconds: float) -> list[float]:
    """Seconds each trickling connection stayed open (``seconds`` for those never closed)."""
    selector = selectors.DefaultSelector()
    started = time.monotonic()
    open_for: list[float] = []
    sockets = []
    for _ in range(connections):
        s = socket.create_connection(("127.0.0.1", port), source_address=(ATTACKER, 0))
        s.setblocking(False)
        s.send(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        selector.register(s, selectors.EVENT_READ)
        sockets.append(s)
    while sockets and time.monotonic() - started < seconds:
        for key, _ in selector.select(timeout=1.0):
            s = key.fileobj
            # Anything back (a 408, or the end of the connection) ends the attack on this one
            selector.unregister(s)
            s.close()  # type: ignore[union-attr]
            sockets.remove(s)
            open_for.append(time.monotonic() - started)
        for s in sockets:
            try:
                s.send(b"X")
            except OSError:
                pass
    for s in sockets:
        open_for.append(seconds)
        s.close()
    return open_for


def health_answers(port: int) -> bool:
    """Whether /health answers a client at another address than the attacker's, within 3 s."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=3) as s:
            s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return s.recv(12).startswith(b"HTTP/1.1 200")
    except OSError:
        return False


def flood(port: int, most: int, addresses: int, step: int = 100) -> int | None:
    """Idle connections (a partial request line each) opened, ``step`` at a time, from
    ``addresses`` addresses in turn, until /health no longer answers; their number then, or None
    if it still answered at ``most``."""
    held = []
    try:
        while len(held) < most:
            for _ in range(step):
                source = f"127.0.1.{len(held) % addresses + 1}" if addresses > 1 else ATTACKER
                try:
                    s = socket.create_connection(("127.0.0.1", port), timeout=3, source_address=(source, 0))
                    s.send(b"GET /he")
                    held.append(s)
                except OSError:
                    break
            if not health_answers(port):
                return len(held)
        return None
    finally:
        for s in held:
            s.close()


def big_body(port: int, size: int) -> str:
    """What the client reads after sending a body of ``size`` bytes."""
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        s.sendall(b"POST /chases HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                  b"Content-Length: %d\r\n\r\n" % size)
        s.sendall(b" " * size)
        answer = s.recv(65536)
        return answer.split(b"\r\n", 1)[0].decode() if answer else "closed, nothing read"
    except OSError as e:
        return f"{type(e).__name__}"
    finally:
        s.close()


def short_body(port: int, most: float) -> tuple[float, str]:
    """Seconds until the server answered or closed a request 90 bytes short of its length."""
    s = socket.create_connection(("127.0.0.1", port), timeout=most)
    started = time.monotonic()
    try:
        s.sendall(b"POST /chases HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 100\r\n\r\n{\"name\": ")
        answer = s.recv(65536)
        return time.monotonic() - started, answer.split(b"\r\n", 1)[0].decode() if answer else "closed"
    except TimeoutError:
        return most, "still open"
    except OSError as e:
        return time.monotonic() - started, type(e).__name__
    finally:
        s.close()


def short_body_meanwhile(port: int, most: float) -> Callable[[], tuple[float, str]]:
    """The short body, sent in a thread while another attack runs: its outcome when joined."""
    outcome: list[tuple[float, str]] = []
    thread = threading.Thread(target=lambda: outcome.append(short_body(port, most)), daemon=True)
    thread.start()
    return lambda: (thread.join(), outcome[0])[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, help="a server already running on 127.0.0.1")
    parser.add_argument("--files", type=int, default=600, help="the started server's open-file limit")
    parser.add_argument("--trickle", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=40)
    parser.add_argument("--flood", type=int, default=1500)
    parser.add_argument("--addresses", type=int, default=1, help="the flood's client addresses")
    args = parser.parse_args()
    allow_open_files(args.flood + args.trickle + 200)
    served = None
    if args.port is None:
        folder = tempfile.mkdtemp(prefix="chase-attacks-")
        served = ChaseServe({"SQLITE_DBNAME": f"{folder}/chase.sqlite3", "CHASE_LEDGER_RATE_LIMITS": "off"},
                            Path(folder) / "serve.log", files=args.files)
    port = args.port or served.port  # type: ignore[union-attr]
    try:
        short = short_body_meanwhile(port, args.seconds)
        open_for = sorted(trickled_headers(port, args.trickle, min(args.seconds, 20)))
        print(f"trickled headers: {len(open_for)} connections, open {open_for[0]:.1f} to {open_for[-1]:.1f} s "
              f"(median {open_for[len(open_for) // 2]:.1f} s; the attack stops at {min(args.seconds, 20):g} s)")
        seconds, what = short()
        print(f"a body 90 bytes short: {what!r} after {seconds:.1f} s")
        time.sleep(1)
        stopped = flood(port, args.flood, args.addresses)
        print(f"idle connections from {args.addresses} address(es): /health stopped answering at {stopped}" if stopped
              else f"idle connections from {args.addresses} address(es): /health still answered with {args.flood} open")
        time.sleep(1)
        print(f"a 10 MB body: the client read {big_body(port, 10 * 1024 * 1024)!r}")
    finally:
        if served is not None:
            served.stop()


if __name__ == "__main__":
    main()
