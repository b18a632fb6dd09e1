"""The pre-commit hook end to end: `pre-commit try-repo` installs gradlint from this repository
into its own environment (no torch) and runs it on the staged files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import hostile_workspace

REPO = Path(__file__).resolve().parents[2]
PITFALL = """import torch
model = torch.nn.Linear(4, 1)
total = 0
for step in range(10):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    loss.backward()
    model.weight.data -= 0.1 * model.weight.grad
    model.zero_grad()
    total += loss
"""
CLEAN = """import torch
model = torch.nn.Linear(4, 1)
total = 0.0
for step in range(10):
    loss = model(torch.randn(2, 4)).pow(2).mean()
    loss.backward()
    total += loss.item()
"""

pre_commit = shutil.which("pre-commit") or str(Path(sys.executable).parent / "pre-commit")
pytestmark = pytest.mark.skipif(
    not (Path(pre_commit).exists() and shutil.which("git")), reason="pre-commit (pip install pre-commit) and git are needed"
)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    d = tmp_path_factory.mktemp("precommit-project")
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    subprocess.run(["git", "init", "-q"], cwd=d, check=True, env=env)
    (d / "bad.py").write_text(PITFALL)
    (d / "good.py").write_text(CLEAN)
    subprocess.run(["git", "add", "."], cwd=d, check=True, env=env)
    return d, env


def _try_repo(project_dir: Path, env: dict, *files: str, hook: str = "gradlint") -> subprocess.CompletedProcess:
    env = dict(env, PRE_COMMIT_HOME=str(project_dir.parent / "pre-commit-home"))
    return subprocess.run(
        [pre_commit, "try-repo", str(REPO), hook, "--files", *files],
        cwd=project_dir, env=env, capture_output=True, text=True, timeout=900,
    )


def test_hook_fails_on_a_pitfall_and_passes_clean_code(project):
    d, env = project
    bad = _try_repo(d, env, "bad.py")
    assert bad.returncode == 1, bad.stdout + bad.stderr
    assert "GL205" in bad.stdout
    good = _try_repo(d, env, "good.py")
    assert good.returncode == 0, good.stdout + good.stderr


def test_hook_installs_no_framework():
    # pre-commit installs the distribution's base dependencies (the try-repo run above shows
    # they suffice): no torch, TensorFlow or JAX among them
    import tomllib

    deps = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    names = {d.split(";")[0].split("<")[0].split(">")[0].split("=")[0].split("[")[0].strip().lower() for d in deps}
    assert names >= {"libcst", "pygls", "lsprotocol"}
    assert not names & {"torch", "tensorflow", "jax", "jaxlib", "keras", "numpy"}


@pytest.mark.parametrize("hook", ["gradlint", "gradlint-fix"])
def test_hook_runs_nothing_from_the_repository_it_checks(project, hook):
    # a repository whose every importable file writes a marker when it runs (hostile_workspace.py)
    d, env = project
    repo = hostile_workspace.make(d.parent / f"hostile-{hook}")
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
    files = sorted(str(f.relative_to(repo)) for f in repo.rglob("*.py"))
    r = _try_repo(repo, env, *files, hook=hook)
    assert r.returncode == 1 and ("GL205" in r.stdout or "1 fixed" in r.stdout), r.stdout + r.stderr
    assert hostile_workspace.markers(repo) == [], r.stdout + r.stderr
