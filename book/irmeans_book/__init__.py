"""The book's own code: figure plumbing (:mod:`.plots`), one module of figures
and live controls per chapter (:mod:`.figures`), the prose's computed figure
references, titles and citations (:mod:`.prose`), and the search that
reconstructed Robertson's example data (:mod:`.robertson`).

The library, :mod:`irmeans`, never imports this package.
"""

__all__: list[str] = []
