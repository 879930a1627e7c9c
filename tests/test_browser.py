"""The tutorials as users see them: a real JupyterLab on 127.0.0.1 with the Numbat kernel,
driven in Debian's headless Chromium by Playwright (no browser download). Each notebook
runs with Run All Cells; the test checks that every cell ran without an error or stray
stderr (cells tagged `stderr-expected` show some on purpose) and that each tutorial's
own views rendered (`EXPECTED`): tensor views with their pictures and bytes, SVG graphs,
telemetry strips, IR and magic tables, the profile (its table, the graph shaded by time, the
roofline), the shards view, plots, the tensor explorer as a
live widget with its picture, the collapsed solution. Screenshots go to a temporary
folder (printed).

`.ci/run` installs Chromium with apt-get where it is missing and fails if it cannot, so
in CI this module never skips; on a machine without Chromium it skips and says so.
"""

from __future__ import annotations

import os
import pathlib
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
NOTEBOOKS = pathlib.Path(__file__).parent.parent / "notebooks"
TUTORIALS = sorted(path.name for path in NOTEBOOKS.glob("0*.ipynb"))

if not os.path.exists(CHROMIUM):
    pytest.skip("no Chromium at /usr/bin/chromium (install Debian's chromium package)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is in the test extra")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture(scope="module")
