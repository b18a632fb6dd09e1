"""Rule metadata has one source: hooks are declared on Rule (a misspelt one fails when the
class is defined), a rule's name is its class name, its family is its module's FAMILY."""

from __future__ import annotations

import sys

import pytest

from gradlint.analysis.events import EVENT_HOOKS
from gradlint.rules import REGISTRY, family_modules, family_titles
from gradlint.rules.base import Rule, all_rules, kebab_name


def test_the_hook_stubs_are_the_events_hooks():
    assert Rule.HOOKS == set(EVENT_HOOKS.values())


def test_a_misspelt_hook_fails_loudly():
    with pytest.raises(TypeError, match="on_calls is not an event hook"):

        class Typo(Rule):  # no code: never registered
            def on_calls(self, ev) -> None:
                pass


def test_only_overridden_hooks_are_subscribed():
    class OnlyCalls(Rule):
        def on_call(self, ev) -> None:
            pass

    class Inherits(OnlyCalls):
        def on_diff(self, ev) -> None:
            pass

    assert OnlyCalls.subscribed_hooks() == {"on_call"}
    assert Inherits.subscribed_hooks() == {"on_call", "on_diff"}
    assert Rule.subscribed_hooks() == frozenset()


def test_a_name_that_is_not_the_class_name_fails():
    with pytest.raises(TypeError, match="kebab case"):

        class SomethingWrong(Rule):
            __module__ = "gradlint.rules.example"  # one of gradlint's own rules
            code = "GL999"
            name = "something-else"

    assert "GL999" not in REGISTRY


def test_a_plugin_rule_may_name_itself():
    class PluginStyleRule(Rule):  # no code: not registered
        name = "plugin-style"

    assert PluginStyleRule.name == "plugin-style"


def test_names_are_class_names():
    assert kebab_name("GradKeptWithoutClone") == "grad-kept-without-clone"
    assert kebab_name("Fp16AutocastWithoutGradScaler") == "fp16-autocast-without-grad-scaler"
    assert kebab_name("SyntaxErrorRule") == "syntax-error"
    names = [r.name for r in all_rules()]
    assert len(set(names)) == len(names)
    for r in all_rules():
        assert r.name == kebab_name(r.__name__)


def test_every_rule_belongs_to_its_modules_family():
    modules = family_modules()
    assert modules and all(m.FAMILY.title for m in modules)
    titles = family_titles()
    assert list(titles) == sorted(titles)
    for r in all_rules():
        family = sys.modules[r.__module__].FAMILY
        assert r.code.startswith(family.prefix), (r.code, r.__module__)
        assert titles[r.code[:3]] == family.title
