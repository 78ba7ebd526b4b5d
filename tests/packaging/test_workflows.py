"""The GitHub workflows (.github/workflows): actionlint finds nothing, every action is
pinned by a full commit SHA, each job holds only the permissions it needs, and the Pages
workflow builds the site with the very command the README gives and the tests run."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from same_commands import SITE_BUILD

ROOT = Path(__file__).resolve().parent.parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@[0-9a-f]{40}$")


def actionlint() -> str:
    found = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    if found is None:
        pytest.fail("actionlint is not installed (it is in the dev extra: pip install -e '.[dev]')")
    return found


def workflow(name: str) -> dict[str, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [step for job in data["jobs"].values() for step in job.get("steps", [])]


def test_actionlint_finds_nothing_and_would_find_a_fault(tmp_path: Path) -> None:
    names = sorted(p.name for p in WORKFLOWS.glob("*.yml"))
    assert names == ["ci.yml", "pages.yml", "release.yml"]
    done = subprocess.run([actionlint(), "-no-color", *(str(WORKFLOWS / n) for n in names)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    bad = tmp_path / "bad.yml"  # an untrusted title run as shell code, and a job with no runner
    bad.write_text("on: issues\njobs:\n  a:\n    steps:\n      - run: echo ${{ github.event.issue.title }}\n")
    done = subprocess.run([actionlint(), "-no-color", str(bad)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "runs-on" in done.stdout and "untrusted" in done.stdout, done.stdout


def test_every_action_is_pinned_by_a_full_commit_sha_with_its_version() -> None:
    for path in sorted(WORKFLOWS.glob("*.yml")):
        text = path.read_text(encoding="utf-8")
        uses = re.findall(r"^\s*(?:-\s*)?uses:\s*(\S+)(.*)$", text, flags=re.M)
        assert uses, path.name
        for ref, comment in uses:
            assert PINNED.match(ref), f"{path.name}: {ref} is not pinned by a full commit SHA"
            assert re.fullmatch(r"\s*# v\d+(\.\d+)*", comment), f"{path.name}: {ref} has no '# vX.Y.Z' comment"


def test_each_job_holds_only_what_it_needs() -> None:
    for name in ("ci.yml", "pages.yml", "release.yml"):
        data = workflow(name)
        assert "permissions" in data, f"{name}: no top-level permissions (the default token may write)"
        assert data["permissions"] in ({}, {"contents": "read"}), name
        for job_name, job in data["jobs"].items():
            granted = {**(data["permissions"] or {}), **(job.get("permissions") or {})}
            writes = {k for k, v in granted.items() if v == "write"}
            # Only a job that deploys or publishes, behind an environment, may write.
            assert not writes or "environment" in job, (name, job_name, writes)
            for step in job.get("steps", []):
                if str(step.get("uses", "")).startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, (name, job_name)


def test_ci_runs_the_projects_own_ci() -> None:
    runs = [str(s.get("run", "")) for s in steps(workflow("ci.yml"))]
    assert any(line.strip() == "bash .ci/run" for run in runs for line in run.splitlines())


def test_pages_builds_the_site_with_the_tested_command_and_deploys_it() -> None:
    data = workflow("pages.yml")
    assert set(data["on"]) == {"push", "workflow_dispatch"} and data["on"]["push"]["branches"] == ["main"]
    build, deploy = data["jobs"]["build"], data["jobs"]["deploy"]
    [step] = [s for s in build["steps"] if s.get("name") == "Build the site"]
    assert step["run"].strip() == SITE_BUILD
    assert SITE_BUILD + "    #" in (ROOT / "README.md").read_text(encoding="utf-8")  # the README says it too
    [upload] = [s for s in build["steps"] if str(s.get("uses", "")).startswith("actions/upload-pages-artifact@")]
    assert upload["with"]["path"] == SITE_BUILD.split()[-1]
    assert build["permissions"] == {"contents": "read"}
    assert deploy["needs"] == "build" and deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert [s["uses"].split("@")[0] for s in deploy["steps"]] == ["actions/deploy-pages"]


def test_release_publishes_checked_files_to_pypi_by_trusted_publishing_on_a_tag() -> None:
    data = workflow("release.yml")
    assert data["on"] == {"push": {"tags": ["v*"]}}
    build, publish = data["jobs"]["build"], data["jobs"]["publish"]
    runs = "\n".join(str(s.get("run", "")) for s in build["steps"])
    assert "python -m build" in runs and "twine check --strict dist/*" in runs
    assert publish["needs"] == "build" and publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert publish["steps"][-1]["uses"].startswith("pypa/gh-action-pypi-publish@")
    assert not any("password" in (s.get("with") or {}) for s in publish["steps"])  # no stored token


def test_the_readme_says_where_the_site_lives_and_how_to_play_from_pypi() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    site = project["urls"]["Homepage"]
    assert re.fullmatch(r"https://[\w-]+\.github\.io/[\w.-]+/", site)
    owner = site.removeprefix("https://").split(".")[0]
    assert project["urls"]["Source"] == f"https://github.com/{owner}/{site.rstrip('/').rsplit('/', 1)[1]}"
    top = "\n".join((ROOT / "README.md").read_text(encoding="utf-8").splitlines()[:30])
    for words in (site, "Source: GitHub Actions", "pipx run firstlast", "uvx firstlast"):
        assert words in top, words
