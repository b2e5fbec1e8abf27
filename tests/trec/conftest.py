"""What the evaluator's tests share: the two readers of TREC files, and small qrels and runs written to files."""

import pytest
from irmeans.trec import tokens

#: Every file is read by pyarrow's tokeniser from this size on (0: every file), else by the exact reader.
READERS = {"exact": 1 << 62, "arrow": 0}


@pytest.fixture(params=list(READERS))
def reader(request, monkeypatch):
    """Run the test once with each reader of TREC files: the exact (numpy) one and pyarrow's."""
    monkeypatch.setattr(tokens, "ARROW_BYTES", READERS[request.param])
    return request.param
