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
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field

from .analysis.frameworks import EVIDENCE, INSTANCE_CALL_METHODS

# ------------------------------------------------------------------ differentiation evidence
# What counts as evidence is declared by the framework overlays (analysis/frameworks/).
_QUICK = EVIDENCE.words
_EVIDENCE_LITERALS = EVIDENCE.literals


def _bare_call(text: str, name: str) -> bool:
    """`grad(` / `jit(` called as a bare name (from jax import grad), not `no_grad(`."""
    needle = name + "("
    i = text.find(needle)
    while i != -1:
        if i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_."):
            return True
        i = text.find(needle, i + 1)
    return False


# `import jax as J`, `import tensorflow as tf2`, `import torch.autograd as ag`: the evidence
# literals are spelled with the library's own name, so an alias is read as that name. The
# patterns begin with their keyword, not with `^[ \t]*` (an anchor defeats the regex engine's
# literal-prefix scan: the two searches were a fifth of the first pass); `_at_line_start`
# checks the rest.
_MODULE_ALIAS = re.compile(r"import[ \t]+((?:jax|torch|tensorflow|keras|flax|optax)(?:\.\w+)*)[ \t]+as[ \t]+(\w+)")


_NAME_ALIAS = re.compile(
    r"from[ \t]+(?:jax|torch|tensorflow|keras|flax|optax)(?:\.\w+)*[ \t]+import[ \t]+\(?([\w \t,]+?\bas\b[\w \t,]*)\)?[ \t]*$", re.M)


def _at_line_start(text: str, i: int) -> bool:
    j = text.rfind("\n", 0, i) + 1
    return not text[j:i].strip(" \t")


def _can_complete_a_literal(name: str) -> bool:
    """Whether writing `name` where its alias stood can make an evidence literal appear: only
    when a literal contains it (`J.grad` -> `jax.grad`; `from torch.optim import Optimizer as
    Base`). `import torch.nn as nn` or `import tensorflow as tf` cannot (no literal contains
    `nn.` or `tensorflow.`), and rewriting every `nn.` of a file was a third of the first pass."""
    return any(name in lit for lit in _EVIDENCE_LITERALS)


def _rewrites(text: str) -> list[tuple[str, str]]:
    """(regex, replacement) for each alias whose own name could complete an evidence literal."""
    out = []
    for m in _MODULE_ALIAS.finditer(text):
        module, alias = m.group(1), m.group(2)
        if (alias != module and alias != module.rsplit(".", 1)[-1] and _at_line_start(text, m.start())
                and _can_complete_a_literal(module.rsplit(".", 1)[-1] + ".")):
            out.append((rf"(?<![\w.]){re.escape(alias)}\.", module + "."))
    for m in _NAME_ALIAS.finditer(text):  # `from torch.optim import Optimizer as Base`
        if not _at_line_start(text, m.start()):
            continue
        for part in m.group(1).split(","):
            bits = part.split()
            if len(bits) == 3 and bits[1] == "as" and bits[0] != bits[2] and _can_complete_a_literal(bits[0]):
                out.append((rf"(?<![\w.]){re.escape(bits[2])}\b", bits[0]))
    return out


def _unaliased(text: str, rewrites: list[tuple[str, str]] | None = None) -> str:
    for pattern, replacement in _rewrites(text) if rewrites is None else rewrites:
        text = re.sub(pattern, replacement, text)
    return text


def has_diff_evidence(text: str) -> bool:
    if not any(q in text for q in _QUICK):
        return False
    for lit in _EVIDENCE_LITERALS:
        if lit in text:
            return True
    if " as " in text:
        rewrites = _rewrites(text)
        if rewrites:
            aliased = _unaliased(text, rewrites)
            if any(lit in aliased for lit in _EVIDENCE_LITERALS):
                return True
    for name in EVIDENCE.bare_calls:
        if _bare_call(text, name):
            return True
    # e.g. Keras: model.compile(..., loss=my_loss_function): the loss function is differentiated
    return any(needle in text and loose.search(text) is not None and regex.search(text) is not None
               for needle, loose, regex in _PATTERNS)


def _without_word_boundaries(pattern: str) -> str:
    r"""`pattern` with its `\b` assertions taken out (not those inside a character class, where
    `\b` is a backspace): it matches wherever the pattern does, and more."""
    out = []
    i = 0
    in_class = False
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            if pattern[i + 1] == "b" and not in_class:
                i += 2
                continue
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        out.append(ch)
        i += 1
    return "".join(out)


