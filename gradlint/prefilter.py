"""The cheap first pass: from the raw text, decide whether (and where) a finding is possible.

libcst is precise but slow (a bare parse is ~10-30k lines per CPU-second), while most lines of a
real tree cannot hold a finding. Two steps, both on text:

1. *Differentiation evidence.* Every analysis rule is about code that is differentiated: a
   `.backward(`, `torch.autograd.grad`, a `GradientTape`, `jax.grad`/`value_and_grad`/`jit`,
   `gradcheck`, a Lightning `training_step`, a Keras `compile(... loss=...)`, an `Optimizer`
   subclass. A file with none of these is not parsed (on the real-code corpus this keeps ~8%
   of the lines). This is part of gradlint's semantics, not only an optimisation: the
   exhaustive path applies the same gate.
2. *Chunks.* The file is split into top-level statements (a decorated def, a class, a loop, a
   run of lines) by a small scanner that knows strings, comments and brackets. Chunks that
   mention differentiation or a rule's trigger words are "hot"; the chunks they reference and
   the chunks that reference them are added until nothing changes; imports are always kept.
   Only those chunks are parsed, each on its own (the language server caches them by text),
   and positions are computed per chunk.

`tests/test_prefilter.py` proves the narrowing loses no finding: it compares the fast path with
`check_source(..., exhaustive=True)` (all chunks) over the pitfall corpus, the rule examples and
real code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# ------------------------------------------------------------------ differentiation evidence
_EVIDENCE_LITERALS = (
    ".backward(", "autograd.grad", "autograd.backward", "GradientTape", "gradcheck",
    "value_and_grad", "jax.grad", "training_step", ".gradient(", "vjp(", "jacrev", "jacfwd",
    "hessian(", "jax.jit", "@jit", "Optimizer)", "manual_backward",
)
_QUICK = ("grad", "backward", "Tape", "jit", "vjp", "jac", "hessian", "training_step", "Optimizer", "compile(")


def _bare_call(text: str, name: str) -> bool:
    """`grad(` / `jit(` called as a bare name (from jax import grad), not `no_grad(`."""
    needle = name + "("
    i = text.find(needle)
    while i != -1:
        if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_."):
            return True
        i = text.find(needle, i + 1)
    return False


def has_diff_evidence(text: str) -> bool:
    if not any(q in text for q in _QUICK):
        return False
    for lit in _EVIDENCE_LITERALS:
        if lit in text:
            return True
    if _bare_call(text, "grad") or _bare_call(text, "jit"):
        return True
    return "compile(" in text and "loss" in text


# ------------------------------------------------------------------ chunks
@dataclass
class Chunk:
    start: int  # offset of the first character
    end: int  # offset after the last character
    line: int  # 1-based line of `start`
    text: str
    included: bool = True
    _refs: set | None = field(default=None, repr=False)
    _defs: set | None = field(default=None, repr=False)

    @property
    def refs(self) -> set:
        if self._refs is None:
            self._refs = set(_IDENT.findall(self.text))
        return self._refs

    @property
    def defs(self) -> set:
        if self._defs is None:
            self._defs = _defined_names(self.text)
        return self._defs

    @property
    def is_import(self) -> bool:
        return self.text.startswith(("import ", "from "))


_SCAN = re.compile(
    r"""(?P<tq>(?:'''|\"\"\"))"""
    r"""|(?P<s>'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*")"""
    r"""|(?P<c>\#[^\n]*)"""
    r"""|(?P<o>[(\[{])|(?P<cl>[)\]}])"""
    r"""|(?P<bs>\\\n)"""
    r"""|(?P<nl>\n)"""
)
_CONTINUATION = re.compile(r"(?:else|elif|except|finally)\b|[)\]}]")
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEAD = re.compile(r"(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
# names bound anywhere in a top-level compound statement (a loop, a with, an if): these are
# module-level names too; over-approximating only includes more chunks
_BINDS = re.compile(
    r"^[ \t]*([A-Za-z_][\w, \t]*?)[ \t]*(?::[^=\n]*)?=(?!=)"
    r"|^[ \t]*for[ \t]+([\w, \t()]+?)[ \t]+in\b"
    r"|\bas[ \t]+(\w+)",
    re.M,
)


def _defined_names(text: str) -> set:
    body = text
    while body.startswith("@") or body.startswith("#"):
        nl = body.find("\n")
        if nl == -1:
            return set()
        body = body[nl + 1 :]
    m = _HEAD.match(body)
    if m:
        return {m.group(1)}
    names: set[str] = set()
    for m in _BINDS.finditer(text):
        for g in m.groups():
            if g:
                names.update(n.strip(" \t()") for n in g.split(",") if n.strip(" \t()").isidentifier())
    return names


def split_chunks(text: str) -> list[Chunk]:
    """Top-level statements, as text spans. A wrong guess is harmless: a chunk that does not
    parse on its own sends the engine back to parsing the whole file."""
    starts = [0]
    depth = 0
    pos = 0
    n = len(text)
    finditer = _SCAN.finditer
    i = 0
    while True:
        m = _SCAN.search(text, i)
        if m is None:
            break
        kind = m.lastgroup
        if kind == "tq":
            q = m.group()
            close = text.find(q, m.end())
            # skip escaped closers: a backslash before the quotes
            while close != -1 and text[close - 1] == "\\" and text[close - 2] != "\\":
                close = text.find(q, close + 1)
            i = n if close == -1 else close + 3
            continue
        i = m.end()
        if kind == "o":
            depth += 1
        elif kind == "cl":
            depth = max(0, depth - 1)
        elif kind == "nl" and depth == 0:
            nxt = i
            if nxt < n:
                ch = text[nxt]
                if ch not in " \t\n\r#" and not _CONTINUATION.match(text, nxt):
                    starts.append(nxt)
    del finditer, pos
    chunks: list[Chunk] = []
    line = 1
    prev = 0
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else n
        if chunks and chunks[-1].text.lstrip().startswith("@") and _only_decorators(chunks[-1].text):
            last = chunks[-1]
            last.end = e
            last.text = text[last.start : e]
            continue
        line += text.count("\n", prev, s)
        prev = s
        chunks.append(Chunk(s, e, line, text[s:e]))
    return chunks


def _only_decorators(chunk_text: str) -> bool:
    for line in chunk_text.split("\n"):
        if line and not line.startswith((" ", "\t", "#", "@")) and line.strip():
            return False
    return True


# ------------------------------------------------------------------ plan
@dataclass
class Plan:
    skip: bool  # no differentiation evidence: nothing to analyse
    chunks: list[Chunk]
    narrowed: bool = False


def triggers_of(rules) -> tuple[str, ...]:
    out: set[str] = set()
    for r in rules:
        out.update(r.triggers)
    return tuple(sorted(out))


_HOT_EVIDENCE = _EVIDENCE_LITERALS + ("grad(", "jit(", "compile(")


def plan(text: str, rules, *, narrow: bool = True) -> Plan:
    if not has_diff_evidence(text):
        return Plan(skip=True, chunks=[])
    chunks = split_chunks(text)
    if not narrow or len(chunks) <= 2:
        return Plan(skip=False, chunks=chunks)
    local = tuple(t for r in rules for t in getattr(r, "chunk_triggers", ()))
    hot = [i for i, c in enumerate(chunks) if any(t in c.text for t in _HOT_EVIDENCE) or any(t in c.text for t in local)]
    if not hot:
        return Plan(skip=False, chunks=chunks)
    # index: name -> chunks defining it / referencing it
    defs: dict[str, list[int]] = {}
    for i, c in enumerate(chunks):
        for name in c.defs:
            defs.setdefault(name, []).append(i)
    refs: dict[str, list[int]] = {}
    included = set(hot)
    todo = list(hot)
    need_refs = True
    if need_refs:
        for i, c in enumerate(chunks):
            for name in c.refs & defs.keys():
                refs.setdefault(name, []).append(i)
    while todo:
        i = todo.pop()
        c = chunks[i]
        # what it uses (callees, globals)...
        for name in c.refs & defs.keys():
            for j in defs[name]:
                if j not in included:
                    included.add(j)
                    todo.append(j)
        # ...and who uses what it defines (callers pass it their values)
        for name in c.defs:
            for j in refs.get(name, ()):
                if j not in included:
                    included.add(j)
                    todo.append(j)
    for i, c in enumerate(chunks):
        c.included = i in included or c.is_import
    return Plan(skip=False, chunks=chunks, narrowed=not all(c.included for c in chunks))
