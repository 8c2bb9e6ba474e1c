"""Installed the way users install Textual apps: a wheel in a fresh virtual environment, used from another
directory, with the samples, scenarios and themes read from the installed package (not the source tree)."""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    work = tmp_path_factory.mktemp("install")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    built = _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(work / "dist"), str(ROOT)],
                 work, env)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = (work / "dist").glob("maic_tui-*.whl")
    venv = work / "venv"
    assert _run([sys.executable, "-m", "venv", str(venv)], work, env).returncode == 0
    python = venv / "bin" / "python"
    done = _run([str(python), "-m", "pip", "install", "--quiet", "--no-deps", "--no-index", str(wheel)], work, env)
    assert done.returncode == 0, done.stderr[-2000:]
    # The dependencies come from this test run's own environment (offline and fast): a plain path entry, so
    # the source tree's editable install there is not picked up; maic_tui itself comes from the wheel.
    site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], work,
                     env).stdout.strip())
    (site / "deps-from-test-run.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    elsewhere = work / "elsewhere"
    elsewhere.mkdir()
    return venv, env | {"MAIC_DATA_DIR": str(work / "data"), "MAIC_CONFIG": str(work / "config.toml")}


def test_the_wheel_holds_the_samples_and_themes_and_runs_away_from_the_source(
        installed: tuple[Path, dict[str, str]]) -> None:
    venv, env = installed
    where = venv.parent / "elsewhere"
    origin = _run([str(venv / "bin" / "python"), "-c", "import maic_tui, maic_tui.paths as p; "
                   "print(maic_tui.__file__); print(sorted(x.stem for x in p.THEMES_DIR.glob('*.toml')))"], where, env)
    assert origin.returncode == 0, origin.stderr
    assert str(venv) in origin.stdout.splitlines()[0] and str(ROOT) not in origin.stdout
    assert "chalkboard" in origin.stdout.splitlines()[1]
    demo = _run([str(venv / "bin" / "maic-tui"), "demo", "--pace", "0"], where, env)
    assert demo.returncode == 0, demo.stderr
    assert "Prof. Ada Reyes" in demo.stdout and "Whiteboard" in demo.stdout
    checked = _run([str(venv / "bin" / "maic-tui"), "validate", "derivatives", "water-cycle"], where, env)
    assert checked.returncode == 0 and checked.stdout == "derivatives: ok\nwater-cycle: ok\n", checked.stderr
    scenarios = _run([str(venv / "bin" / "maic-tui"), "eval", "guard-fallback", "--report", "r.json"], where, env)
    assert scenarios.returncode == 0, scenarios.stdout + scenarios.stderr
    usage = _run([str(venv / "bin" / "python"), "-m", "maic_tui", "--help"], where, env)
    assert usage.returncode == 0 and usage.stdout.startswith("usage: maic-tui")
