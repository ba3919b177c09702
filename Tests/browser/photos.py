"""The page's part of issue 38 ("Photos"), in the browser: a place's photos in its panel, a photo added from the
page (a real JPEG that gives its location away, as a phone's camera writes it), served back cleaned, refused with the
server's words when it is broken, listed beyond the newest five, deleted by who added it and by the place's owner;
and the person's picture, set in the settings panel, shown in the header, and removed.

run-browser-test.py calls `check` at each size, after fair.py's steps, handing it its helpers as `t` (api, sign_up,
wait, fail, click, accessible, shot, console_errors). Pia uses the page; Quinn adds photos through the API (through
another instance, in the cluster run).
"""
import json, os, sys, tempfile, urllib.error, urllib.request
from selenium.webdriver.common.by import By
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools"))
import gps_jpeg

PLACE = ("sf-wave-organ", "Wave Organ")
# The Wave Organ's view, where Pia's own place (a bench beside it) is too.
VIEW = "/#map=15/37.8085/-122.4399"


def check(t, driver, base, bases, shots):
    tag = "_" + driver.size[0]
    pia, quinn = "pia" + tag, "quinn" + tag
    tokens = {name: t.sign_up(base, name) for name in (pia, quinn)}
    other = bases[-1]
    folder = tempfile.mkdtemp(prefix="places-photos-")
    located = os.path.join(folder, "sunset.jpg")
    with open(located, "wb") as file:
        file.write(gps_jpeg.jpeg())
    broken = os.path.join(folder, "broken.png")
    with open(broken, "wb") as file:
        file.write(b"\x89PNG\r\n\x1a\n not a picture after all")
    # Pia owns a place of her own, where Quinn adds a photo; on the Wave Organ, Quinn adds five without a caption.
    bench = t.api(base, "POST", "/v1/places", {"name": f"Bench of {pia}", "kind": "gem", "lat": 37.8087, "lon": -122.4396},
                  tokens[pia])
    on_bench = upload(t, other, f"/v1/places/{bench['id']}/photos?caption=Quinn%27s%20view", gps_jpeg.jpeg(), tokens[quinn])
    quinns = [upload(t, other, f"/v1/places/{PLACE[0]}/photos", gps_jpeg.jpeg(), tokens[quinn]) for _ in range(5)]
    try:
        if not sign_in(t, driver, base, tokens[pia], pia):
            return
        if open_place(t, driver, PLACE[0], PLACE[1]):
            check_shown(t, driver, base, quinn)
            photo = check_add(t, driver, base, tokens[pia], located, broken, shots)
            if photo:
                check_more(t, driver, base)
                check_delete(t, driver, base, photo)
        if on_bench and open_place(t, driver, bench["id"], bench["name"]):
            check_owner_deletes(t, driver, base, on_bench)
        check_picture(t, driver, base, tokens[pia], located, shots)
        # The broken upload's 400 is logged by the browser as a failed load; it is the one error expected.
        errors = [e for e in t.console_errors(driver) if not ("/photos - " in e and "status of 400" in e)]
        if errors:
            t.fail(f"console errors in the photo steps: {errors}")
        t.click(driver, driver.find_element(By.ID, "sign-out"))
        t.wait(driver, lambda d: d.find_element(By.ID, "sign-in-open").is_displayed(), "Pia signed out")
    finally:
        # The next size's run counts the Wave Organ's photos afresh.
        for photo in quinns:
            if photo:
                t.places_server.call(other, "DELETE", f"/v1/photos/{photo['id']}", token=tokens[quinn])


def upload(t, base, path, data, token, media_type="image/jpeg", method="POST"):
    """An image sent as the body itself, as the page sends it; the photo answered (None, and a failure, otherwise)."""
    status, answer = send(base, path, data, token, media_type, method)
    if status not in (200, 201):
        t.fail(f"{method} {path} answered {status}: {answer}")
        return None
    return answer


def send(base, path, data, token, media_type, method="POST"):
    """The status and JSON answer of an upload."""
    request = urllib.request.Request(base + path, method=method, data=data)
    request.add_header("Content-Type", media_type)
    request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def fetch(url):
    """The status and bytes of a GET without a token (as an `<img>` asks)."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def sign_in(t, driver, base, token, username):
    """Pia's session, as a tab that kept it: the token in sessionStorage, then the page loaded again."""
    driver.get("about:blank")
    driver.get(base + VIEW)
    t.wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page")
    driver.execute_script("sessionStorage.setItem('places.token', arguments[0])", token)
    driver.refresh()
    return t.wait(driver, lambda d: d.find_element(By.ID, "whoami").text == f"Signed in as {username}", f"{username} signed in")


