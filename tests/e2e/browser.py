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

from tests.e2e.test_stream import Served

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


class Page:
    """What a person does on the page: finds controls by their labels and buttons by their names."""

    def __init__(self, driver: Any, served: Served) -> None:
        self.driver = driver
        self.base = f"http://127.0.0.1:{served.port}"

    def open(self, fragment: str, ready: str) -> None:
        self.driver.get(f"{self.base}/app/#/{fragment}")
        self.driver.refresh()  # a new fragment on the same page: load it afresh
        until(self.driver, lambda: self.driver.execute_script("return document.body.dataset.ready") == ready)

    def version(self) -> int:
        return int(until(self.driver, lambda: text_of(self.driver, "#track-section [data-test=version]")))

    def state(self, field: str) -> str:
        return until(self.driver, lambda: text_of(self.driver, f"#track-section [data-test={field}]"))

    def group(self, heading: str) -> Any:
        for group in self.driver.find_elements(By.CSS_SELECTOR, "#turn .group"):
            if group.find_element(By.TAG_NAME, "h3").text.startswith(heading):
                return group
        raise AssertionError(f"no actions for {heading!r}")

    def press(self, who: str, name: str) -> None:
        """Click a button of ``who``'s actions (the live page may redraw them meanwhile: ask again)."""
        until(self.driver, lambda: button(self.driver, name, self.group(who)).click() or True)

    def action_button(self, who: str, action: str) -> Any:
        return until(self.driver, lambda: self.group(who).find_element(By.CSS_SELECTOR, f"button[data-action={action}]"))

    def act(self, who: str, action: str, odds: bool = False, **inputs: str) -> str:
        """Click ``who``'s ``action`` button, fill in its form, and do it; the odds shown if asked."""
        before = self.version()
        self.press(who, action)
        form = until(self.driver, lambda: self.driver.find_element(By.CSS_SELECTOR, "#turn form.action-form"))
        for label, value in inputs.items():
            control = by_label(self.driver, label.replace("_", " "), form)
            control.clear()
            control.send_keys(value)
        shown = ""
        if odds:
            button(self.driver, "Odds", form).click()
            shown = until(self.driver, lambda: "success" in text_of(self.driver, "#turn .odds h4") and text_of(self.driver, "#turn .odds-box"))
        button(self.driver, f"Do: {action}", form).click()
        until(self.driver, lambda: self.version() > before or self.refusal())
        assert not self.refusal(), self.refusal()
        return shown

    def refusal(self) -> str:
        """The problem the API answered, as the page shows it (role=alert)."""
        alert = self.driver.find_element(By.ID, "alert")
        return alert.text if alert.is_displayed() else ""

    def fill(self, form_name: str, **inputs: str) -> Any:
        form = self.driver.find_element(By.CSS_SELECTOR, f"form[aria-label='{form_name}']")
        for label, value in inputs.items():
            control = by_label(self.driver, label, form)
            if control.tag_name == "select":
                control.find_element(By.CSS_SELECTOR, f"option[value='{value}']").click()
            else:
                control.clear()
                control.send_keys(value)
        return form
