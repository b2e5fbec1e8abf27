"""When a freshly computed output is the one a chapter stores: the same, numbers to 1 part in 10⁸.

numpy's ``exp``, ``log`` and ``**`` may differ in the last bit from one CPU to
another. The figures round their numbers to
:data:`irmeans_book.plots.SIGNIFICANT_DIGITS` where they are made, so their
outputs are the same on any machine, but a value within a few units in the
last place of a rounding boundary can still round the other way there. So the
check of every stored output (nbval's comparison of the chapters' cells, the
prose's ``{eval}`` results, the figures made for slides) holds numbers equal
when they agree within :data:`REL` (relative) or :data:`ABS` (absolute: the
difference of two close numbers of order 1, a score or its log, may be 0 on one
machine and a few 1e-16 on another): a change a reader could see, or a real
change of the code, is far larger. (So a number below 1e-7 that changed by less
than 1e-15 would pass too.) Numbers inside text are compared the same way, token by token.

A printed number rounded to 4 decimals whose value lies within an ulp of a
half-way point could still print differently on another CPU (a chance of
about 1e-12 per number); no tolerance can absorb that, and none is attempted.

Vega-Lite names an inline data set by a hash of its rows (``data-<hex>``);
:func:`canonical` renames them by the order in which the spec uses them, so that
a one-ulp change of a row changes no name.
"""

from __future__ import annotations

import doctest
import json
import math
import re

#: Relative and absolute tolerance of two numbers that are "the same".
REL = 1e-8
ABS = 1e-15

DATASET = re.compile(r"^data-[0-9a-f]{32}$")
#: A number written in text, standing on its own (not the digits inside a name such as a data set's hash).
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?(?![\w.])")


def canonical(spec):
    """``spec`` with its inline data sets named ``data-0``, ``data-1``... by first use (``datasets`` aside)."""
    if not isinstance(spec, dict) or not isinstance(spec.get("datasets"), dict):
        return spec
    order: dict[str, str] = {}

    def uses(node):
        if isinstance(node, str) and DATASET.match(node):
            order.setdefault(node, f"data-{len(order)}")
        elif isinstance(node, dict):
            for key in sorted(node):
                uses(node[key])
        elif isinstance(node, list):
            for value in node:
                uses(value)

    uses({k: v for k, v in spec.items() if k != "datasets"})
    # A data set no mark uses (none should be) keeps an order by its rows.
    for name in sorted(spec["datasets"], key=lambda n: json.dumps(spec["datasets"][n], sort_keys=True)):
        order.setdefault(name, f"data-{len(order)}")

    def renamed(node):
        if isinstance(node, str):
            return order.get(node, node)
        if isinstance(node, dict):
            return {order.get(k, k): renamed(v) for k, v in node.items()}
        if isinstance(node, list):
            return [renamed(v) for v in node]
        return node

    return renamed(spec)


def close(a: float, b: float) -> bool:
    """Two numbers the same to :data:`REL` or :data:`ABS` (NaN is NaN; infinities are equal only to themselves)."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=REL, abs_tol=ABS)


def _same_text(a: str, b: str) -> bool:
    if a == b:
        return True
    parts_a, parts_b = NUMBER.split(a), NUMBER.split(b)
    numbers_a, numbers_b = NUMBER.findall(a), NUMBER.findall(b)
    return (
        parts_a == parts_b
        and len(numbers_a) == len(numbers_b)
        and all(close(float(x), float(y)) for x, y in zip(numbers_a, numbers_b))
    )


def _same(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return close(float(a), float(b))
    if isinstance(a, str) and isinstance(b, str):
        return _same_text(a, b)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def same(fresh, stored) -> bool:
    """Whether ``fresh`` (an output's data: text, or a JSON value) is ``stored``, as this module defines it.

    >>> same({"x": 0.4575220657616606}, {"x": 0.45752206576166055})
    True
    >>> same("AP 0.3516 and 0.10000000000000002", "AP 0.3516 and 0.1")
    True
    >>> same("AP 0.3517", "AP 0.3516"), same({"x": 0.45752}, {"x": 0.45753})
    (False, False)
    """
    return _same(canonical(fresh), canonical(stored))


def nudged(node, ulps: int = 4):
    """``node`` with every float moved ``ulps`` units in the last place up, as another CPU's ``exp`` might move it.

    Floats inside text are moved too, where a number with 15 or more significant digits is written.

    >>> nudged(0.1) > 0.1, nudged([1, 2.5])[0]
    (True, 1)
    """
    if isinstance(node, bool) or isinstance(node, int):
        return node
    if isinstance(node, float):
        for _ in range(ulps):
            node = math.nextafter(node, math.inf)
        return node
    if isinstance(node, str):
        return NUMBER.sub(
            lambda m: repr(nudged(float(m.group(0)), ulps)) if len(m.group(0).strip("+-.0")) >= 15 else m.group(0),
            node,
        )
    if isinstance(node, dict):
        return {k: nudged(v, ulps) for k, v in node.items()}
    if isinstance(node, list):
        return [nudged(v, ulps) for v in node]
    return node


class NumbersChecker(doctest.OutputChecker):
    """doctest's checker, which also takes printed output whose numbers are the example's by :func:`same`.

    A docstring's example prints what its author's machine printed: ``0.4`` may be ``0.39999999999999997``
    where ``exp`` and ``log`` round the other way.
    """

    def check_output(self, want: str, got: str, optionflags: int) -> bool:
        if super().check_output(want, got, optionflags):
            return True
        return _same_text(" ".join(want.split()), " ".join(got.split()))


def failed_examples(module) -> int:
    """How many of ``module``'s docstring examples fail, with :class:`NumbersChecker` (the failures are printed)."""
    finder, runner = (
        doctest.DocTestFinder(),
        doctest.DocTestRunner(checker=NumbersChecker(), optionflags=doctest.NORMALIZE_WHITESPACE),
    )
    for test in finder.find(module, module.__name__):
        runner.run(test)
    return runner.failures
