"""The table in a browser (issue 19), in a real headless Chromium: the Keeper plays Harvey and
the angry farmer (coc7e-chases.txt parts 1 and 2) to the end through the console with table
dice; a player follows the chase live from a link; the rewind slider shows a past version as
the API does; the player's browser verifies the log itself and names a tampered event.

One served app and one browser for the module (the API as `chase serve` runs it: api/asgi.py
on uvicorn, live streams included), so the module runs in well under a minute.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tests.e2e.browser import Page, button, by_label, chromium, text_of, until
from tests.e2e.served_process import Client
from tests.e2e.test_stream import Served

HARVEY = {"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6}
FARMER = {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    served = Served({"SQLITE_DBNAME": str(tmp_path_factory.mktemp("browser") / "chase.sqlite3"), "CHASE_LEDGER_STREAM_POLL": "0.2"})
    yield served
    served.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    driver = chromium()
    yield driver
    driver.quit()


def keeper_chase(served: Served) -> tuple[str, str, dict[str, str]]:
    """Harvey and the farmer set up over HTTP, speed rolls made (failures: MOV 5 and 6), cut to."""
    chase, token = served.ledger.start_chase("Harvey and the angry farmer", dice="server")
    keeper = Client(served.port, token)
    base = f"/chases/{chase['chase_id']}"
    ids = {p["name"]: keeper.request("POST", f"{base}/participants", p)[1]["participant_id"] for p in (HARVEY, FARMER)}
    keeper.request("POST", f"{base}/participants/{ids['Harvey']}/speed-roll", {"table_dice": [70, 2]})
    keeper.request("POST", f"{base}/participants/{ids['Farmer']}/speed-roll", {"table_dice": [80, 0]})
    keeper.request("POST", f"{base}/cut-to-the-chase", {"opening_range": 2})
    return chase["chase_id"], token, ids


def test_the_keeper_plays_harvey_and_the_farmer_to_the_end_in_the_console(served, browser):
    page = Page(browser, served)
    # The Keeper opens the page and creates a Call of Cthulhu chase.
    page.open("", "home")
    form = page.fill("Create a chase", **{"Chase name": "Harvey and the angry farmer"})
    button(browser, "Create the chase", form).click()
    until(browser, lambda: browser.execute_script("return document.body.dataset.ready") == "keeper")
    assert page.state("phase") == "setup"

    # Harvey and the farmer join, typed into the labelled set-up form.
    for who in (HARVEY, FARMER):
        before = page.version()
        form = page.fill("Add a participant", Name=who["name"], Role=who["role"], DEX=str(who["dex"]), CON=str(who["con"]), MOV=str(who["mov"]))
        button(browser, "Add participant", form).click()
        until(browser, lambda: page.version() > before)

    # Before the cut, the API offers no move: the button is there, disabled, saying why.
    assert until(browser, lambda: not page.action_button("Harvey", "move").is_enabled())
    why = until(browser, lambda: browser.find_element(By.ID, page.action_button("Harvey", "move").get_attribute("aria-describedby")).get_attribute("textContent"))
    assert "Cut to the chase" in why

    # "Speed Roll": the odds before Harvey's CON roll (60 of 100), then the table dice 72: failure.
    odds = page.act("Harvey", "speed roll", odds=True, **{"Table dice faces (empty: the server's dice)": "70, 2"})
    assert "success 60.0%" in odds and "3/10" in odds  # regular success: 30 of 100 exactly
    page.act("Farmer", "speed roll", **{"Table dice faces (empty: the server's dice)": "80, 0"})
    # The roll log is redrawn from the stream: wait for the farmer's roll to arrive in it.
    rolls = until(browser, lambda: (lambda t: t if "80" in t else None)(text_of(browser, "#rolls table")))
    assert "72" in rolls and "80" in rolls

    # The Keeper cuts to the chase with the farmer two locations behind.
    page.act("The chase", "cut to the chase", **{"Opening range (locations)": "2"})
    assert page.state("phase") == "running" and page.state("turn") == "Harvey"

    # The Keeper makes Harvey's player a link (the issue token action): it names Harvey.
    page.press("The chase", "issue token")
    form = until(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#turn form.action-form"))
    choose = by_label(browser, "Participants the player acts for", form)
    choose.find_element(By.XPATH, "option[text()='Harvey']").click()
    button(browser, "Do: issue token", form).click()
    link = until(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#turn a.player-link"))
    assert "/app/#/play/" in link.get_attribute("href") and link.text == "Player link for Harvey"

    # Two rounds: Harvey moves 1 location, the farmer 2, and the farmer catches him in round 2.
    for _ in range(2):
        page.act("Harvey", "move", **{"Locations to move": "1"})
        page.act("Farmer", "move", **{"Locations to move": "2"})
    until(browser, lambda: "Farmer caught Harvey (round 2)" in text_of(browser, "#track-section .caught"))

    # The Keeper ends the chase; nothing more is offered to Harvey.
    page.act("The chase", "end chase", Outcome="caught")
    assert page.state("phase") == "ended (caught)"
    assert until(browser, lambda: not page.action_button("Harvey", "move").is_enabled())
    # The roll log shows each roll with its odds, and that table dice were entered by the Keeper.
    log = text_of(browser, "#rolls table")
    assert "speed roll" in log and "60.0%" in log and "table dice (entered by keeper)" in log


def test_a_player_follows_the_chase_live_from_a_link_and_has_no_keeper_control(served, browser):
    chase_id, token, ids = keeper_chase(served)
    keeper = Client(served.port, token)
    player = keeper.request("POST", f"/chases/{chase_id}/tokens", {"participant_ids": [ids["Harvey"]]})[1]
    page = Page(browser, served)
    # The player opens the link the Keeper gave them.
    page.open(f"play/{chase_id}/{player['token']}/{ids['Harvey']}", "play")
    until(browser, lambda: text_of(browser, "[data-test=live-state]") == "live")
    harvey_at = lambda: browser.find_element(By.CSS_SELECTOR, f"#track-section li.location:has(li[data-participant='{ids['Harvey']}'])").get_attribute("data-index")  # noqa: E731
    assert harvey_at() == "2"

    # The Keeper moves Harvey at the table; the player's page shows it without a reload.
    keeper.request("POST", f"/chases/{chase_id}/participants/{ids['Harvey']}/move", {"locations": 1})
    until(browser, lambda: harvey_at() == "3")

    # Only Harvey's actions are offered, and no Keeper control at all.
    headings = until(browser, lambda: [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#turn .group h3")])
    assert any(h.startswith("Harvey") for h in headings) and not any(h.startswith("Farmer") for h in headings)
    names = until(browser, lambda: {b.get_attribute("textContent") for b in browser.find_elements(By.TAG_NAME, "button")})
    assert not names & {"undo", "rewind", "redo", "reveal seed", "end chase", "issue token", "consequences", "damage", "Add participant"}
    assert not browser.find_elements(By.CSS_SELECTOR, "#setup, #links")
    assert {"request undo", "add entropy"} <= names

    # Were the page to try a Keeper's command with the player's token, the API says no.
    status = browser.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch(arguments[0], {method: "POST", headers: {Authorization: `Bearer ${arguments[1]}`, "Content-Type": "application/json"}, body: "{}"})
          .then((r) => done(r.status));""", f"/chases/{chase_id}/undo", player["token"])
    assert status == 403


