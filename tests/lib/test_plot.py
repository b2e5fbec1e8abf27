"""compare's plot on any name, under any address-space limit, written whole or not at all, and stopped by Ctrl-C.

The drawing's speed is measured by ``make bench`` (benchmarks/bench_plot.py), never here.
"""

import os
import re
import resource
import signal
import subprocess
import sys
import xml.etree.ElementTree as ET

import matplotlib  # noqa: F401  (the irmeans[plot] extra, which both test environments install)
import numpy as np
import pytest
from irmeans import compare
from irmeans.comparison.plot import PALETTE, shown_name, sorted_panels
from irmeans.comparison.plot_drawing import save_topic_differences
from irmeans.errors import IrmeansError

# Names that broke the earlier renderer or could act on what shows them: control characters (a terminal's
# ESC and BEL, a form feed, a newline), bytes that are not UTF-8 (read with surrogateescape, as the
# command line reads its arguments and files), a dollar sign (mathematics to matplotlib), wide characters.
HOSTILE = ["ctl\x01one", "esc\x1b]0;title\x07", "form\x0cfeed", "new\nline", "bad\udcffbyte", "$x^2$", "検索システム"]


def hostile_scores(n_topics=8):
    rng = np.random.default_rng(5)
    return {name: dict(zip([f"t\x1b{k}" for k in range(n_topics)], rng.random(n_topics))) for name in HOSTILE[:3]}


def svg_texts(path):
    root = ET.parse(path).getroot()  # a well-formed XML document, whatever the names
    return [t for e in root.iter() if e.tag.endswith("text") for t in [("".join(e.itertext()))]]


def test_names_are_shown_escaped_each_on_one_line_and_never_two_as_one():
    shown = [shown_name(n) for n in HOSTILE]
    assert shown[:5] == ["ctl\\x01one", "esc\\x1b]0;title\\x07", "form\\x0cfeed", "new\\nline", "bad\\xffbyte"]
    assert shown[5:] == HOSTILE[5:]
    assert all(s.isprintable() for s in shown) and len(set(shown)) == len(shown)


@pytest.mark.parametrize("ext", [".svg", ".png"])
def test_any_name_is_drawn(tmp_path, ext):
    pairs = [f"{a} - {b}" for a, b in zip(HOSTILE, HOSTILE[1:])]
    d = np.random.default_rng(1).normal(size=(len(pairs), 2, len(HOSTILE)))
    path = tmp_path / f"p{ext}"
    save_topic_differences(path, pairs, ["AM: x", "εGM\x1b (ε = 0.01): log(x + 0.01)"], HOSTILE, d, "title\x07")
    data = path.read_bytes()
    if ext == ".png":
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        return
    text = " ".join(svg_texts(path))
    for pair in pairs:
        assert shown_name(pair) in text  # each pair named, escaped
    assert "εGM\\x1b (ε = 0.01)" in text and "title\\x07" in text
    assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]", data.decode("utf-8"))


def fill_counts(path):
    """How many bars (subpaths) each fill colour of the SVG has."""
    counts = {}
    for e in ET.parse(path).getroot().iter():
        style, d = e.get("style", ""), e.get("d", "")
        fill = re.search(r"fill:\s*(#[0-9a-f]{6})", style)
        if e.tag.endswith("path") and fill:
            counts[fill.group(1)] = counts.get(fill.group(1), 0) + d.count("z")
    return counts


def test_the_figure_keeps_its_content_and_its_okabe_ito_colours(tmp_path):
    # one bar a topic in each panel: A's gains in blue, B's in orange, ties in grey (and a swatch of each)
    d = np.array([[[0.5, -0.25, 0.0, 0.125], [0.1, 0.2, -0.3, -0.4]]])
    save_topic_differences(tmp_path / "p.svg", ["A - B"], ["AM: x", "εGM: log(x + 0.01)"], list("wxyz"), d)
    counts = fill_counts(tmp_path / "p.svg")
    blue, orange, grey = (c.lower() for c in PALETTE)
    assert (counts[blue], counts[orange], counts[grey]) == (1 + 4, 1 + 3, 1 + 1)
    assert sorted_panels(d)[0].tolist() == [[0, 3, 2, 1], [1, 0, 2, 3]]  # each panel's own order, largest first
    assert "better on the topic" in svg_texts(tmp_path / "p.svg")


def test_a_comparison_draws_what_it_computed(tmp_path):
    result = compare(hostile_scores(), ["am", "gm:0.01"], permutations=20, bootstrap=20)
    result.save_plot(tmp_path / "c.svg")
    names, columns, topics, d, title = result._plot_data()
    counts = fill_counts(tmp_path / "c.svg")
    assert counts[PALETTE[0].lower()] == int((d > 0).sum()) + 1
    assert counts[PALETTE[1].lower()] == int((d < 0).sum()) + 1
    assert title in " ".join(svg_texts(tmp_path / "c.svg")).replace("\\x1b", "\x1b").replace("\\x01", "\x01")


