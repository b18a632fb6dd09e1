"""The results cache (hits, misses, invalidation, robustness) and the worker processes."""

from __future__ import annotations

import json
import os
import re

from cli_support import SAMPLE


def stats(res) -> tuple[int, int]:
    """(files answered from the cache, files read) from `--verbose`."""
    m = re.search(r"(\d+) answered from the cache, (\d+) read", res.stderr)
    assert m, res.stderr
    return int(m.group(1)), int(m.group(2))


def cache_files(project) -> list:
    return sorted((project.root / ".gradlint_cache").glob("cache-*.json"))


def test_warm_run_uses_the_cache_and_gives_the_same_output(project):
    project.write("a.py")
    project.write("b.py", "x = 1\n")
    project.age()
    cold = project.check("-v")
    assert stats(cold) == (0, 2)
    warm = project.check("-v")
    assert stats(warm) == (2, 0)
    assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    cache_dir = project.root / ".gradlint_cache"
    assert (cache_dir / ".gitignore").read_text().splitlines()[-1] == "*"
    assert len(cache_files(project)) == 1


def test_content_change_is_rechecked(project):
    path = project.write("a.py", "import torch\nloss = note_me(1)\nloss.backward()\n")
    project.write("b.py")
    project.age()
    project.check()
    path.write_text("import torch\nloss = forbidden(1)\nloss.backward()\n")
    res = project.check("-v", "--output-format", "concise")
    assert stats(res) == (1, 1)
    assert "a.py:2:8: GL991 [*] `forbidden()` is forbidden" in res.lines


def test_same_size_change_within_the_same_second_is_seen(project):
    # A rewrite that keeps the size, right after the previous run: the stat alone could match
    # (coarse mtimes), so recent files are verified by content.
    path = project.write("a.py", "import torch\nloss = note_me(1)\nloss.backward()\n")
    assert project.check("--select", "GL993").returncode == 1
    st = path.stat()
    path.write_text("import torch\nloss = shaky_m(1)\nloss.backward()\n")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    res = project.check("--output-format", "concise", "--select", "GL993")
    assert res.returncode == 0, res.stdout


def test_touch_without_change_hits_by_content(project):
    path = project.write("a.py")
    project.check()
    os.utime(path, ns=(1_000_000_000, 1_000_000_000))
    res = project.check("-v")
    assert stats(res) == (1, 1)  # read and hashed, then answered from the cache
    assert "GL991" in res.stdout


def test_config_change_invalidates(project):
    project.write("a.py")
    project.age()
    project.check()
    project.pyproject('select = ["GL993"]\n')
    res = project.check("-v", "--output-format", "json")
    assert stats(res) == (0, 1)
    assert [d["code"] for d in json.loads(res.stdout)] == ["GL993"]
    # a different selection on the command line has its own cache file; both stay warm
    assert stats(project.check("-v", "--select", "GL991")) == (0, 1)
    assert stats(project.check("-v")) == (1, 0)
    assert stats(project.check("-v", "--select", "GL991")) == (1, 0)


def test_corrupt_cache_is_ignored_and_rewritten(project):
    project.write("a.py")
    project.age()
    first = project.check()
    for f in cache_files(project):
        f.write_text("{not json")
    res = project.check("-v")
    assert (res.returncode, res.stdout) == (first.returncode, first.stdout)
    assert stats(res) == (0, 1)
    assert stats(project.check("-v")) == (1, 0)


def test_no_cache_writes_nothing(project):
    project.write("a.py")
    project.check("--no-cache")
    assert not (project.root / ".gradlint_cache").exists()
    project.check("--cache-dir", "elsewhere")
    assert (project.root / "elsewhere" / ".gitignore").exists()


def test_fix_uses_and_refreshes_the_cache(project):
    path = project.write("a.py")
    project.age()
    project.check()
    res = project.check("--fix", "-v")
    assert stats(res) == (0, 1)  # a cached finding with a fix: the file must be processed
    assert "allowed(1)" in path.read_text()
    res = project.check("-v")
    assert stats(res) == (1, 1)  # just written: verified by content, not by stat
    assert "GL991" not in res.stdout


def test_parallel_run_matches_serial(project):
    bodies = [
        SAMPLE,
        "import torch\nexplode()\nloss = forbidden(2)\nloss.backward()\n",  # GL002 and GL991
        "x = 1\n",
        "import torch\nx = (\nloss.backward()\n",  # GL001
    ]
    for i in range(90):
        project.write(f"pkg{i % 5}/m{i}.py", bodies[i % len(bodies)])
    serial = project.check("--no-cache", "--jobs", "1", "--output-format", "json")
    parallel = project.check("--no-cache", "--jobs", "3", "--output-format", "json")
    assert serial.returncode == parallel.returncode == 1
    assert json.loads(serial.stdout) == json.loads(parallel.stdout)
    assert len(json.loads(serial.stdout)) > 90
    # --fix in parallel rewrites every file once
    project.check("--fix", "--jobs", "3")
    assert not any("forbidden(" in p.read_text() for p in project.root.glob("pkg*/*.py"))


def test_a_damaged_entry_is_a_miss_never_an_error(project):
    """Valid JSON with a wrong-typed field used to make every later run exit 2 (TypeError) or
    print `None` as a code, until the cache was deleted."""
    project.write("a.py")
    project.age()
    first = project.check("--output-format", "concise")
    assert first.returncode == 1
    (path,) = cache_files(project)
    pristine = json.loads(path.read_text())
    damages = {
        "start": lambda d: d.update(start="zz"),
        "start-short": lambda d: d.update(start=[2]),
        "start-bool": lambda d: d.update(start=[True, 4]),
        "end-negative": lambda d: d.update(end=[2, -1]),
        "code-null": lambda d: d.update(code=None),
        "name-int": lambda d: d.update(name=5),
        "message-list": lambda d: d.update(message=["x"]),
        "severity": lambda d: d.update(severity=7),
        "severity-str": lambda d: d.update(severity="1"),
        "path-null": lambda d: d.update(path=None),
        "url-int": lambda d: d.update(url=3),
        "fix-str": lambda d: d.update(fix="yes"),
        "fix-edit": lambda d: d["fix"] and d["fix"].update(edits=[[1, 2, 3]]),
        "fix-applicability": lambda d: d["fix"] and d["fix"].update(applicability="maybe"),
        "related": lambda d: d.update(related=[[1, "x", "m"]]),
        "not-an-object": lambda d: d.clear(),
    }
    for name, damage in damages.items():
        data = json.loads(json.dumps(pristine))
        (entry,) = data["files"].values()
        for d in entry[3]:
            damage(d)
        if name == "not-an-object":
            entry[3] = [5]
        path.write_text(json.dumps(data))
        res = project.check("--output-format", "concise", "-v")
        assert (res.returncode, res.stdout) == (first.returncode, first.stdout), name
        assert stats(res) == (0, 1), name  # checked again, and the entry rewritten
        assert "None" not in res.stdout
