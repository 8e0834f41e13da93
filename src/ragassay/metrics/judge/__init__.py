"""The `judge` suite: four 1-10 metrics and a weighted overall score from one call per sample."""

from ragassay.metrics.judge.suite import (
    OVERALL_WEIGHTS,
    JudgeScores,
    JudgeSuite,
    overall_score,
    score_judge,
)

__all__ = ["OVERALL_WEIGHTS", "JudgeScores", "JudgeSuite", "overall_score", "score_judge"]