def test_a_failed_write_keeps_the_earlier_plot_and_leaves_nothing_behind(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    path = tmp_path / "p.svg"
    d = np.ones((1, 1, 3))
    save_topic_differences(path, ["A - B"], ["AM: x"], ["1", "2", "3"], d)
    good = path.read_bytes()

    def full_disk(self, f, **kwargs):
        f.write(b"<?xml half a plot")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(Figure, "savefig", full_disk)
    with pytest.raises(IrmeansError, match=r"p\.svg: cannot write the plot \(No space left on device\)"):
        save_topic_differences(path, ["A - B"], ["AM: x"], ["1", "2", "3"], -d)
    assert path.read_bytes() == good and os.listdir(tmp_path) == ["p.svg"]


def irmeans(args, *, limit=None, address_space=None, cwd=None):
    """``python -m irmeans.cli compare ARGS`` with a file-size limit or an address-space limit (bytes)."""

    def before():
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        if address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))

    command = [sys.executable, "-m", "irmeans.cli", "compare", *args]
    return subprocess.run(command, preexec_fn=before, capture_output=True, timeout=300, cwd=cwd)


def test_past_a_file_size_limit_the_earlier_plot_stays_whole(tmp_path):
    scores = tmp_path / "s.csv"
    scores.write_text("system,1,2,3,4\nA,0.1,0.5,0.3,0.9\nB,0.4,0.2,0.6,0.1\n")
    args = ["--scores", str(scores), "-n", "20", "-b", "20", "--plot", str(tmp_path / "p.png")]
    assert irmeans(args).returncode == 0
    good = (tmp_path / "p.png").read_bytes()
    proc = irmeans([*args[:-1], str(tmp_path / "p.png")], limit=4096)
    assert proc.returncode == 1 and proc.stdout == b""
    assert proc.stderr.decode().endswith("p.png: cannot write the plot (File too large)\n")
    assert (tmp_path / "p.png").read_bytes() == good and sorted(os.listdir(tmp_path)) == ["p.png", "s.csv"]


def largest(tmp_path):
    """The largest figure --plot draws: 25 pairs (26 systems against a baseline) x 3 averages x 250 topics."""
    rng = np.random.default_rng(3)
    s = rng.beta(0.6, 1.4, (26, 250))
    lines = ["system," + ",".join(str(301 + t) for t in range(250))]
    lines += [f"run{i:02d}," + ",".join(f"{v:.4f}" for v in s[i]) for i in range(26)]
    path = tmp_path / "largest.csv"
    path.write_text("\n".join(lines) + "\n")
    return ["--scores", str(path), "--baseline", "run00", "-n", "100", "-b", "100"]


@pytest.mark.parametrize("gigabytes", [1, 4])
def test_the_plot_is_drawn_under_every_address_space_limit_the_command_runs_under(tmp_path, gigabytes):
    args = largest(tmp_path)
    limit = gigabytes * 1000**3
    plain = irmeans(args, address_space=limit)
    assert plain.returncode == 0, plain.stderr.decode()
    for ext in ("svg", "png"):
        proc = irmeans([*args, "--plot", str(tmp_path / f"p.{ext}")], address_space=limit)
        assert (proc.returncode, proc.stdout) == (0, plain.stdout), proc.stderr.decode()
        assert (tmp_path / f"p.{ext}").stat().st_size > 100_000


def test_ctrl_c_while_it_draws_ends_it_with_130_and_leaves_no_file(tmp_path):
    # SIGINT is sent from inside the drawing itself (the first path Agg fills), so that it arrives while the
    # figure is being drawn on any machine, however fast; make bench measures how soon a real Ctrl-C acts.
    args = [*largest(tmp_path), "--plot", str(tmp_path / "p.png")]
    code = (
        "import os, signal, sys\n"
        "from matplotlib.backends import backend_agg\n"
        "draw_path = backend_agg.RendererAgg.draw_path\n"
        "def interrupted(self, *a, **k):\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    return draw_path(self, *a, **k)\n"
        "backend_agg.RendererAgg.draw_path = interrupted\n"
        "from irmeans.cli import main\n"
        f"sys.exit(main(['compare', *{args!r}]))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=300)
    assert (proc.returncode, proc.stdout, proc.stderr) == (130, b"", b"")
    assert sorted(os.listdir(tmp_path)) == ["largest.csv"]  # neither the plot nor a part of it


def test_the_plot_needs_matplotlib_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(IrmeansError, match=r"needs matplotlib: pip install 'irmeans\[plot\]'"):
        save_topic_differences(tmp_path / "p.svg", ["A - B"], ["AM: x"], ["1", "2"], np.ones((1, 1, 2)))
    assert not os.listdir(tmp_path)


def test_drawing_leaves_the_user_s_matplotlib_settings_and_warnings_as_they_were(tmp_path):
    import warnings

    import matplotlib as mpl

    before = dict(mpl.rcParams)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        save_topic_differences(tmp_path / "p.png", ["検索 - B"], ["AM: x"], ["検", "索"], np.ones((1, 1, 2)))
    assert not caught  # a glyph DejaVu Sans lacks is drawn as its box, without a warning
    assert dict(mpl.rcParams) == before
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
