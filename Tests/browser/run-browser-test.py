#!/usr/bin/env python3
"""The page in a real browser: Debian's Chromium, headless, driven by selenium through Debian's chromedriver, against
a freshly seeded `places serve`.

Usage: Tests/browser/run-browser-test.py PLACES_BINARY   (CI runs it from .ci/run with the debug build)

It checks that the page loads with no console error (its icon included), that the map shows San Francisco's pins and
clusters (and a pin opens its place), that typing "cafe" in the search box lists the café, that a place opens in its
panel with its facts and a geo: link, and that the keyboard alone reaches the search box, a result and the panel, each
with a visible focus. Screenshots go to a temporary folder, whose path it
prints. It stops the server it started, by pid, and exits non-zero when a check failed.

Needs Debian's `chromium` and `chromium-driver` packages and selenium 4.51.0 from PyPI (.ci/run installs them);
nothing is downloaded at run time.
"""
import os, socket, subprocess, sys, tempfile, time, traceback

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    raise SystemExit("browser test: selenium is missing (pip install selenium==4.51.0); .ci/run installs it")

failures = []


def fail(message):
    failures.append(message)
    print(f"browser test: FAIL {message}", file=sys.stderr)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def browser(shots):
    """Headless Chromium with its console log kept, through Debian's chromedriver."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--disable-gpu", "--disable-background-networking", "--window-size=1200,800",
                     f"--user-data-dir={os.path.join(shots, 'profile')}"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def focus_is_visible(driver):
    """True when the focused element draws an outline (the page's :focus-visible style)."""
    return driver.execute_script(
        "const s = getComputedStyle(document.activeElement);"
        "return s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0;")


def check_page(driver, base, shots):
    driver.get(base + "/")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    time.sleep(0.5)
    driver.save_screenshot(os.path.join(shots, "1-loaded.png"))
    errors = console_errors(driver)
    if errors:
        fail(f"the page logged console errors: {errors}")
    # The first view holds the whole world: every place is counted in view.
    try:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map[data-zoom] .markers button"))
        shown = driver.find_element(By.CSS_SELECTOR, "#map .map-status").text
        total = places_server.call(base, "GET", "/health")[1]["places"]
        if shown != f"{total} places in view":
            fail(f"the first view shows {shown!r}, not all {total} places")
    except Exception as error:
        fail(f"the first view showed no places: {error}")

    # The map over San Francisco: pins at a city's zoom, clusters over the bay area; a pin opens its place.
    driver.get(base + "/#map=13/37.7749/-122.4194")
    try:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="13"] .markers button.pin'))
    except Exception:
        fail(f"no pins over San Francisco at zoom 13: {driver.find_element(By.CSS_SELECTOR, '#map .map-status').text!r}")
    driver.save_screenshot(os.path.join(shots, "2-map-city.png"))
    pins = driver.find_elements(By.CSS_SELECTOR, "#map .markers button.pin")
    if pins:
        label = pins[0].get_attribute("aria-label")
        driver.execute_script("arguments[0].click()", pins[0])
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "place").is_displayed())
        if not label.startswith(driver.find_element(By.ID, "place-name").text):
            fail(f"the pin {label!r} opened {driver.find_element(By.ID, 'place-name').text!r}")
    driver.get(base + "/#map=6/37.7749/-122.4194")
    try:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="6"] .markers button.cluster'))
        status = driver.find_element(By.CSS_SELECTOR, "#map .map-status").text
        counts = sum(int(b.text) for b in driver.find_elements(By.CSS_SELECTOR, "#map .markers button.cluster"))
        counts += len(driver.find_elements(By.CSS_SELECTOR, "#map .markers button.pin"))
        if status != f"{counts} places in view":
            fail(f"the map's clusters and pins add up to {counts}, but it says {status!r}")
    except Exception:
        fail("no clusters over the bay area at zoom 6")
    driver.save_screenshot(os.path.join(shots, "3-map-clusters.png"))

    # Search as you type: "cafe" lists the café.
    driver.get(base + "/")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    box = driver.find_element(By.ID, "search-words")
    box.send_keys("cafe")
    try:
        WebDriverWait(driver, 10).until(lambda d: any("Café" in b.text for b in d.find_elements(By.CSS_SELECTOR, "#results button")))
    except Exception:
        fail(f"searching 'cafe' listed no café: {[b.text for b in driver.find_elements(By.CSS_SELECTOR, '#results button')]}")
        return
    driver.save_screenshot(os.path.join(shots, "4-search.png"))

    # A place opens in its panel.
    first = next(b for b in driver.find_elements(By.CSS_SELECTOR, "#results button") if "Café" in b.text)
    name = first.text.split(" · ")[0].strip()
    first.click()
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "place").is_displayed())
    panel = driver.find_element(By.ID, "place")
    if driver.find_element(By.ID, "place-name").text != name:
        fail(f"the panel shows {driver.find_element(By.ID, 'place-name').text!r}, not {name!r}")
    facts = driver.find_element(By.ID, "place-facts").text
    if "Kind" not in facts or "Rating" not in facts:
        fail(f"the panel's facts lack the kind or the rating: {facts!r}")
    if not driver.find_element(By.ID, "place-geo").get_attribute("href").startswith("geo:"):
        fail("the panel has no geo: link")
    driver.save_screenshot(os.path.join(shots, "5-place.png"))

    # The keyboard alone: Tab reaches the search box, then a result; Enter opens it and moves the focus to the panel.
    driver.get(base + "/")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    body = driver.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.TAB)
    if driver.switch_to.active_element.get_attribute("id") != "search-words":
        fail(f"the first Tab reached {driver.switch_to.active_element.tag_name}, not the search box")
        return
    if not focus_is_visible(driver):
        fail("the search box's focus is not visible")
    driver.switch_to.active_element.send_keys("steps")
    WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#results button"))
    driver.switch_to.active_element.send_keys(Keys.TAB)
    active = driver.switch_to.active_element
    if active.tag_name != "button" or not focus_is_visible(driver):
        fail(f"Tab from the search box reached {active.tag_name} (visible focus: {focus_is_visible(driver)}), not a result")
        return
    active.send_keys(Keys.ENTER)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "place").is_displayed())
    time.sleep(0.2)
    if driver.switch_to.active_element.get_attribute("id") != "place":
        fail("opening a place from the keyboard did not move the focus to its panel")
    driver.save_screenshot(os.path.join(shots, "6-keyboard.png"))
    errors = console_errors(driver)
    if errors:
        fail(f"console errors after the checks: {errors}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    binary = os.path.abspath(sys.argv[1])
    for path in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not os.path.exists(path):
            raise SystemExit(f"browser test: {path} is missing (apt-get install chromium chromium-driver); .ci/run installs it")
    work = tempfile.mkdtemp(prefix="places-browser-")
    shots = os.path.join(work, "screenshots")
    os.makedirs(shots)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = places_server.start(binary, ["--database", os.path.join(work, "places.sqlite"), "--port", str(port),
                                          "--seeds", os.path.join(root, "Seeds"), "--bcrypt-cost", "4"],
                                 os.path.join(work, "server.log"), base, seconds=120, who="browser test")
    driver = None
    try:
        driver = browser(shots)
        check_page(driver, base, shots)
    except Exception:
        fail("the run stopped: " + traceback.format_exc())
    finally:
        if driver is not None:
            driver.quit()
        places_server.stop(server)
    print(f"browser test: screenshots in {shots}")
    if failures:
        print(f"browser test: {len(failures)} check(s) failed; the server's log is {os.path.join(work, 'server.log')}")
        sys.exit(1)
    print("browser test: ok")


if __name__ == "__main__":
    main()
