"""Skill reports: the queries the pages and the exports share (services), the
file writers (exports) and the report jobs the Celery tasks run (jobs)."""
