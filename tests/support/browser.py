"""Debian's chromium driven by Selenium through Debian's chromedriver, both found on PATH.

The driver's path is always given, so Selenium Manager never runs and nothing is
downloaded; chromium's own background traffic (updates, sync, metrics) is switched off.

    with chromium() as browser:        # headless; chromium(headless=False) draws on $DISPLAY
        browser.get(url)
        wait_for(browser, ".answer", containing="Done.")   # shown, then returned
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

WAIT_S = 60
QUIET = (
    "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--disable-default-apps",
    "--disable-extensions", "--metrics-recording-only", "--disable-dev-shm-usage",
    "--no-sandbox",  # root in a container has no user namespace for chromium's sandbox
    "--password-store=basic", "--use-mock-keychain", "--disable-gpu",
)


def missing() -> str:
    """What is lacking for a browser test, or "" when all is here."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed: ./scripts/setup --test installs it"
    for program, package in (("chromium", "chromium"), ("chromedriver", "chromium-driver")):
        if shutil.which(program) is None:
            return f"{program} is not installed: ./scripts/setup --test installs {package}"
    return ""


@contextmanager
def chromium(*, headless: bool = True, size: tuple[int, int] = (1280, 800)) -> Iterator[Any]:
    """A Selenium WebDriver on chromium, closed (with its profile folder) afterwards."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    chromium_path, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    assert chromium_path and driver_path, missing()
    with tempfile.TemporaryDirectory(prefix="chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium_path
        for flag in (*QUIET, f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}"):
            options.add_argument(flag)
        if headless:
            options.add_argument("--headless=new")
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        driver = webdriver.Chrome(options=options, service=Service(executable_path=driver_path))
        try:
            yield driver
        finally:
            driver.quit()


def wait_for(browser: Any, css: str, *, containing: str = "", click: bool = False) -> Any:
    """The first element matching `css` (holding `containing`) once it is shown; `click`
    clicks it in the same step (lists are redrawn, so a found item may be gone a moment
    later)."""
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    def found(driver: Any) -> Any:
        for element in driver.find_elements(By.CSS_SELECTOR, css):
            if element.is_displayed() and containing in element.text:
                if click:
                    element.click()
                return element
        return False

    return WebDriverWait(browser, WAIT_S, poll_frequency=0.05,
                         ignored_exceptions=(StaleElementReferenceException,)).until(
        found, f"no {css} holding {containing!r}")
