"""The gitignore matcher: pattern semantics one by one, then a cross-check against git itself."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

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
