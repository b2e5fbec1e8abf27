"""Open a page of the site in Chromium and record what a reader's browser would see go wrong.

Most browser tests only read a page: :func:`reading` registers what a test module reads, and
:func:`tour` opens each page of the site once at each width of :data:`WIDTHS`, in light mode and then,
switched with the theme's own button, in dark mode, and takes every registered reading there: one
visit per page, width and mode, whatever the number of tests that read it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urldefrag, urlsplit

import sitetools

#: The rules axe runs: WCAG 2.0 and 2.1, levels A and AA (axe's tags for them).
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

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


def run_axe(page, rules: list[str] | None = None) -> dict[str, list[dict]]:
    """axe-core's findings on the page as it is now, under the rules of :data:`WCAG_TAGS` (axe is the tests'
    tool, not the site's: it is added to the page once, from ``node_modules``, never fetched from elsewhere).

    Returns ``{"violations": [...], "incomplete": [...]}``: what axe found wrong, and what it could not decide
    (a colour over an image, say), each ``{"id", "impact", "help", "nodes"}`` with the first nodes' selectors.
    ``rules``: only these axe rules. No preload: axe would re-fetch the theme's ``@import``-ed style sheet
    from a wrong URL.
    """
    if not page.evaluate("() => Boolean(window.axe)"):
        assert sitetools.AXE.is_file(), f"{sitetools.AXE} is missing: run `npm ci`"
        page.add_script_tag(path=str(sitetools.AXE))
    options = {"resultTypes": ["violations", "incomplete"], "preload": False}
    options["runOnly"] = {"type": "rule", "values": rules} if rules else {"type": "tag", "values": WCAG_TAGS}
    result = page.evaluate("async (options) => await axe.run(document, options)", options)

    def brief(found):
        return {
            "id": found["id"],
            "impact": found["impact"],
            "help": found["help"],
            "nodes": [
                " ".join(map(str, n["target"])) if isinstance(n["target"], list) else str(n["target"])
                for n in found["nodes"]
            ][:5],
            "count": len(found["nodes"]),
        }

    return {kind: [brief(f) for f in result[kind]] for kind in ("violations", "incomplete")}


def axe_version() -> str:
    """The version of axe-core the tests run (node_modules/axe-core, as package.json pins it)."""
    import json

    return json.loads(sitetools.AXE.with_name("package.json").read_text(encoding="utf-8"))["version"]


def screenshot_name(path: str, suffix: str = "") -> str:
    return path.removesuffix(".html").replace("/", "__") + suffix + ".png"


def switch_to_dark(page) -> list[str]:
    """Click the theme's colour-mode button until the page is dark; the themes it went through.

    The button's tooltip, shown while the pointer or the focus is on it, is closed again: what is
    measured next is the page, not a tooltip left open over it.
    """
    seen = [page.evaluate("() => document.documentElement.dataset.theme")]
    page.evaluate("() => window.scrollTo(0, 0)")  # the page's header, where the switch is, in view
    switch = page.locator(".theme-switch-button").first
    for _ in range(3):
        if seen[-1] == "dark":
            break
        switch.click(timeout=10_000)
        settle_animations(page)
        seen.append(page.evaluate("() => document.documentElement.dataset.theme"))
    close_tooltips(page)
    return seen


def close_tooltips(page) -> None:
    """Move the pointer and the focus off whatever shows a tooltip, and wait until none is shown."""
    page.mouse.move(0, page.viewport_size["height"] - 1 if page.viewport_size else 0)
    page.evaluate("() => document.activeElement && document.activeElement.blur && document.activeElement.blur()")
    page.wait_for_function("() => !document.querySelector('.tooltip')", timeout=10_000)


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


def split_internal(url: str, base_url: str) -> tuple[str, str] | None:
    """``(path, fragment)`` of a link into the site, or None for a link elsewhere."""
    if not url.startswith(base_url):
        return None
    target, fragment = urldefrag(url)
    path = urlsplit(target).path.lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return path, fragment


# ----------------------------------------------------------------------------- the tour

#: A phone held upright, and a laptop's screen: ``{width: height}``.
WIDTHS = {390: 844, 1366: 900}
MODES = ("light", "dark")
#: When a reading is taken: as the page loads (light; in dark the page is as ``opened`` left it);
#: with everything a reader can open opened (hidden code, solutions, hints); or last, after dark,
#: for a reading that moves the page's controls.
STAGES = ("loaded", "opened", "moved")


@dataclass
class Reading:
    """What a test reads of a page: ``read(page, where)`` returns it, at the widths, modes and stage given."""

    name: str
    read: Callable
    widths: tuple[int, ...]
    modes: tuple[str, ...]
    stage: str
    pages: Callable[[str], bool]


#: Every reading registered by the test modules, by name.
READINGS: dict[str, Reading] = {}


def reading(name: str, *, widths=tuple(WIDTHS), modes=MODES, stage="loaded", pages=lambda path: True):
    """Register the decorated ``read(page, where) -> value`` as reading ``name`` of the :func:`tour`.

    ``where`` is a :class:`Where`; ``pages`` chooses the pages it is taken on (by path).
    """
    assert stage in STAGES, stage

    def register(read):
        if name in READINGS and READINGS[name].read.__qualname__ != read.__qualname__:
            raise ValueError(f"two readings named {name!r}")
        READINGS[name] = Reading(name, read, tuple(widths), tuple(modes), stage, pages)
        return read

    return register


@dataclass
class Where:
    """Which page, width and mode a reading is taken at, and the folder screenshots go to."""

    path: str
    width: int
    mode: str
    output_dir: object

    def screenshot(self, page, suffix: str = "") -> None:
        """The page's first screen, or all of it with ``IRMEANS_SCREENSHOTS=full`` (slower: for a person to read)."""
        name = screenshot_name(self.path, f"-{self.width}-{self.mode}{suffix}")
        page.screenshot(path=str(self.output_dir / name), full_page=os.environ.get("IRMEANS_SCREENSHOTS") == "full")


