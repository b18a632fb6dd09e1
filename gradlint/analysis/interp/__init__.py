"""The data-flow interpreter, one module per job (see driver.py for what it does):

    state.py        the state of a path, functions, classes, tapes, the run cache
    driver.py       the Interpreter: module body, then every function on its own
    statements.py   bindings, stores, definitions, branches, loops, with, imports
    expressions.py  names, attributes, subscripts, literals, comprehensions, operators
    calls.py        calls: dispatch to overlays or inlining, op_result, differentiate
    methods.py      method calls by receiver: optimizer, module, container, tensor

Import the Interpreter from `gradlint.analysis.interpreter` (the facade).
"""
