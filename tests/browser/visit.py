"""Open a page of the site in Chromium and record what a reader's browser would see go wrong."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit

import sitetools

# Impacts axe ranks as failing the site.
FAILING_IMPACTS = {"serious", "critical"}

ALT_TEXT_PROBLEMS = """() => {
  const problems = [];
  const text = (el, attr) => (el.getAttribute(attr) || "").trim();
  const hidden = (el) => el.closest("[aria-hidden=true]");
  for (const img of document.querySelectorAll("img")) {
    if (hidden(img) || img.getAttribute("role") === "presentation") continue;
    const alt = text(img, "alt"), file = (img.getAttribute("src") || "").split("/").pop();
    if (!alt) problems.push(`image ${file} has no alt text`);
    else if (file && alt.endsWith(file)) problems.push(`image ${file} has its file name as alt text`);
  }
  // Vega labels the drawn chart's container with the spec's description (role graphics-document).
  for (const fig of document.querySelectorAll(".irmeans-figure")) {
    if (!text(fig, "aria-label")) problems.push(`figure ${fig.id} has no aria-label`);
    if (!fig.querySelector("svg")) problems.push(`figure ${fig.id} was not drawn`);
  }
  for (const fig of document.querySelectorAll("figure")) {
    const caption = fig.querySelector("figcaption");
    if (!text(fig, "aria-label") && !(caption && caption.textContent.trim()))
      problems.push(`a <figure> has neither caption nor aria-label`);
  }
  for (const el of document.querySelectorAll("[role=img]")) {
    if (!hidden(el) && !text(el, "aria-label") && !text(el, "aria-labelledby") && !el.querySelector("title"))
      problems.push(`a role=img element has no label`);
  }
  return problems;
}"""

LINKS_AND_IDS = """() => ({
  links: Array.from(document.querySelectorAll("a[href]")).map((a) => a.href),
  ids: Array.from(document.querySelectorAll("[id], a[name]")).map((e) => e.id || e.getAttribute("name")),
})"""


@dataclass
class PageLog:
    """What went wrong while a page loaded and ran, as seen from outside the page."""

    base_url: str
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def attach(self, page) -> None:
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})"))
        page.on("response", lambda r: r.status >= 400 and self.failed.append(f"{r.url} (HTTP {r.status})"))
        page.on("request", self._request)

    def _console(self, message) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text} at {message.location.get('url', '?')}")
        elif message.type == "warning":
            self.warnings.append(f"console warning: {message.text}")

    def _request(self, request) -> None:
        scheme = urlsplit(request.url).scheme
        if scheme in ("data", "blob", "about"):
            return  # made by the page itself, not fetched from a host
        if not request.url.startswith(self.base_url):
            self.outside.append(request.url)


@dataclass
class Visit:
    """One page as a reader meets it: in light mode, then switched to dark with the theme's button."""

    path: str
    log: PageLog
    missing_alt: list[str]
    links: list[str]
    ids: set[str]
    axe: list[dict]
    figures: list[str]
    themes: list[str] = field(default_factory=list)
    dark_axe: list[dict] = field(default_factory=list)
    toggles: list[str] = field(default_factory=list)

    @property
    def failing_axe(self) -> list[dict]:
        return [v for v in self.axe + self.dark_axe if v["impact"] in FAILING_IMPACTS]


def open_page(browser, base_url: str, path: str, color_scheme: str = "light", viewport: dict | None = None):
    """A new page at ``path``, loaded, its figures drawn and its maths typeset; and its log.

    ``viewport``: the window's size (default 1280 × 900).
    """
    context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}, color_scheme=color_scheme)
    page = context.new_page()
    log = PageLog(base_url)
    log.attach(page)
    url = base_url + path
    page.goto(url, wait_until="load")
    if forwards(path):  # the site's front door sends the reader on
        page.wait_for_url(lambda now: now != url)
        page.wait_for_load_state("load")
    page.add_script_tag(path=str(sitetools.HELPERS))
    page.wait_for_function("() => window.irmeansTest.figuresReady()", timeout=30_000)
    page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
    settle_animations(page)
    return page, log