# A pattern that starts with `\b` defeats the regex engine's literal-prefix scan: `\bnn\.[A-Z]...`
# took 1 s over the 2.4 M-line corpus, without the `\b` 0.06 s. So each pattern is first tried
# without its word boundaries (a superset: no match there, no match at all), and only on a hit
# exactly, which is rare.
_PATTERNS = [(needle, re.compile(_without_word_boundaries(rx.pattern), rx.flags), rx) for needle, rx in EVIDENCE.patterns]


_NONCODE = re.compile(
    r"'''(?:[^'\\]|\\.|'(?!''))*'''"
    r'|"""(?:[^"\\]|\\.|"(?!""))*"""'
    r"""|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|\#[^\n]*""",
    re.S,  # an escaped newline is part of the string too: `"""\` starts many docstrings
)
_NOT_NEWLINE = re.compile(r"[^\n]")


def _fstring_mask(g: str) -> str:
    """An f-string with its literal text blanked and its `{...}` replacement fields kept (the
    strings inside them blanked: `f"{s.replace('[', '(')}"` has no bracket of code)."""
    out = []
    depth = 0
    i = 0
    while i < len(g):
        c = g[i]
        if depth == 0 and c in "{}" and g[i : i + 2] in ("{{", "}}"):
            out.append("  ")
            i += 2
            continue
        if depth and c in "'\"":  # a string inside a replacement field: blanked too
            j = g.find(c, i + 1)
            if j != -1 and "\n" not in g[i:j]:
                out.append(c + " " * (j - i - 1) + c)
                i = j + 1
                continue
        if c == "{":
            depth += 1
            out.append(" " if depth == 1 else c)
        elif c == "}" and depth:
            depth -= 1
            out.append(" " if depth == 0 else c)
        else:
            out.append(c if depth or c == "\n" else " ")
        i += 1
    return "".join(out)


def code_mask(text: str) -> str:
    """`text` with the contents of strings and comments replaced by spaces (same length, same
    newlines): differentiation words in docstrings and examples are not evidence."""
    return _masked(text)[0]


def _masked(text: str) -> tuple[str, list[tuple[int, int]]]:
    """`code_mask(text)`, and the spans of the strings in it that run over more than one line
    (a line that starts inside one of them does not start a statement)."""
    out = []
    spans = []
    last = 0
    for m in _NONCODE.finditer(text):
        out.append(text[last : m.start()])
        g = m.group()
        prefix = text[max(0, m.start() - 2) : m.start()].lower()
        if "f" in prefix and "{" in g and (prefix[-1:] == "f" or prefix in ("fr", "rf")):
            out.append(_fstring_mask(g))  # `f"{jax.grad(f)(x)}"`: the replacement fields are code
        elif "\n" in g:
            out.append(_NOT_NEWLINE.sub(" ", g))
        else:
            out.append(" " * len(g))
        if "\n" in g:
            spans.append((m.start(), m.end()))
        last = m.end()
    out.append(text[last:])
    return "".join(out), spans


# ------------------------------------------------------------------ chunks
@dataclass
class Chunk:
    start: int  # offset of the first character
    end: int  # offset after the last character
    line: int  # 1-based line of `start`
    text: str
    code: str | None = None  # `text` with string contents and comments blanked out
    _refs: set | None = field(default=None, repr=False)
    _defs: set | None = field(default=None, repr=False)

    @property
    def refs(self) -> set:
        if self._refs is None:
            self._refs = set(_IDENT.findall(self.code if self.code is not None else self.text))
        return self._refs

    @property
    def defs(self) -> set:
        if self._defs is None:
            self._defs = _defined_names(self.code if self.code is not None else self.text)
        return self._defs


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
_HEAD = re.compile(r"[ \t]*(?:async[ \t]+)?(?:def|class)[ \t]+(\w+)")
# names bound anywhere in a top-level compound statement (a loop, a with, an if): these are
# module-level names too; over-approximating only includes more chunks
_BINDS = re.compile(
    r"^[ \t]*([A-Za-z_][\w, \t]*?)[ \t]*(?::[^=\n]*)?=(?!=)"
    r"|^[ \t]*for[ \t]+([\w, \t()]+?)[ \t]+in\b"
    r"|\bas[ \t]+(\w+)",
    re.M,
)


