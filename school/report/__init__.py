"""The school report: year groups × skills, classes side by side, who needs
help across the school, and its three files.

Built by a report job (``jobs``) from the class reports' own rows
(``classroom.reports.services.class_report``): a pupil counts in the school
report exactly as their class report shows them, with the same verdicts and
the same words (docs/EVIDENCE.md).
"""
