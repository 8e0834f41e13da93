"""Human labels: the vocabulary (what each label asks, its scale; the metrics declare
which labels they are compared with), label files matched to a run's samples, and
annotation plans (the queue that keeps a corrected estimate valid). Depends on
`ragassay.types` and the dataset's value limits; the store keeps the labels."""

from ragassay.labels.files import LabelFileError, LabelRow, read_label_file
from ragassay.labels.matching import (
    Matched,
    checked_value,
    import_file,
    match_rows,
    mismatch_line,
)
from ragassay.labels.people import (
    PeopleLabels,
    Resolved,
    by_key,
    by_person,
    resolve,
    resolve_all,
)
from ragassay.labels.plan import (
    PLAN_KINDS,
    inclusion,
    labelled_probabilities,
    priority,
    queue,
    weights,
)
from ragassay.labels.vocabulary import (
    VOCABULARY,
    LabelKind,
    canonical,
    check_value,
    linked_metrics,
    lookup,
    nearest,
    own_value,
    problem_value,
    unlinked_reason,
)

__all__ = [
    "PLAN_KINDS",
    "LabelFileError",
    "LabelRow",
    "Matched",
    "PeopleLabels",
    "Resolved",
    "by_key",
    "by_person",
    "resolve",
    "resolve_all",
    "checked_value",
    "import_file",
    "match_rows",
    "mismatch_line",
    "read_label_file",
    "VOCABULARY",
    "LabelKind",
    "canonical",
    "check_value",
    "inclusion",
    "labelled_probabilities",
    "linked_metrics",
    "lookup",
    "nearest",
    "own_value",
    "problem_value",
    "unlinked_reason",
    "priority",
    "queue",
    "weights",
]
