"""The `judge` suite: four 1-10 metrics and a weighted overall score from one call per sample."""

from ragassay.metrics.judge.suite import (
    OVERALL,
    OVERALL_WEIGHTS,
    JudgeScores,
    JudgeSuite,
    offline_scores,
    overall_score,
    score_judge,
)

__all__ = [
    "SUITE","OVERALL", "OVERALL_WEIGHTS", "JudgeScores", "JudgeSuite", "offline_scores",
           "overall_score", "score_judge"]

SUITE = JudgeSuite
