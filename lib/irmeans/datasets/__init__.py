"""Data shipped with irmeans, read from the installed package (``importlib.resources``).

:func:`robertson_example` is the reconstructed 50-topic AP example of
Robertson (2006, §3). Each data file has a provenance note beside it in
``irmeans/datasets/data/``.

>>> from irmeans.datasets import robertson_example
>>> robertson_example().shape
(50,)
"""

from __future__ import annotations

from importlib import resources

import numpy as np

from ..errors import FileFormatError

__all__ = ["robertson_example", "data_file"]


def data_file(name: str):
    """A :class:`importlib.resources.abc.Traversable` for the shipped file ``name``."""
    path = resources.files(__package__) / "data" / name
    if not path.is_file():
        raise FileNotFoundError(f"irmeans ships no data file {name!r}")
    return path


def robertson_example() -> np.ndarray:
    """The 50 AP values reconstructed from the figures of Robertson (2006, §3).

    They reproduce every figure he prints for his 0.05-boost example to three
    decimals; they are a reconstruction, not his data (see
    ``robertson2006-example.md`` beside the file).

    Returns
    -------
    ndarray, shape (50,)

    Examples
    --------
    >>> ap = robertson_example()
    >>> int((ap == 0).sum()), round(float(ap.mean()), 3)
    (3, 0.309)
    """
    name = "robertson2006-example.csv"
    lines = data_file(name).read_text().split()
    if not lines or lines[0] != "ap":
        raise FileFormatError("expected a single column with header 'ap'", path=name, line=1)
    return np.array([float(v) for v in lines[1:]])