def test_the_rewind_slider_shows_version_5_as_the_api_does(served, browser):
    chase_id, token, ids = keeper_chase(served)
    keeper = Client(served.port, token)
    keeper.request("POST", f"/chases/{chase_id}/participants/{ids['Harvey']}/move", {"locations": 1})
    at_5 = keeper.request("GET", f"/chases/{chase_id}?version=5")[1]["chase"]
    page = Page(browser, served)
    page.open(f"play/{chase_id}/{token}", "play")

    # The slider goes back to version 5 (one key press at a time from the latest, as a keyboard user would).
    slider = browser.find_element(By.ID, "rewind-slider")
    latest = int(slider.get_attribute("max"))
    assert latest > 5
    for _ in range(latest - 5):
        slider.send_keys("\ue012")  # the left arrow key
    view = until(browser, lambda: browser.find_element(By.CSS_SELECTOR, ".rewind-view .track-view[data-version='5']"))

    # What it shows is what the API says of version 5: phase, round and each participant's row.
    assert view.find_element(By.CSS_SELECTOR, "[data-test=phase]").text == at_5["phase"]
    assert view.find_element(By.CSS_SELECTOR, "[data-test=round]").text == str(at_5["round"])
    for pid, p in at_5["participants"].items():
        row = view.find_element(By.CSS_SELECTOR, f"tr[data-participant='{pid}']")
        assert row.find_element(By.CSS_SELECTOR, "[data-field=speed_mov]").text == str(p["speed_mov"])
    # The live track is still at the latest version: time travel changed nothing.
    assert page.version() == latest
    assert "version 5 of" in text_of(browser, "[data-test=rewind-version]")

    # "Play the record" steps through every version from the first up to the latest.
    button(browser, "Play the record").click()
    until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, ".rewind-view .track-view[data-version='1']"))
    until(browser, lambda: browser.find_elements(By.CSS_SELECTOR, f".rewind-view .track-view[data-version='{latest}']"))
    assert until(browser, lambda: "Play the record" in text_of(browser, "#rewind button"))  # and it stops there


