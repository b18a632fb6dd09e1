"""The gitignore matcher: pattern semantics one by one, then a cross-check against git itself."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gradlint.gitignore import IgnoreFile, IgnoreStack, parse_line, stack_for

BASE = "/repo"


def ignored(patterns: str, path: str, is_dir: bool = False) -> bool:
    f = IgnoreFile(BASE, patterns.splitlines())
    return IgnoreStack((f,)).is_ignored(f"{BASE}/{path}", is_dir)


@pytest.mark.parametrize(
    "patterns, path, is_dir, expected",
    [
        # unanchored names match at any depth
        ("*.log", "a.log", False, True),
        ("*.log", "deep/er/a.log", False, True),
        ("*.log", "a.log.py", False, False),
        ("cache", "x/cache", True, True),
        ("cache", "x/cache/inner.py", False, True),  # inside an ignored directory
        # anchored: a leading or middle slash ties the pattern to the file's directory
        ("/top.py", "top.py", False, True),
        ("/top.py", "sub/top.py", False, False),
        ("doc/frotz", "doc/frotz", True, True),
        ("doc/frotz", "a/doc/frotz", True, False),
        # dir-only patterns
        ("build/", "build", True, True),
        ("build/", "build", False, False),
        ("build/", "src/build/x.py", False, True),
        # wildcards never cross a slash; ? is one character; classes
        ("a*z.py", "abcz.py", False, True),
        ("/a*z.py", "a/z.py", False, False),
        ("?.py", "x.py", False, True),
        ("?.py", "xy.py", False, False),
        ("[abc].py", "b.py", False, True),
        ("[!abc].py", "b.py", False, False),
        ("[!abc].py", "d.py", False, True),
        ("[a-c]x.py", "bx.py", False, True),
        ("[a-c]x.py", "dx.py", False, False),
        # the three forms of **
        ("**/foo", "foo", True, True),
        ("**/foo", "a/b/foo", False, True),
        ("**/foo/bar", "a/foo/bar", False, True),
        ("abc/**", "abc/x/y.py", False, True),
        ("abc/**", "abc", True, False),
        ("a/**/b", "a/b", False, True),
        ("a/**/b", "a/x/y/b", False, True),
        ("a/**/b", "a/xb", False, False),
        ("foo**bar", "fooxbar", False, True),
        # negation: the last matching pattern wins
        ("*.py\n!keep.py", "keep.py", False, False),
        ("*.py\n!keep.py", "drop.py", False, True),
        ("!keep.py\n*.py", "keep.py", False, True),
        # a file inside an ignored directory cannot be re-included
        ("build/\n!build/keep.py", "build/keep.py", False, True),
        # ... but re-including the directory first works
        ("build/*\n!build/keep.py", "build/keep.py", False, False),
        # comments, blanks, escapes, trailing spaces
        ("# comment\n\n", "# comment", False, False),
        ("\\#hash.py", "#hash.py", False, True),
        ("\\!bang.py", "!bang.py", False, True),
        ("space.py   ", "space.py", False, True),
        ("sp\\ ", "sp ", False, True),
    ],
)
def test_pattern_semantics(patterns, path, is_dir, expected):
    assert ignored(patterns, path, is_dir) is expected


def test_blank_and_comment_lines_are_no_patterns():
    assert parse_line("") is None and parse_line("   ") is None and parse_line("# x") is None
    assert parse_line("/") is None


def test_deeper_files_take_precedence():
    root = IgnoreFile(BASE, ["*.py"])
    sub = IgnoreFile(f"{BASE}/sub", ["!keep.py"])
    stack = IgnoreStack((root, sub))
    assert stack.is_ignored(f"{BASE}/sub/keep.py", False) is False
    assert stack.is_ignored(f"{BASE}/keep.py", False) is True
    assert stack.is_ignored(f"{BASE}/sub/other.py", False) is True


def test_stack_for_reads_info_exclude_and_parent_gitignores(tmp_path):
    (tmp_path / ".git" / "info").mkdir(parents=True)
    (tmp_path / ".git" / "info" / "exclude").write_text("secret.py\n")
    (tmp_path / ".gitignore").write_text("*.gen.py\n")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / ".gitignore").write_text("!keep.gen.py\n")
    stack = stack_for(str(tmp_path / "pkg"))
    assert stack.is_ignored(str(tmp_path / "pkg" / "secret.py"), False)
    assert stack.is_ignored(str(tmp_path / "pkg" / "x.gen.py"), False)
    assert not stack.is_ignored(str(tmp_path / "pkg" / "keep.gen.py"), False)
    assert not stack.is_ignored(str(tmp_path / "pkg" / "plain.py"), False)


TREE_IGNORES = {
    ".gitignore": "*.tmp.py\nbuild/\n/top_only.py\nlogs/**\n!logs/keep/\ndocs/**/gen_*.py\n[Tt]emp*/\n",
    "pkg/.gitignore": "!special.tmp.py\nlocal_*.py\n/anchored.py\n",
    "pkg/deep/.gitignore": "*\n!*.py\n!*/\nlocal_ok.py\n",
}
TREE_FILES = [
    "a.py", "x.tmp.py", "top_only.py", "build/b.py", "pkg/build/c.py", "pkg/top_only.py",
    "logs/l.py", "logs/keep/k.py", "docs/gen_a.py", "docs/x/y/gen_b.py", "docs/x/plain.py",
    "Temp1/t.py", "temp2/t.py", "tempfile.py", "pkg/special.tmp.py", "pkg/other.tmp.py",
    "pkg/local_x.py", "pkg/anchored.py", "pkg/sub/anchored.py", "pkg/deep/d.py",
    "pkg/deep/local_ok.py", "pkg/deep/data.txt.py", "pkg/deep/more/m.py", "[weird].py",
]


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_agrees_with_git(tmp_path):
    for rel, text in TREE_IGNORES.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    for rel in TREE_FILES:
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x = 1\n")
    env = {**os.environ, "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": str(tmp_path)}
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True, env=env)
    out = subprocess.run(
        ["git", "check-ignore", "--stdin", "-v", "--non-matching"],
        cwd=tmp_path, input="\n".join(TREE_FILES) + "\n", capture_output=True, text=True, env=env,
    ).stdout
    git_says = {}
    for line in out.splitlines():
        source, path = line.split("\t")
        pattern = source.split(":", 2)[2]
        git_says[path] = bool(source != "::" and not pattern.startswith("!"))
    for rel in TREE_FILES:
        stack = stack_for(str(tmp_path / os.path.dirname(rel)))
        # The walker never enters an ignored directory; is_ignored checks the ancestors too.
        ours = stack.is_ignored(str(tmp_path / rel), False)
        assert ours == git_says[rel], (rel, ours, git_says[rel])
    # The ones that matter most for gradlint: what `git ls-files --others` would add.
    listed = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"], cwd=tmp_path, capture_output=True, text=True, env=env
    ).stdout.split()
    assert {p for p in listed if p.endswith(".py")} == {rel for rel in TREE_FILES if not git_says[rel]}


# ------------------------------------------------------------------ no pattern can hang the walk
# A cloned repository's .gitignore is input like any other: the matcher is linear in
# (pattern length) x (path length) for every pattern (the old translation to `re` backtracked
# exponentially on `*a*a*...*b`: 12 stars on a 40-character name took over a minute).
BOMBS = [
    "*a" * 60 + "b",
    "**/" * 200 + "x",
    "*a" * 30 + "/" + "*a" * 30 + "b",
    "a/**/" * 60 + "b",
    "?*" * 100 + "b",
    "[a]*" * 80 + "b",
    "*" + "**/*a*" * 40 + "b",
]


@pytest.mark.parametrize("bomb", BOMBS)
def test_pathological_patterns_match_in_bounded_time(bomb):
    f = IgnoreFile(BASE, [bomb, "!" + bomb, bomb + "/"])
    paths = ["a" * 200, "/".join(["a" * 40] * 6) + "/" + "a" * 60, "/".join(["a"] * 200), "ab" * 100]
    t0 = time.perf_counter()
    for p in paths:
        for is_dir in (False, True):
            f.match(f"{BASE}/{p}", is_dir)
    assert time.perf_counter() - t0 < 2.0


def test_gitignore_bomb_in_a_cloned_repository_does_not_hang(tmp_path):
    from cli_support import run_gradlint

    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / ".gitignore").write_text("*a*a*a*a*a*a*a*a*a*a*a*a*b\n" + "*a" * 60 + "b\n" + "**/" * 200 + "x\n[\n\\\n")
    deep = tmp_path / ("a" * 200)
    deep.mkdir()
    (deep / ("a" * 200 + ".py")).write_text("x = 1\n")
    (tmp_path / ("a" * 40 + ".py")).write_text("x = 1\n")
    t0 = time.perf_counter()
    res = run_gradlint("check", "--no-cache", "--show-files", ".", cwd=tmp_path)
    assert time.perf_counter() - t0 < 10
    assert res.returncode == 0, res.stderr
    assert len(res.lines) == 2


# ------------------------------------------------------------------ same answers as before
def _old_regex(line: str):
    """The former implementation (translation to `re`), kept as the oracle for benign patterns."""

    def char_class(glob, i):
        j = i + 1
        negate = j < len(glob) and glob[j] in "!^"
        if negate:
            j += 1
        body_start = j
        if j < len(glob) and glob[j] == "]":
            j += 1
        while j < len(glob) and glob[j] != "]":
            j += 2 if glob[j] == "\\" else 1
        if j >= len(glob):
            return re.escape("["), i + 1
        body = glob[body_start:j]
        parts, k = [], 0
        while k < len(body):
            ch = body[k]
            if ch == "\\" and k + 1 < len(body):
                k += 1
                parts.append(re.escape(body[k]))
            elif ch in "\\]^[":
                parts.append("\\" + ch)
            else:
                parts.append(ch)
            k += 1
        return ("[^/" if negate else "(?!/)[") + "".join(parts) + "]", j + 1

    def translate(glob):
        out, i, n = [], 0, len(glob)
        while i < n:
            c = glob[i]
            if c == "*":
                j = i
                while j < n and glob[j] == "*":
                    j += 1
                at_start = i == 0 or glob[i - 1] == "/"
                at_end = j == n or glob[j] == "/"
                if j - i >= 2 and at_start and at_end:
                    if j == n:
                        out.append(".*" if i == 0 else ".+")
                    else:
                        out.append("(?:.*/)?")
                        j += 1
                else:
                    out.append("[^/]*")
                i = j
                continue
            if c == "?":
                out.append("[^/]")
            elif c == "[":
                cls, i = char_class(glob, i)
                out.append(cls)
                continue
            elif c == "\\" and i + 1 < n:
                i += 1
                out.append(re.escape(glob[i]))
            else:
                out.append(re.escape(c))
            i += 1
        return "".join(out)

    pat = parse_line(line)
    if pat is None:
        return None
    body = pat.source.rstrip("/") if pat.dir_only else pat.source
    anchored = "/" in body
    body = body.lstrip("/") if body.startswith("/") else body
    regex = translate(body)
    if not anchored:
        regex = "(?:.*/)?" + regex
    return re.compile(regex + r"\Z", re.S)


# Small alphabets, at most three stars: the old regexes stay fast, and collisions are frequent.
_PATTERN_PIECES = ["a", "b", "*", "?", "/", "**/", "/**", "[ab]", "[!a]", "[a-c]", "[]a]", "\\*", "\\a", "[", "!", "-", "."]
_PATH_PIECES = ["a", "b", "c", "/", "*", "[", "]", "-", "!", ".", "ab", "ba"]


@settings(max_examples=1000, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.sampled_from(_PATTERN_PIECES), min_size=1, max_size=7),
    st.lists(st.lists(st.sampled_from(_PATH_PIECES), min_size=1, max_size=8), min_size=1, max_size=6),
)
def test_same_answers_as_the_regex_translation(pieces, raw_paths):
    line = "".join(pieces)
    if line.count("*") > 4:
        return
    try:
        old = _old_regex(line)
    except re.error:
        return  # the old translation raised on it (a reversed range): nothing to compare
    new = parse_line(line)
    assert (old is None) == (new is None)
    if new is None:
        return
    for raw in raw_paths:
        path = "/".join(p for p in "".join(raw).split("/") if p)  # real paths: no empty components
        if not path:
            continue
        parts = path.split("/")
        assert new.matches(parts) == bool(old.match(path)), (line, path)


# git's own answers on patterns the old translation did not know (POSIX classes, reversed
# ranges) and on star-heavy ones. (Not on the bombs themselves: git's wildmatch backtracks
# too, and takes minutes on the first one above.)
GIT_PATTERNS = {
    "[[:digit:]]*.py": ["1a.py", "a1.py"],
    "x[[:upper:][:digit:]]y.py": ["xAy.py", "x5y.py", "xay.py"],
    "[z-a]q.py": ["zq.py", "aq.py", "mq.py"],
    "[z-ab]r.py": ["br.py", "mr.py"],
    "*a*a*a*b": ["a" * 12 + ".py", "a" * 6 + "b", "aab", "xaxaxab/y.py"],
    "sub/**/**/deep.py": ["sub/deep.py", "sub/x/y/deep.py", "other/deep.py"],
}


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_agrees_with_git_on_classes_and_bombs(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "GIT_CONFIG_NOSYSTEM": "1", "XDG_CONFIG_HOME": str(tmp_path)}
    subprocess.run(["git", "init", "-q", "."], cwd=tmp_path, check=True, env=env)
    for pattern, paths in GIT_PATTERNS.items():
        (tmp_path / ".gitignore").write_text(pattern + "\n")
        out = subprocess.run(
            ["git", "check-ignore", "--no-index", "--stdin", "-v", "--non-matching"],
            cwd=tmp_path, input="\n".join(paths) + "\n", capture_output=True, text=True, env=env,
        ).stdout
        git_says = {line.split("\t")[1]: not line.startswith("::") for line in out.splitlines()}
        f = IgnoreFile(str(tmp_path), [pattern])
        for p in paths:
            ours = IgnoreStack((f,)).is_ignored(str(tmp_path / p), False)
            assert ours == git_says[p], (pattern, p, ours)
