"""Load RAG samples for evaluation from files or in-memory data, streaming.

Formats: JSONL/NDJSON, JSON (a top-level list), CSV, Parquet (by extension; `.gz` for
the text formats), and from Python a pandas DataFrame, a `datasets.Dataset` or any
iterable of mappings. RAGAS and legacy field names are accepted (see `schema.ALIASES`).
Every row goes through `sample_from_mapping`; bad rows raise a one-line `DatasetError`
(`data.jsonl:17: 'contexts' must be a list of strings`) or, with `skip_invalid=True`,
come back as `InvalidRow` in their place. `field_map={"answer": "generated_answer"}`
reads a field from a column of another name (the CLI's `--map answer=generated_answer`).
`check_dataset` is the first pass commands make before paying for a judge call.
"""

from __future__ import annotations

from pathlib import Path

from ragassay.dataset.check import DatasetCheck, check_dataset, check_items
from ragassay.dataset.errors import DatasetError
from ragassay.dataset.loader import (
    dataset_fingerprint,
    iter_records,
    iter_samples,
    load_samples,
)
from ragassay.dataset.schema import ALIASES, check_field_map, content_id, sample_from_mapping

__all__ = [
    "ALIASES",
    "DatasetCheck",
    "DatasetError",
    "check_dataset",
    "check_field_map",
    "check_items",
    "content_id",
    "dataset_fingerprint",
    "demo_dataset_path",
    "iter_records",
    "iter_samples",
    "load_samples",
    "sample_from_mapping",
]


def demo_dataset_path() -> Path:
    """The bundled demo: 12 support questions about the fictional Larkspur API x 2 strategies.

    Strategies `bm25-k3` and `dense-k5` answer the same questions; each row has human
    labels `{"hallucination": bool, "correct": bool}`.
    """
    return Path(__file__).resolve().parent / "samples" / "demo.jsonl"
