"""The check that the chapters' stored outputs are current: nbval, made to read the chapters as the book does.

``make test`` runs each chapter once, with nbval (``pytest --nbval chapters``),
and this plugin (loaded by the root ``conftest.py``) adds to that one run:

- **Outputs any CPU computes.** nbval compares each cell's fresh outputs with
  the stored ones exactly; here an output the same as the stored one by
  :func:`stored_outputs.same` (numbers to 1 part in 10⁸, Vega-Lite's inline
  data sets by use) counts as equal. What differs otherwise is reported by
  nbval, as before.
- **The prose's numbers.** nbval runs code cells only. Each markdown cell with
  ``{eval}`` roles becomes an item of its own, run in the chapter's kernel after
  every code cell above it (removed ones too, as "Run All" does): it asks the
  kernel for the expressions' values, as jupyterlab-myst does, and compares
  them with the results stored in the cell's ``user_expressions``
  (``make notebooks`` writes them; the site and JupyterLab show them). A
  missing, failing or different result fails, naming the expression.
"""

from __future__ import annotations

import copy
from queue import Empty

import pytest
from stored_outputs import same

USER_EXPRESSIONS = "user_expressions"


def _agreeing(fresh: list, stored: list) -> list:
    """``fresh`` with each output's data replaced by the stored one where the two are the same."""
    fresh = copy.deepcopy(fresh)
    for out, ref in zip(fresh, stored):
        if out.get("output_type") != ref.get("output_type"):
            continue
        if "data" in out and "data" in ref:
            for mime, value in out["data"].items():
                if mime in ref["data"] and same(value, ref["data"][mime]):
                    out["data"][mime] = ref["data"][mime]
        for key in set(out) & set(ref) - {"data", "output_type"}:
            if same(out[key], ref[key]):
                out[key] = ref[key]
    return fresh


class ProseCell(pytest.Item):
    """A markdown cell's ``{eval}`` results, computed in the chapter's kernel and held to the stored ones."""

    def __init__(self, *, cell_index: int, expressions: list[str], stored: list[dict], **kwargs):
        super().__init__(**kwargs)
        self.cell_index, self.expressions, self.stored = cell_index, expressions, stored

    def runtest(self) -> None:
        kernel = self.parent.kernel
        if kernel is None or not kernel.is_alive():
            raise ProseError("the chapter's kernel is not running (a cell above failed)")
        stored = {entry.get("expression"): entry.get("result", {}) for entry in self.stored}
        missing = [e for e in self.expressions if e not in stored]
        if missing:
            raise ProseError(f"no stored result for {', '.join(missing)}: run `make notebooks`")
        msg_id = kernel.kc.execute(
            "", store_history=False, user_expressions={str(i): e for i, e in enumerate(self.expressions)}
        )
        timeout = self.config.option.nbval_cell_timeout
        while True:
            try:
                reply = kernel.get_message(stream="shell", timeout=timeout)
            except Empty as error:
                raise ProseError(f"no answer from the kernel in {timeout:g} s") from error
            if reply["parent_header"].get("msg_id") == msg_id:
                break
        try:
            kernel.await_idle(msg_id, 10)
        except Empty:
            pass
        results = reply["content"].get(USER_EXPRESSIONS, {})
        wrong = []
        for i, expression in enumerate(self.expressions):
            result = results.get(str(i), {"status": "error", "ename": "NoReply", "evalue": ""})
            if result.get("status") != "ok":
                wrong.append(f"{{eval}}`{expression}` failed: {result.get('ename')}: {result.get('evalue')}")
                continue
            kept = stored[expression]
            if kept.get("status") != "ok" or not same(result.get("data"), kept.get("data")):
                now = result.get("data", {}).get("text/plain", "?")
                before = kept.get("data", {}).get("text/plain", "an error")
                wrong.append(f"{{eval}}`{expression}` is {now}, the cell stores {before}")
        if wrong:
            raise ProseError("\n".join(wrong) + "\n(run `make notebooks`)")

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ProseError):
            return f"markdown cell {self.cell_index}: {excinfo.value}"
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"{self.path.name}::Prose {self.cell_index}"


class ProseError(AssertionError):
    """A prose result that is missing, fails or differs from the stored one."""


def _interleaved(original_collect):
    def collect(self):
        from irmeans_book.prose import eval_expressions

        code = {id(item.cell): item for item in original_collect(self)}
        for index, cell in enumerate(self.nb.cells):
            if id(cell) in code:
                yield code[id(cell)]
            elif cell.cell_type == "markdown":
                expressions = eval_expressions(cell.source)
                if expressions:
                    yield ProseCell.from_parent(
                        self,
                        name=f"Prose {index}",
                        cell_index=index,
                        expressions=expressions,
                        stored=cell.metadata.get(USER_EXPRESSIONS, []),
                    )

    return collect


def pytest_configure(config):
    if not (getattr(config.option, "nbval", False) or getattr(config.option, "nbval_lax", False)):
        return
    from nbval import plugin

    if getattr(plugin.IPyNbFile.collect, "_irmeans", False):
        return
    compare = plugin.IPyNbCell.compare_outputs

    def compare_outputs(self, test, ref, skip_compare=None):
        return compare(self, _agreeing(test, ref), ref, skip_compare)

    collect = _interleaved(plugin.IPyNbFile.collect)
    collect._irmeans = True
    plugin.IPyNbCell.compare_outputs = compare_outputs
    plugin.IPyNbFile.collect = collect
