"""Checks of the built site that need no browser: the publish folder, the engine zip,
the snapshot, the trimmed standard library, the build's reproducibility.

- `dist_dir` (session): the build under test, $SITE_DIST or else the checkout's
  `dist/` (`python3 tools/build.py` writes it; `make test` builds before this part).
  A folder that holds no build fails every test that needs it, with how to make one.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    dist = Path(os.environ.get("SITE_DIST") or ROOT / "dist").resolve()
    if not (dist / "version.json").is_file():
        pytest.fail(f"no build in {dist}: run `python3 tools/build.py` "
                    "(or set SITE_DIST to a build's folder)", pytrace=False)
    return dist
