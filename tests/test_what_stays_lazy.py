"""docs/guides/architecture.md's "What stays lazy", checked in a fresh interpreter: `import
numbat` loads neither IPython nor the extension's module, and still installs the rich
display on Tensor, Expr and Heatmap (the notebook layer's `_display`)."""

import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

PROGRAM = """
import json, sys
import numbat as nbt
from numbat._tensor._expr import Expr
from numbat._library._heatmap import Heatmap
print(json.dumps({
    "ipython": "IPython" in sys.modules,
    "extension": "numbat.notebook._extension" in sys.modules,
    "display": [hasattr(nbt.Tensor, "_repr_mimebundle_"), hasattr(Expr, "_repr_mimebundle_"),
                hasattr(Heatmap, "_repr_html_")],
}))
"""


def test_import_numbat_loads_no_ipython_and_installs_the_rich_display():
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    )
    seen = json.loads(result.stdout.splitlines()[-1])
    assert seen == {"ipython": False, "extension": False, "display": [True, True, True]}
