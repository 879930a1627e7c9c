"""A real IPython shell for the notebook tests: run a cell and read back what it showed."""

import textwrap
import time

from IPython.utils.capture import capture_output


class Cell:
    def __init__(self, result, captured):
        self.result = result
        self.stdout, self.stderr = captured.stdout, captured.stderr
        self.displays = [output.data for output in captured.outputs]

    def strips(self):
        return [d for d in self.displays if "numbat-strip" in d.get("text/html", "")]


def run(ip, code) -> Cell:
    with capture_output() as captured:
        result = ip.run_cell(textwrap.dedent(code), store_history=True)
    return Cell(result, captured)


def _unique(prefix):
    return f"{prefix}_{time.monotonic_ns()}"
