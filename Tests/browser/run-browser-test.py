#!/usr/bin/env python3
"""The page in a real browser: Debian's Chromium, headless, driven by selenium through Debian's chromedriver, against
a freshly seeded `places serve`.

Usage: Tests/browser/run-browser-test.py [--cluster] PLACES_BINARY   (.ci/run runs it both ways with the debug build)

Without --cluster: one server on SQLite, with raster tiles from a tile server of the test's own (--map-tiles). With
--cluster: the cluster test's three instances on one private PostgreSQL behind nginx; the page goes through nginx and
the other members' ballots straight to the instances. See Tests/browser/README.md for what it checks.

Screenshots go to a temporary folder, whose path it prints (page.png there is the README's picture). It stops what it
started, by pid, and exits non-zero when a check failed.

Needs Debian's `chromium` and `chromium-driver` packages and selenium 4.51.0 from PyPI (.ci/run installs them);
nothing is downloaded at run time.
"""
import datetime, json, os, re, socket, subprocess, sys, tempfile, time, traceback

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True
import places_server
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import axe
import fair
import photos
import openstreetmap

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select, WebDriverWait
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


# The two sizes every step runs at: a desktop's window, and a phone's screen with touch (Chromium's emulation).
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def browser(shots, size="desktop"):
    """Headless Chromium with its console log kept, through Debian's chromedriver, at a desktop's or a phone's size."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    width, height = SIZES[size]
    for argument in ("--headless=new", "--disable-gpu", "--disable-background-networking", f"--window-size={width},{height}",
                     f"--user-data-dir={os.path.join(shots, 'profile-' + size + '-' + str(len(os.listdir(shots))))}"):
        options.add_argument(argument)
    if size == "phone":
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": width, "height": height, "pixelRatio": 3.0,
                                                                              "touch": True}})
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if size == "desktop":
        # The window's size holds the browser's own bars too: the page's viewport is made exactly the desktop's.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 1,
                                                                       "mobile": False})
    driver.size = size
    return driver


def shot(driver, shots, name):
    """A screenshot of this step at this size."""
    driver.save_screenshot(os.path.join(shots, f"{driver.size}-{name}.png"))


def accessible(driver, view):
    """axe-core on the view shown: a serious or critical violation fails the test."""
    try:
        axe.check(driver, f"{view} at {driver.size}")
    except AssertionError as error:
        fail(str(error))


def console_errors(driver):
    return [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]


def focus_is_visible(driver):
    """True when the focused element draws an outline (the page's :focus-visible style)."""
    return driver.execute_script(
        "const s = getComputedStyle(document.activeElement);"
        "return s.outlineStyle === 'solid' && parseFloat(s.outlineWidth) >= 3;")


def check_page(driver, base, shots):
    driver.get(base + "/")
    WebDriverWait(driver, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
    time.sleep(0.5)
    shot(driver, shots, "1-loaded")
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
    accessible(driver, "the first view")
    # A cluster's click zooms to its members' own box: from the world to San Francisco's pins in three clicks at most.
    for clicks in range(1, 5):
        zoom = driver.find_element(By.ID, "map").get_attribute("data-zoom")
        # Markers may be laid out again at any moment (another answer for the same view): each look at them is one script.
        clicked = driver.execute_script("""
            const clusters = [...document.querySelectorAll('#map .markers button.cluster')];
            if (!clusters.length) return false;
            const away = (b) => (Number(b.dataset.lat) - 37.77) ** 2 + (Number(b.dataset.lon) + 122.43) ** 2;
            clusters.sort((a, b) => away(a) - away(b))[0].click();
            return true;""")
        if not clicked:
            break
        wait(driver, lambda d: d.find_element(By.ID, "map").get_attribute("data-zoom") != zoom, "a cluster's click to zoom in")
        time.sleep(0.2)
        if driver.execute_script("return [...document.querySelectorAll('#map .markers button.pin')].some((b) => b.dataset.id.startsWith('sf-'))"):
            break
    else:
        clicks = 5
    if clicks > 3:
        fail(f"from the world, San Francisco's pins took more than three clicks on clusters (zoom "
             f"{driver.find_element(By.ID, 'map').get_attribute('data-zoom')})")
    shot(driver, shots, "1b-cluster-clicked")

    # The map over San Francisco: pins at a city's zoom, clusters over the bay area; a pin opens its place.
    driver.get(base + "/#map=13/37.7749/-122.4194")
    try:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="13"] .markers button.pin'))
    except Exception:
        fail(f"no pins over San Francisco at zoom 13: {driver.find_element(By.CSS_SELECTOR, '#map .map-status').text!r}")
    shot(driver, shots, "2-map-city")
    label = driver.execute_script("""
        const pin = document.querySelector('#map .markers button.pin');
        if (!pin) return null;
        pin.click();
        return pin.getAttribute('aria-label');""")
    if label:
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "place").is_displayed())
        if not label.startswith(driver.find_element(By.ID, "place-name").text):
            fail(f"the pin {label!r} opened {driver.find_element(By.ID, 'place-name').text!r}")
    driver.get(base + "/#map=6/37.7749/-122.4194")
    try:
        WebDriverWait(driver, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="6"] .markers button.cluster'))
        status, counts = driver.execute_script("""
            const markers = [...document.querySelectorAll('#map .markers button')];
            const counts = markers.reduce((sum, b) => sum + (b.classList.contains('cluster') ? Number(b.textContent) : 1), 0);
            return [document.querySelector('#map .map-status').textContent, counts];""")
        if status != f"{counts} places in view":
            fail(f"the map's clusters and pins add up to {counts}, but it says {status!r}")
    except Exception:
        fail("no clusters over the bay area at zoom 6")
    shot(driver, shots, "3-map-clusters")
    # Zoom by the map's button, then by a pinch of two fingers drawn apart (touch events through DevTools).
    driver.find_element(By.CSS_SELECTOR, "#map .zoom-in").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="7"]'), "the zoom-in button to reach zoom 7")
    # Headless Chromium passes only one finger of DevTools' touch events on, so the pinch is sent as the pointer
    # events two fingers make.
    driver.execute_script("""
        const canvas = document.querySelector('#map canvas'), box = canvas.getBoundingClientRect();
        const x = box.left + box.width / 2, y = box.top + 200;
        const send = (type, id, dx) => canvas.dispatchEvent(new PointerEvent(type,
          {clientX: x + dx, clientY: y, pointerId: id, pointerType: 'touch', isPrimary: id === 11, bubbles: true}));
        send('pointerdown', 11, -20); send('pointerdown', 12, 20);
        for (const spread of [30, 45, 60]) { send('pointermove', 11, -spread); send('pointermove', 12, spread); }
        send('pointerup', 11, -60); send('pointerup', 12, 60);""")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="8"]'), "a pinch to zoom in to 8")

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
    shot(driver, shots, "4-search")
    # Typing waits for a pause: a word typed at once asks the server once, not once a letter.
    asked = driver.execute_script("return performance.getEntriesByType('resource')"
                                  ".filter((e) => e.name.includes('/v1/places/search')).length")
    if asked > 2:
        fail(f"typing 'cafe' asked the server {asked} times")

    # Seen from San Francisco, "taco" lists San Francisco's taquería first (the search is biased to the map's view).
    driver.get("about:blank")
    driver.get(base + "/#map=12/37.7749/-122.4194")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="12"]'), "San Francisco's view")
    driver.find_element(By.ID, "search-words").send_keys("taco")
    if wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results button"), "'taco' from San Francisco"):
        listed = [b.get_attribute("data-id") for b in driver.find_elements(By.CSS_SELECTOR, "#results button")]
        if not listed[0].startswith("sf-"):
            fail(f"'taco' seen from San Francisco lists {listed[0]} first: {listed}")
        # A far result says where it is before the map moves there.
        far = next((b for b in driver.find_elements(By.CSS_SELECTOR, "#results button") if b.get_attribute("data-id").startswith("cdmx-")), None)
        if far:
            far.click()
            wait(driver, lambda d: "Mexico City" in d.find_element(By.ID, "status").text, "a far place said where it is")
            wait(driver, lambda d: d.find_element(By.ID, "place").is_displayed(), "the far place's panel")
            shot(driver, shots, "4b-far-result")
    driver.find_element(By.ID, "search-words").clear()
    driver.get("about:blank")
    driver.get(base + "/")
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page")
    box = driver.find_element(By.ID, "search-words")
    box.send_keys("cafe")
    wait(driver, lambda d: any("Café" in b.text for b in d.find_elements(By.CSS_SELECTOR, "#results button")), "the café again")

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
    shot(driver, shots, "5-place")
    # The place opened is marked on the map, and its result and its pin are linked both ways.
    chosen = first.get_attribute("data-id")
    if not wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#map .overlay .chosen"), "the opened place marked on the map"):
        pass
    webdriver.ActionChains(driver).move_to_element(first).perform() if driver.size == "desktop" else driver.execute_script(
        "arguments[0].focus()", first)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#map .overlay .linked"), "the hovered result's place marked on the map")
    accessible(driver, "a place's panel")
    driver.find_element(By.ID, "place-close").click()
    wait(driver, lambda d: not d.find_element(By.ID, "place").is_displayed(), "the panel closed by its button")
    if driver.find_elements(By.CSS_SELECTOR, "#map .overlay .chosen"):
        fail(f"the closed place {chosen} is still marked on the map")

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
    # Tab goes through the header's and "near here"'s controls to the results, each with a visible focus.
    passed = []
    for _ in range(12):
        driver.switch_to.active_element.send_keys(Keys.TAB)
        active = driver.switch_to.active_element
        if not focus_is_visible(driver):
            fail(f"Tab reached {active.tag_name} #{active.get_attribute('id')} without a visible focus")
        if driver.execute_script("return document.getElementById('results').contains(document.activeElement)"):
            break
        passed.append(active.get_attribute("id") or active.tag_name)
    else:
        fail(f"twelve Tabs from the search box passed {passed} and did not reach a result")
        return
    active.send_keys(Keys.ENTER)
    WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "place").is_displayed())
    time.sleep(0.2)
    if driver.switch_to.active_element.get_attribute("id") != "place":
        fail("opening a place from the keyboard did not move the focus to its panel")
    shot(driver, shots, "6-keyboard")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors after the checks: {errors}")


