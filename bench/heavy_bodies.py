"""Heavy request bodies against the real server (issue 29.5): the server's memory and
another player's move latency while one client restores a 16 MiB backup made of empty
objects (``{"format": …, "games": [{}, {}, …]}``, the issue's case: 535 MiB and moves
stalled 3.7 s), and what a body past the limit (by Content-Length, and chunked) costs.

    python bench/heavy_bodies.py [--mib 16] [--moves 150] [--real-games N]

Starts ``firstlast play --no-browser --port 0`` on a throw-away database. A player steps
and undoes without pause (``--moves`` answers alone first, then the same beside the
restore, for as long as it runs), and the server's resident memory is read from
``/proc/PID/status`` (VmRSS, and VmHWM, the peak since the start). Prints the latency
p50/p95/max alone and beside the restore, their ratio, the restore's answer and time,
and the memory: at rest, the peak, and the peak over rest; then the same peak after a
33 MiB body by Content-Length and a chunked one (both refused, 413). ``--real-games N``
restores N copies of a real game instead: an honest big restore, whose replays take
seconds of CPU beside the player.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx

# spawn.py (the server as a process of its own) is a test helper, not part of the package.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from spawn import spawn_server, stop_server


def memory(pid: int) -> tuple[float, float]:
    """The process's resident memory now and its peak (VmRSS, VmHWM), in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def empty_objects_body(mib: int) -> bytes:
    """A restore body whose backup text is ``mib`` MiB of ``{}``s in the games list."""
    head = '{"format": "firstlast-backup", "version": 1, "games": ['
    n = (mib * 2**20 - len(head) - 2) // 4
    text = head + "{}, " * n + "{}]}"
    return b'{"backup": "' + text.replace('"', '\\"').encode() + b'"}'


def real_backup_body(games: int) -> bytes:
    """A restore body of ``games`` copies (new ids) of one real game of deal 42 (about
    280 moves, 1.8 KB each): what a big honest restore looks like."""
    import json

    from firstlast.play import PlayService, command
    from firstlast.play.backup import dumps
    from firstlast.store import GameStore

    with tempfile.TemporaryDirectory() as tmp:
        store = GameStore(Path(tmp) / "source.sqlite3")
        play = PlayService(store)
        pid = play.local_player()
        stored = play.start(pid, "number", 42, None)
        play.act(pid, stored.id, command("step", 400), stored.version)
        doc = json.loads(play.backup_file(pid)[0])
        play.close()
        store.close()
    game = doc["games"][0]
    doc["games"] = [{**game, "id": f"copy-{i:06d}"} for i in range(games)]
    doc["table"] = None
    return json.dumps({"backup": dumps(doc)}).encode()


def player(url: str, stop: threading.Event, took: list[float], least: int, when: list[float] | None = None) -> None:
    """Step and undo on one game, timing each answer, until ``stop`` (and ``least`` done)."""
    when = [] if when is None else when
    with httpx.Client(base_url=url, timeout=120) as http:
        game = http.post("/api/games", json={"deal": "42", "variant": "ru"}).json()["id"]
        i = 0
        while not stop.is_set() or len(took) < least:
            path = "step" if i % 2 == 0 else "undo"
            body = {"n": 1} if path == "step" else {}
            t0 = time.perf_counter()
            r = http.post(f"/api/games/{game}/{path}", json=body)
            took.append(time.perf_counter() - t0)
            when.append(t0)
            if r.status_code != 200:
                raise SystemExit(f"{path} answered {r.status_code}: {r.text}")
            i += 1
            time.sleep(0.005)