def lab():
    """A JupyterLab server on 127.0.0.1 over a copy of the tutorials (the originals stay untouched)."""
    root = pathlib.Path(tempfile.mkdtemp(prefix="numbat-lab-"))
    for name in TUTORIALS:
        shutil.copy(NOTEBOOKS / name, root / name)
    port, token = _free_port(), secrets.token_hex(16)
    env = {
        **os.environ,
        "JUPYTER_CONFIG_DIR": str(root / ".config"),
        "JUPYTERLAB_SETTINGS_DIR": str(root / ".settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(root / ".workspaces"),
        "JUPYTER_RUNTIME_DIR": str(root / ".runtime"),
    }
    # Every cell in the DOM (no windowing), so the test sees every output; no news prompt.
    settings = root / ".settings"
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}'
    )
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
    (settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings").write_text(
        '{"fetchNews": "false", "checkForUpdates": false}'
    )
    log = open(root / "server.log", "w")  # noqa: SIM115 -- closed when the server stops
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}"]
        + [f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", "--LabApp.news_url=None"]
        + ["--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate", "--allow-root"]
        + ["--LabApp.expose_app_in_browser=True"],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while True:
        try:
            urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                server.wait()
                log.close()
                pytest.fail(f"JupyterLab did not start; log:\n{(root / 'server.log').read_text()[-3000:]}")
            time.sleep(0.5)
    yield url, token, root
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
    log.close()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield instance
        instance.close()


_STATE = """() => {
  const panel = [...document.querySelectorAll('.jp-NotebookPanel')].find(p => !p.classList.contains('lm-mod-hidden'));
  if (!panel) return null;
  const widget = window.jupyterapp.shell.currentWidget;
  const models = [...widget.content.model.cells].filter(c => c.type === 'code' && c.sharedModel.getSource().trim());
  const count = (selector) => panel.querySelectorAll(selector).length;
  const texts = (selector, text) => [...panel.querySelectorAll(selector)].filter(e => e.innerText.includes(text)).length;
  // stderr from cells that do not carry the "stderr-expected" tag (a tutorial shows some on purpose)
  const stderr = [];
  for (const cell of widget.content.widgets) {
    if (cell.model.type !== 'code') continue;
    const tags = cell.model.getMetadata('tags') || [];
    if (tags.includes('stderr-expected')) continue;
    for (const o of cell.node.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]'))
      stderr.push(o.innerText.slice(0, 300));
  }
  return {
    code: models.length,
    done: models.filter(c => c.executionCount !== null).length,
    running: widget.sessionContext.session?.kernel?.status === 'busy' ? 1 : 0,
    stderr: stderr,
    tracebacks: [...panel.querySelectorAll('.jp-OutputArea-output')].filter(o => o.innerText.includes('Traceback')).length,
    tensors: count('.numbat-tensor'),
    pictures: count('.numbat-tensor .numbat-heatmap img'),
    byte_headers: [...panel.querySelectorAll('.numbat-tensor')].filter(e => /\\b\\d+(\\.\\d)? (B|KiB|MiB|GiB)\\b/.test(e.innerText)).length,
    graphs: count('.jp-OutputArea-output[data-mime-type="image/svg+xml"], svg.numbat-expr'),
    strips: count('.numbat-strip'),
    kernels: texts('.numbat-info', 'multiply, add'),
    profiles: count('.numbat-profile table'),
    profile_graphs: [...panel.querySelectorAll('.numbat-profile svg.numbat-expr')].filter(s => s.querySelector('rect[style*="fill-opacity"]')).length,
    rooflines: [...panel.querySelectorAll('.numbat-profile img.numbat-roofline')].filter(i => i.complete && i.naturalWidth > 100).length,
    ir: count('.numbat-ir'),
    cache_tables: texts('.numbat-info', 'defn cache'),
    precision_tables: texts('.numbat-info', 'NVIDIA GPU'),
    shards: count('.numbat-shards'),
    shard_devices: texts('.numbat-shards', 'on 4 device(s)'),
    images: count('.jp-OutputArea-output img'),
    plots: count('.jp-OutputArea-output[data-mime-type="image/png"] img'),
    widgets: count('.jp-OutputArea-output .widget-slider, .jp-OutputArea-output .jupyter-widget-slider'),
    explorer_pictures: count('.jp-OutputArea-output .numbat-explorer .numbat-heatmap img, .jp-OutputArea-output .widget-html .numbat-heatmap img'),
    widget_fallbacks: [...panel.querySelectorAll('.jp-OutputArea-output')].filter(o => o.innerText.startsWith('VBox(')).length,
    dashboards: texts('.numbat-dashboard-widget', 'compilation(s)'),
    panels: [...panel.querySelectorAll('.numbat-panel-widget')].filter(e => e.querySelector('button') && e.innerText.includes('memory settings')).length,
    hidden_inputs: count('.jp-InputPlaceholder'),  // a collapsed solution: its input shows as a placeholder
  };
}"""

# What each tutorial must show once it has run, as (count in the state, the least expected).
EXPECTED = {
    "01": {"tensors": 8, "pictures": 2, "byte_headers": 8, "graphs": 1, "strips": 2, "hidden_inputs": 1},
    "02": {"tensors": 12, "pictures": 6, "hidden_inputs": 1},
    "03": {"graphs": 2, "ir": 1, "strips": 3, "dashboards": 1, "hidden_inputs": 1},
    "04": {"tensors": 0, "strips": 1, "plots": 2, "hidden_inputs": 1},
    "05": {
        "graphs": 1,
        "kernels": 1,
        "profiles": 1,
        "profile_graphs": 1,
        "rooflines": 1,
        "plots": 1,
        "strips": 2,
        "ir": 1,
        "cache_tables": 1,
        "precision_tables": 1,
        "hidden_inputs": 1,
    },
    "06": {"panels": 1, "strips": 1, "plots": 1, "hidden_inputs": 1},
    "07": {"shards": 4, "shard_devices": 4, "tensors": 1, "pictures": 1, "strips": 1, "hidden_inputs": 1},
    "08": {"plots": 5, "pictures": 2, "widgets": 1, "explorer_pictures": 1, "hidden_inputs": 1},
}


def _run_notebook(browser, lab, name: str) -> tuple[dict, pathlib.Path]:
    url, token, root = lab
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        page.goto(f"{url}/lab/tree/{name}?reset&token={token}", timeout=90_000)  # a fresh workspace each time
        page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-CodeCell", timeout=90_000)
        if page.locator(".jp-Dialog .jp-mod-accept").count():  # a kernel prompt: accept its default
            page.locator(".jp-Dialog .jp-mod-accept").first.click()
        page.wait_for_function(
            "() => document.querySelector('.jp-Notebook-ExecutionIndicator, .jp-KernelStatus')", timeout=60_000
        )
        page.evaluate(
            """async () => {
              const app = window.jupyterapp, panel = app.shell.currentWidget;
              await panel.context.ready;
              await panel.sessionContext.ready;
              await app.commands.execute('notebook:run-all-cells');
            }"""
        )
        deadline = time.monotonic() + 300  # a loaded 2-core machine took over 150 s for tutorial 01
        state = None
        while time.monotonic() < deadline:
            state = page.evaluate(_STATE)
            if state and state["code"] and state["done"] == state["code"] and not state["running"]:
                break
            page.wait_for_timeout(500)
        page.wait_for_timeout(1500)  # let widgets and images settle
        if page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.widget-view+json']").count():
            page.wait_for_selector(".jp-OutputArea-output .widget-slider", timeout=30_000)
        state = page.evaluate(_STATE)
        height = page.evaluate(
            "() => Math.max(900, ...[...document.querySelectorAll("
            "'.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook, "
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-outer, "
            ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-WindowedPanel-inner')].map(n => n.scrollHeight))"
        )
        page.set_viewport_size({"width": 1280, "height": min(max(height + 200, 900), 16000)})
        page.wait_for_timeout(500)
        shot = root / f"{name}.png"
        page.screenshot(path=str(shot))
        print(f"screenshot of {name}: {shot}")
        return state, shot
    finally:
        page.close()


@pytest.mark.parametrize("name", TUTORIALS)
def test_tutorial_runs_clean_in_jupyterlab(browser, lab, name):
    state, shot = _run_notebook(browser, lab, name)
    assert state is not None, "the notebook panel never appeared"
    assert state["done"] == state["code"], f"{state['code'] - state['done']} cell(s) did not run ({shot})"
    assert state["tracebacks"] == 0, f"a cell failed ({shot})"
    assert state["stderr"] == [], f"stderr from cells not tagged stderr-expected ({shot}): {state['stderr']}"
    assert not state["widget_fallbacks"], f"a widget showed as text ({shot})"
    assert shot.stat().st_size > 10_000
    missing = {view: (state[view], least) for view, least in EXPECTED[name[:2]].items() if state[view] < least}
    assert not missing, f"views below what {name} shows (got, least): {missing} ({shot})"
