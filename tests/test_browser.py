"""The tutorials as users see them: a real JupyterLab on 127.0.0.1 with the Numbat kernel,
driven in Debian's headless Chromium by Playwright (no browser download). Each notebook
runs with Run All Cells; the test checks that every cell ran without an error and that
numbat's views rendered: tensor views, SVG graphs, the telemetry strip, plots, and the
tensor explorer as a live widget. Screenshots go to a temporary folder (printed).

`.ci/run` installs Chromium with apt-get where it is missing; only where none can be
installed does this module skip, and it says so.
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
  return {
    code: models.length,
    done: models.filter(c => c.executionCount !== null).length,
    running: widget.sessionContext.session?.kernel?.status === 'busy' ? 1 : 0,
    errors: panel.querySelectorAll('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]').length,
    tracebacks: [...panel.querySelectorAll('.jp-OutputArea-output')].filter(o => o.innerText.includes('Traceback')).length,
    tensors: panel.querySelectorAll('.numbat-tensor').length,
    graphs: panel.querySelectorAll('.jp-OutputArea-output[data-mime-type="image/svg+xml"], svg.numbat-expr').length,
    strips: panel.querySelectorAll('.numbat-strip').length,
    kernels: [...panel.querySelectorAll('.numbat-info')].filter(e => e.innerText.includes('multiply, add')).length,
    images: panel.querySelectorAll('.jp-OutputArea-output img').length,
    widgets: panel.querySelectorAll('.jp-OutputArea-output .widget-slider, .jp-OutputArea-output .jupyter-widget-slider').length,
    widget_fallbacks: [...panel.querySelectorAll('.jp-OutputArea-output')].filter(o => o.innerText.startsWith('VBox(')).length,
    dashboards: [...panel.querySelectorAll('.numbat-dashboard-widget')].filter(e => e.innerText.includes('compilation(s)')).length,
    panels: [...panel.querySelectorAll('.numbat-panel-widget')].filter(e => e.querySelector('button') && e.innerText.includes('memory settings')).length,
  };
}"""


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
        deadline = time.monotonic() + 150
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
            "() => { const n = document.querySelector('.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook');"
            " return n ? n.scrollHeight : 900; }"
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
    assert shot.stat().st_size > 10_000
    if name.startswith("01"):
        assert state["tensors"] and state["graphs"] and state["strips"], state
    if name.startswith("03"):
        assert state["dashboards"] == 1, state  # the telemetry dashboard is a live widget
    if name.startswith("06"):
        assert state["panels"] == 1, state  # the client and memory panel, with its Refresh button
    if name.startswith("05"):
        assert state["strips"] and state["kernels"], state  # the fused-graph table of kernels
    if name.startswith("08"):
        assert state["images"] >= 3, state  # plots
        assert state["widgets"] >= 1 and not state["widget_fallbacks"], state  # the explorer is a live widget
