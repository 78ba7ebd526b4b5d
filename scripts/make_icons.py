"""Render the site's PNG icons (src/firstlast/site/static/icons/) from the page's SVG
icon with Chromium: phones want PNGs for the home screen. Run after changing icon.svg:

    .venv/bin/python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "src/firstlast/web/static/img/icon.svg"
OUT = ROOT / "src/firstlast/site/static/icons"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    svg = SVG.read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                    args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        for size in (192, 512):
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(f'<style>html,body{{margin:0;background:#0f4d2c}}svg{{width:{size}px;height:{size}px;'
                             f'display:block}}</style>{svg}')
            page.screenshot(path=str(OUT / f"icon-{size}.png"), omit_background=False)
            page.close()
        browser.close()


if __name__ == "__main__":
    main()