POINTS = {"N": "north", "NNE": "north-northeast", "NE": "northeast", "ENE": "east-northeast", "E": "east",
          "ESE": "east-southeast", "SE": "southeast", "SSE": "south-southeast", "S": "south", "SSW": "south-southwest",
          "SW": "southwest", "WSW": "west-southwest", "W": "west", "WNW": "west-northwest", "NW": "northwest",
          "NNW": "north-northwest"}
TILE_ATTRIBUTION = "Test tiles © nobody, drawn by the browser test"
PASSWORD = "a long password"


def api(base, method, path, body=None, token=None, expect=(200, 201, 204)):
    """One call to the API that must succeed; its JSON body."""
    status, answer = places_server.call(base, method, path, body, token)
    if status not in expect:
        raise AssertionError(f"{method} {path} answered {status}: {answer}")
    return answer


def sign_up(base, username):
    api(base, "POST", "/v1/auth/register", {"username": username, "email": f"{username}@example.com", "password": PASSWORD})
    return api(base, "POST", "/v1/auth/login", {"username": username, "password": PASSWORD})["token"]


def wait(driver, condition, what, seconds=10):
    """Waits for a condition of the page; a failure says what was awaited."""
    try:
        return WebDriverWait(driver, seconds).until(condition)
    except Exception:
        fail(f"waited {seconds} s for {what}")
        return None


def check_near(driver, base, shots):
    """A click on the map picks "here"; "Near here" and "Popular near here" list what nearby answers from there, and a
    place opened then shows its distance and bearing, its hours, and whether it is open now in its own zone."""
    driver.get("about:blank")  # a fresh page: a new address that differs only in its hash would keep the old one
    driver.get(base + "/#map=14/37.7599/-122.4200")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="14"] .markers button'), "the Mission's pins")
    # A click (a press that does not drag) on an empty spot of the map picks its point; Enter on the map picks its
    # centre. The click is sent as the pointer events a mouse makes: chromedriver's own would land on a pin.
    driver.execute_script("""
        const canvas = document.querySelector('#map canvas'), box = canvas.getBoundingClientRect();
        for (const type of ['pointerdown', 'pointerup'])
          canvas.dispatchEvent(new PointerEvent(type, {clientX: box.left + 10, clientY: box.top + 10, bubbles: true, pointerId: 1}));""")
    if wait(driver, lambda d: d.find_element(By.ID, "near-where").get_attribute("data-lat"), "a click to pick here"):
        lat = float(driver.find_element(By.ID, "near-where").get_attribute("data-lat"))
        lon = float(driver.find_element(By.ID, "near-where").get_attribute("data-lon"))
        if not (37.7599 < lat < 37.8 and -122.48 < lon < -122.42):
            fail(f"a click near the map's top left corner picked {lat}, {lon}, not a point north-west of its centre")
    driver.find_element(By.ID, "map").send_keys(Keys.ENTER)
    if not wait(driver, lambda d: d.find_element(By.ID, "near-where").get_attribute("data-lat") == "37.7599", "Enter to pick here"):
        return
    lat = float(driver.find_element(By.ID, "near-where").get_attribute("data-lat"))
    lon = float(driver.find_element(By.ID, "near-where").get_attribute("data-lon"))
    driver.execute_script("const r = document.getElementById('near-radius'); r.value = '1.5';"
                          "r.dispatchEvent(new Event('input'));")
    for sort, button in (("distance", "near-list"), ("score", "near-popular")):
        driver.find_element(By.ID, button).click()
        wait(driver, lambda d: d.find_element(By.ID, "results").get_attribute("data-sort") == sort, f"the {sort} list")
        time.sleep(0.3)
        shown = [b.get_attribute("data-id") for b in driver.find_elements(By.CSS_SELECTOR, "#results button")]
        answer = api(base, "GET", f"/v1/places/nearby?lat={lat:.6f}&lon={lon:.6f}&radius=1.5&limit=20&sort={sort}")
        wanted = [place["id"] for place in answer["places"]]
        if not wanted or shown != wanted:
            fail(f"'{button}' listed {shown}, but nearby (sort={sort}) answers {wanted}")
    shot(driver, shots, "7-popular-near-here")
    # A pin hovered or focused marks its place in the list.
    listed = {b.get_attribute("data-id") for b in driver.find_elements(By.CSS_SELECTOR, "#results button")}
    focused = driver.execute_script("""
        const pin = [...document.querySelectorAll('#map .markers button.pin')].find((p) => arguments[0].includes(p.dataset.id));
        if (!pin) return null;
        pin.focus();
        return pin.dataset.id;""", sorted(listed))
    if focused:
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#results button.linked[data-id="{focused}"]'),
             "a focused pin marking its place in the list")
    else:
        fail(f"no pin in view of the places listed near here: {sorted(listed)}")
    # A circle larger than the view zooms the map out, about the same centre, until it holds the circle.
    zoom = int(driver.find_element(By.ID, "map").get_attribute("data-zoom"))
    driver.execute_script("const r = document.getElementById('near-radius'); r.value = '20'; r.dispatchEvent(new Event('input'));")
    wait(driver, lambda d: int(d.find_element(By.ID, "map").get_attribute("data-zoom")) < zoom, "a 20-mile circle to zoom the map out")
    held = driver.execute_script("""
        const ring = document.querySelector('#map .overlay .near'), box = document.getElementById('map').getBoundingClientRect();
        const r = Number(ring.getAttribute('r')), x = Number(ring.getAttribute('cx')), y = Number(ring.getAttribute('cy'));
        return x - r >= 0 && y - r >= 0 && x + r <= box.width && y + r <= box.height;""")
    if not held:
        fail("the map zoomed out but does not hold the 20-mile circle")
    driver.execute_script("const r = document.getElementById('near-radius'); r.value = '1.5'; r.dispatchEvent(new Event('input'));")
    # The browser's location (Tromsø, told to Chromium through its DevTools protocol) is "here" too.
    driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": base, "permissions": ["geolocation"]})
    driver.execute_cdp_cmd("Emulation.setGeolocationOverride", {"latitude": 69.6492, "longitude": 18.9553, "accuracy": 10})
    driver.find_element(By.ID, "near-locate").click()
    if wait(driver, lambda d: d.find_element(By.ID, "near-where").get_attribute("data-lat") == "69.6492"
            and d.find_element(By.ID, "results").get_attribute("data-sort") == "distance", "the browser's location as here"):
        time.sleep(0.3)
        shown = [b.get_attribute("data-id") for b in driver.find_elements(By.CSS_SELECTOR, "#results button")]
        wanted = [p["id"] for p in api(base, "GET", "/v1/places/nearby?lat=69.649200&lon=18.955300&radius=1.5&limit=20")["places"]]
        if not wanted or shown != wanted:
            fail(f"near the browser's location the page listed {shown}, but nearby answers {wanted}")
    driver.execute_cdp_cmd("Emulation.clearGeolocationOverride", {})
    # A place with hours: the panel's "open now" agrees with the server's openAt for this minute, in the place's zone.
    place_id = "sf-taqueria-los-cuates"
    driver.find_element(By.ID, "search-words").send_keys("Los Cuates")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#results button[data-id="{place_id}"]'), "the taquería found")
    driver.find_element(By.CSS_SELECTOR, f'#results button[data-id="{place_id}"]').click()
    wait(driver, lambda d: d.find_element(By.ID, "place-name").text.startswith("Taquer"), "the taquería's panel")
    now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    shown = driver.find_element(By.ID, "place-open").get_attribute("data-open")
    place = api(base, "GET", f"/v1/places/{place_id}")
    # openAt keeps the places open then (and those without hours): the taquería is open now when it is answered.
    answered = api(base, "GET", f"/v1/places/nearby?lat={place['lat']}&lon={place['lon']}&radius=0.1&openAt={now}")["places"]
    status = next((p["openStatus"] for p in answered if p["id"] == place_id), "closed")
    if shown != {"open": "true", "closed": "false"}.get(status):
        fail(f"the panel says open {shown!r}; the server says {status!r} at {now}")
    rows = driver.find_elements(By.CSS_SELECTOR, "#place-hours tbody tr")
    if len(rows) != 7 or "11:00-21:00" not in rows[0].text:
        fail(f"the hours table shows {[r.text for r in rows]}")
    facts = driver.find_element(By.ID, "place-facts").text
    lat = float(driver.find_element(By.ID, "near-where").get_attribute("data-lat"))
    lon = float(driver.find_element(By.ID, "near-where").get_attribute("data-lon"))
    directions = api(base, "GET", f"/v1/places/{place_id}?from={lat:.6f},{lon:.6f}")["directions"]
    compass = POINTS[directions["compass"]]
    miles = directions["distanceMiles"]
    distance = f"{miles:.1f} miles" if miles < 10 else f"{round(miles):,} miles"
    if f"{distance} (" not in facts or f"{compass} of here" not in facts or "Los Angeles time" not in facts:
        fail(f"the panel's distance, direction or time zone is not the server's in words ({directions}): {facts!r}")
    shot(driver, shots, "8-place-hours")
    # The README's picture: the bay area's pins and clusters, and what is popular within 2 miles, in a small window.
    size = driver.get_window_size()
    driver.set_window_size(1000, 760)
    driver.get("about:blank")
    driver.get(base + "/#map=13/37.7640/-122.4300")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="13"] .markers button'), "the bay area's pins")
    driver.find_element(By.ID, "map").send_keys(Keys.ENTER)
    driver.find_element(By.ID, "near-popular").click()
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results button"), "popular near here")
    driver.find_element(By.ID, "search-words").click()
    time.sleep(0.5)
    shot(driver, shots, "page")
    driver.set_window_size(size["width"], size["height"])


