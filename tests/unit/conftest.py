"""The unit tests import the engine (``generala``) and the build's tools (``tools``)
from the repository; UI modules through ``tools.ui_modules.on_path()``."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
