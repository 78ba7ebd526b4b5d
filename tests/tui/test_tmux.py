"""``firstlast tui`` for real, in a tmux terminal: keys in, screen text out."""

from __future__ import annotations

import contextlib
import os
import select
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playing import step
from reading import read

from firstlast.play import PlayService
from firstlast.store import GameStore

# The test script sets FIRSTLAST_NO_SKIP (it installs tmux): there a missing tmux is a
# failure, never a silent skip.
if shutil.which("tmux") is None and os.environ.get("FIRSTLAST_NO_SKIP"):
    raise RuntimeError("tmux is not installed (apt-get install -y tmux)")
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install -y tmux)")


class Tmux:
    """A private tmux server (its own socket), so the user's sessions are never touched."""

    def __init__(self, tmp: Path) -> None:
        self.socket = f"fltest-{os.getpid()}-{tmp.name}"
        self.tmp = tmp
        self.session = ""
        self.count = 0
        self.drawn = -1  # a FIFO the pane's output is copied to, as it is drawn

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], check=True, capture_output=True,
                              text=True, timeout=10).stdout

    def start(self, command: str, width: int, height: int) -> None:
        # The trailing echo and sleep keep the pane alive to show the exit status (until
        # the fixture stops the tmux server: no time runs out under a slow test).
        shell = f"{command}; echo EXIT=$?; exec sleep infinity"
        self.count += 1
        self.session = f"s{self.count}"
        self.run("new-session", "-d", "-s", self.session, "-x", str(width), "-y", str(height), shell)
        # The pane's output, copied as it comes (tmux pipe-pane): a wait for the screen
        # wakes when the terminal draws, never on a timer. Opened before its writer, so
        # nothing drawn from now on is missed.
        fifo = self.tmp / f"drawn-{self.count}"
        os.mkfifo(fifo)
        if self.drawn >= 0:
            os.close(self.drawn)
        self.drawn = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
        self.run("pipe-pane", "-O", "-t", self.session, f"cat > {shlex.quote(str(fifo))}")

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", self.session)

    def keys(self, *keys: str) -> None:
        self.run("send-keys", "-t", self.session, *keys)

    def wait_for(self, *texts: str, timeout: float = 30.0, gone: tuple[str, ...] = (),
                 drawn: Callable[[str], bool] = lambda screen: True) -> str:
        """The screen, once it shows all of ``texts`` (it is drawn in parts), none of
        ``gone``, and ``drawn(screen)`` holds. The bound only fails a hung terminal."""
        end = time.monotonic() + timeout
        while True:
            self._drained()  # what was drawn before this look at the screen
            screen = self.screen()
            if all(t in screen for t in texts) and not any(t in screen for t in gone) and drawn(screen):
                return screen
            left = end - time.monotonic()
            # Wakes as soon as the terminal draws anything after the look above.
            if left <= 0 or not select.select([self.drawn], [], [], left)[0]:
                raise AssertionError(f"{texts!r} not all on the screen (or {gone!r} still) after {timeout} s:"
                                     f"\n{screen}")

    def _drained(self) -> None:
        with contextlib.suppress(BlockingIOError):
            while os.read(self.drawn, 65536):
                pass

    def stop(self) -> None:
        if self.drawn >= 0:
            os.close(self.drawn)
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=10)


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[Tmux]:
    t = Tmux(tmp_path)
    try:
        yield t
    finally:
        t.stop()


def command(db: Path, *args: str) -> str:
    argv = [sys.executable, "-m", "firstlast.cli.main", "tui", *args, "--db", str(db), "--no-chance"]
    return " ".join(shlex.quote(a) for a in argv)


