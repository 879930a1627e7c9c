"""The live chart as users see it (issue 41): in a real JupyterLab (the `lab` and `browser`
fixtures of test_browser: Debian's Chromium driven by Playwright), a defn whose never-ending
`while_loop` feeds `nbt.notebook.live` through a hook redraws the chart in place at least
five times while the loop runs, and the chart's Stop button stops the loop with
`numbat.Interrupted`; the next cell still sees the earlier variables."""

from __future__ import annotations

import time

import nbformat
from test_browser import browser, lab  # noqa: F401 -- fixtures shared with the tutorials' test

CELLS = [
    """import time
import numbat as nbt

kept = nbt.tensor([1.0, 2.0])
chart = nbt.notebook.live("loss", every=0.1)


def slow_feed(loss):
    time.sleep(0.005)
    chart.log(loss=loss)


def step(state):
    i, w = state
    loss = nbt.hook((w - 3.0) ** 2 + 1.0 / (i + 1), "loss")
    return i + 1, w - 0.01 * (w - 3.0) + 0.0 * loss


@nbt.defn(hooks={"loss": slow_feed}, interruptible=True)
def train(w):
    return nbt.while_loop(lambda s: (s[0] >= 0) | (s[0] < 0), step, (nbt.tensor(0), w))  # never false""",
    """with chart:
    train(nbt.tensor(0.0))""",
    """from numbat.notebook import _progress

print("after stop:", nbt.to_number(nbt.sum(kept)), len(chart.values["loss"]) > 0, _progress.interactive_client())""",
]

_PICTURE = """() => {
  const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')];
  const img = cells[1]?.querySelector('.jp-OutputArea-output[data-mime-type="image/png"] img');
  return img ? img.src.length + ':' + img.src.slice(-64) : null;
}"""
_TEXT = """(index) => {
  const cells = [...document.querySelectorAll('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell')];
  return cells[index]?.querySelector('.jp-OutputArea')?.innerText || '';
}"""

_RUN_LAST_CELL = """async () => {
  const app = window.jupyterapp, panel = app.shell.currentWidget;
  panel.content.activeCellIndex = 2;
  await app.commands.execute('notebook:run-cell');
}"""


def test_the_live_chart_updates_while_the_loop_runs_and_its_stop_button_stops_it(browser, lab):  # noqa: F811 -- the fixtures imported above
    url, token, root = lab
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    notebook.metadata["kernelspec"] = {"name": "numbat", "display_name": "Numbat", "language": "python"}
    nbformat.write(notebook, root / "live.ipynb")
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{url}/lab/tree/live.ipynb?reset&token={token}", timeout=90_000)
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell", timeout=90_000)
        if page.locator(".jp-Dialog .jp-mod-accept").count():
            page.locator(".jp-Dialog .jp-mod-accept").first.click()
        page.evaluate(
            """async () => {
              const app = window.jupyterapp, panel = app.shell.currentWidget;
              await panel.context.ready;
              await panel.sessionContext.ready;
              app.commands.execute('notebook:run-all-cells');  // not awaited: the loop never ends by itself
            }"""
        )
        pictures, deadline = set(), time.monotonic() + 120
        while len(pictures) < 8 and time.monotonic() < deadline:
            picture = page.evaluate(_PICTURE)
            if picture:
                pictures.add(picture)
            page.wait_for_timeout(100)
        assert len(pictures) >= 5, f"the chart was drawn {len(pictures)} distinct times while the loop ran"
        assert "Interrupted" not in page.evaluate(_TEXT, 1)  # still running
        page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) button.numbat-live-stop").first.click()
        deadline = time.monotonic() + 30
        while "stopped after" not in page.evaluate(_TEXT, 1) and time.monotonic() < deadline:
            page.wait_for_timeout(200)
        stopped = page.evaluate(_TEXT, 1)
        assert "Interrupted" in stopped and "stopped after" in stopped, stopped[-2000:]
        # Run All stops at the error: run the last cell on its own. In one full-suite run on a
        # loaded 2-core machine the cell showed nothing within 30 s (never seen when run alone):
        # the run is asked again once, and the kernel's status is in the message if it fails.
        for _ in range(2):
            page.evaluate(_RUN_LAST_CELL)
            deadline = time.monotonic() + 45
            while "after stop:" not in page.evaluate(_TEXT, 2) and time.monotonic() < deadline:
                page.wait_for_timeout(200)
            if "after stop:" in page.evaluate(_TEXT, 2):
                break
        status = page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.kernelDisplayStatus")
        assert "after stop: 3.0 True True" in page.evaluate(_TEXT, 2), status  # JupyterLab: the compiling line shows
        shot = root / "live.png"
        page.screenshot(path=str(shot))
        print(f"screenshot of the live chart after Stop: {shot}")
    finally:
        page.close()
