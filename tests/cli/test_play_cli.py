"""``firstlast play``'s options and its stop, without a browser."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from firstlast.cli.main import main
from firstlast.web import server


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, object]]:
    calls: list[dict[str, object]] = []
    monkeypatch.setattr(server, "serve", lambda store, **kw: calls.append(kw))
    return calls


@pytest.mark.parametrize(("args", "message"), [
    # Regression: '' bound every interface ("Warning: listening on , reachable …").
    (["--host", ""], "--host needs an address"),
    # Regression: int() read '８０８０' as port 8080.
    (["--port", "８０８０"], "is not a whole number (digits 0-9)"),
    (["--port", "70000"], "70000 is not in the range"),
    # Regression: '' opened the current folder as the database.
    (["--db", ""], "is not a file name"),
])
def test_bad_options_are_one_line(args: list[str], message: str, tmp_path: Path, served: list[dict[str, object]],
                                  capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["play", "--no-browser", *args]
    if "--db" not in args:
        argv += ["--db", str(tmp_path / "g.sqlite3")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("firstlast: error:") and message in err and err.count("\n") == 1
    assert not served


def test_not_a_database_is_one_line(tmp_path: Path, served: list[dict[str, object]],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.sqlite3"
    bad.write_text("not a database")
    assert main(["play", "--no-browser", "--db", str(bad)]) == 1
    err = capsys.readouterr().err
    assert "not a usable firstlast database" in err and err.count("\n") == 1 and not served


def test_ctrl_c_with_the_output_pipe_gone_is_a_clean_stop(tmp_path: Path) -> None:
    # Regression: when stdout was a pipe that the same Ctrl-C closed (`firstlast play | tee`),
    # printing "Stopped." raised BrokenPipeError, reported as "cannot listen on
    # 127.0.0.1:0: Broken pipe" with exit status 1.
    proc = subprocess.Popen(
        [sys.executable, "-m", "firstlast.cli.main", "play", "--no-browser", "--db", str(tmp_path / "g.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stderr is not None
        first = proc.stdout.readline()
        assert first.startswith("First and Last is served at http://127.0.0.1:")
        proc.stdout.close()
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=20)
        err = proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert code == 0, err
    assert "cannot listen" not in err and "Traceback" not in err and "Exception ignored" not in err


def test_another_programs_database_is_refused_untouched(tmp_path: Path, served: list[dict[str, object]],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    # Regression: pointing --db at another program's SQLite file added firstlast's tables
    # to it and switched it to WAL mode before failing on "no such column: player".
    import sqlite3
    from contextlib import closing

    other = tmp_path / "other.sqlite3"
    with closing(sqlite3.connect(other)) as db:
        db.execute("CREATE TABLE games (x)")
        db.commit()
    before = other.read_bytes()
    assert main(["play", "--no-browser", "--db", str(other)]) == 1
    err = capsys.readouterr().err
    assert err == f"firstlast: error: {other}: not a firstlast database (it holds other tables)\n"
    assert other.read_bytes() == before and not served
    with closing(sqlite3.connect(other)) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


@pytest.mark.parametrize(("args", "message"), [
    (["--deal", "abc"], "a deal number is a whole number"),
    (["--deal", "18446744073709551616"], "deal numbers go from 0 to 18446744073709551615"),
    (["--deal", "-1"], "a deal number is a whole number"),
    (["--deal", "４２"], "a deal number is a whole number"),  # Regression class: digits 0-9 only
    (["--deal", "42", "--variant", "r3x"], "not a variant: 'r3x'"),
    (["--variant", "r0w"], "--variant needs --deal"),
])
def test_a_bad_deal_to_open_is_one_line_before_serving(args: list[str], message: str, tmp_path: Path,
                                                         served: list[dict[str, object]],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "g.sqlite3"
    assert main(["play", "--no-browser", "--db", str(db), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("firstlast: error:") and message in err and err.count("\n") == 1, err
    assert not served and not db.exists()  # refused before the store is even opened


@pytest.mark.parametrize(("args", "deal", "variant"), [
    (["--deal", "42"], 42, None),
    (["--deal", "18446744073709551615", "--variant", "r0w"], 2**64 - 1, "r0w"),
    (["--deal", "7", "--variant", " ru "], 7, "ru"),  # the token as the play layer reads it
    ([], None, None),
])
def test_the_deal_to_open_reaches_the_server(args: list[str], deal: int | None, variant: str | None,
                                             tmp_path: Path, served: list[dict[str, object]]) -> None:
    assert main(["play", "--no-browser", "--db", str(tmp_path / "g.sqlite3"), *args]) == 0
    assert len(served) == 1
    assert served[0]["deal"] == deal and served[0]["variant"] == variant


def test_the_browser_opens_on_the_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    # The real server, the browser stood in for: it is sent to the sign-in address that
    # keeps the deal, and following it lands on /?deal=N&variant=TOKEN, signed in.
    import httpx

    visits: list[tuple[str, int, str | None, bool]] = []

    def browser(url: str) -> bool:
        # A browser opened on an address sends Sec-Fetch-Site: none (a navigation nobody
        # else started: issue 29.6 signs it in at once).
        r = httpx.get(url, follow_redirects=False, timeout=10, headers={"sec-fetch-site": "none"})
        visits.append((url, r.status_code, r.headers.get("location"), bool(r.cookies)))
        signal.raise_signal(signal.SIGINT)  # the address was followed: stop as on Ctrl-C
        return True

    monkeypatch.setenv("BROWSER", "stand-in")  # a graphical browser is likely: open it
    monkeypatch.setattr("webbrowser.open", browser)
    db = tmp_path / "g.sqlite3"
    assert main(["play", "--db", str(db), "--deal", "42", "--variant", "r0w"]) == 0
    [(url, status, location, signed_in)] = visits
    assert url.startswith("http://127.0.0.1:") and "/?player=" in url and url.endswith("&deal=42&variant=r0w")
    assert (status, location, signed_in) == (303, "/?deal=42&variant=r0w", True)
    # Issue 26: one address is printed, the very one the browser opens: it signs in as
    # the player the terminal and `firstlast export` use (the bare address made a new one).
    out = capsys.readouterr().out
    printed = [word for word in out.split() if word.startswith("http")]
    assert printed == [url], out
    from firstlast.play import PlayService
    from firstlast.store import GameStore

    store = GameStore(db)
    assert f"?player={PlayService(store).local_player()}&" in url
    store.close()
    # --lang after the command's name: the messages and the page are in that language.
    visits.clear()
    assert main(["play", "--lang", "ru", "--db", str(db)]) == 0
    [(url, status, location, signed_in)] = visits
    assert url.endswith("&lang=ru") and (status, location, signed_in) == (303, "/?lang=ru", True)
    assert "доступны по адресу " + url in capsys.readouterr().out
