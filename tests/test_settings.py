"""Production mode refuses a missing secret and passes Django's deployment checks."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_manage(*args, **env):
    # The browser tests set DJANGO_ALLOW_ASYNC_UNSAFE for themselves; a deployment never has it.
    dropped = {"SECRET_KEY", "DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    full_env = {k: v for k, v in os.environ.items() if k not in dropped}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=full_env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = run_manage("check", DEBUG="0", ALLOWED_HOSTS="numbo.example")
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_production_passes_check_deploy_without_warnings():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        ALLOWED_HOSTS="numbo.example",
        SECRET_KEY="k" * 20 + "9x!Qz-" * 8,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
