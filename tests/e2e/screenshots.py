"""Screenshots of the browser pages (issue 19) for the README, at phone and laptop sizes:

    .venv/bin/python -m tests.e2e.screenshots [docs/]

Plays Harvey and the angry farmer into round 2 over HTTP (table dice, one server roll), then
photographs the Keeper's console, the player's view and the analytics page in headless Chromium.
"""
from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

from selenium.webdriver.common.by import By

from tests.e2e.browser import chromium, until
from tests.e2e.served_process import Client
from tests.e2e.test_stream import Served

SIZES = {"phone": (390, 844, True), "laptop": (1366, 768, False)}
TALLEST = {"phone": 2200, "laptop": 1500}


def play(served: Served) -> tuple[str, str, str, dict[str, str]]:
    chase, token = served.ledger.start_chase("Harvey and the angry farmer", dice="server")
    keeper = Client(served.port, token)
    base = f"/chases/{chase['chase_id']}"
    ids = {}
    for p in ({"name": "Harvey", "role": "quarry", "dex": 55, "con": 60, "mov": 6, "skills": {"Climb": 40}},
              {"name": "Farmer", "role": "pursuer", "dex": 50, "con": 55, "mov": 7}):
        ids[p["name"]] = keeper.request("POST", f"{base}/participants", p)[1]["participant_id"]
    keeper.request("POST", f"{base}/participants/{ids['Harvey']}/speed-roll", {"table_dice": [70, 2]})
    keeper.request("POST", f"{base}/participants/{ids['Farmer']}/speed-roll", {"table_dice": [80, 0]})
    keeper.request("POST", f"{base}/cut-to-the-chase", {"opening_range": 2})
    for index, name in enumerate(["The farmyard", "The lane", "The barn", "The fence", "The woods"]):
        keeper.request("PUT", f"{base}/locations/{index}", {"name": name})
    keeper.request("POST", f"{base}/obstacles", {"kind": "hazard", "between": [3, 4], "name": "A barbed-wire fence", "skills": ["Climb"], "difficulty": "regular"})
    keeper.request("POST", f"{base}/participants/{ids['Harvey']}/move", {"locations": 1})
    keeper.request("POST", f"{base}/participants/{ids['Farmer']}/move", {"locations": 2})
    keeper.request("POST", f"{base}/skill-rolls", {"skill": "Luck", "participant_id": ids["Harvey"], "target": 45})
    player = keeper.request("POST", f"{base}/tokens", {"participant_ids": [ids["Harvey"]]})[1]["token"]
    return chase["chase_id"], token, player, ids


def shoot(driver, url: str, ready: str, path: Path, size: str) -> None:
    width, height, mobile = SIZES[size]
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
    driver.get(url)
    driver.refresh()
    until(driver, lambda: driver.execute_script("return document.body.dataset.ready") == ready)
    time.sleep(1.5)  # the live stream connects, the charts load
    tall = min(TALLEST[size], driver.execute_script("return document.documentElement.scrollHeight"))
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": tall, "deviceScaleFactor": 1, "mobile": mobile})
    time.sleep(0.3)
    driver.save_screenshot(str(path))


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        served = Served({"SQLITE_DBNAME": f"{folder}/chase.sqlite3", "CHASE_LEDGER_STREAM_POLL": "0.2"})
        driver = chromium()
        try:
            chase_id, keeper, player, ids = play(served)
            app = f"http://127.0.0.1:{served.port}/app/"
            driver.get(app)
            kept = {chase_id: {"keeper_token": keeper, "name": "Harvey and the angry farmer", "system": "coc7e"}}
            driver.execute_script("localStorage.setItem('chase-ledger:chases', arguments[0])", json.dumps(kept))
            driver.get(f"{app}#/analytics/{chase_id}")
            driver.refresh()
            until(driver, lambda: driver.find_elements(By.XPATH, "//button[text()='Start a session with this chase']"))[0].click()
            until(driver, lambda: driver.find_elements(By.ID, "session-luck"))
            for size in SIZES:
                shoot(driver, f"{app}#/keeper/{chase_id}", "keeper", out / f"ui-console-{size}.png", size)
                shoot(driver, f"{app}#/play/{chase_id}/{player}/{ids['Harvey']}", "play", out / f"ui-player-{size}.png", size)
                shoot(driver, f"{app}#/analytics/{chase_id}", "analytics", out / f"ui-analytics-{size}.png", size)
            assert driver.find_elements(By.CSS_SELECTOR, "img.chart")
        finally:
            driver.quit()
            served.close()


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs"))