def open_place(t, driver, place_id, name):
    """The place opened from a search for its name (asked again while a place just added is not found yet: in the
    cluster run another instance may not have heard of it)."""
    box = driver.find_element(By.ID, "search-words")
    for _ in range(5):
        box.clear()
        box.send_keys(name)
        try:
            WebDriverWait(driver, 3).until(lambda d: d.find_elements(By.CSS_SELECTOR, f'#results button[data-id="{place_id}"]'))
            break
        except TimeoutException:
            pass
    else:
        t.fail(f"searching {name!r} did not list {place_id}")
        return False
    t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#results button[data-id="{place_id}"]'))
    return t.wait(driver, lambda d: d.find_element(By.ID, "place-name").text == name, f"{name}'s panel")


def shown(driver):
    """The photos in the panel: id, alt, the width and height attributes, src, whether it decoded, its delete button."""
    return driver.execute_script("""
        return [...document.querySelectorAll('#place-photo-list li')].map((li) => {
          const img = li.querySelector('img'), del = li.querySelector('button');
          return {id: li.dataset.id, alt: img.alt, width: img.getAttribute('width'), height: img.getAttribute('height'),
                  src: img.src, loading: img.loading, decoded: img.complete && img.naturalWidth > 0,
                  delete: del ? del.getAttribute('aria-label') : null};
        });""")


def decoded(t, driver, photo_id, what):
    """Waits until the photo's thumbnail is scrolled into view, loaded and decoded (its naturalWidth is not 0)."""
    selector = f'#place-photo-list li[data-id="{photo_id}"] img'
    driver.execute_script("const img = document.querySelector(arguments[0]); if (img) img.scrollIntoView({block: 'center'})", selector)
    return t.wait(driver, lambda d: d.execute_script(
        "const img = document.querySelector(arguments[0]); return Boolean(img && img.complete && img.naturalWidth > 0)", selector),
        what)


def expected(base, place_id):
    """The photos the panel should show: the place's own, as the API answers it."""
    return [photo["id"] for photo in json.loads(fetch(f"{base}/v1/places/{place_id}")[1]).get("photos", [])]


def check_shown(t, driver, base, quinn):
    """Quinn's five photos, newest first, each with its text alternative, its size and lazy loading; Pia may delete
    none of them, and no more photos are offered."""
    place_id, name = PLACE
    want = expected(base, place_id)
    if not t.wait(driver, lambda d: [p["id"] for p in shown(d)] == want, "the Wave Organ's photos in its panel"):
        t.fail(f"the panel shows {[p['id'] for p in shown(driver)]}, the place {want}")
        return
    for photo in shown(driver):
        if (photo["alt"] != f"Photo of {name} by {quinn}" or photo["loading"] != "lazy" or (photo["width"], photo["height"]) != ("1", "1")
                or photo["delete"] is not None):
            t.fail(f"Quinn's photo is shown as {photo}")
    if want:
        decoded(t, driver, want[0], "Quinn's newest photo decoded")
    if driver.find_element(By.ID, "place-photos-more").is_displayed():
        t.fail("five photos of five offer more")
    if driver.find_element(By.ID, "place-photos-title").text != f"Photos ({len(want)})":
        t.fail(f"the photos' heading says {driver.find_element(By.ID, 'place-photos-title').text!r} for {len(want)}")


