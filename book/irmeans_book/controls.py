"""A figure's controls, read and set by name or label: the parameters of its Vega-Lite spec bound to an input.

:func:`controls` reads them; :func:`at_setting` sets them as a reader names them, for a slide at any setting
(:meth:`irmeans_book.plots.VegaLiteFigure.at`) or the words of a setting (:mod:`irmeans_book.slides`). Plain
data in, plain data out: the figures (:mod:`irmeans_book.plots`) and the slides both build on it.

Examples
--------
>>> spec = {"params": [{"name": "k", "value": 1, "bind": {"input": "range", "min": 0, "max": 2, "step": 1}}]}
>>> [(c.name, c.values()) for c in controls(spec)], at_setting(spec, {"k": 2})["params"][0]["value"]
([('k', [0.0, 1.0, 2.0])], 2.0)
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["Control", "controls", "starting_setting", "at_setting"]

#: A Vega-Lite spec, as JSON's dict (what :func:`irmeans_book.plots.to_spec` makes).
Spec = dict[str, Any]


def _plain(text: object) -> str:
    """A control's label or a value's, as a reader types it: no space around it, no colon after it, any case."""
    return re.sub(r"\s+", " ", str(text)).strip().rstrip(":").strip().casefold()


def _number(text: Any) -> str:
    """A number as a control shows it: ``0.05``, ``-5``, ``1e-05``."""
    value = float(text)
    return f"{value:g}" if value != int(value) or abs(value) >= 1e16 else str(int(value))


@dataclasses.dataclass(frozen=True)
class Control:
    """One control of a figure: a parameter of its spec bound to an input.

    Examples
    --------
    >>> c = Control.of({"name": "eps", "value": 0.01, "bind": {"input": "select", "options": [0.001, 0.01],
    ...                 "labels": ["1e-03", "1e-02"], "name": "ε "}})
    >>> c.label, c.value_of("1e-03"), c.shown(0.01)
    ('ε', 0.001, '1e-02')
    """

    name: str
    label: str
    input: str
    value: object
    options: tuple[Any, ...] = ()
    labels: tuple[Any, ...] = ()
    min: float | None = None
    max: float | None = None
    step: float | None = None

    @classmethod
    def of(cls, param: dict[str, Any]) -> Control:
        bind = param["bind"]
        options = tuple(bind.get("options", ()))
        return cls(
            name=param["name"],
            label=str(bind.get("name") or param["name"]).strip(),
            input=bind.get("input", ""),
            value=param.get("value"),
            options=options,
            labels=tuple(bind.get("labels", ())) or tuple(str(o) for o in options),
            min=bind.get("min"),
            max=bind.get("max"),
            step=bind.get("step"),
        )

    def values(self) -> list[Any]:
        """Every value the control can take: a select's options, a checkbox's False and True, a slider's steps
        (and where it starts, if that is off them); none for a text box (a reader types anything).

        Examples
        --------
        >>> Control("k", "k", "range", 0.25, min=0.0, max=0.5, step=0.1).values()
        [0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5]
        """
        if self.options:
            return list(self.options)
        if self.input == "checkbox":
            return [False, True]
        if self.input == "range" and self.step:
            n = int(round((self.max - self.min) / self.step))  # type: ignore[operator]  # a slider has min, max and step
            steps = [float(np.round(self.min + k * self.step, 10)) for k in range(n + 1)]  # type: ignore[operator]  # a slider has min, max and step
            if isinstance(self.value, int | float) and all(abs(self.value - s) > 1e-9 for s in steps):
                steps = sorted([*steps, float(self.value)])
            return steps
        return []

    def shown(self, value: object) -> str:
        """``value`` as the control shows it: a select's label, a slider's number, a checkbox's yes or no."""
        if self.options:
            for option, label in zip(self.options, self.labels):
                if option == value:
                    return str(label)
        if self.input == "checkbox":
            return "yes" if value else "no"
        if self.input == "range" and isinstance(value, int | float):
            return _number(value)
        return str(value)

    def value_of(self, wanted: Any) -> Any:
        """The parameter's value that shows ``wanted``; ValueError, naming what it can show, if none does."""
        if self.options:
            for option, label in zip(self.options, self.labels):
                if option == wanted and type(option) is not bool or _plain(label) == _plain(wanted):
                    return option
            raise ValueError(
                f"{self.label!r} ({self.name}) offers {', '.join(repr(str(label)) for label in self.labels)}, "
                f"not {wanted!r}"
            )
        if self.input == "checkbox":
            if isinstance(wanted, bool | np.bool_):
                return bool(wanted)
            raise ValueError(f"{self.label!r} ({self.name}) is a checkbox: True or False, not {wanted!r}")
        if self.input == "range":
            try:
                number = float(wanted)
            except (TypeError, ValueError):
                raise ValueError(f"{self.label!r} ({self.name}) is a slider: a number, not {wanted!r}") from None
            steps = (number - self.min) / self.step if self.step else 0.0  # type: ignore[operator]  # a slider has min, max and step
            on_a_step = abs(steps - round(steps)) < 1e-6
            if isinstance(self.value, int | float) and abs(number - self.value) < 1e-9:
                return self.value  # where it starts, on its steps or not (a reader's own value)
            if not (self.min - 1e-9 <= number <= self.max + 1e-9 and on_a_step):  # type: ignore[operator]  # a slider has min, max and step
                raise ValueError(
                    f"{self.label!r} ({self.name}) runs from {_number(self.min)} to {_number(self.max)} "
                    f"in steps of {_number(self.step)}: {wanted!r} is not one of them"
                )
            return float(np.round(self.min + round(steps) * self.step, 10))  # type: ignore[operator]  # a slider has min, max and step
        if isinstance(wanted, list | tuple | np.ndarray):
            return ", ".join(_number(v) for v in wanted)
        return str(wanted)