def check_tiles(driver, base, tiles, shots):
    """With --map-tiles, the map lays the tile server's images under its pins, says whose they are, and the page's
    policy lets them in (a refused image would be a console error)."""
    headers = places_server_headers(base + "/")
    origin = tiles.template.split("/{z}")[0]
    if f"img-src 'self' data: {origin};" not in headers.get("Content-Security-Policy", ""):
        fail(f"the page's policy does not let the tiles in: {headers.get('Content-Security-Policy')!r}")
    driver.get(base + "/#map=12/37.7749/-122.4194")
    loaded = wait(driver, lambda d: d.execute_script(
        "const images = [...document.querySelectorAll('#map .tiles img')];"
        "return images.length > 0 && images.every((i) => i.complete && i.naturalWidth === 256) ? images.length : 0;"),
        "the tiles to load")
    attribution = driver.find_element(By.CSS_SELECTOR, "#map .attribution").text
    if attribution != TILE_ATTRIBUTION:
        fail(f"the map's attribution reads {attribution!r}")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors with tiles: {errors}")
    if loaded:
        shot(driver, shots, "9-tiles")


def check_basemap(driver, base, shots):
    """Without tiles, the map draws Natural Earth's countries: land over Chad, water in the South Atlantic, in the
    page's colours, with the credit on the map; the file comes with a tag a browser revalidates."""
    headers = places_server_headers(base + "/web/basemap.json")
    if not headers.get("ETag") or headers.get("Content-Type") != "application/json":
        fail(f"the basemap is served without its tag or type: {headers}")
    for view, variable, what in (("4/15.5/18.7", "--map-land", "land over Chad"), ("4/-32.5/-22.5", "--map-water", "water off Africa")):
        driver.get("about:blank")
        driver.get(f"{base}/#map={view}")
        wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#map[data-zoom="4"]'), f"the map at {view}")
        time.sleep(0.5)
        found = driver.execute_script("""
            const canvas = document.querySelector('#map canvas');
            const pixel = canvas.getContext('2d').getImageData(Math.floor(canvas.width / 2), Math.floor(canvas.height / 2), 1, 1).data;
            const probe = document.createElement('canvas').getContext('2d');
            probe.fillStyle = getComputedStyle(document.getElementById('map')).getPropertyValue(arguments[0]).trim();
            probe.fillRect(0, 0, 1, 1);
            return [[...pixel.slice(0, 3)], [...probe.getImageData(0, 0, 1, 1).data.slice(0, 3)]];""", variable)
        if found[0] != found[1]:
            fail(f"the map shows {found[0]} where it should show {what} ({variable} {found[1]})")
    if "Natural Earth" not in driver.find_element(By.CSS_SELECTOR, "#map .attribution").text:
        fail("the map does not credit Natural Earth")
    shot(driver, shots, "3b-basemap")


def places_server_headers(url):
    import urllib.request
    with urllib.request.urlopen(url, timeout=10) as response:
        return dict(response.headers)


def streams_open(bases):
    """The live streams open on every instance, from their places_streams_open gauges."""
    import urllib.request
    total = 0
    for base in bases:
        with urllib.request.urlopen(base + "/metrics", timeout=10) as response:
            for line in response.read().decode().splitlines():
                if line.startswith("places_streams_open"):
                    total += int(float(line.split()[-1]))
    return total


