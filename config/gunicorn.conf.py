"""gunicorn's settings for the web image: the configuration the load benchmark
(tests/bench/bench_load.py) measures.

Threaded workers keep idle keep-alive connections off the worker: every tablet
keeps a connection open. One thread per worker and a worker per half core: the
work is CPU-bound Python, so more threads add only contention for the
interpreter lock. The tablets' event streams are served apart, by the ``push``
service (config.asgi with GUNICORN_WORKER_CLASS=uvicorn_worker.UvicornWorker):
each holds a connection for minutes, which these threads could not carry.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", 2 * multiprocessing.cpu_count()))
worker_class = os.environ.get("GUNICORN_WORKER_CLASS", "gthread")
threads = 1
# s: longer than a listening tablet's 20 s between safety polls (static/js/push.js),
# so its next poll or move finds its connection open instead of making a new one.
keepalive = 30
backlog = 2048  # a class signing in at once
worker_tmp_dir = "/dev/shm"  # the heartbeat file off the disk
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None  # "" turns it off
