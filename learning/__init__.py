"""What a pupil's calculations say about what they know: pure Python, no Django.

The learning records are the one input (``records``: the attempts the engine
returns, the opportunities the games log), much as Kolibri's
``kolibri/core/logger`` keeps the logs and ``kolibri/plugins/coach`` reads them
into reports. The Django side (``classroom.reports.services``) turns model rows
into these records and renders what comes back; nothing else in the project
imports this package, and the tests run without a database in microseconds.

Evidence
--------
Only **first tries** are evidence. A retry comes after the game has said "not
quite", so it measures whether the pupil can fix an answer, not whether they
knew it; retries are counted (``SkillSummary.retries``) and otherwise ignored by
accuracy, the last-10 window, median time, the BKT estimate, the tables grid and
the mistakes list.

Modules, each owning one idea
-----------------------------
``skills``         the skills the engine tags (``engine.core.SKILLS``) and the four operations
``records``        ``AttemptRecord`` and ``OpportunityRecord``, the input shape
``bkt``            Bayesian Knowledge Tracing: the estimate that a pupil knows a skill
``verdicts``       the status rules ("mastered", "needs help"...) and their sentences
``mistakes``       naming a wrong answer's likely cause
``times_tables``   the tables 1..12 and the 10 × 10 grid of facts
``opportunities``  whether a pupil avoids an operation they could have used
``tally``          all of the above for each pupil, one record at a time (streams)
``trend``          accuracy and estimate per week, for the charts
``groups``         the next lesson's groups: each pupil's most pressing need, or the next step
``table_plan``     tables for a group: two of one need, or mixed with a master as a team
``practice_effect`` what a practice session changed: the last 10 before, the first 10 after
``i18n``           the ``N_`` marker: sentences are translated where they are shown
"""
