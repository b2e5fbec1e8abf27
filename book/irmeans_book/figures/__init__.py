"""Chapter figures: each module precomputes one chapter's interactive figures with the library.

The plumbing they share (showing a chart, its alt text, the palette, inline
data) is in :mod:`irmeans_book.plots`.
"""

__all__: list[str] = []