def _defined_names(text: str) -> set:
    body = _strip_decorators(text.lstrip(" \t"))
    while body.startswith("#"):
        nl = body.find("\n")
        if nl == -1:
            return set()
        body = body[nl + 1 :].lstrip(" \t")
    m = _HEAD.match(body)
    if m:
        return {m.group(1)}
    names: set[str] = set()
    for m in _BINDS.finditer(text):
        for g in m.groups():
            if g:
                names.update(n.strip(" \t()") for n in g.split(",") if n.strip(" \t()").isidentifier())
    return names


class _Masked:
    """A text with its mask and multi-line string spans (offsets of the text they came from;
    `base` is where `text` starts in it)."""

    __slots__ = ("code", "spans", "base")

    def __init__(self, code: str, spans: list[tuple[int, int]], base: int = 0) -> None:
        self.code = code
        self.spans = spans
        self.base = base

    def in_string(self, pos: int) -> bool:
        """Whether offset `pos` of the text lies inside a multi-line string (after its start)."""
        spans = self.spans
        k = bisect_right(spans, (self.base + pos, -1)) - 1
        return k >= 0 and spans[k][0] < self.base + pos < spans[k][1]


def _statement_starts(text: str, masked: _Masked, begin: int, indent: str) -> list[int]:
    """Offsets (> begin) of lines that start a statement at exactly `indent`, outside strings
    and brackets; `else:`/`except:`/closing brackets and lines after a backslash continue a
    statement. Candidate lines are found by one regex and the bracket depth between them is
    counted on the mask (strings and comments blanked) in C, not token by token (the token loop
    was a tenth of the first pass); only a line whose first character is blank in the mask
    (a string) is looked up among the multi-line strings."""
    code = masked.code
    starts = []
    depth = 0
    prev = begin
    k = len(indent)
    count = code.count
    for m in _line_start(indent).finditer(text, begin):
        i = m.start() + 1
        depth += count("(", prev, i) + count("[", prev, i) + count("{", prev, i)
        depth -= count(")", prev, i) + count("]", prev, i) + count("}", prev, i)
        if depth < 0:
            depth = 0
        prev = i
        if depth or code[i - 2 : i] == "\\\n" or _CONTINUATION.match(code, i + k):
            continue
        if code[i + k] == " " and masked.in_string(i + k):
            continue
        starts.append(i)
    return starts


_LINE_STARTS: dict[str, re.Pattern] = {}


def _line_start(indent: str) -> re.Pattern:
    """A newline followed by exactly `indent` and a character that begins code."""
    rx = _LINE_STARTS.get(indent)
    if rx is None:
        rx = _LINE_STARTS[indent] = re.compile("\\n" + re.escape(indent) + "(?=[^ \\t\\n\\r#])")
    return rx


def split_chunks(text: str, masked: _Masked | None = None) -> list[Chunk]:
    """Top-level statements, as text spans. A wrong guess is harmless: a chunk that does not
    parse on its own sends the engine back to parsing the whole file. `masked`: the text's
    mask and string spans when the caller has them."""
    starts = [0] + _statement_starts(text, masked or _Masked(*_masked(text)), 0, "")
    return _pieces(text, starts, len(text), 1)


def _only_decorators(chunk_text: str) -> bool:
    """A piece made of decorator lines only: it belongs to the def/class that follows."""
    first = chunk_text.lstrip("\n")
    base = len(first) - len(first.lstrip(" \t"))
    seen = False
    for line in chunk_text.split("\n"):
        st = line.strip()
        if not st or st.startswith("#"):
            continue
        ind = len(line) - len(line.lstrip(" \t"))
        if ind <= base and not st.startswith(("@", ")", "]", "}")):
            return False
        if st.startswith("@"):
            seen = True
    return seen


def _pieces(text: str, starts: list[int], stop: int, first_line: int) -> list[Chunk]:
    chunks: list[Chunk] = []
    line = first_line
    prev = starts[0] if starts else 0
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else stop
        if chunks and _only_decorators(chunks[-1].text):
            last = chunks[-1]
            last.end = e
            last.text = text[last.start : e]
            continue
        line += text.count("\n", prev, s)
        prev = s
        chunks.append(Chunk(s, e, line, text[s:e]))
    return chunks