def raw_post(url: str, path: str, head_extra: str, chunks: list[bytes]) -> str:
    """Send a POST by hand (so that a chunked body of any size can be sent); the status
    line of the answer, or what became of the connection."""
    parts = urlsplit(url)
    with socket.create_connection((parts.hostname, parts.port), timeout=60) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nContent-Type: application/json\r\n"
                     f"{head_extra}\r\n".encode())
        try:
            for chunk in chunks:
                sock.sendall(chunk)
        except OSError as e:
            return f"connection ended while sending ({e.__class__.__name__}): answered before the body was read"
        data = sock.recv(4096)
    return data.split(b"\r\n", 1)[0].decode() if data else "closed without an answer"


def summary(took: list[float]) -> tuple[float, float, float]:
    ordered = sorted(took)
    return statistics.median(ordered), ordered[int(0.95 * (len(ordered) - 1))], ordered[-1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mib", type=int, default=16, help="the backup text's size (the limit is 16 MiB)")
    ap.add_argument("--moves", type=int, default=150)
    ap.add_argument("--real-games", type=int, default=0,
                    help="restore this many copies of a real game instead (an honest big restore)")
    args = ap.parse_args()
    body = real_backup_body(args.real_games) if args.real_games else empty_objects_body(args.mib)
    what = f"{args.real_games} real games" if args.real_games else "{}s"
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = spawn_server(Path(tmp) / "games.sqlite3")
        try:
            alone: list[float] = []
            done = threading.Event()
            done.set()
            player(url, done, alone, args.moves)
            rest, _ = memory(proc.pid)

            beside: list[float] = []
            stop = threading.Event()
            starts: list[float] = []
            mover = threading.Thread(target=player, args=(url, stop, beside, 20, starts))
            mover.start()
            time.sleep(0.3)
            t0 = time.perf_counter()
            with httpx.Client(base_url=url, timeout=600) as http:
                r = http.post("/api/backup", content=body, headers={"content-type": "application/json"})
            restore_s = time.perf_counter() - t0
            stop.set()
            mover.join()
            _, peak = memory(proc.pid)

            big = 33 * 2**20
            by_length = raw_post(url, "/api/backup", f"Content-Length: {big}\r\n",
                                 [b"x" * 2**20 for _ in range(33)])
            _, peak_length = memory(proc.pid)
            chunked = raw_post(url, "/api/backup", "Transfer-Encoding: chunked\r\n",
                               [b"100000\r\n" + b" " * 2**20 + b"\r\n" for _ in range(40)] + [b"0\r\n\r\n"])
            _, peak_after = memory(proc.pid)
        finally:
            stop_server(proc)
    a, b = summary(alone), summary(beside)
    print(f"restore of {len(body) / 2**20:.1f} MiB of {what}: {r.status_code} {r.json().get('code', '')}"
          f" in {restore_s:.2f} s")
    print(f"{'move latency':24} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8} {'moves':>6}")
    print(f"{'alone':24} {a[0] * 1e3:8.1f} {a[1] * 1e3:8.1f} {a[2] * 1e3:8.1f} {len(alone):6}")
    print(f"{'beside the restore':24} {b[0] * 1e3:8.1f} {b[1] * 1e3:8.1f} {b[2] * 1e3:8.1f} {len(beside):6}")
    print(f"{'ratio':24} {b[0] / a[0]:8.2f} {b[1] / a[1]:8.2f} {b[2] / a[2]:8.2f}")
    worst = sorted(zip(beside, starts, strict=True), reverse=True)[:3]
    print("slowest moves beside it:", ", ".join(f"{d * 1e3:.0f} ms at {w - t0:+.2f} s" for d, w in worst),
          f"(the restore ran 0 … {restore_s:.2f} s)")
    print(f"server memory: {rest:.0f} MiB at rest, peak {peak:.0f} MiB during the restore"
          f" (+{peak - rest:.0f} MiB)")
    print(f"33 MiB by Content-Length: {by_length}; peak since the start {peak_length:.0f} MiB")
    print(f"40 MiB chunked: {chunked}; peak since the start {peak_after:.0f} MiB"
          f" (+{peak_after - rest:.0f} MiB over rest)")


if __name__ == "__main__":
    main()
