"""The version, in a module of its own so that any module can read it without importing the
package's API (gradlint/__init__ loads the engine on demand)."""

__version__ = "0.1.0"
