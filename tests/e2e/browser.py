"""The pages of issue 19 in a real headless Chromium (Debian's `chromium` and `chromium-driver`,
driven by Selenium), against the API served as `chase serve` serves it (tests/e2e/test_stream.py
`Served`: api/asgi.py on uvicorn, so the live streams are real SSE)."""
from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
WAIT = 20  # seconds a page has to show what a test waits for (a loaded 2-core machine)


def chromium(width: int = 1366, height: int = 768) -> webdriver.Chrome:
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--no-first-run", "--disable-extensions", f"--window-size={width},{height}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    driver.set_script_timeout(WAIT)
    return driver


def until(driver: webdriver.Chrome, check: Callable[[], Any], timeout: float = WAIT) -> Any:
    """Wait for ``check`` to give something truthy (elements redrawn meanwhile are asked again)."""
    def attempt(_: Any) -> Any:
        try:
            return check()
        except StaleElementReferenceException:
            return False
    return WebDriverWait(driver, timeout).until(attempt)


def text_of(driver: webdriver.Chrome, css: str) -> str:
    return " ".join(e.text for e in driver.find_elements(By.CSS_SELECTOR, css))


def by_label(driver: webdriver.Chrome, label: str, within: Any = None) -> Any:
    """The control a <label> with this text names (how a person, or a screen reader, finds it)."""
    scope = within or driver
    for element in scope.find_elements(By.TAG_NAME, "label"):
        if element.text.strip() == label:
            return driver.find_element(By.ID, element.get_attribute("for"))
    raise AssertionError(f"no control labelled {label!r}")


def button(driver: webdriver.Chrome, name: str, within: Any = None) -> Any:
    scope = within or driver
    for element in scope.find_elements(By.TAG_NAME, "button"):
        if element.text.strip() == name:
            return element
    raise AssertionError(f"no button {name!r}")
