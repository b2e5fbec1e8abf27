"""Every page of the built site, opened in Chromium: clean console, local requests, alt text, links, axe."""

from __future__ import annotations

import json
import urllib.request

import sitetools
from visit import screenshot_name, split_internal


def report(problems: dict[str, list]) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(map(str, found)) for page, found in problems.items() if found)


def test_every_page_was_opened(visits, site):
    assert sorted(visits) == sitetools.pages(site)
    assert any(v.figures for v in visits.values()), "no page has an interactive figure"


def test_no_console_error(visits):
    problems = {path: v.log.errors for path, v in visits.items()}
    assert not any(problems.values()), report(problems)


def test_no_failed_request(visits):
    problems = {path: v.log.failed for path, v in visits.items()}
    assert not any(problems.values()), report(problems)


def test_nothing_is_requested_from_another_host(visits):
    problems = {path: v.log.outside for path, v in visits.items()}
    assert not any(problems.values()), report(problems)


def test_every_image_and_figure_has_alt_text(visits):
    problems = {path: v.missing_alt for path, v in visits.items()}
    assert not any(problems.values()), report(problems)


def _served(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status == 200
    except OSError:
        return False


def test_every_internal_link_and_anchor_resolves(visits, base_url):
    problems, files = {}, {}
    for path, v in visits.items():
        for url in v.links:
            internal = split_internal(url, base_url)
            if internal is None:
                continue
            target, fragment = internal
            if target in visits:
                if fragment and fragment not in visits[target].ids:
                    problems.setdefault(path, []).append(f"{url}: no element with id {fragment!r}")
            elif not files.setdefault(target, _served(base_url + target)):
                problems.setdefault(path, []).append(f"{url}: not served")
    assert not problems, report(problems)


def test_axe_finds_no_serious_or_critical_violation(visits, output_dir):
    (output_dir / "axe.json").write_text(
        json.dumps({path: v.axe + v.dark_axe for path, v in visits.items()}, indent=1), encoding="utf-8"
    )
    problems = {path: v.failing_axe for path, v in visits.items()}
    assert not any(problems.values()), report(problems)


def test_a_screenshot_of_every_page_is_written(visits, output_dir):
    missing = [p for p in visits if not (output_dir / screenshot_name(p)).is_file()]
    assert not missing
