"""Every page of the built site, opened in Chromium: clean console, local requests, alt text, links, axe."""

from __future__ import annotations

import json
import urllib.request

import sitetools
from visit import ALT_TEXT_PROBLEMS, WCAG_TAGS, axe_version, reading, run_axe, screenshot_name, split_internal

LAPTOP = (1366,)


@reading("alt text", widths=LAPTOP, modes=("light",))
def _alt_text(page, where):
    return page.evaluate(ALT_TEXT_PROBLEMS)


# axe once in each state of each page: at both widths, in light and in dark, with everything a reader can
# open opened and every self-check's feedback showing (visit.open_everything).
@reading("axe", stage="opened")
def _axe(page, where):
    return run_axe(page)


def report_of(problems: dict) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(map(str, found)) for page, found in problems.items() if found)


def test_every_page_was_opened_at_each_width_in_both_modes(tour, site):
    assert {key[0] for key in tour.records} == set(sitetools.pages(site))
    assert len(tour.records) == 4 * len(sitetools.pages(site))
    assert any(tour.found("figures").values()), "no page has an interactive figure"


def test_no_console_error(tour):
    problems = {key: log.errors for key, log in tour.logs.items()}
    assert not any(problems.values()), report_of(problems)


def test_no_failed_request(tour):
    problems = {key: log.failed for key, log in tour.logs.items()}
    assert not any(problems.values()), report_of(problems)


def test_nothing_is_requested_from_another_host(tour):
    problems = {key: log.outside for key, log in tour.logs.items()}
    assert not any(problems.values()), report_of(problems)


def test_every_image_and_figure_has_alt_text(tour):
    problems = tour.found("alt text")
    assert not any(problems.values()), report_of(problems)


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
    assert not problems, report_of(problems)


def test_axe_finds_no_violation_on_any_page_at_either_width_in_either_mode(tour, output_dir):
    """axe-core (pinned in package.json) with WCAG 2.0 and 2.1 A and AA rules: no violation of any impact, in any
    state of any page. What axe could not decide ("incomplete": a colour over a gradient, text it cannot see
    behind) is listed in _build/screenshots/axe.json and in this test's output, for a person to check."""
    found = tour.found("axe")
    assert len(found) == 4 * len(sitetools.pages(sitetools.SITE)), sorted(found)
    report = {"axe-core": axe_version(), "tags": WCAG_TAGS}
    report.update({" ".join(map(str, key)): result for key, result in found.items()})
    (output_dir / "axe.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    undecided = {}
    for key, result in found.items():
        for item in result["incomplete"]:
            undecided.setdefault(f"{item['id']} ({item['help']})", set()).add(key[0])
    print(f"\naxe-core {axe_version()}: what it could not decide, for a person to check (axe.json has the nodes):")
    for rule, pages in sorted(undecided.items()):
        print(f"  {rule}: on {len(pages)} page(s)")
    problems = {key: result["violations"] for key, result in found.items()}
    assert not any(problems.values()), report_of(problems)


def test_axe_core_is_pinned_to_4_14():
    """The accessibility checker is the version the site was made to pass: exactly one, from npm (never a CDN)."""
    pinned = json.loads((sitetools.ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]["axe-core"]
    assert pinned.startswith("4.14.") and pinned[0].isdigit(), pinned
    assert axe_version() == pinned


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