@dataclass
class Tour:
    """Every reading of every page: ``records[(path, width, mode)][name]``, and each visit's log by ``(path, width)``."""

    records: dict[tuple[str, int, str], dict] = field(default_factory=dict)
    logs: dict[tuple[str, int], PageLog] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)

    def found(self, name: str) -> dict[tuple[str, int, str], object]:
        """Reading ``name`` wherever it was taken."""
        assert name in READINGS, f"no reading {name!r} is registered"
        taken = {key: r[name] for key, r in self.records.items() if name in r}
        assert taken, f"reading {name!r} was taken on no page"
        return taken


def _take(tour: Tour, page, where: Where, stage: str) -> None:
    record = tour.records.setdefault((where.path, where.width, where.mode), {})
    for r in READINGS.values():
        if r.stage == stage and where.width in r.widths and where.mode in r.modes and r.pages(where.path):
            start = time.monotonic()
            record[r.name] = r.read(page, where)
            tour.seconds[r.name] = tour.seconds.get(r.name, 0.0) + time.monotonic() - start


def open_everything(page) -> None:
    """Open what a reader can open: hidden code, dropdown solutions, self-check hints; and answer every
    self-check, right and wrong in turn, so that its feedback shows in both colours."""
    page.add_script_tag(path=str(sitetools.HELPERS.with_name("surface_checks.js")))
    page.evaluate("() => irmeansSurface.openAll()")
    page.evaluate("() => irmeansSurface.answerAll()")


def tour(browser, base_url: str, paths: list[str], output_dir) -> Tour:
    """Open each page of ``paths`` once per width, light then dark, and take every registered reading.

    ``seconds`` holds the time each reading took in all, and the time of the visits' own steps (in brackets).
    """
    done = Tour()

    def timed(step: str, do, *args):
        start = time.monotonic()
        result = do(*args)
        done.seconds[step] = done.seconds.get(step, 0.0) + time.monotonic() - start
        return result

    for path in paths:
        for width, height in WIDTHS.items():
            page, log = timed("(open)", open_page, browser, base_url, path, "light", {"width": width, "height": height})
            done.logs[(path, width)] = log
            light, dark = Where(path, width, "light", output_dir), Where(path, width, "dark", output_dir)
            _take(done, page, light, "loaded")
            timed("(screenshots)", light.screenshot, page)
            timed("(open everything)", open_everything, page)
            _take(done, page, light, "opened")
            done.records[(path, width, "dark")] = {"themes": timed("(switch to dark)", _to_dark, page)}
            _take(done, page, dark, "loaded")
            _take(done, page, dark, "opened")
            timed("(screenshots)", dark.screenshot, page)
            _take(done, page, dark, "moved")
            page.context.close()
    return done


def _to_dark(page) -> list[str]:
    themes = switch_to_dark(page)
    page.wait_for_function("() => window.irmeansTest.figuresReady()", timeout=30_000)
    settle_animations(page)
    return themes


# Readings more than one test module uses.


@reading("links", widths=(1366,), modes=("light",))
def _links(page, where):
    """Every link's address and every id on the page."""
    found = page.evaluate(LINKS_AND_IDS)
    return {"links": found["links"], "ids": set(found["ids"])}


@reading("figures", modes=("light",))
def _figures(page, where):
    """The ids of the page's interactive figures."""
    return page.evaluate("() => window.irmeansTest.figureIds()")