def forwards(path: str) -> bool:
    """Whether the page at ``path`` is a redirect (a ``<meta http-equiv="Refresh">``)."""
    file = sitetools.SITE / path.split("?")[0]
    return file.is_file() and 'http-equiv="Refresh"' in file.read_text(encoding="utf-8")[:2000]


def settle_animations(page) -> None:
    """Wait for the page's CSS transitions (the theme fades colours when its mode changes)."""
    # Finite animations only (a looping one never finishes; a cancelled one rejects), and at most 5 s.
    page.evaluate(
        """async () => {
          const finite = document.getAnimations().filter((a) => a.effect && a.effect.getTiming().iterations !== Infinity);
          const done = finite.map((a) => a.finished.catch(() => null));  // a cancelled one is done too
          await Promise.race([Promise.all(done), new Promise((r) => setTimeout(r, 5000))]);
        }"""
    )


def run_axe(page, rules: list[str] | None = None) -> list[dict]:
    """axe-core's violations on the page as it is now (axe is the tests' tool, not the site's).

    ``rules``: only these axe rules (default: all). No preload: axe would
    re-fetch the theme's ``@import``-ed style sheet from a wrong URL.
    """
    if not page.evaluate("() => Boolean(window.axe)"):
        page.add_script_tag(path=str(sitetools.AXE))
    options = {"resultTypes": ["violations"], "preload": False}
    if rules:
        options["runOnly"] = {"type": "rule", "values": rules}
    result = page.evaluate("async (options) => await axe.run(document, options)", options)
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [" ".join(n["target"]) if isinstance(n["target"], list) else str(n["target"]) for n in v["nodes"]][
                :5
            ],
        }
        for v in result["violations"]
    ]


def screenshot_name(path: str, suffix: str = "") -> str:
    return path.removesuffix(".html").replace("/", "__") + suffix + ".png"


def switch_to_dark(page) -> list[str]:
    """Click the theme's colour-mode button until the page is dark; the themes it went through."""
    seen = [page.evaluate("() => document.documentElement.dataset.theme")]
    page.evaluate("() => window.scrollTo(0, 0)")  # the page's header, where the switch is, in view
    switch = page.locator(".theme-switch-button").first
    for _ in range(3):
        if seen[-1] == "dark":
            break
        switch.click(timeout=10_000)
        settle_animations(page)
        seen.append(page.evaluate("() => document.documentElement.dataset.theme"))
    return seen


def open_toggles(page) -> list[str]:
    """Click every visible ``<details>`` summary (hidden code cells); what each click did."""
    results = []
    summaries = page.locator("details > summary")
    for index in range(summaries.count()):
        summary = summaries.nth(index)
        if not summary.is_visible():
            continue
        details = summary.locator("xpath=..")
        before = details.evaluate("d => d.open")
        summary.click()
        results.append("opened" if details.evaluate("d => d.open") != before else "did not open")
    return results


def visit_all(browser, base_url: str, paths: list[str], output_dir) -> dict[str, Visit]:
    """Open every page once: log, alt text, links, axe and a screenshot in light mode, then in dark; toggles."""
    visits = {}
    for path in paths:
        page, log = open_page(browser, base_url, path)
        links = page.evaluate(LINKS_AND_IDS)
        visit = visits[path] = Visit(
            path=path,
            log=log,
            missing_alt=page.evaluate(ALT_TEXT_PROBLEMS),
            links=links["links"],
            ids=set(links["ids"]),
            axe=run_axe(page),
            figures=page.evaluate("() => window.irmeansTest.figureIds()"),
        )
        page.screenshot(path=str(output_dir / screenshot_name(path)), full_page=True)
        # The log goes on recording: an error of the switch or of dark mode is the page's.
        visit.themes = switch_to_dark(page)
        # Colours are all that a mode changes: axe's contrast rule, in dark.
        visit.dark_axe = [dict(v, mode="dark") for v in run_axe(page, ["color-contrast"])]
        page.screenshot(path=str(output_dir / screenshot_name(path, "-dark")), full_page=True)
        visit.toggles = open_toggles(page)
        page.context.close()
    return visits


def split_internal(url: str, base_url: str) -> tuple[str, str] | None:
    """``(path, fragment)`` of a link into the site, or None for a link elsewhere."""
    if not url.startswith(base_url):
        return None
    target, fragment = urldefrag(url)
    path = urlsplit(target).path.lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return path, fragment