_CLASS_HEAD = re.compile(r"(?:@[^\n]*\n(?:[ \t]*\n|#[^\n]*\n)*)*class[ \t]+(\w+)")


def split_class(chunk: Chunk, masked: _Masked | None = None) -> tuple[Chunk, list[Chunk]] | None:
    """A class chunk as (header, members): the header is everything up to the first statement
    of the body; members are the body's statements (methods with their decorators)."""
    text = chunk.text
    m = _CLASS_HEAD.match(text)
    if m is None:
        return None
    # the header ends at the first newline outside brackets after `class`
    depth = 0
    i = m.end()
    n = len(text)
    header_end = -1
    while i < n:
        mm = _SCAN.search(text, i)
        if mm is None:
            return None
        kind = mm.lastgroup
        if kind == "tq":
            return None  # a docstring on the class line: keep the class whole
        i = mm.end()
        if kind == "o":
            depth += 1
        elif kind == "cl":
            depth -= 1
        elif kind == "nl" and depth == 0:
            header_end = i
            break
    if header_end == -1:
        return None
    body = text[header_end:]
    im = re.match(r"(?:[ \t]*(?:#[^\n]*)?\n)*([ \t]+)\S", body)
    if im is None:
        return None
    indent = im.group(1)
    first = header_end + im.start(1)
    if masked is None:
        masked = _Masked(*_masked(text))
    else:  # the file's: this chunk's text starts at chunk.start in it
        code = chunk.code if chunk.code is not None else masked.code[chunk.start : chunk.end]
        masked = _Masked(code, masked.spans, chunk.start)
    starts = [first] + _statement_starts(text, masked, first, indent)
    header = Chunk(chunk.start, chunk.start + first, chunk.line, text[:first])
    members = _pieces(text, starts, n, chunk.line + text.count("\n", 0, first))
    for mem in members:
        mem.start += chunk.start
        mem.end += chunk.start
    return header, members


# ------------------------------------------------------------------ plan
@dataclass
class Unit:
    """A piece of the file that is parsed on its own: a top-level statement, or the skeleton
    of a class (its header and the members that matter). `lines[k]` is the file line of the
    unit's line k+1."""

    text: str
    lines: list[int]
    # a class skeleton's methods left out: they exist, so `self.name(...)` is a call the
    # analysis does not follow (not, by the class's use of it, a submodule)
    elided: frozenset[str] = frozenset()

    def file_line(self, local: int) -> int:
        if 1 <= local <= len(self.lines):
            return self.lines[local - 1]
        return self.lines[-1] if self.lines else local


@dataclass
class Plan:
    skip: bool  # no differentiation evidence: nothing to analyse
    units: list[Unit]
    narrowed: bool = False
    total_lines: int = 0
    mask: str | None = None  # the file with strings and comments blanked out (computed here anyway)


def _unit(chunk: Chunk) -> Unit:
    n = chunk.text.count("\n") + (0 if chunk.text.endswith("\n") else 1)
    return Unit(chunk.text, list(range(chunk.line, chunk.line + max(n, 1))))


def _skeleton(header: Chunk, members: list[Chunk], elided: frozenset[str] = frozenset()) -> Unit:
    text = header.text
    lines = list(range(header.line, header.line + header.text.count("\n")))
    for m in members:
        text += m.text if m.text.endswith("\n") else m.text + "\n"
        k = m.text.count("\n") + (0 if m.text.endswith("\n") else 1)
        lines.extend(range(m.line, m.line + k))
    if not members:
        text += "    ...\n"
        lines.append(lines[-1] if lines else header.line)
    return Unit(text, lines, elided)


# (and what a library base runs when an instance is called: a torch Transform's `_call`)
# and a test case's fixtures, which are its __init__ (`setUp`: the tensors a gradcheck is given)
_ALWAYS_MEMBERS = ("__init__", "forward", "call", "__call__", "setup", "setUp", "setup_method", *sorted(INSTANCE_CALL_METHODS))
_FORWARD_MEMBERS = ("forward", "call", "__call__")  # what makes a class a model (torch, Keras, flax/haiku)


