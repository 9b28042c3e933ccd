"""The whole stack started as it ships (compose.yaml and the Dockerfile), as
separate processes on this machine's PostgreSQL and Redis."""
