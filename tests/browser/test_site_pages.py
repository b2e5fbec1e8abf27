"""Every page of the built site, opened in Chromium: clean console, local requests, alt text, links, axe."""

from __future__ import annotations

import json
import urllib.request

import sitetools
from visit import ALT_TEXT_PROBLEMS, FAILING_IMPACTS, reading, run_axe, screenshot_name, split_internal

LAPTOP = (1366,)


@reading("alt text", widths=LAPTOP, modes=("light",))
def _alt_text(page, where):
    return page.evaluate(ALT_TEXT_PROBLEMS)


@reading("axe", widths=LAPTOP, modes=("light",))
def _axe(page, where):
    return run_axe(page)


# Colours are all that a mode changes: axe's contrast rule, in dark.
@reading("axe in dark", widths=LAPTOP, modes=("dark",))
def _axe_dark(page, where):
    return [dict(v, mode="dark") for v in run_axe(page, ["color-contrast"])]


def report(problems: dict) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(map(str, found)) for page, found in problems.items() if found)


def test_every_page_was_opened_at_each_width_in_both_modes(tour, site):
    assert {key[0] for key in tour.records} == set(sitetools.pages(site))
    assert len(tour.records) == 4 * len(sitetools.pages(site))
    assert any(tour.found("figures").values()), "no page has an interactive figure"


def test_no_console_error(tour):
    problems = {key: log.errors for key, log in tour.logs.items()}
    assert not any(problems.values()), report(problems)


def test_no_failed_request(tour):
    problems = {key: log.failed for key, log in tour.logs.items()}
    assert not any(problems.values()), report(problems)


def test_nothing_is_requested_from_another_host(tour):
    problems = {key: log.outside for key, log in tour.logs.items()}
    assert not any(problems.values()), report(problems)


def test_every_image_and_figure_has_alt_text(tour):
    problems = tour.found("alt text")
    assert not any(problems.values()), report(problems)


def _served(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except OSError:
        return False


def test_every_internal_link_and_anchor_resolves(tour, base_url):
    pages = {key[0]: found for key, found in tour.found("links").items()}
    problems, files = {}, {}
    for path, found in pages.items():
        for url in found["links"]:
            internal = split_internal(url, base_url)
            if internal is None:
                continue
            target, fragment = internal
            if target in pages:
                if fragment and fragment not in pages[target]["ids"]:
                    problems.setdefault(path, []).append(f"{url}: no element with id {fragment!r}")
            elif not files.setdefault(target, _served(base_url + target)):
                problems.setdefault(path, []).append(f"{url}: not served")
    assert not problems, report(problems)


def test_axe_finds_no_serious_or_critical_violation(tour, output_dir):
    found = {**tour.found("axe"), **tour.found("axe in dark")}
    (output_dir / "axe.json").write_text(json.dumps({" ".join(map(str, k)): v for k, v in found.items()}, indent=1))
    problems = {key: [v for v in violations if v["impact"] in FAILING_IMPACTS] for key, violations in found.items()}
    assert not any(problems.values()), report(problems)


def test_a_screenshot_of_every_page_is_written_at_each_width_in_both_modes(tour, output_dir):
    missing = [k for k in tour.records if not (output_dir / screenshot_name(k[0], f"-{k[1]}-{k[2]}")).is_file()]
    assert not missing


def test_no_page_links_to_the_placeholder_repository(tour):
    """The repository's address in _config.yml is a placeholder (the source has no public repository yet):
    no page may link to it."""
    import yaml

    url = yaml.safe_load((sitetools.ROOT / "_config.yml").read_text(encoding="utf-8"))["repository"]["url"]
    found = {key[0]: [a for a in r["links"] if a.startswith(url)] for key, r in tour.found("links").items()}
    assert len(found) > 10
    linking = {path: links for path, links in found.items() if links}
    assert not linking, linking