def check_add(t, driver, base, token, located, broken, shots):
    """A broken file refused with the server's words; then the JPEG with its location added with a caption, shown
    first, decoded, at its size, and served without its location."""
    place_id, name = PLACE
    field = driver.find_element(By.ID, "photo-file")
    if field.get_attribute("accept") != "image/jpeg,image/png,image/webp":
        t.fail(f"the photo field accepts {field.get_attribute('accept')!r}")
    # The field is reached by keyboard: Tab from the photos' section lands on it (nothing focusable in between here).
    driver.execute_script("document.getElementById('photo-caption').focus()")
    driver.switch_to.active_element.send_keys(Keys.SHIFT + Keys.TAB)
    if driver.switch_to.active_element.get_attribute("id") != "photo-file":
        t.fail(f"Shift+Tab from the caption reached {driver.switch_to.active_element.get_attribute('id')!r}, not the photo field")
    status, refusal = send(base, f"/v1/places/{place_id}/photos", open(broken, "rb").read(), token, "image/png")
    field.send_keys(broken)
    t.click(driver, driver.find_element(By.ID, "photo-add"))
    said = f"Not added: {(refusal or {}).get('error', {}).get('message')}"
    if status != 400 or not t.wait(driver, lambda d: d.find_element(By.ID, "photo-error").text == said, "the broken file refused"):
        t.fail(f"a broken PNG: the server answered {status} {refusal}; the page says {driver.find_element(By.ID, 'photo-error').text!r}")
    if driver.find_element(By.ID, "photo-error").get_attribute("role") != "alert":
        t.fail("the photo's refusal is not an alert")
    t.shot(driver, shots, "25-photo-refused")

    caption = f"Sunset at the {name} ({driver.size})"
    driver.execute_script("document.getElementById('photo-file').value = ''")
    driver.find_element(By.ID, "photo-file").send_keys(located)
    driver.find_element(By.ID, "photo-caption").send_keys(caption)
    t.click(driver, driver.find_element(By.ID, "photo-add"))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "photo-status").text == "Photo added.", "the photo added"):
        t.fail(f"the photo was not added: {driver.find_element(By.ID, 'photo-error').text!r}")
        return None
    if driver.find_element(By.ID, "photo-error").text or driver.find_element(By.ID, "photo-file").get_attribute("value"):
        t.fail("after the photo was added, the refusal or the file chosen is still shown")
    mine = json.loads(fetch(f"{base}/v1/places/{place_id}/photos?limit=1")[1])["items"][0]
    if mine.get("caption") != caption or mine["mediaType"] != "image/jpeg":
        t.fail(f"the photo the page added is {mine}")
        return None
    if not t.wait(driver, lambda d: (shown(d) or [{}])[0].get("id") == mine["id"], "the new photo first in the panel"):
        return mine
    first = shown(driver)[0]
    if first["alt"] != caption or (first["width"], first["height"]) != (str(mine["width"]), str(mine["height"])):
        t.fail(f"the new photo is shown as {first}, the server has {mine}")
    if not first["delete"] or caption not in first["delete"] or not first["delete"].startswith("Delete photo"):
        t.fail(f"Pia's own photo has no delete button named for it: {first['delete']!r}")
    decoded(t, driver, mine["id"], "the new photo decoded")
    # What the page shows is the cleaned file: nothing of where it was taken, a whole JPEG still.
    status, data = fetch(first["src"])
    left = [marker for marker in gps_jpeg.location_markers if marker in data]
    if status != 200 or left or not data.startswith(b"\xff\xd8") or not data.endswith(b"\xff\xd9"):
        t.fail(f"the photo served at {first['src']} ({status}, {len(data)} bytes) keeps {left}, or is not a whole JPEG")
    t.accessible(driver, "a place's photos")
    driver.execute_script("document.getElementById('place-photos').scrollIntoView()")
    t.shot(driver, shots, "26-photos")
    return mine


def check_more(t, driver, base):
    """Six photos: the panel shows the newest five and offers the sixth."""
    place_id = PLACE[0]
    more = driver.find_element(By.ID, "place-photos-more")
    if not more.is_displayed():
        t.fail("six photos and five shown: no button shows more")
        return
    t.click(driver, more)
    every = [p["id"] for p in json.loads(fetch(f"{base}/v1/places/{place_id}/photos?limit=20")[1])["items"]]
    t.wait(driver, lambda d: [p["id"] for p in shown(d)] == every, "every photo shown")
    if driver.find_element(By.ID, "place-photos-more").is_displayed():
        t.fail("every photo shown, the button still offers more")