def check_signed_in(driver, base, ballot_bases, shots):
    tag = "_" + driver.size[0]
    ana, ben, cleo, dana = (name + tag for name in ("ana", "ben", "cleo", "dana"))
    """Cleo signs in (her accessibility settings apply), marks a favourite and a rating, and casts the last ballot of a
    three-person decision: Ben's ballot and then the result reach her page over the decision's stream, and the
    decision's end reaches her notifications over theirs. Ballots go through `ballot_bases` in turn."""
    tokens = {name: sign_up(base, name) for name in (ana, ben, cleo)}
    api(base, "PATCH", "/v1/me/settings", {"accessibility": {"largerText": True, "highContrast": True, "reducedMotion": True}},
        tokens[cleo])
    group = api(base, "POST", "/v1/groups", {"name": "Friday crew"}, tokens[ana])["id"]
    for name in (ben, cleo):
        api(base, "POST", f"/v1/groups/{group}/invitations", {"username": name}, tokens[ana])
        api(base, "POST", f"/v1/me/invitations/{group}/accept", None, tokens[name])
    # Cleo's collection, the candidates of the decision with a swipe round she starts from the page.
    collection = api(base, "POST", "/v1/collections", {"name": "Lunch ideas"}, tokens[cleo])["id"]
    for place in ("sf-valencia-sourdough-works", "sf-lupine-salt", "sf-taqueria-los-cuates", "sf-dosa-dhaba"):
        api(base, "POST", f"/v1/collections/{collection}/places", {"placeId": place}, tokens[cleo])
    # From here on, every page the browser opens keeps what its decision streams bring (the round's privacy check).
    driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": HEAR_STREAMS})
    candidates = ["sf-valencia-sourdough-works", "sf-lupine-salt", "sf-taqueria-los-cuates"]
    decision = api(base, "POST", "/v1/decisions", {"groupId": group, "method": "tiered", "title": "Friday dinner",
                                                   "candidates": {"placeIds": candidates}}, tokens[ana])["id"]
    api(ballot_bases[0], "PUT", f"/v1/decisions/{decision}/ballot", {"ranking": ["sf-lupine-salt", "sf-valencia-sourdough-works"]},
        tokens[ana])

    # Signing up in the dialog signs the new account in; signing out again.
    if sign_up_in_page(driver, base, dana):
        if api(base, "GET", f"/v1/users/search?q={dana}", token=tokens[ana])["items"][0]["username"] != dana:
            fail("the account made in the page is not on the server")
        driver.find_element(By.ID, "sign-out").click()
        wait(driver, lambda d: d.find_element(By.ID, "sign-in-open").is_displayed(), "Dana signed out")
    # A wrong password is told in the dialog, which stays open.
    driver.find_element(By.ID, "sign-in-open").click()
    driver.find_element(By.ID, "sign-in-username").send_keys(cleo)
    driver.find_element(By.ID, "sign-in-password").send_keys("not her password" + Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "sign-in-error").text != "", "the wrong password refused in the dialog")
    accessible(driver, "the sign-in dialog")
    driver.find_element(By.ID, "sign-in-cancel").click()
    # The browser logs the refused login's 401 as a failed load; it is the one error expected.
    unexpected = [e for e in console_errors(driver) if not ("/v1/auth/login" in e and "401" in e)]
    if unexpected:
        fail(f"console errors while signing up and in: {unexpected}")

    # Signing in, by keyboard: Tab to "Sign in", Enter, type, Enter.
    opener = driver.find_element(By.ID, "sign-in-open")
    driver.execute_script("arguments[0].focus()", opener)
    opener.send_keys(Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "sign-in").get_attribute("open") is not None, "the sign-in dialog")
    driver.switch_to.active_element.send_keys(cleo)
    driver.find_element(By.ID, "sign-in-password").send_keys(PASSWORD + Keys.ENTER)
    if not wait(driver, lambda d: d.find_element(By.ID, "whoami").text == f"Signed in as {cleo}", "Cleo signed in"):
        return
    root_classes = driver.execute_script("return document.documentElement.className")
    size = driver.execute_script("return getComputedStyle(document.documentElement).fontSize")
    if "larger-text" not in root_classes or "high-contrast" not in root_classes or size != "20px":
        fail(f"Cleo's accessibility settings are not applied: classes {root_classes!r}, font size {size}")
    # Signed in, the header keeps the search box whole (on a phone it has a row of its own), and nothing but the page
    # scrolls: no scroll area inside another.
    width = driver.execute_script("return document.getElementById('search-words').getBoundingClientRect().width")
    if width < min(300, SIZES[driver.size][0] * 0.75):
        fail(f"signed in, the search box is {width} px wide")
    nested = driver.execute_script("""
        return [...document.querySelectorAll('body *')].filter((e) => {
          const s = getComputedStyle(e);
          return /(auto|scroll)/.test(s.overflowY) && e.scrollHeight > e.clientHeight;
        }).map((e) => e.id || e.className);""")
    if nested:
        fail(f"scroll areas inside the page: {nested}")
    stored = driver.execute_script("return [sessionStorage.getItem('places.token'), localStorage.length]")
    if not stored[0] or stored[1] != 0:
        fail(f"the token is not kept in sessionStorage alone: {stored}")
    wait(driver, lambda d: d.find_element(By.ID, "notifications-toggle").get_attribute("data-stream") == "live",
         "the notification stream")

    # A favourite and a rating, from the place's panel.
    driver.find_element(By.ID, "search-words").send_keys("cafe")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results button"), "search results")
    first = driver.find_element(By.CSS_SELECTOR, "#results button")
    place_id = first.get_attribute("data-id")
    ratings_before = api(base, "GET", f"/v1/places/{place_id}")["ratingCount"]
    first.click()
    wait(driver, lambda d: d.find_element(By.ID, "place-favorite").is_displayed(), "the favourite button")
    driver.find_element(By.ID, "place-favorite").click()
    wait(driver, lambda d: d.find_element(By.ID, "place-favorite").get_attribute("aria-pressed") == "true", "the favourite kept")
    Select(driver.find_element(By.ID, "place-stars")).select_by_value("5")
    wait(driver, lambda d: "Rated 5" in d.find_element(By.ID, "place-mine-status").text, "the rating saved")
    favorites = [item["id"] for item in api(base, "GET", "/v1/me/favorites", token=tokens[cleo])["items"]]
    rated = api(base, "GET", f"/v1/places/{place_id}")
    if place_id not in favorites or rated["ratingCount"] != ratings_before + 1:
        fail(f"the page's favourite or rating did not reach the server: favourites {favorites}, {rated['ratingCount']} ratings")

    # The decision, shown live: Ben votes through another instance while Cleo's page watches.
    button = wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#decisions button[data-id="{decision}"]'), "the decision listed")
    if not button:
        return
    button.click()
    if not wait(driver, lambda d: d.find_element(By.ID, "decision").get_attribute("data-stream") == "live", "the decision's stream"):
        return
    # Cleo's page holds two streams: her notifications, and the decision shown.
    if not wait(driver, lambda d: streams_open(ballot_bases) == 2, "two streams open for the page"):
        fail(f"with a decision shown, {streams_open(ballot_bases)} streams are open, not 2")
    api(ballot_bases[1 % len(ballot_bases)], "PUT", f"/v1/decisions/{decision}/ballot",
        {"ranking": ["sf-valencia-sourdough-works", "sf-lupine-salt"]}, tokens[ben])
    wait(driver, lambda d: f"{ben} voted" in d.find_element(By.ID, "decision-state").text
         and "Waiting for you." in d.find_element(By.ID, "decision-state").text
         and "2 ballots" in d.find_element(By.ID, "decision-state").text, "Ben's ballot over the stream")
    accessible(driver, "a decision shown, signed in")
    # The ballot starts in the candidates' order; the keyboard, the buttons and a drag each move a place.
    order = lambda: [item.get_attribute("data-id") for item in driver.find_elements(By.CSS_SELECTOR, "#ranking li")]
    a, b, c = [candidate["placeId"] for candidate in api(base, "GET", f"/v1/decisions/{decision}", token=tokens[cleo])["candidates"]]
    if order() != [a, b, c]:
        fail(f"the ballot starts as {order()}, not the candidates' order {[a, b, c]}")
    items = driver.find_elements(By.CSS_SELECTOR, "#ranking li")
    driver.execute_script("arguments[0].focus()", items[2])
    for _ in range(2):
        webdriver.ActionChains(driver).key_down(Keys.ALT).send_keys(Keys.ARROW_UP).key_up(Keys.ALT).perform()
    if order() != [c, a, b]:
        fail(f"Alt+↑ twice on the third place gave {order()}")
    if driver.switch_to.active_element.get_attribute("data-id") != c or not focus_is_visible(driver):
        fail(f"the keyboard's focus did not stay, visibly, on the place it moved: on "
             f"{driver.switch_to.active_element.get_attribute('data-id')!r}, visible {focus_is_visible(driver)}")
    driver.find_element(By.CSS_SELECTOR, f'#ranking li[data-id="{a}"] button[aria-label$=" up"]').click()
    if order() != [a, c, b]:
        fail(f"'Move up' on the second place gave {order()}")
    # Drag and drop, as a mouse does it (HTML5 drag events, sent by the page's own script: chromedriver cannot).
    driver.execute_script("""
        const [from, to] = [...document.querySelectorAll('#ranking li')].filter((li, i) => i === 0 || i === 2);
        const data = new DataTransfer();
        from.dispatchEvent(new DragEvent('dragstart', {dataTransfer: data, bubbles: true}));
        const over = new DragEvent('dragover', {dataTransfer: data, bubbles: true, cancelable: true});
        to.dispatchEvent(over);
        window.dropAllowed = over.defaultPrevented;  // a browser drops only where dragover was cancelled
        to.dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
        from.dispatchEvent(new DragEvent('dragend', {dataTransfer: data, bubbles: true}));""")
    if not driver.execute_script("return window.dropAllowed"):
        fail("a ballot's place does not accept a drop (its dragover is not cancelled)")
    ranking = order()
    if ranking != [c, b, a]:
        fail(f"dragging the first place onto the third gave {ranking}")
    driver.execute_script("document.getElementById('decision').scrollIntoView()")
    shot(driver, shots, "10-ranking")
    events_before = int(driver.find_element(By.ID, "decision").get_attribute("data-events"))
    driver.find_element(By.ID, "ballot-submit").send_keys(Keys.ENTER)
    wait(driver, lambda d: d.find_element(By.ID, "decision").get_attribute("data-last-event") == "ended"
         and d.find_element(By.ID, "decision-result").get_attribute("data-final") == "true", "the result over the stream")
    view = api(base, "GET", f"/v1/decisions/{decision}", token=tokens[cleo])
    shown = driver.find_element(By.ID, "decision-result").get_attribute("data-winner")
    events = int(driver.find_element(By.ID, "decision").get_attribute("data-events"))
    if view["status"] != "completed" or shown != view["result"]["winner"] or events < events_before + 2:
        fail(f"the page shows winner {shown!r} after {events - events_before} events; the server says {view['status']}, "
             f"{view.get('result', {}).get('winner')!r}")
    animation = driver.execute_script("return getComputedStyle(document.getElementById('decision-result')).animationName")
    if animation != "none":
        fail(f"Cleo asked for reduced motion, but the result arrives with the animation {animation!r}")
    if view.get("myBallot") != ranking:
        fail(f"Cleo's stored ballot is {view.get('myBallot')}, not the page's {ranking}")
    # The decision is over: its stream closed, the notifications' stays.
    if not wait(driver, lambda d: streams_open(ballot_bases) == 1, "the decision's stream closed"):
        fail(f"after the decision ended, {streams_open(ballot_bases)} streams are open, not 1")
    driver.find_element(By.ID, "notifications-toggle").click()
    # Seen, the notifications are marked read (on the server too) and the badge empties.
    wait(driver, lambda d: any("Friday dinner” is decided" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#notification-list li"))
         and d.find_element(By.ID, "unread").text == "", "the decision's end in the notifications, marked read")
    wait(driver, lambda d: api(base, "GET", "/v1/notifications", token=tokens[cleo])["unreadCount"] == 0,
         "the notifications seen marked read on the server")
    accessible(driver, "the notifications")
    driver.execute_script("document.getElementById('decision').scrollIntoView()")
    shot(driver, shots, "11-decision-result")
    errors = console_errors(driver)
    if errors:
        fail(f"console errors while signed in: {errors}")

    check_swipe_round(driver, base, ballot_bases, tokens, (ana, ben, cleo), collection, shots)
    # The refusals the round's step asks for are the errors the browser logs; no other.
    expected = [("/v1/decisions - ", "400"), ("/swipes/", "409"), ("/messages - ", "429")]
    errors = [e for e in console_errors(driver) if not any(where in e and f"status of {status}" in e for where, status in expected)]
    if errors:
        fail(f"console errors in the swipe round: {errors}")

    # Signing out ends the session on the server too, and leaves nothing behind in the tab.
    token = driver.execute_script("return sessionStorage.getItem('places.token')")
    click(driver, driver.find_element(By.ID, "sign-out"))
    wait(driver, lambda d: d.find_element(By.ID, "sign-in-open").is_displayed(), "signed out")
    left = driver.execute_script("return [sessionStorage.getItem('places.token'), document.documentElement.className]")
    if left[0] is not None or "larger-text" in left[1]:
        fail(f"signing out left the token or the settings behind: {left}")
    if places_server.call(base, "GET", "/v1/me", token=token)[0] != 401:
        fail("the token still works after signing out")


# What the page reads from a decision's stream, kept by the test: the page's fetch is wrapped before any script of the
# page runs, and the body of each decision stream is teed into window.streamsHeard (the page reads the other branch).
HEAR_STREAMS = """
window.streamsHeard = [];
const pageFetch = window.fetch;
window.fetch = async (...args) => {
  const response = await pageFetch(...args);
  const url = String(args[0] && args[0].url ? args[0].url : args[0]);
  if (!/\\/v1\\/decisions\\/[^/]+\\/events$/.test(url) || !response.body || response.status !== 200) return response;
  const [page, heard] = response.body.tee();
  const reader = heard.getReader(), decoder = new TextDecoder(), index = window.streamsHeard.push('') - 1;
  (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ done: true }));
      if (done) return;
      window.streamsHeard[index] += decoder.decode(value, { stream: true });
    }
  })();
  return new Response(page, { status: response.status, statusText: response.statusText, headers: response.headers });
};
"""

# Every text the decision's section shows (as a person reads it), each time it changes.
WATCH_DECISION = """
window.decisionTexts = [];
const section = document.getElementById('decision');
new MutationObserver(() => window.decisionTexts.push(section.innerText))
  .observe(section, { subtree: true, childList: true, characterData: true, attributes: true });
"""


def stream_events(driver):
    """The events the page's decision streams brought, as (name, data)."""
    import json
    events = []
    for text in driver.execute_script("return window.streamsHeard || []"):
        for block in text.replace("\r\n", "\n").split("\n\n"):
            name, data = "message", []
            for line in block.split("\n"):
                if line.startswith("event:"):
                    name = line[6:].strip()
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
            if data:
                events.append((name, json.loads("\n".join(data))))
    return events


def answers_in(value, path="data"):
    """Where a swipe answer ("yes", "no", "veto") appears as a value in `value`: one would tell someone's answer."""
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found += answers_in(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += answers_in(item, f"{path}[{index}]")
    elif value in ("yes", "no", "veto"):
        found.append(path)
    return found


def swipe_group(driver):
    """The index of the candidate whose radio group holds the keyboard (None when it is elsewhere)."""
    return driver.execute_script("""
        const groups = [...document.querySelectorAll('#swipe-places fieldset')];
        const at = groups.findIndex((g) => g.contains(document.activeElement) && document.activeElement.type === 'radio');
        return at < 0 ? null : at;""")


def swipe_by_keys(driver, index, answer):
    """With the keyboard on candidate `index`'s radio group, chooses `answer` as a person does: Space on the focused
    answer when nothing is chosen yet, or ↓ (which goes round) from the chosen or focused one, pressed at once."""
    if swipe_group(driver) != index:
        fail(f"the keyboard is not on the swipe group of candidate {index} (on {swipe_group(driver)})")
        return False
    checked, focused = driver.execute_script("""
        const inputs = [...document.querySelectorAll('#swipe-places fieldset')[arguments[0]].querySelectorAll('input')];
        return [inputs.findIndex((i) => i.checked), inputs.indexOf(document.activeElement)];""", index)
    target = ["yes", "no", "veto"].index(answer)
    keys = ([Keys.SPACE] if focused == target else [Keys.ARROW_DOWN] * ((target - focused) % 3)) if checked < 0 \
        else [Keys.ARROW_DOWN] * ((target - checked) % 3)
    webdriver.ActionChains(driver).send_keys(*keys).perform()
    now = driver.execute_script(
        "const c = document.querySelectorAll('#swipe-places fieldset')[arguments[0]].querySelector('input:checked');"
        "return c ? c.value : null;", index)
    if now != answer:
        fail(f"{keys!r} on candidate {index} chose {now!r}, not {answer!r}")
        return False
    return True


def check_swipe_round(driver, base, bases, tokens, people, collection, shots):
    """Cleo starts a decision with a swipe round from the page's form (a minimum of yes the server refuses is said at
    its field); Ana and Ben answer through the API (in the cluster run, each on an instance of its own), Ana vetoing a
    place; Cleo answers with the keyboard on the radio groups, a veto past her one is refused beside its place; her last
    answer ends the round, and the ballot ranks the survivors, the vetoed place gone. Nobody's answer is ever shown or
    streamed to her page. Then they talk it over (a message through an instance arrives live; hers reaches the API),
    and the tiered vote on the survivors ends it."""
    ana, ben, cleo = people
    on = lambda n: bases[n % len(bases)]
    driver.execute_script(WATCH_DECISION)
    # The form: a ranked vote on Cleo's collection, with a round first.
    click(driver, driver.find_element(By.ID, "decision-title-input"))
    driver.find_element(By.ID, "decision-title-input").send_keys("Saturday lunch")
    wait(driver, lambda d: "Friday crew" in [o.text for o in Select(d.find_element(By.ID, "decision-group")).options], "Cleo's group to choose")
    Select(driver.find_element(By.ID, "decision-group")).select_by_visible_text("Friday crew")
    click(driver, driver.find_element(By.CSS_SELECTOR, 'input[name="source"][value="collection"]'))
    wait(driver, lambda d: d.find_element(By.ID, "decision-collection").get_attribute("value") == collection, "Cleo's collection to choose")
    click(driver, driver.find_element(By.ID, "swipe-on"))
    if not wait(driver, lambda d: d.find_element(By.ID, "swipe-vetoes").is_displayed(), "the round's options"):
        return
    if driver.find_element(By.ID, "swipe-vetoes").get_attribute("value") != "1":
        fail(f"the round's vetoes start at {driver.find_element(By.ID, 'swipe-vetoes').get_attribute('value')!r}, not 1")
    # Four yes of three participants: the server refuses it, and the page says so at the field.
    driver.find_element(By.ID, "swipe-min-yes").send_keys("4")
    click(driver, driver.find_element(By.ID, "decision-start"))
    if wait(driver, lambda d: d.find_element(By.ID, "swipe-min-yes-error").text, "the refused minimum of yes said at its field"):
        field = driver.find_element(By.ID, "swipe-min-yes")
        if field.get_attribute("aria-invalid") != "true" or driver.switch_to.active_element.get_attribute("id") != "swipe-min-yes":
            fail(f"the refused field is not marked invalid and focused: {field.get_attribute('aria-invalid')!r}, focus on "
                 f"{driver.switch_to.active_element.get_attribute('id')!r}")
    # (A phone's page widens to what it holds, so its width is measured against the screen's.)
    wide = driver.execute_script("return document.documentElement.scrollWidth") - SIZES[driver.size][0]
    if wide > 0:
        fail(f"with the round's options open, the page is {wide} px wider than the screen")
    shot(driver, shots, "12-round-refused")
    driver.find_element(By.ID, "swipe-min-yes").clear()
    # The round's deadline, in the browser's local time (this machine's), reaches the server as that instant.
    local = datetime.datetime.now().astimezone().replace(second=0, microsecond=0) + datetime.timedelta(hours=2)
    driver.execute_script("const f = document.getElementById('swipe-deadline'); f.value = arguments[0];"
                          "f.dispatchEvent(new Event('input', {bubbles: true}));", local.strftime("%Y-%m-%dT%H:%M"))
    click(driver, driver.find_element(By.ID, "decision-start"))
    if not wait(driver, lambda d: d.find_element(By.ID, "decision-title").text == "Saturday lunch"
                and d.find_element(By.ID, "decision-swipe").is_displayed()
                and d.find_element(By.ID, "decision").get_attribute("data-stream") == "live", "the round shown, live"):
        fail(f"the round did not start: {driver.find_element(By.ID, 'decision-new-status').text!r}")
        return
    if driver.find_element(By.ID, "swipe-min-yes-error").text:
        fail("the refusal stays beside the minimum of yes after the decision started")
    decision = next(d for d in api(base, "GET", "/v1/decisions?limit=20", token=tokens[cleo])["items"] if d["title"] == "Saturday lunch")
    decision_id = decision["id"]
    a, b, c, d = [candidate["placeId"] for candidate in decision["candidates"]]
    names = {candidate["placeId"]: candidate["name"] for candidate in decision["candidates"]}
    swipe = decision.get("swipe", {})
    wanted = local.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if (swipe.get("vetoes"), swipe.get("minYes"), swipe.get("deadline")) != (1, None, wanted) or len(decision["participants"]) != 3:
        fail(f"the page started the round as {swipe}, with {len(decision['participants'])} participants, not 1 veto, no "
             f"minimum and its deadline {wanted}, with 3")
    if driver.find_elements(By.CSS_SELECTOR, "#decision-ballot:not([hidden])"):
        fail("the ballot is shown while the round is open")
    legends = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "#swipe-places fieldset legend")]
    if legends != [names[p] for p in (a, b, c, d)]:
        fail(f"the round's places read {legends}, not the candidates {[names[p] for p in (a, b, c, d)]}")

    # Ana answers all at once, vetoing the fourth; Ben one by one, through other instances. Cleo's page hears who.
    api(on(0), "PUT", f"/v1/decisions/{decision_id}/swipes", {"answers": [
        {"placeId": a, "answer": "yes"}, {"placeId": b, "answer": "yes"}, {"placeId": c, "answer": "yes"},
        {"placeId": d, "answer": "veto"}]}, tokens[ana])
    wait(driver, lambda d: f"Answered every place: {ana}." == d.find_element(By.ID, "swipe-answered").text, "Ana's answers heard")
    for place, answer in ((a, "yes"), (b, "no"), (c, "yes"), (d, "yes")):
        api(on(1), "PUT", f"/v1/decisions/{decision_id}/swipes/{place}", {"answer": answer}, tokens[ben])
    wait(driver, lambda d: f"Answered every place: {ana} and {ben}." == d.find_element(By.ID, "swipe-answered").text
         and "Waiting for you." in d.find_element(By.ID, "decision-state").text, "Ben's answers heard")
    rules = driver.find_element(By.ID, "swipe-rules").text
    if "You have 1 veto left." not in rules:
        fail(f"the round's rules read {rules!r}, without Cleo's one veto left")
    accessible(driver, "the swipe round")
    driver.execute_script("document.getElementById('decision-swipe').scrollIntoView()")
    shot(driver, shots, "13-swipe-round")

    # Cleo, by keyboard: Tab from the decision's top reaches the first place's answers; one Tab stop a place, the
    # arrow keys choose within it.
    driver.execute_script("document.getElementById('decision').focus()")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    if swipe_group(driver) != 0 or not focus_is_visible(driver):
        fail(f"Tab from the decision's top reached {driver.switch_to.active_element.get_attribute('outerHTML')[:80]!r}, "
             f"visible {focus_is_visible(driver)}, not the first place's answers")
    swipe_by_keys(driver, 0, "yes")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    swipe_by_keys(driver, 1, "yes")
    driver.switch_to.active_element.send_keys(Keys.TAB)
    driver.switch_to.active_element.send_keys(Keys.TAB)
    swipe_by_keys(driver, 3, "veto")
    wait(driver, lambda d: "You have no vetoes left." in d.find_element(By.ID, "swipe-rules").text, "Cleo's veto of the fourth saved")
    # A second veto is one too many: the server's refusal is said beside the place, which has no answer again.
    webdriver.ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    swipe_by_keys(driver, 2, "veto")
    refusal = f'#swipe-places fieldset[data-id="{c}"] .error'
    if wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, refusal).text, "the second veto refused beside its place"):
        said = driver.find_element(By.CSS_SELECTOR, refusal).text
        restored = driver.execute_script("return [...document.querySelectorAll('#swipe-places fieldset')][2].querySelector('input:checked')")
        if "you may cast 1" not in said or restored is not None or swipe_group(driver) != 2:
            fail(f"the refused veto says {said!r}, leaves {restored and restored.get_attribute('value')!r} chosen, keyboard on "
                 f"{swipe_group(driver)}")
    shot(driver, shots, "14-veto-refused")
    mine = api(base, "GET", f"/v1/decisions/{decision_id}", token=tokens[cleo])["swipe"].get("mySwipes", {})
    if mine != {a: "yes", b: "yes", d: "veto"}:
        fail(f"Cleo's answers on the server are {mine}, not yes, yes and a veto of the fourth")
    # She takes her veto back, then answers the third: the last answer ends the round.
    driver.switch_to.active_element.send_keys(Keys.TAB)
    swipe_by_keys(driver, 3, "yes")
    wait(driver, lambda d: "You have 1 veto left." in d.find_element(By.ID, "swipe-rules").text, "Cleo's veto taken back")
    webdriver.ActionChains(driver).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
    swipe_by_keys(driver, 2, "no")
    if not wait(driver, lambda d: d.find_element(By.ID, "decision-ballot").is_displayed(), "the ballot after the round"):
        return
    view = api(base, "GET", f"/v1/decisions/{decision_id}", token=tokens[cleo])
    survivors = view.get("roundResult", {}).get("survivors")
    ranked = driver.execute_script("return [...document.querySelectorAll('#ranking li')].map((li) => li.dataset.id)")
    if sorted(survivors or []) != sorted([a, b, c]) or sorted(ranked) != sorted(survivors or []) or d in ranked:
        fail(f"after the round the ballot ranks {ranked}; the server's survivors are {survivors}, not the three unvetoed")
    outcome = driver.find_element(By.ID, "decision-round").text
    if f"{names[d]} was vetoed" not in outcome or driver.find_element(By.ID, "decision-swipe").is_displayed():
        fail(f"after the round the page says {outcome!r}, or still shows the round")
    if driver.switch_to.active_element.get_attribute("id") != "decision":
        fail(f"the round's end left the keyboard on {driver.switch_to.active_element.get_attribute('id')!r}, not the decision")
    driver.execute_script("document.getElementById('decision').scrollIntoView()")
    shot(driver, shots, "15-round-ended")

    conversation(driver, base, bases, tokens, people, decision_id, shots)

    # The ranked vote on the survivors: Ana and Ben through their instances, Cleo last from the page.
    api(on(0), "PUT", f"/v1/decisions/{decision_id}/ballot", {"ranking": [b, a, c]}, tokens[ana])
    api(on(1), "PUT", f"/v1/decisions/{decision_id}/ballot", {"ranking": [b, c, a]}, tokens[ben])
    wait(driver, lambda d: "Waiting for you." in d.find_element(By.ID, "decision-state").text, "the others' ballots heard")
    driver.find_element(By.ID, "ballot-submit").send_keys(Keys.ENTER)
    if wait(driver, lambda d: d.find_element(By.ID, "decision").get_attribute("data-last-event") == "ended"
            and d.find_element(By.ID, "decision-result").get_attribute("data-final") == "true", "the vote's result"):
        view = api(base, "GET", f"/v1/decisions/{decision_id}", token=tokens[cleo])
        shown = driver.find_element(By.ID, "decision-result").get_attribute("data-winner")
        if view["status"] != "completed" or shown != view["result"]["winner"] or shown not in survivors or "round" not in view["result"]:
            fail(f"the page shows winner {shown!r}; the server says {view['status']}, {view.get('result')}")
        if driver.find_element(By.ID, "message-new").is_displayed() or not driver.find_element(By.ID, "messages-closed").is_displayed():
            fail("the conversation of a decided decision still offers to post")
    driver.execute_script("document.getElementById('decision').scrollIntoView()")
    shot(driver, shots, "17-round-decided")

    # Nobody's answer reached Cleo's page: no line it showed puts Ana's or Ben's name beside an answer, and no event
    # of the stream holds an answer but her own.
    said = re.compile(r"\b(yes|no|veto|vetoed|vetoes)\b", re.IGNORECASE)
    lines = {line for text in driver.execute_script("return window.decisionTexts") for line in re.split(r"\n|(?<=\.) ", text)}
    named = sorted(line for line in lines if said.search(line) and (ana in line or ben in line))
    if named:
        fail(f"Cleo's page put a name beside an answer: {named}")
    events = [(name, data) for name, data in stream_events(driver)
              if (data.get("decision") or {}).get("id") == decision_id or data.get("decisionId") == decision_id]
    kinds = {name for name, _ in events}
    if not {"snapshot", "swipe", "roundEnded", "message", "ballot", "ended"} <= kinds:
        fail(f"the page's stream of the round brought only {sorted(kinds)}")
    for name, data in events:
        data = json.loads(json.dumps(data))
        (data.get("decision") or {}).get("swipe", {}).pop("mySwipes", None)
        # Counts per place come only once the round is over.
        decision = data.get("decision") or {}
        early = decision.get("swipe", {}).get("open") and "roundResult" in decision
        leaked = answers_in(data)
        if leaked or early or (name == "swipe" and set(data) - {"version", "swiper", "decision"}):
            fail(f"the stream's {name} event tells more than who answered: {leaked or sorted(data)}, counts while open: {early}")


