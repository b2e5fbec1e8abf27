"""What the evaluator's tests share: the two readers of TREC files, and files read in small chunks."""

import pytest
from irmeans.trec import files, run_blocks, source

#: Every file is read by pyarrow's tokeniser from this size on (0: every file), else by the exact reader.
READERS = {"exact": 1 << 62, "arrow": 0}


@pytest.fixture(params=list(READERS))
def reader(request, monkeypatch):
    """Run the test once with each reader of TREC files: the exact (numpy) one and pyarrow's."""
    monkeypatch.setattr(files, "ARROW_BYTES", READERS[request.param])
    return request.param


@pytest.fixture
def small_chunks(monkeypatch):
    """``small_chunks(size)``: read files in chunks of about ``size`` bytes (a small one too, not in one), and
    rank every run file block by block as it is read (whatever its size)."""

    def use(size):
        monkeypatch.setattr(source, "CHUNK_BYTES", size)
        monkeypatch.setattr(files, "WHOLE_BYTES", 0)
        monkeypatch.setattr(run_blocks, "STREAM_BYTES", 0)

    return use