def test_the_players_browser_verifies_the_log_and_names_a_tampered_event(served, browser, tmp_path):
    chase_id, token, ids = keeper_chase(served)
    keeper = Client(served.port, token)
    keeper.request("POST", f"/chases/{chase_id}/skill-rolls", {"skill": "Luck", "participant_id": ids["Harvey"], "target": 50})  # server dice
    player = keeper.request("POST", f"/chases/{chase_id}/tokens", {"participant_ids": [ids["Harvey"]]})[1]
    page = Page(browser, served)
    page.open(f"play/{chase_id}/{player['token']}/{ids['Harvey']}", "play")
    until(browser, lambda: "seed not revealed yet" in text_of(browser, "#rolls table"))

    # The Keeper reveals the seed: the player's page checks the whole log by itself at once.
    keeper.request("POST", f"/chases/{chase_id}/reveal-seed", {})
    verdict = until(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#verify [data-test=verdict]"))
    assert verdict.get_attribute("data-ok") == "true", verdict.text
    assert "1 server rolls recomputed and matching" in verdict.text
    until(browser, lambda: "recomputed in this browser ✓" in text_of(browser, "#rolls table"))

    # A copy of the export with the Luck roll's units die changed: the page names that event.
    exported = keeper.request("GET", f"/chases/{chase_id}/export")[1]
    rolled = next(e for e in exported["events"] if e["data"].get("roll", {}).get("skill") == "Luck")
    rolled["data"]["roll"]["units"] = (rolled["data"]["roll"]["units"] + 1) % 10
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(exported))
    browser.find_element(By.ID, "export-file").send_keys(str(tampered))
    failed = until(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#verify .field [data-test=verdict]"))
    assert failed.get_attribute("data-ok") == "false"
    assert f"event {rolled['version']}" in failed.text


@pytest.mark.parametrize("system, roles", [("swade", ("chaser", "quarry")), ("swd", ("chaser", "quarry")), ("d6", ("pursuer", "quarry"))])
def test_the_console_runs_savage_worlds_and_d6_chases_too(served, browser, system, roles):
    page = Page(browser, served)
    page.open("", "home")
    form = page.fill("Create a chase", **{"Chase name": f"A {system} chase", "Game system": system})
    button(browser, "Create the chase", form).click()
    until(browser, lambda: browser.execute_script("return document.body.dataset.ready") == "keeper")
    assert page.state("phase") == "setup"
    # The set-up form asks for the system's own fields (a maneuver die, or a Move and Physique).
    for name, role in zip(("Hunter", "Thief"), roles):
        before = page.version()
        form = page.fill("Add a participant", Name=name, Role=role)
        button(browser, "Add participant", form).click()
        until(browser, lambda: page.version() > before)
    assert until(browser, lambda: {"Hunter", "Thief"} <= {th.text for th in browser.find_elements(By.CSS_SELECTOR, "#track-section tbody th")})
    # The API offers the system's own way to begin, and the console shows it as a button.
    assert until(browser, lambda: page.action_button("The chase", "begin").is_enabled())
    if system == "swade":
        # swade-chases-reference.txt "SETUP": a foot chase, the Hunter on the rear card, the Thief two ahead.
        page.press("The chase", "begin")
        form = until(browser, lambda: browser.find_element(By.CSS_SELECTOR, "#turn form.action-form"))
        cards = {e.text.strip(): e.find_element(By.TAG_NAME, "input") for e in form.find_elements(By.CSS_SELECTOR, "fieldset.per-unit label")}
        cards["Thief"].clear()
        cards["Thief"].send_keys("2")
        before = page.version()
        button(browser, "Do: begin", form).click()
        until(browser, lambda: page.version() > before or page.refusal())
        assert not page.refusal() and page.state("phase") == "running"
    if system == "swd":
        page.act("The chase", "begin", Rounds="5")
        assert page.state("phase") == "running"
    if system == "d6":
        # "Running": the GM sets a 100 m course, and the Hunter runs 10 m with table dice.
        page.act("The chase", "begin", **{"Finish (metres)": "100"})
        page.act("Hunter", "move", **{"Rate (metres)": "10", "Table dice faces (empty: the server's dice)": "4, 4, 4"})
        until(browser, lambda: text_of(browser, "#track-section tr[data-participant] [data-field=position]").split()[0] == "10")
