"""Without a browser the report's browser tests skip with how to get one, except in CI, where they fail."""
import pytest

import chromium


def test_no_browser_skips_outside_ci_and_fails_in_ci(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("PRIO_CHROMIUM", raising=False)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y chromium"):
        chromium.browser()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no Chromium for the browser tests in CI"):
        chromium.browser()


def test_prio_chromium_names_the_browser(monkeypatch):
    monkeypatch.setenv("PRIO_CHROMIUM", "/opt/my/chrome")
    assert chromium.browser() == "/opt/my/chrome"