def check_delete(t, driver, base, photo):
    """Pia's photo deleted by its button: gone from the panel and from the server."""
    button = driver.find_element(By.CSS_SELECTOR, f'#place-photo-list li[data-id="{photo["id"]}"] button')
    t.click(driver, button)
    if not t.wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#place-photo-list li[data-id="{photo["id"]}"]'),
                  "the photo deleted"):
        t.fail(f"the photo was not deleted: {driver.find_element(By.ID, 'photo-error').text!r}")
        return
    if driver.find_element(By.ID, "photo-status").text != "Photo deleted.":
        t.fail(f"after deleting, the panel says {driver.find_element(By.ID, 'photo-status').text!r}")
    status, _ = fetch(base + photo["url"])
    if status != 404:
        t.fail(f"the deleted photo still answers {status}")
    if driver.switch_to.active_element.get_attribute("id") != "place-photos":
        t.fail(f"after deleting, the keyboard is on {driver.switch_to.active_element.get_attribute('id')!r}, not the photos")
    want = expected(base, PLACE[0])
    t.wait(driver, lambda d: [p["id"] for p in shown(d)] == want, "the photos read again after the delete")


def check_owner_deletes(t, driver, base, photo):
    """On her own place, Pia may delete Quinn's photo, and does."""
    items = shown(driver)
    if [p["id"] for p in items] != [photo["id"]] or not items[0]["delete"]:
        t.fail(f"on her own place Pia sees {items}, not Quinn's photo with a delete button")
        return
    if items[0]["alt"] != "Quinn's view":
        t.fail(f"Quinn's caption is shown as {items[0]['alt']!r}")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#place-photo-list li[data-id="{photo["id"]}"] button'))
    if t.wait(driver, lambda d: not shown(d), "Quinn's photo deleted by the place's owner"):
        if fetch(base + photo["url"])[0] != 404 or not driver.find_element(By.ID, "place-photos-none").is_displayed():
            t.fail("Quinn's photo deleted by Pia is still served, or the panel does not say there is none")


def check_picture(t, driver, base, token, located, shots):
    """Pia's picture: set in the settings panel, in the header at once and after a reload (the session read again),
    served cleaned; then removed."""
    t.click(driver, driver.find_element(By.ID, "place-close"))
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#settings > summary"))
    if driver.find_element(By.ID, "picture-remove").is_displayed() or driver.find_element(By.ID, "me-picture").is_displayed():
        t.fail("Pia has no picture, yet one is shown or offered to remove")
    driver.find_element(By.ID, "picture-file").send_keys(located)
    t.click(driver, driver.find_element(By.ID, "picture-set"))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "me-picture").is_displayed(), "Pia's picture in the header"):
        t.fail(f"the picture was not set: {driver.find_element(By.ID, 'picture-error').text!r}")
        return
    url = t.api(base, "GET", "/v1/me", token=token).get("pictureURL")
    header = lambda d: d.execute_script(
        "const img = document.getElementById('me-picture');"
        "return {src: img.getAttribute('src'), alt: img.alt, decoded: img.complete && img.naturalWidth > 0,"
        " round: getComputedStyle(img).borderRadius, width: img.getBoundingClientRect().width}")
    t.wait(driver, lambda d: header(d)["decoded"], "the header's picture decoded")
    shown_now = header(driver)
    if not url or shown_now["src"] != url or shown_now["alt"] != "Your picture" or shown_now["round"] != "50%" or shown_now["width"] > 40:
        t.fail(f"the header shows {shown_now}; the server's picture is {url}")
    if url:
        status, data = fetch(base + url)
        if status != 200 or any(marker in data for marker in gps_jpeg.location_markers):
            t.fail(f"Pia's picture is served ({status}) with its location")
    t.accessible(driver, "the settings with a picture")
    t.shot(driver, shots, "27-picture")
    driver.execute_script("window.scrollTo(0, 0)")
    t.shot(driver, shots, "28-picture-in-header")
    driver.refresh()
    if not t.wait(driver, lambda d: d.find_element(By.ID, "me-picture").is_displayed() and header(d)["src"] == url,
                  "Pia's picture after a reload"):
        return
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#settings > summary"))
    t.click(driver, driver.find_element(By.ID, "picture-remove"))
    if t.wait(driver, lambda d: not d.find_element(By.ID, "me-picture").is_displayed(), "Pia's picture removed"):
        if t.api(base, "GET", "/v1/me", token=token).get("pictureURL"):
            t.fail("the picture removed in the page is still the account's")
        if driver.find_element(By.ID, "picture-remove").is_displayed():
            t.fail("no picture, yet one is offered to remove")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#settings > summary"))
