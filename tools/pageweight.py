"""``.venv/bin/python tools/pageweight.py``: what the lobby and a game page cost a visitor on a
first visit: every request the page makes on a cold load (cache off) until it can be used and
the network is idle (the page, app.js's file, the style sheet, the file of a group of pages for a
page of one, ``static/later/``, and the API answers), of them the scripts, the bytes that cross
the wire (compressed where the server compresses) and the bytes unpacked, and the time until the
page can be used, on loopback and under Chromium's emulation of a slow 3G connection (400 ms
latency, 400 kbit/s down); the median of ``--runs`` cold loads. Numbers are printed, never
asserted: they describe this machine at this moment (tests/web/pages/test_web_frontpage.py
asserts what a first load may hold)."""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpcalls

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT / "tests" / "web"))

SLOW_3G = {
    "offline": False,
    "latency": 400,
    "downloadThroughput": 400_000 / 8,
    "uploadThroughput": 400_000 / 8,
}
"""Chromium DevTools' "Slow 3G" preset."""


def measure(browser: Any, url: str, ready: str, slow: bool, locale: str) -> dict[str, Any]:
    """One cold load of ``url`` (cache off) by a browser set to ``locale`` until ``ready`` shows,
    then until the network is idle: the requests over the network (not the pictures a page
    draws from ``data:`` addresses), how many of them are scripts, their bytes on the wire and
    unpacked, and the seconds to ``ready``."""
    context = browser.new_context(locale=locale)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if slow:
        cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    wire: dict[str, float] = {}
    sizes: dict[str, int] = {}
    local: set[str] = set()
    scripts: set[str] = set()

    def sent(event: dict[str, Any]) -> None:
        if event["request"]["url"].startswith("data:"):
            local.add(event["requestId"])
        elif event["request"]["url"].endswith(".js"):
            scripts.add(event["requestId"])

    def finished(event: dict[str, Any]) -> None:
        wire[event["requestId"]] = event["encodedDataLength"]

    def received(event: dict[str, Any]) -> None:
        sizes[event["requestId"]] = sizes.get(event["requestId"], 0) + event["dataLength"]

    cdp.on("Network.requestWillBeSent", sent)
    cdp.on("Network.loadingFinished", finished)
    cdp.on("Network.dataReceived", received)
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_selector(ready, timeout=120_000)
    ready_s = time.perf_counter() - start
    page.wait_for_load_state("networkidle")
    context.close()
    ids = set(wire) - local
    return {
        "requests": len(ids),
        "scripts": len(ids & scripts),
        "wire_kb": round(sum(wire[i] for i in ids) / 1024, 1),
        "unpacked_kb": round(sum(sizes.get(i, 0) for i in ids) / 1024, 1),
        "ready_s": round(ready_s, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true", help="print JSON only")
    parser.add_argument("--runs", type=int, default=3, help="cold loads per row (the median)")
    args = parser.parse_args()
    subprocess.run(["make", "-s", "-C", str(ROOT), "bundle"], check=True)  # what the server serves
    from browsing import ARGS, CHROMIUM, free_port, serve  # type: ignore[import-not-found]
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = serve(Path(folder) / "web.sqlite3", port)
        base = f"http://127.0.0.1:{port}"
        try:
            seats = [{"kind": "me"}, {"kind": "hotseat"}]
            games = {}
            for name in ("potlatch", "montana"):
                made = httpcalls.post(f"{base}/api/games", json={"game": name, "seats": seats})
                made.raise_for_status()
                games[name] = made.json()["id"]
            rows = []
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                pages = {
                    "lobby": (f"{base}/", "article.card", "en-US"),
                    "lobby ja": (f"{base}/", "article.card", "ja-JP"),
                    "game": (f"{base}/#/game/{games['potlatch']}", "#board svg", "en-US"),
                    "montana": (f"{base}/#/game/{games['montana']}", "#board svg", "en-US"),
                    "rules": (f"{base}/#/rules/potlatch", "#rules-text > *", "en-US"),
                }
                for name, (url, ready, locale) in pages.items():
                    for slow in (False, True):
                        row = {"page": name, "network": "slow 3G" if slow else "loopback"}
                        runs = [
                            measure(browser, url, ready, slow, locale) for _ in range(args.runs)
                        ]
                        row.update(runs[0])
                        row["ready_s"] = statistics.median(r["ready_s"] for r in runs)
                        rows.append(row)
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=30)
    if args.json:
        print(json.dumps(rows))
        return
    print(
        f"{'page':<8} {'network':<9} {'requests':>8} {'scripts':>7} {'wire KB':>8} "
        f"{'unpacked KB':>11} {'ready s':>8}"
    )
    for r in rows:
        print(
            f"{r['page']:<8} {r['network']:<9} {r['requests']:>8} {r['scripts']:>7} "
            f"{r['wire_kb']:>8} {r['unpacked_kb']:>11} {r['ready_s']:>8}"
        )


if __name__ == "__main__":
    main()
