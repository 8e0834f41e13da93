"""`ragassay annotate` typed at with bytes that are not UTF-8 (issue 43, item 14), and its
contexts numbered as citation markers number them (item 15).

On 4f8feb9 a line with invalid UTF-8 (read by Python as lone surrogates, as a terminal in
the C locale or UTF-8 mode does) crashed the command with `UnicodeEncodeError: surrogates
not allowed` when the label was stored, and the label was lost; an annotator name from
the command line alike. Now the bytes are kept as U+FFFD and the label is stored. The
command runs as a subprocess in UTF-8 mode, whose standard input decodes as a terminal's.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from ragassay.store import Store
from tests.support.annotated_run import make_run


def test_bytes_that_are_not_utf8_are_kept_and_the_label_stored(tmp_path: Path) -> None:
    db = tmp_path / "a.db"
    with Store(db) as store:
        run = make_run(store, 40)
    name = b"b\xf6b".decode("utf-8", "surrogateescape")  # Latin-1 bytes on the command line
    done = subprocess.run([sys.executable, "-X", "utf8", "-m", "ragassay", "annotate",
                           run.run_id, "--db", str(db), "--annotator", name],
                          input=b"y the price \xff\xfe is invented\n2\nq\n", capture_output=True,
                          env=dict(os.environ), timeout=300)
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err[-2000:]
    assert "Traceback" not in err
    with Store(db, readonly=True) as store:
        labels = [(lab.name, lab.value, lab.annotator, lab.note) for lab in store.iter_labels()]
    assert labels == [("hallucinated", True, "b\ufffdb", "the price \ufffd\ufffd is invented"),
                      ("relevance", 2.0, "b\ufffdb", "")]
    out = done.stdout.decode("utf-8")
    assert "note: bytes that are not UTF-8 were kept as \ufffd" in out
    # contexts are numbered from 1, as citation markers ([1]) number them
    assert "Context 1: " in out and "Context 0: " not in out