class _Node:
    """A piece in the inclusion graph: a top-level statement or a class member."""

    __slots__ = ("chunk", "cls", "name", "is_def", "included")

    def __init__(self, chunk: Chunk, cls: int | None, name: str | None, is_def: bool) -> None:
        self.chunk = chunk
        self.cls = cls
        self.name = name
        self.is_def = is_def
        self.included = False


CLOSURE_DEPTH = 3  # as deep as the interpreter inlines calls


def plan(text: str, rules, *, narrow: bool = True, evidence: bool = False, hot_words: frozenset[str] = frozenset()) -> Plan:
    """Which parts of the file to parse and analyse.

    Kept: every module-level statement (the script's main flow, imports, constants); every
    function or method that shows differentiation evidence or a rule's chunk trigger ("hot");
    what hot code references, transitively, up to the interpreter's inlining depth (callees,
    classes with their __init__/forward, the globals they read, and what *those* statements
    reference); and the callers of hot module-level functions (they pass the model in). A class
    is parsed as a skeleton of its header and kept members; lines map back to the file.
    `evidence=True`: the caller has evidence from elsewhere (a project module the file
    imports differentiates); the pieces that name `hot_words` (what the file binds from that
    module: `Trainer`) are hot, and without any the file is planned whole."""
    if not evidence and not has_diff_evidence(text):
        return Plan(skip=True, units=[])
    mask, spans = _masked(text)
    masked = _Masked(mask, spans)
    if not evidence and not has_diff_evidence(mask):
        return Plan(skip=True, units=[])  # only in docstrings, comments or strings
    chunks = split_chunks(text, masked)
    for c in chunks:
        c.code = mask[c.start : c.end]
    total = text.count("\n") + 1
    if not narrow:
        return Plan(skip=False, units=[_unit(c) for c in chunks], total_lines=total, mask=mask)
    local = [t for r in rules for t in getattr(r, "chunk_triggers", ())]
    local_re = re.compile("|".join(local)) if local else None

    # 1. pieces: top-level statements, and classes split into header + members
    nodes: list[_Node] = []
    classes: list[tuple[Chunk, list[int]]] = []  # (header, member node indices)
    order: list[tuple[str, int]] = []  # ("stmt", node) | ("class", class index)
    for c in chunks:
        split = split_class(c, masked) if c.text.lstrip("@").startswith("class") or c.text.startswith("@") else None
        if split is not None and len(split[1]) > 1:
            header, members = split
            ci = len(classes)
            idxs = []
            for mem in members:
                mem.code = mask[mem.start : mem.end]
                d = mem.defs
                is_def = _HEAD.match(_strip_decorators(mem.text.lstrip(" \t"))) is not None
                nodes.append(_Node(mem, ci, next(iter(d)) if is_def and d else None, is_def))
                idxs.append(len(nodes) - 1)
            classes.append((header, idxs))
            order.append(("class", ci))
        else:
            d = c.defs
            is_def = _HEAD.match(_strip_decorators(c.text)) is not None
            nodes.append(_Node(c, None, next(iter(d)) if is_def and d else None, is_def))
            order.append(("stmt", len(nodes) - 1))
    class_names: dict[str, list[int]] = {}
    for ci, (header, _) in enumerate(classes):
        hm = _CLASS_HEAD.match(header.text)
        if hm:
            class_names.setdefault(hm.group(1), []).append(ci)
    defs: dict[str, list[int]] = {}
    for i, nd in enumerate(nodes):
        if nd.cls is None:
            for name in nd.chunk.defs:
                defs.setdefault(name, []).append(i)
        elif nd.name:
            defs.setdefault(nd.name, []).append(i)

    # 2. breadth-first from the hot pieces, bounded by the inlining depth
    depth_of: dict[int, int] = {}
    queue: deque[tuple[int, int]] = deque()

    def reach(i: int, depth: int) -> None:
        if depth > CLOSURE_DEPTH:
            return
        old = depth_of.get(i)
        if old is None or depth < old:
            depth_of[i] = depth
            queue.append((i, depth))

    hot = []
    for i, nd in enumerate(nodes):
        t = nd.chunk.code if nd.chunk.code is not None else nd.chunk.text
        if has_diff_evidence(t) or (local_re is not None and local_re.search(t)) or (hot_words and not hot_words.isdisjoint(nd.chunk.refs)):
            hot.append(i)
            reach(i, 0)
    if not hot:
        return Plan(skip=False, units=[_unit(c) for c in chunks], total_lines=total, mask=mask)
    # the module body runs in order (the interpreter's main flow, always kept): what it calls
    # runs with its values — `agent.act(state)` appending to the `self.log_probs` that a hot
    # `agent.update()` later packs into a loss is part of that loss's story
    for i, nd in enumerate(nodes):
        if nd.cls is None and not nd.is_def and i not in depth_of:
            reach(i, 0)
    # a model class of a file that differentiates is analysed even when no hot code names it:
    # real training code receives the model as a parameter (`def train(model, loader, opt)`),
    # and a pitfall inside its forward (an in-place change of a saved activation, a `.item()`
    # on the way out) is there whoever calls it
    for _header, idxs in classes:
        if any(nodes[j].name in _FORWARD_MEMBERS for j in idxs):
            for j in idxs:
                if not nodes[j].is_def or nodes[j].name in _ALWAYS_MEMBERS:
                    reach(j, 1)
    ref_index: dict[str, list[int]] | None = None
    while queue:
        i, depth = queue.popleft()
        if depth_of.get(i) != depth:
            continue
        nd = nodes[i]
        if nd.cls is not None:
            for j in classes[nd.cls][1]:
                other = nodes[j]
                if not other.is_def or other.name in _ALWAYS_MEMBERS:
                    reach(j, depth)
            # the base classes of the file (`class SpanModel(BaseModel)`): their __init__ runs
            # through super().__init__() and makes the class a module
            bases = classes[nd.cls][0].refs
            for name in bases & class_names.keys():
                for ci in class_names[name]:
                    if ci != nd.cls:
                        for j in classes[ci][1]:
                            if not nodes[j].is_def or nodes[j].name in _ALWAYS_MEMBERS:
                                reach(j, depth)
            for name in bases & defs.keys():  # a base class of one member is one piece
                for j in defs[name]:
                    if nodes[j].cls is None:
                        reach(j, depth)
        refs = nd.chunk.refs
        for name in refs & defs.keys():
            for j in defs[name]:
                other = nodes[j]
                # module-level statements are the main flow (inlining depth 0): no extra hop
                reach(j, depth if (other.cls is None and not other.is_def) else depth + 1)
        for name in refs & class_names.keys():
            for ci in class_names[name]:
                for j in classes[ci][1]:
                    other = nodes[j]
                    if not other.is_def or other.name in _ALWAYS_MEMBERS:
                        reach(j, depth + 1)
        if depth == 0 and nd.cls is None and nd.is_def and nd.name:
            # callers of a hot module-level function pass it their values (a model, a loss)
            if ref_index is None:
                ref_index = {}
                for k, other in enumerate(nodes):
                    if other.cls is None:
                        for name in other.chunk.refs:
                            ref_index.setdefault(name, []).append(k)
            for j in ref_index.get(nd.name, ()):
                reach(j, 1)
        if depth == 0 and nd.cls is not None and nd.is_def and nd.name:
            # so do the methods of its class that call a hot method (`self.backward_D()` in
            # the loop of `optimize_parameters`): a graph built before that loop is walked
            # again by each iteration's backward
            for j in classes[nd.cls][1]:
                if j != i and nd.name in nodes[j].chunk.refs:
                    reach(j, 1)
    for i, nd in enumerate(nodes):
        nd.included = i in depth_of or (nd.cls is None and not nd.is_def)

    # 3. units in file order
    units: list[Unit] = []
    parsed = 0
    for kind, idx in order:
        if kind == "stmt":
            nd = nodes[idx]
            if nd.included:
                u = _unit(nd.chunk)
                units.append(u)
                parsed += len(u.lines)
        else:
            header, idxs = classes[idx]
            if any(nodes[i].included for i in idxs):
                elided = frozenset(nodes[i].name for i in idxs if nodes[i].is_def and not nodes[i].included and nodes[i].name)
                u = _skeleton(header, [nodes[i].chunk for i in idxs if nodes[i].included], elided)
                units.append(u)
                parsed += len(u.lines)
    return Plan(skip=False, units=units, narrowed=parsed < total, total_lines=total, mask=mask)


def _strip_decorators(text: str) -> str:
    while text.startswith("@"):
        nl = text.find("\n")
        if nl == -1:
            return ""
        text = text[nl + 1 :].lstrip(" \t")
    return text
