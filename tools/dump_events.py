"""Debug aid: print the analysis events of a file (DiffEvents with their targets by default)."""
import sys
import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider
sys.path.insert(0, ".")
from gradlint.analysis.interpreter import Interpreter
from gradlint.analysis import events as E

path = sys.argv[1]
kinds = sys.argv[2].split(",") if len(sys.argv) > 2 else ["DiffEvent"]
text = open(path).read()
mod = cst.parse_module(text)
pos = MetadataWrapper(mod, unsafe_skip_copy=True).resolve(PositionProvider)
def line(n):
    r = pos.get(n)
    return r.start.line if r else "?"
def show(ev):
    name = type(ev).__name__
    if name not in kinds and "all" not in kinds:
        return
    extra = ""
    if isinstance(ev, E.DiffEvent):
        t = ev.target
        extra = f"kind={ev.kind} live={list(t.live)} cuts={[(o, c.kind, line(c.node)) for o, c in t.cuts]} graphs={len(t.graphs)} hit={len(ev.freed_hit)} retain={ev.retain} notes={[(n.kind, line(n.node)) for n in t.notes]}"
    elif isinstance(ev, E.CallEvent):
        extra = f"qual={ev.qual} method={ev.method} result={ev.result!r}"
    elif isinstance(ev, E.OptEvent):
        extra = f"{ev.kind} {ev.target!r}"
    elif isinstance(ev, E.AssignEvent):
        extra = f"{ev.name} op={ev.op} value={ev.value!r}"
    else:
        extra = repr({k: getattr(ev, k, None) for k in getattr(type(ev), '__slots__', ())})[:300]
    print(f"{line(ev.node)}: {name} run={ev.ctx.run} loops={[(line(n), i) for n, i in ev.ctx.loops]} grad={ev.ctx.grad} {extra}")
it = Interpreter(mod.body, show)
it.run()
for stmt, exc in it.errors:
    import traceback
    print("ERROR at", line(stmt), repr(exc))
    traceback.print_exception(exc)
