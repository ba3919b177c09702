"""Accessibility checks of the page with axe-core, in the browser test's own selenium session.

axe-core is the `axe.min.js` that the `axe-playwright-python` wheel from PyPI ships (version AXE_PACKAGE_VERSION,
whose file says "axe v4.12.1"). Only that file is used: the package is never imported and Playwright is not needed,
so it is installed without its dependencies into the browser test's virtualenv:

    pip install --no-deps axe-playwright-python==0.1.8

Use:

    import axe
    axe.source()                       # at start-up: stops the test at once, naming the pip command, if it is missing
    ...
    axe.check(driver, "first view, 1280x800")

`check` injects axe into the page that the driver has open (once per page load: only while `window.axe` is undefined),
runs every rule axe runs by default on the whole document, and raises AssertionError listing each violation whose
impact is "serious" or "critical"; the minor and moderate ones are printed on one line and returned, not raised.

The page's Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') does not get in the way. chromedriver's
execute_script runs through DevTools, which the policy does not govern (even a string evaluated during that call is
let through, though one evaluated later in a timer is refused); axe compiles its few string templates while it loads,
inside that call, and its run needs none. Checked in Chromium 156: a run under the policy gives the same passes,
incomplete results and violations as without it, and logs nothing to the console.
"""
import importlib.util, os, re

AXE_PACKAGE = "axe-playwright-python"
AXE_PACKAGE_VERSION = "0.1.8"
AXE_CORE_VERSION = "4.12"  # the axe-core series the checks were written against; another one stops the test
PIP_INSTALL = f"pip install --no-deps {AXE_PACKAGE}=={AXE_PACKAGE_VERSION}"
BLOCKING_IMPACTS = ("critical", "serious")
IMPACT_ORDER = ("critical", "serious", "moderate", "minor")

_source = None

# Runs axe on the document and hands back only what a report needs (the whole result is large).
_RUN = """
const done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(
  results => done({violations: results.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl,
    nodes: v.nodes.map(n => ({target: n.target, html: n.html, failureSummary: n.failureSummary}))}))}),
  error => done({error: String(error && error.stack || error)}));
"""


def path():
    """The path of axe.min.js in the installed axe-playwright-python package, found without importing the package;
    SystemExit naming the pip command when it is not installed."""
    spec = importlib.util.find_spec("axe_playwright_python")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        candidate = os.path.join(folder, "axe.min.js")
        if os.path.isfile(candidate):
            return candidate
    raise SystemExit(f"axe: axe-core is missing: {PIP_INSTALL} (into the browser test's virtualenv; .ci/run installs it)")


def version(text):
    """The axe-core version that a copy of axe.min.js names in its header ("axe v4.12.1" gives "4.12.1")."""
    found = re.match(r"/\*! axe v(\S+)", text)
    return found.group(1) if found else None


def source():
    """The text of axe.min.js, read once; SystemExit when it is missing or not of the AXE_CORE_VERSION series."""
    global _source
    if _source is None:
        where = path()
        with open(where, encoding="utf-8") as file:
            text = file.read()
        found = version(text)
        if found is None or not found.startswith(AXE_CORE_VERSION + "."):
            raise SystemExit(f"axe: {where} is axe-core {found}, not {AXE_CORE_VERSION}.x: {PIP_INSTALL}")
        _source = text
    return _source


def inject(driver):
    """axe in the page that the driver has open, unless it is there already."""
    if driver.execute_script("return typeof window.axe === 'undefined'"):
        driver.execute_script(source())
        if driver.execute_script("return typeof window.axe === 'undefined'"):
            raise AssertionError("axe: the script ran but window.axe is still undefined")


def run(driver, seconds=60):
    """Every violation that axe finds in the open page, each a dict of id, impact, help, helpUrl and nodes (each
    node's target, html and failureSummary), most severe first."""
    inject(driver)
    before = driver.timeouts.script
    driver.set_script_timeout(seconds)
    try:
        answer = driver.execute_async_script(_RUN)
    finally:
        driver.set_script_timeout(before)
    if not isinstance(answer, dict) or "violations" not in answer:
        raise AssertionError(f"axe: the run failed: {answer}")
    rank = {impact: index for index, impact in enumerate(IMPACT_ORDER)}
    return sorted(answer["violations"], key=lambda v: (rank.get(v["impact"], len(rank)), v["id"]))


def describe(violation, nodes_shown=3):
    """A violation in a few lines: id, impact, help, and its first nodes' targets and failure summaries."""
    nodes = violation["nodes"]
    lines = [f"{violation['id']} ({violation['impact']}, {len(nodes)} node{'s' if len(nodes) != 1 else ''}): "
             f"{violation['help']} <{violation['helpUrl']}>"]
    for node in nodes[:nodes_shown]:
        summary = " / ".join(line.strip() for line in (node.get("failureSummary") or "").splitlines() if line.strip())
        lines.append(f"    {' > '.join(map(str, node['target']))}: {summary}")
    if len(nodes) > nodes_shown:
        lines.append(f"    … and {len(nodes) - nodes_shown} more")
    return "\n".join(lines)


def check(driver, view_name, nodes_shown=3):
    """axe on the open page, as `view_name` says it is. Raises AssertionError listing every serious or critical
    violation; prints one line about the minor and moderate ones. Returns all the violations (a list of dicts, as
    `run` gives them) when none is serious or critical."""
    violations = run(driver)
    blocking = [v for v in violations if v["impact"] in BLOCKING_IMPACTS]
    lesser = [v for v in violations if v["impact"] not in BLOCKING_IMPACTS]
    if lesser:
        print(f"axe: {view_name}: {len(lesser)} minor or moderate: "
              + ", ".join(f"{v['id']} ({v['impact']}, {len(v['nodes'])})" for v in lesser))
    if blocking:
        raise AssertionError(f"axe: {view_name}: {len(blocking)} serious or critical violation"
                             f"{'s' if len(blocking) != 1 else ''}:\n"
                             + "\n".join(describe(v, nodes_shown) for v in blocking))
    return violations
