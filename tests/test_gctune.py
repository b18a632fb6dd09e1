"""Collector settings (gradlint/gctune.py): our worker processes run with the analysis
thresholds; an in-process check hands the caller's settings back."""

from __future__ import annotations

import gc
import multiprocessing

import pytest

from gradlint import gctune, watchdog


def _thresholds(_item):
    return gc.get_threshold()


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="POSIX")
def test_check_workers_run_with_the_analysis_thresholds():
    out = watchdog.run([1, 2], _thresholds, lambda item, why: None, jobs=2, limit=lambda item: 10.0,
                       context=multiprocessing.get_context("fork"))
    assert out == [gctune.THRESHOLDS, gctune.THRESHOLDS]


def test_an_in_process_check_restores_the_callers_settings():
    before = gc.get_threshold()
    with gctune.tuned():
        assert gc.get_threshold() == gctune.THRESHOLDS
    assert gc.get_threshold() == before
