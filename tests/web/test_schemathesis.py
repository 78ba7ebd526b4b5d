"""The served contract against the server: schemathesis reads ``GET /api/schema`` from a
real server (``firstlast play`` on a fresh database, as ``spawn_server`` starts it)
and runs every phase (examples, coverage, fuzzing, stateful) with all its checks:
statuses, content types, answer schemas and headers as declared, schema-valid requests
accepted and schema-violating ones refused, ``Allow`` as the schema says, a created game
found where its links lead. Zero failures is the bar (docs/web-api.md, "Endpoints").

Its own CLI runs it (``python -m schemathesis.cli``): its public interface, reproducible
(deterministic generation, no example database) and bounded (a fixed number of
examples per operation, run to the end; ``max-time`` would make fuzzing repeat until
the time is spent). On a failure the assertion carries its report, each failure with a
``curl`` line that reproduces it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from spawn import spawn_server, stop_server

#: Examples per operation and phase. Generation is deterministic (the same examples every
#: run) and the coverage phase's edge cases do not depend on it; 300 cost 103 CPU-seconds,
#: 100 cost 44 (issue 25.7), and both pass every check.
EXAMPLES = 100
#: The whole run's limit (it takes about a minute on two idle cores).
TIMEOUT_S = 540

CONFIG = """\
seed = 20261202
workers = 1
# Every answer of the real server in turn: one request at a time (one player, below).
headers = {{ Cookie = "{cookie}" }}

[generation]
max-examples = {examples}
deterministic = true
database = "none"

[checks]
enabled = true  # every check: not_a_server_error, status, content type, answer schema, headers,
                # negative data rejection, positive data acceptance, missing required header,
                # unsupported method, Allow, use-after-free, resource availability, auth

# A game found: most requests of the coverage and fuzzing phases act on one real game of
# the player's (a drawn id is just a 404), played, so that no new game deletes it.
[parameters]
"path.id" = "{game}"

# Two steps, a link followed right after the request it comes from: a game never moved
# is deleted when another takes the table (docs/play.md, "The table"), so in a longer
# scenario a later POST /api/games rightly makes an earlier link a 404, which the
# resource-availability check would count as a created game lost.
[phases.stateful]
max-steps = 2

# A game record's text and a backup file's are checked by replaying every game in them:
# JSON Schema cannot say which strings are records, so a schema-valid string that is
# none is refused, 422 (record.* and backup.*, docs/web-api.md). The check stays on,
# with 422 among the answers a valid body may get here.
[[operations]]
include-path = "/api/games/import"
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

[[operations]]
include-path = "/api/backup"
include-method = "POST"
checks.positive_data_acceptance.expected-statuses = ["2xx", "3xx", "401", "403", "404", "409", "422", "429", "5xx"]

# A file that is there (a drawn name is a 404).
[[operations]]
include-path = "/static/{{path}}"
parameters = {{ "path.path" = "index.html" }}
"""


def _post(url: str, body: bytes, cookie: str | None = None) -> tuple[dict[str, object], str | None]:
    """POST ``body`` (JSON) straight to the server: the answer and its ``Set-Cookie``."""
    headers = {"content-type": "application/json", **({"cookie": cookie} if cookie else {})}
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(request, timeout=60) as r:
        return json.loads(r.read()), r.headers["set-cookie"]


def _player_and_game(url: str) -> tuple[str, str]:
    """A player of the server (its cookie, ``name=token``) and a game of theirs, played."""
    state, set_cookie = _post(url + "api/games", b'{"deal": "0"}')
    assert set_cookie and set_cookie.startswith("fl_player_"), set_cookie
    cookie = set_cookie.split(";")[0]
    result, _ = _post(url + f"api/games/{state['id']}/step", b'{"n": 5}', cookie)
    assert isinstance(result["state"], dict) and result["state"]["moves"] == 5, result
    return cookie, str(state["id"])


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    try:
        proc, url = spawn_server(tmp_path / "games.sqlite3")
    except RuntimeError as e:
        pytest.fail(str(e))
    yield url
    stop_server(proc)


def test_the_served_schema_holds_for_every_answer(server: str, tmp_path: Path) -> None:
    config = tmp_path / "schemathesis.toml"
    cookie, game = _player_and_game(server)
    config.write_text(CONFIG.format(cookie=cookie, game=game, examples=EXAMPLES), encoding="utf-8")
    reports = tmp_path / "reports"
    # Straight to the loopback server: no proxy from the environment.
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env["NO_PROXY"] = env["no_proxy"] = "*"
    run = subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(config), "run", server + "api/schema",
         "--report", "json", "--report-dir", str(reports), "--no-color", "--output-truncate", "false"],
        capture_output=True, text=True, timeout=TIMEOUT_S, env=env, cwd=tmp_path,
    )
    out = run.stdout + run.stderr
    failures = out[out.find("== FAILURES =="):] if "== FAILURES ==" in out else out[-8000:]
    assert run.returncode == 0, failures
    report = json.loads(next(reports.glob("json-*.json")).read_text(encoding="utf-8"))
    # It ran whole: every operation, every phase, no errors, thousands of requests.
    assert report["operations"]["tested"] == report["operations"]["total"] >= 26, report["operations"]
    assert {name: p["status"] for name, p in report["phases"].items() if p["status"] != "success"} == {
        "examples": "skip"}, report["phases"]  # the schema gives no examples
    assert report["errors"] == [] and report["failures"] == []
    assert report["test_cases"]["generated"] >= 26 * 100, report["test_cases"]
