import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


@pytest.fixture(scope="session")
def wordnet_reader():
    """WordNet is part of the test set-up (README's test command installs it): a missing
    WordNet is a failure, not a skip, so a broken set-up cannot pass quietly."""
    from meteor_core.wordnet import load_wordnet

    reader, status = load_wordnet()
    if not status.available:
        pytest.fail(status.message)
    return reader