def test_tui_in_tmux(tmux: Tmux, tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    tmux.start(command(db, "1"), 100, 30)
    # Deal 1's first row and reserve, as the engine deals them (R2).
    screen = tmux.wait_for("deal 1", "J♣", "9♠", "F8★", "Stock 88", "Needs",
                           drawn=lambda screen: "P1→Q" in screen.replace(" ", ""))
    assert "P1→Q" in screen.replace(" ", "")
    tmux.keys("t")
    tmux.wait_for("Stock 87")
    tmux.keys("3")  # the six of diamonds does not fit pile 1, which needs a queen
    tmux.wait_for("does not fit pile 1", "(R4)")
    tmux.keys("q")
    tmux.wait_for("EXIT=0")
    store = GameStore(db)
    [game] = read(store).games(PlayService(store).local_player())
    assert (game.deal, game.moves, game.status) == ("1", 1, "playing")

    # No deal: the unfinished game is resumed, on a small 80×24 terminal this time;
    # the title still says the whole variant.
    tmux.start(command(db), 80, 24)
    screen = tmux.wait_for("deal 1", "Stock 87", "Waste 1")
    assert "deal 1 · 3 redeals, privileged last card" in screen.splitlines()[0]
    tmux.keys("?")  # ? is the help in both faces (h is the hint)
    tmux.wait_for("A 19th-century Russian patience")
    tmux.keys("L")  # the same key as on the table (l there opens the unfinished games)
    tmux.wait_for("Русский пасьянс XIX века")
    tmux.keys("Escape")  # alone: an escape followed at once by q would read as alt+q
    tmux.wait_for("Колода 87", "Открыть")  # the whole terminal follows the help's language
    tmux.keys("L")  # and L switches it back (the setting is saved for the next start)
    tmux.wait_for("Stock 87", "Turn")
    tmux.keys("q")
    tmux.wait_for("EXIT=0")

    # A deal on the command line while deal 1 is under way: asked first. n keeps deal 1.
    tmux.start(command(db, "2"), 100, 30)
    tmux.wait_for("Leave deal 1 for deal 2?", "abandoned")
    tmux.keys("n")
    tmux.wait_for("deal 2 was not started", "Stock 87")
    tmux.keys("q")
    tmux.wait_for("EXIT=0")
    assert [g.deal for g in read(store).games(PlayService(store).local_player())] == ["1"]
    tmux.start(command(db, "2"), 100, 30)
    tmux.wait_for("Leave deal 1 for deal 2?")
    tmux.keys("y")
    tmux.wait_for("new game: deal 2", "Stock 88")
    tmux.keys("q")
    tmux.wait_for("EXIT=0")
    games = {g.deal: g for g in read(store).games(PlayService(store).local_player())}
    assert set(games) == {"1", "2"} and games["1"].abandoned


def _lines(screen: str) -> list[str]:
    """The screen's lines, without the blank ones below the app."""
    lines = [ln.rstrip() for ln in screen.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return lines


#: What each language shows: the counts at the start and after 17 turns, the key bar's
#: quit and help, the hint's opening, the table in words.
SAID = {
    "ru": ("Колода 88", "Колода 71", "Сборная 17", "q Выход", "? Справка", "Подсказка:", "Стол словами"),
    "en": ("Stock 88", "Stock 71", "Waste 17", "q Quit", "? Help", "Hint:", "The table in words"),
}


@pytest.mark.parametrize("lang", ["ru", "en"])
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (240, 60)])
def test_every_size_keeps_counts_and_quit(tmux: Tmux, tmp_path: Path, size: tuple[int, int], lang: str) -> None:
    """In both languages at 80×24, 120×40 and 240×60 the stock and waste counts are whole
    ("Сборная 17", not "Сборная 1"), the key bar keeps "q Выход" / "q Quit",
    Russian-layout letters play (е turns, р hints, у tells the table), and a long status
    line ends in "…" rather than being cut mid-word."""
    start, stock, waste, quit_, help_, hint, words = SAID[lang]
    db = tmp_path / "games.sqlite3"
    play = PlayService(GameStore(db))
    play.update_settings(play.local_player(), {"lang": lang})
    width, height = size
    tmux.start(command(db, "1"), width, height)
    tmux.wait_for(start, quit_)
    tmux.keys(*["е"] * 17)  # the Russian layout's t: turn, 17 times (one tmux client, not 17)
    screen = tmux.wait_for(stock, waste)
    last = _lines(screen)[-1]
    assert quit_ in last and help_ in last, last
    tmux.keys("р")  # h on the Russian layout: the hint
    screen = tmux.wait_for(hint)
    status = _lines(screen)[-2]
    assert status.strip().startswith(hint), status
    tmux.keys("у")  # e: the table in words
    # The screen is drawn in parts: wait for the dialog's words and its own key bar.
    screen = tmux.wait_for(words, gone=(quit_,))
    assert quit_ not in _lines(screen)[-1]  # the dialog's own keys
    tmux.keys("Escape")
    screen = tmux.wait_for(quit_, drawn=lambda screen: width >= 200 or _lines(screen)[-2].endswith("…"))
    status = _lines(screen)[-2]
    if width < 200:
        assert status.endswith("…"), status  # cut, and says so
    tmux.keys("q")
    tmux.wait_for("EXIT=0")


def test_the_language_asked_for_and_the_end_panel_at_80x24(tmux: Tmux, tmp_path: Path) -> None:
    """Issue 26: ``FIRSTLAST_LANG=ru firstlast tui`` opened in English on a database with no
    language saved, and ``firstlast tui --lang ru`` was an error. And at 80×24 the end
    panel keeps its story in view, between the score and the buttons."""
    db = tmp_path / "games.sqlite3"
    play = PlayService(GameStore(db))
    player = play.local_player()
    game = play.start(player, "number", 1)
    step(play, player, game.id, 10_000)  # deal 1 played out: it does not come out
    assert play.settings(player).lang is None
    tmux.start("FIRSTLAST_LANG=ru LANG=C.UTF-8 " + command(db), 80, 24)
    # Once the story is told ("считается": being told).
    def told(screen: str) -> list[str]:
        """The story's lines on the end panel, between its score and its buttons."""
        lines = _lines(screen)
        top = next((i for i, ln in enumerate(lines) if "Счёт" in ln), len(lines))
        bottom = next((i for i, ln in enumerate(lines) if "Ещё раз (Enter)" in ln), 0)
        story = [ln.strip(" █▔▁") for ln in lines[top + 1:bottom]]
        return [ln for ln in story if len(ln) > 20]

    screen = tmux.wait_for("Пасьянс не вышел", "Ещё раз (Enter)", "Закрыть", gone=("считается",), timeout=60,
                           drawn=lambda screen: len(told(screen)) >= 8)
    assert len(told(screen)) >= 8, screen  # the story, not squeezed out by the panel's frame
    tmux.keys("Escape")
    tmux.wait_for("Колода")  # the table in Russian too
    tmux.keys("q")
    tmux.wait_for("EXIT=0")
    assert play.settings(player).lang is None  # asked for this start, not saved
    # --lang after the command's name; a new deal on the table.
    tmux.start("LANG=C.UTF-8 " + command(db, "2", "--lang", "ru"), 80, 24)
    tmux.wait_for("Колода 88", "q Выход")
    tmux.keys("q")
    tmux.wait_for("EXIT=0")
