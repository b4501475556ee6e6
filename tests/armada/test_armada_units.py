"""Kubernetes quantities and Go durations as the Armada model reads them."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from prio.armada.units import UnitError, format_amount, format_duration, format_number, parse_duration, parse_quantity, parse_timestamp


@pytest.mark.parametrize("text, value", [
    ("10", 10.0), ("500m", 0.5), ("1.5", 1.5), ("2e3", 2000.0), ("5e-3", 0.005), ("20Gi", 20 * 2**30),
    ("1Ki", 1024.0), ("100M", 1e8), ("1.5Gi", 1.5 * 2**30), (".5", 0.5), ("+3", 3.0), ("1E", 1e18),
    ("250u", 0.00025), ("3k", 3000.0), (2, 2.0), (0.25, 0.25),
])
def test_quantities(text, value):
    assert parse_quantity(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["20GB", "1 Gi", "abc", "1.2.3", "e3", "-", "", "1e999", True, None, [1], ".inf"])
def test_bad_quantities(text):
    with pytest.raises(UnitError):
        parse_quantity(text)


def test_bad_quantity_hint():
    with pytest.raises(UnitError, match="without a B"):
        parse_quantity("20Gb")


@pytest.mark.parametrize("text, seconds", [
    ("20m", 1200.0), ("1h30m", 5400.0), ("90s", 90.0), ("1.5h", 5400.0), ("300ms", 0.3), ("-5m", -300.0),
    ("0", 0.0), ("1h0m0s", 3600.0), ("2us", 2e-6), ("1µs", 1e-6), (0, 0.0),
])
def test_durations(text, seconds):
    assert parse_duration(text) == pytest.approx(seconds)


@pytest.mark.parametrize("text", ["20", "1d", "", "m", "1h 30m", 20, None, True])
def test_bad_durations(text):
    with pytest.raises(UnitError):
        parse_duration(text)


def test_timestamps():
    assert parse_timestamp("2022-05-01T10:02:00Z") - parse_timestamp("2022-05-01T10:00:00Z") == 120
    assert parse_timestamp("2022-05-01T12:00:00+02:00") == parse_timestamp("2022-05-01T10:00:00Z")
    assert parse_timestamp("10m") is None


def test_formatting():
    assert [format_duration(s) for s in (0, 90, 5400, 0.25, 60)] == ["0s", "1m30s", "1h30m", "250ms", "1m"]
    assert format_amount("memory", 3 * 2**30) == "3Gi"
    assert format_amount("cpu", 2 / 3) == "0.6667"
    assert format_number(None) == "n/a" and format_number(4.4e-16) == "0" and format_number(8.0) == "8"


@pytest.mark.slow
@given(st.integers(0, 10**6), st.sampled_from(["", "k", "M", "Ki", "Mi", "Gi", "m"]))
def test_integer_quantities_scale(n, suffix):
    mult = {"": 1, "k": 1e3, "M": 1e6, "Ki": 1024, "Mi": 2**20, "Gi": 2**30, "m": 1e-3}[suffix]
    assert parse_quantity(f"{n}{suffix}") == pytest.approx(n * mult)
