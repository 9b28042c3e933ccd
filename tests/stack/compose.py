"""What compose.yaml and the Dockerfile say to run, read from them (no YAML
library: the commands are JSON lists on their lines, the environment simple
``KEY: value`` lines), so that the stack test runs what ships."""

from __future__ import annotations

import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"
DOCKERFILE = ROOT / "Dockerfile"


def _service_block(name: str) -> str:
    text = COMPOSE.read_text()
    found = re.search(rf"^  {re.escape(name)}:\n((?:    .*\n|\s*\n)*)", text, re.M)
    if found is None:
        raise LookupError(f"compose.yaml has no service {name!r}")
    return found.group(1)


def service_command(name: str) -> list[str]:
    """The ``command:`` of a compose service, or the image's CMD without one."""
    block = _service_block(name)
    found = re.search(r"^    command: (\[.*?\])", block, re.M | re.S)
    if found is None:
        return image_command()
    return json.loads(found.group(1))


def image_command() -> list[str]:
    line = next(x for x in DOCKERFILE.read_text().splitlines() if x.startswith("CMD "))
    return json.loads(line[4:])


def build_step(word: str) -> str:
    """The shell command of the Dockerfile's RUN step that contains ``word``
    (e.g. "collectstatic"), with its environment prefix, as one line."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    for line in text.splitlines():
        if line.startswith("RUN ") and word in line:
            part = next(p for p in line[4:].split("&&") if word in p)
            return " ".join(part.split())
    raise LookupError(f"no RUN step of the Dockerfile runs {word!r}")


def app_environment(given: dict[str, str]) -> dict[str, str]:
    """The ``x-app`` environment of compose.yaml: ``${NAME:-default}`` takes
    ``given`` or the default; ``${NAME:?...}`` must be given; a value naming
    compose's own hosts (db, redis) must be given, being this machine's."""
    text = COMPOSE.read_text()
    block = re.search(r"^  environment: &env\n((?:    .*\n)*)", text, re.M).group(1)
    env = {}
    for line in block.splitlines():
        key, _, value = line.strip().partition(": ")
        value = value.strip().strip('"')
        if key in given:
            env[key] = given[key]
            continue
        default = re.fullmatch(r"\$\{(\w+):-(.*)\}", value)
        if default:
            env[key] = given.get(default.group(1), default.group(2))
        elif "${" in value or "@db:" in value or "redis:" in value:
            raise LookupError(f"compose.yaml's {key} must be given for this machine")
        else:
            env[key] = value
    return env