def conversation(driver, base, bases, tokens, people, decision_id, shots):
    """Ben's message, sent through an instance, arrives on Cleo's page live; hers, posted from the page (Enter), is read
    back through the API, and shown once though both its answer and its event reach the page. Earlier messages come on
    demand; the eleventh message in a minute is refused and the page says when to try again."""
    ana, ben, cleo = people
    on = lambda n: bases[n % len(bases)]
    # The messages' texts, read at once (the list is drawn anew as messages come).
    texts = lambda d: d.execute_script("return [...document.querySelectorAll('#messages li p')].map((p) => p.textContent)")
    if not wait(driver, lambda d: d.find_element(By.ID, "conversation").is_displayed(), "the conversation under the decision"):
        return
    api(on(2), "POST", f"/v1/decisions/{decision_id}/messages", {"text": "Lupine or the dosas?"}, tokens[ben])
    wait(driver, lambda d: texts(d) == ["Lupine or the dosas?"], "Ben's message, live")
    field = driver.find_element(By.ID, "message-text")
    click(driver, field)
    events = int(driver.find_element(By.ID, "decision").get_attribute("data-events"))
    field.send_keys("Dosas, and then a walk" + Keys.ENTER)
    # Its answer and its event have both come (the event is the stream's next).
    wait(driver, lambda d: int(d.find_element(By.ID, "decision").get_attribute("data-events")) > events
         and d.find_element(By.ID, "decision").get_attribute("data-last-event") == "message", "Cleo's message over the stream")
    shown = texts(driver)
    authors = driver.execute_script("return [...document.querySelectorAll('#messages li')].map((li) => "
                                    "[li.querySelector('.author').textContent, li.classList.contains('own')])")
    if shown != ["Lupine or the dosas?", "Dosas, and then a walk"] or field.get_attribute("value") or authors != [[ben, False], ["You", True]]:
        fail(f"after posting, the conversation shows {shown} by {authors} (box: {field.get_attribute('value')!r})")
    read = api(on(0), "GET", f"/v1/decisions/{decision_id}/messages?limit=5", token=tokens[ana])["items"]
    if [(m["author"]["username"], m["text"]) for m in read] != [(cleo, "Dosas, and then a walk"), (ben, "Lupine or the dosas?")]:
        fail(f"the API reads the conversation as {read}")
    accessible(driver, "the conversation")
    driver.execute_script("document.getElementById('conversation').scrollIntoView()")
    shot(driver, shots, "16-conversation")
    # Twenty-one messages: the page opens with the newest twenty, the first one on demand, above them.
    for number in range(1, 11):
        api(on(0), "POST", f"/v1/decisions/{decision_id}/messages", {"text": f"Ana's note {number}"}, tokens[ana])
    for number in range(1, 10):
        api(on(1), "POST", f"/v1/decisions/{decision_id}/messages", {"text": f"Cleo's note {number}"}, tokens[cleo])
    click(driver, driver.find_element(By.ID, "decision-close"))
    click(driver, driver.find_element(By.CSS_SELECTOR, f'#decisions button[data-id="{decision_id}"]'))
    if wait(driver, lambda d: len(texts(d)) == 20 and d.find_element(By.ID, "messages-earlier").is_displayed(), "the newest twenty messages"):
        click(driver, driver.find_element(By.ID, "messages-earlier"))
        wait(driver, lambda d: len(texts(d)) == 20 + 1, "the earlier message")
        if texts(driver)[:3] != ["Lupine or the dosas?", "Dosas, and then a walk", "Ana's note 1"] or texts(driver)[-1] != "Cleo's note 9" \
                or driver.find_element(By.ID, "messages-earlier").is_displayed():
            fail(f"the conversation reads {texts(driver)} once its earlier messages are shown")
    # Cleo's eleventh in a minute.
    click(driver, driver.find_element(By.ID, "message-text"))
    driver.find_element(By.ID, "message-text").send_keys("One more thing" + Keys.ENTER)
    if wait(driver, lambda d: d.find_element(By.ID, "message-status").text.startswith("Not sent"), "the eleventh message refused"):
        said = driver.find_element(By.ID, "message-status").text
        if not re.search(r"Try again in \d+ s\.", said) or "One more thing" in texts(driver):
            fail(f"the eleventh message in a minute: the page says {said!r}")