def controls(spec: Spec) -> list[Control]:
    """The controls of a figure's spec, in order: its parameters bound to an input.

    Examples
    --------
    >>> [c.label for c in controls({"params": [{"name": "k", "value": 2, "bind": {"input": "range", "name": "k "}},
    ...                                       {"name": "brush", "select": "interval"}]})]
    ['k']
    """
    return [Control.of(p) for p in spec.get("params", []) if isinstance(p.get("bind"), dict) and "input" in p["bind"]]


def starting_setting(spec: Spec) -> dict[str, Any]:
    """Each control's value as the figure starts, by name."""
    return {c.name: c.value for c in controls(spec)}


def at_setting(spec: Spec, settings: Mapping[str, Any]) -> Spec:
    """A copy of ``spec`` with its controls set: ``settings`` maps each control's name or label to its value.

    A value is given as the control shows it: a select's option by its label
    (``"geometric mean"``, ``"S2"``), a slider's number (one of its steps, or
    where it starts), a checkbox's True or False.

    Examples
    --------
    >>> spec = {"params": [{"name": "eps", "value": 0.01, "bind": {"input": "select", "options": [0.001, 0.01],
    ...                     "labels": ["1e-03", "1e-02"], "name": "ε "}}], "mark": "point"}
    >>> at_setting(spec, {"ε": "1e-03"})["params"][0]["value"]
    0.001
    >>> at_setting(spec, {"k": 1})
    Traceback (most recent call last):
    ...
    ValueError: the figure has no control 'k'; its controls: eps ('ε')
    """
    found = controls(spec)
    by_key = {c.name: c for c in found}
    by_key.update({_plain(c.label): c for c in found if _plain(c.label) not in by_key})
    values: dict[str, Any] = {}
    for key, wanted in settings.items():
        control = by_key.get(key) or by_key.get(_plain(key))
        if control is None:
            listed = ", ".join(f"{c.name} ({c.label!r})" for c in found) or "none"
            raise ValueError(f"the figure has no control {key!r}; its controls: {listed}")
        values[control.name] = control.value_of(wanted)
    out = dict(spec)
    params = spec.get("params", [])
    out["params"] = [{**p, "value": values[p["name"]]} if p.get("name") in values else p for p in params]
    return out
