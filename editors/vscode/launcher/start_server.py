"""How the VS Code extension starts gradlint: `PYTHON /abs/.../launcher/start_server.py lsp ...`
runs the language server, `... start_server.py --probe` describes the interpreter (JSON).

Never `python -m gradlint lsp` nor `python -c`: both put the working directory first on
sys.path, and an editor starts the server in the workspace, so a workspace `gradlint/`,
`json.py` or `dataclasses.py` would run as soon as the folder is opened — trusted or not.
PYTHONSAFEPATH / -P would stop that, but only from Python 3.11, and gradlint supports 3.10. A
script run by path gets its own directory instead (this one holds nothing else), and the
extension also starts it with this directory as the working directory.

What is left is cleaned here before anything is imported: entries that are not absolute paths
(an empty or relative PYTHONPATH entry means the working directory), the working directory, and
this directory. `sys` is built into the interpreter, so importing it looks nothing up on the
path; `os` was loaded by `site` while Python started. Written in Python 3.6 syntax, so that an
interpreter that is too old still answers the probe and hears why, instead of a SyntaxError.
"""
import sys


def _absolute(entry):
    # Without os.path: this runs before the path is clean. POSIX "/x"; Windows "C:\x", "\\host\x".
    return entry.startswith(("/", "\\\\")) or (len(entry) > 2 and entry[1] == ":" and entry[2] in "\\/")


sys.path[:] = [p for p in sys.path if _absolute(p)]

import os  # noqa: E402 - see the docstring

_HERE = os.path.realpath(os.path.dirname(os.path.abspath(__file__)))
_CWD = os.path.realpath(os.getcwd())
sys.path[:] = [p for p in sys.path if os.path.realpath(p) not in (_HERE, _CWD)]


def probe():
    import importlib.util
    import json
    import sysconfig

    def found(name):
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):
            return False

    print(json.dumps({
        "implementation": sys.implementation.name,
        "version": list(sys.version_info[:2]),
        "platform": sysconfig.get_platform(),
        "executable": sys.executable,
        "gradlint": found("gradlint") and found("gradlint_server"),
    }))
    return 0


def main(argv):
    if argv[:1] == ["--probe"]:
        return probe()
    from gradlint.cli import main as gradlint_main

    sys.argv[0] = "gradlint"  # argparse's program name in usage messages
    return gradlint_main(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