def sign_up_in_page(driver, base, username):
    """A new account made in the page's dialog, signed in."""
    driver.get("about:blank")
    driver.get(base + "/#map=14/37.7599/-122.4200")
    wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page")
    driver.find_element(By.ID, "sign-in-open").click()
    driver.find_element(By.ID, "sign-in-username").send_keys(username)
    driver.find_element(By.ID, "sign-in-password").send_keys(PASSWORD)
    driver.find_element(By.ID, "sign-in-email").send_keys(f"{username}@example.com")
    driver.find_element(By.ID, "sign-up-submit").click()
    return wait(driver, lambda d: d.find_element(By.ID, "whoami").text == f"Signed in as {username}", f"{username} signed up")


def click(driver, element):
    """Clicks a control as a person would reach it: scrolled into view first (a phone's page is long)."""
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    element.click()


def check_group_decision(binary_base, shots):
    """Three people decide together from the page alone, each in a browser of their own (two desktops and a phone):
    Amy makes a group and invites Bo and Cy by username (offered as she types); Bo joins from his notification, Cy from
    her invitations; Amy starts a ranked vote on the places near here; each opens it (Bo and Cy from the notification)
    and casts a ballot; the result reaches all three over the decision's stream. No API call but the page's."""
    base = binary_base
    names = {"amy": "amy_g", "bo": "bo_g", "cy": "cy_g"}
    drivers = {}
    try:
        for who, size in (("amy", "desktop"), ("bo", "phone"), ("cy", "desktop")):
            drivers[who] = browser(shots, size)
            drivers[who].size = f"{size}-{who}"
            if not sign_up_in_page(drivers[who], base, names[who]):
                return
        amy, bo, cy = drivers["amy"], drivers["bo"], drivers["cy"]
        # Amy makes the group and invites the two by username, chosen among the names offered as she types.
        click(amy, amy.find_element(By.ID, "group-name"))
        amy.find_element(By.ID, "group-name").send_keys("Dinner club" + Keys.ENTER)
        if not wait(amy, lambda d: d.find_element(By.ID, "group-invite").is_displayed(), "the group made, its invite form"):
            return
        for friend in ("bo", "cy"):
            field = amy.find_element(By.ID, "invite-username")
            field.send_keys(names[friend][:3])
            wait(amy, lambda d: names[friend] in [o.get_attribute("value") for o in d.find_elements(By.CSS_SELECTOR, "#invite-people option")],
                 f"{names[friend]} offered as Amy types")
            field.send_keys(names[friend][3:] + Keys.ENTER)
            wait(amy, lambda d: f"{names[friend]} is invited" in d.find_element(By.ID, "groups-status").text, f"{names[friend]} invited")
        shot(amy, shots, "20-group-invited")
        members = amy.find_element(By.ID, "groups").text
        if "Members: amy_g (admin)." not in members:
            fail(f"Amy's group does not show its members: {members!r}")
        # Bo joins from the notification; Cy from her invitations.
        bo.find_element(By.ID, "notifications-toggle").click()
        join = wait(bo, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#notification-list button") if b.text == "Join"), None),
                    "Bo's invitation in his notifications")
        if join:
            click(bo, join)
            wait(bo, lambda d: "You joined" in d.find_element(By.ID, "notifications-status").text, "Bo joined")
        shot(bo, shots, "21-joined-from-notification")
        accessible(bo, "an invitation in the notifications")
        cy.refresh()
        join = wait(cy, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#invitations button") if b.text == "Join"), None),
                    "Cy's invitation")
        if join:
            click(cy, join)
            wait(cy, lambda d: "Dinner club" in d.find_element(By.ID, "groups").text, "Cy in the group")
        # Amy picks here on the map and starts a ranked vote among the places within half a mile.
        amy.find_element(By.ID, "map").send_keys(Keys.ENTER)
        amy.execute_script("const r = document.getElementById('near-radius'); r.value = '0.5'; r.dispatchEvent(new Event('input'));")
        click(amy, amy.find_element(By.ID, "decision-title-input"))
        amy.find_element(By.ID, "decision-title-input").send_keys("Dinner tonight")
        wait(amy, lambda d: len(Select(d.find_element(By.ID, "decision-group")).options) > 1, "Amy's group to choose")
        Select(amy.find_element(By.ID, "decision-group")).select_by_visible_text("Dinner club")
        click(amy, amy.find_element(By.ID, "decision-start"))
        if not wait(amy, lambda d: d.find_element(By.ID, "decision").is_displayed()
                    and d.find_element(By.ID, "decision").get_attribute("data-stream") == "live", "Amy's decision started and shown"):
            fail(f"the decision did not start: {amy.find_element(By.ID, 'decision-new-status').text!r}")
            return
        shot(amy, shots, "22-decision-started")
        # Bo and Cy open it from the notification that it started, and vote; Amy votes last.
        for person in (bo, cy):
            if person is cy:
                cy.find_element(By.ID, "notifications-toggle").click()
            opener = wait(person, lambda d: next((b for b in d.find_elements(By.CSS_SELECTOR, "#notification-list button")
                                                  if b.text == "Open the decision"), None), "the decision's notification")
            if not opener:
                return
            click(person, opener)
            ballot = wait(person, lambda d: d.find_element(By.ID, "ballot-submit").is_displayed() and d.find_element(By.ID, "ballot-submit"),
                          "the ballot")
            if not ballot:
                return
            ranks = [r.text for r in person.find_elements(By.CSS_SELECTOR, "#ranking .rank")]
            if ranks[:3] != ["1", "2", "3"]:
                fail(f"the ballot's places are not numbered: {ranks}")
            click(person, ballot)
            wait(person, lambda d: "Your ballot is in." in d.find_element(By.ID, "decision-state").text, "the ballot cast")
        shot(bo, shots, "23-voted")
        click(amy, amy.find_element(By.ID, "ballot-submit"))
        for who, person in drivers.items():
            if not wait(person, lambda d: d.find_element(By.ID, "decision-result").get_attribute("data-final") == "true",
                        f"the result on {who}'s page"):
                continue
            text = person.find_element(By.ID, "decision-result").text
            state = person.find_element(By.ID, "decision-state").text
            if " wins" not in text or "3 ballots" not in state or "sf-" in text:
                fail(f"{who}'s page says the result as {text!r} / {state!r}, not in names with its 3 ballots")
        shot(amy, shots, "24-decided")
        shot(bo, shots, "24-decided")
        accessible(bo, "a decided decision")
        # The winner opens on the map.
        show = next((b for b in amy.find_elements(By.CSS_SELECTOR, "#decision-result button") if b.text.startswith("Show ")), None)
        if show:
            click(amy, show)
            winner = amy.find_element(By.ID, "decision-result").get_attribute("data-winner")
            wait(amy, lambda d: d.find_element(By.ID, "place").is_displayed() and
                 d.find_element(By.CSS_SELECTOR, "#map .overlay .chosen"), f"the winner {winner} shown on the map")
        else:
            fail("the result has no button that shows the winner on the map")
        # Cy picks two cafés on the map and has them drawn at random for the group: decided at once.
        cy.find_element(By.ID, "search-words").send_keys("cafe")
        wait(cy, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#results button")) >= 2, "cafés for Cy")
        picked = []
        for index in (0, 1):
            result = cy.find_elements(By.CSS_SELECTOR, "#results button")[index]
            picked.append(result.get_attribute("data-id"))
            click(cy, result)
            wait(cy, lambda d: d.find_element(By.ID, "place-pick").is_displayed(), "the place's Add to a new decision")
            click(cy, cy.find_element(By.ID, "place-pick"))
        wait(cy, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#decision-picked li")) == 2, "two places picked")
        click(cy, cy.find_element(By.ID, "decision-title-input"))
        cy.find_element(By.ID, "decision-title-input").send_keys("Coffee after")
        Select(cy.find_element(By.ID, "decision-group")).select_by_visible_text("Dinner club")
        Select(cy.find_element(By.ID, "decision-method")).select_by_value("random")
        click(cy, cy.find_element(By.ID, "decision-start"))
        if wait(cy, lambda d: d.find_element(By.ID, "decision-title").text == "Coffee after"
                and d.find_element(By.ID, "decision-result").get_attribute("data-final") == "true", "Cy's draw decided"):
            drawn = cy.find_element(By.ID, "decision-result").get_attribute("data-winner")
            if drawn not in picked or " wins" not in cy.find_element(By.ID, "decision-result").text:
                fail(f"the draw among {picked} shows {drawn!r}: {cy.find_element(By.ID, 'decision-result').text!r}")
        shot(cy, shots, "25-drawn")
        for who, person in drivers.items():
            errors = [e for e in console_errors(person) if "/v1/auth/login" not in e]
            if errors:
                fail(f"console errors on {who}'s page: {errors}")
    finally:
        for person in drivers.values():
            person.quit()


class Tiles:
    """A tile server of our own on loopback (the page's `--map-tiles`): every tile is a small SVG naming itself."""

    def __init__(self):
        import http.server, threading

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                z, x, y = (self.path.strip("/").removesuffix(".svg").split("/") + ["", "", ""])[:3]
                body = ('<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" '
                        'fill="#f1efe8" stroke="#e2ddd0"/><text x="8" y="20" font-size="11" fill="#b8b0a0">'
                        f'{z}/{x}/{y}</text></svg>').encode()
                self.send_response(200)
                self.send_header("Content-Type", "image/svg+xml")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *_):
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.template = f"http://127.0.0.1:{self.server.server_address[1]}/{{z}}/{{x}}/{{y}}.svg"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        self.server.shutdown()


def on_sqlite(binary, work, shots):
    """One freshly seeded server on SQLite, with tiles from a tile server of our own."""
    tiles = Tiles()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # Every account the test makes comes from 127.0.0.1: more than the 20 an address may register in an hour by default
    # (the cluster test's instances allow 1000 too).
    server = places_server.start(binary, ["--database", os.path.join(work, "places.sqlite"), "--port", str(port),
                                          "--seeds", os.path.join(root, "Seeds"), "--bcrypt-cost", "4",
                                          "--registrations-per-hour", "1000",
                                          "--map-tiles", tiles.template, "--map-tiles-attribution", TILE_ATTRIBUTION],
                                 os.path.join(work, "server.log"), base, seconds=120, who="browser test")
    try:
        openstreetmap.seed(sys.modules[__name__], binary, os.path.join(work, "places.sqlite"), work)
        for size in SIZES:
            driver = browser(shots, size)
            try:
                check_page(driver, base, shots)
                check_near(driver, base, shots)
                check_tiles(driver, base, tiles, shots)
                check_signed_in(driver, base, [base], shots)
                fair.check(sys.modules[__name__], driver, base, [base], shots)
                photos.check(sys.modules[__name__], driver, base, [base], shots)
                openstreetmap.check(sys.modules[__name__], driver, base, shots)
            finally:
                driver.quit()
        check_group_decision(base, shots)
    finally:
        places_server.stop(server)
        tiles.stop()
    return os.path.join(work, "server.log")


def on_cluster(binary, work, shots):
    """The cluster test's three instances on one PostgreSQL behind nginx: the page goes through nginx, the other
    members' ballots straight to the instances, so the page's stream hears them from another instance."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("cluster", os.path.join(root, "Tests", "cluster", "run-cluster-test.py"))
    cluster_test = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cluster_test)
    cluster_test.nginx_binary(), cluster_test.psql_binary()  # say what is missing before starting anything
    if os.geteuid() == 0:
        os.chmod(work, 0o755)  # PostgreSQL runs as `postgres` and must reach its folder inside
    cluster = cluster_test.Cluster(binary, work)
    try:
        cluster.start()
        base = cluster.nginx.base
        for size in SIZES:
            driver = browser(shots, size)
            try:
                check_page(driver, base, shots)
                check_basemap(driver, base, shots)
                check_near(driver, base, shots)
                check_signed_in(driver, base, [instance.base for instance in cluster.instances], shots)
                fair.check(sys.modules[__name__], driver, base, [instance.base for instance in cluster.instances], shots)
                photos.check(sys.modules[__name__], driver, base, [instance.base for instance in cluster.instances], shots)
            finally:
                driver.quit()
        check_group_decision(base, shots)
    finally:
        cluster.stop()
    return work


def main():
    arguments = [argument for argument in sys.argv[1:] if argument != "--cluster"]
    if len(arguments) != 1:
        raise SystemExit(__doc__)
    binary = os.path.abspath(arguments[0])
    clustered = "--cluster" in sys.argv[1:]
    for path in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not os.path.exists(path):
            raise SystemExit(f"browser test: {path} is missing (apt-get install chromium chromium-driver); .ci/run installs it")
    work = tempfile.mkdtemp(prefix="places-browser-")
    shots = os.path.join(work, "screenshots")
    os.makedirs(shots)
    logs = work
    try:
        logs = (on_cluster if clustered else on_sqlite)(binary, work, shots)
    except Exception:
        fail("the run stopped: " + traceback.format_exc())
    print(f"browser test: screenshots in {shots}")
    where = "three instances on PostgreSQL behind nginx" if clustered else "one server on SQLite"
    if failures:
        print(f"browser test ({where}): {len(failures)} check(s) failed; the server logs are in {logs}")
        sys.exit(1)
    print(f"browser test ({where}): ok")


if __name__ == "__main__":
    main()
