"""The page's part of issue 37 ("Fair to everyone"), in the browser: the settings panel, the people panel, meet with
origins picked on the map, a decision started from meet (respectNeeds, visitAt), and an admin's alert form.

run-browser-test.py calls `check` at each size, after its own signed-in steps, handing it its helpers as `t` (api,
sign_up, wait, fail, click, accessible, shot). Eva signs in; Finn, Gus and Hal are the people around her, driven
through the API (through the other instances, in the cluster run).
"""
import datetime, time, zoneinfo
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select

# Where meet's origins are picked: over the bay, at a zoom where 160 pixels are some 12 miles.
BAY = (37.78, -122.33, 10)
SAN_FRANCISCO = zoneinfo.ZoneInfo("America/Los_Angeles")


def check(t, driver, base, bases, shots):
    tag = "_" + driver.size[0]
    eva, finn, gus, hal = (name + tag for name in ("eva", "finn", "gus", "hal"))
    tokens = {name: t.sign_up(base, name) for name in (eva, finn, gus, hal)}
    other = bases[-1]
    # Eva runs a group with Finn and Gus in it; Gus runs one where Eva is a plain member. Gus wants no admins' alerts.
    crew = t.api(base, "POST", "/v1/groups", {"name": "Meet crew"}, tokens[eva])["id"]
    walk = t.api(base, "POST", "/v1/groups", {"name": "Gus's walk"}, tokens[gus])["id"]
    for group, admin, members in ((crew, eva, (finn, gus)), (walk, gus, (eva,))):
        for name in members:
            t.api(base, "POST", f"/v1/groups/{group}/invitations", {"username": name}, tokens[admin])
            t.api(base, "POST", f"/v1/me/invitations/{group}/accept", None, tokens[name])
    t.api(base, "PATCH", "/v1/me/settings", {"notifications": {"adminAlerts": False}}, tokens[gus])

    if not sign_in(t, driver, base, tokens[eva], eva):
        return
    check_settings(t, driver, base, tokens[eva], shots)
    check_people(t, driver, base, other, tokens, (eva, finn, gus, hal), shots)
    origins = check_meet(t, driver, base, shots)
    if origins:
        check_start_from_meet(t, driver, base, tokens[eva], crew, shots)
    check_alerts(t, driver, base, other, tokens, (eva, finn, gus), crew, walk, shots)
    expected = [("/alerts - ", "429"), ("/v1/decisions - ", "409")]
    errors = [e for e in t.console_errors(driver) if not any(where in e and f"status of {status}" in e for where, status in expected)]
    if errors:
        t.fail(f"console errors in the settings, people, meet and alert steps: {errors}")
    t.click(driver, driver.find_element(By.ID, "sign-out"))
    t.wait(driver, lambda d: d.find_element(By.ID, "sign-in-open").is_displayed(), "Eva signed out")


def sign_in(t, driver, base, token, username):
    """Eva's session, as a tab that kept it: the token in sessionStorage, then the page loaded again."""
    driver.get("about:blank")
    driver.get(base + "/#map={2}/{0}/{1}".format(*BAY))
    t.wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page")
    driver.execute_script("sessionStorage.setItem('places.token', arguments[0])", token)
    driver.refresh()
    return t.wait(driver, lambda d: d.find_element(By.ID, "whoami").text == f"Signed in as {username}", f"{username} signed in")


def map_click(driver, dx, dy):
    """A click on the map, `dx`, `dy` pixels from its centre (the pointer events a mouse makes)."""
    driver.execute_script("""
        const canvas = document.querySelector('#map canvas'), box = canvas.getBoundingClientRect();
        const x = box.left + box.width / 2 + arguments[0], y = box.top + box.height / 2 + arguments[1];
        for (const type of ['pointerdown', 'pointerup'])
          canvas.dispatchEvent(new PointerEvent(type, {clientX: x, clientY: y, bubbles: true, pointerId: 1}));""", dx, dy)


def check_settings(t, driver, base, token, shots):
    """Needs, budget, the default location shared for meet, alerts and accessibility: set in the panel, saved, read
    back from the server, and the accessibility setting applied at once."""
    map_click(driver, 0, 0)
    if not t.wait(driver, lambda d: d.find_element(By.ID, "near-where").get_attribute("data-lat"), "a click to pick here"):
        return
    here = (float(driver.find_element(By.ID, "near-where").get_attribute("data-lat")),
            float(driver.find_element(By.ID, "near-where").get_attribute("data-lon")))
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#settings > summary"))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "settings-location").text != "", "the settings read"):
        return
    for need in ("vegetarian", "gluten-free"):
        t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#settings-form input[name="need"][value="{need}"]'))
    Select(driver.find_element(By.ID, "settings-max-price")).select_by_value("2")
    t.click(driver, driver.find_element(By.ID, "settings-here"))
    for name in ("shareLocationForMeet", "reducedMotion"):
        t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#settings-form input[name="{name}"]'))
    if not driver.find_element(By.CSS_SELECTOR, '#settings-form input[name="adminAlerts"]').is_selected():
        t.fail("admins' alerts are not on by default in the settings panel")
    t.accessible(driver, "the settings panel")
    driver.execute_script("document.getElementById('settings').scrollIntoView()")
    t.shot(driver, shots, "20-settings")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, '#settings-form button[type="submit"]'))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "settings-status").text == "Your settings are saved.", "the settings saved"):
        t.fail(f"the settings were not saved: {driver.find_element(By.ID, 'settings-status').text!r}")
        return
    stored = t.api(base, "GET", "/v1/me/settings", token=token)
    location = stored.get("defaultLocation") or {}
    if (sorted(stored.get("dietaryNeeds", [])) != ["gluten-free", "vegetarian"] or stored.get("maxPrice") != 2
            or stored.get("shareLocationForMeet") is not True or not stored["accessibility"].get("reducedMotion")
            or stored["notifications"].get("adminAlerts") is not True
            or abs(location.get("lat", 0) - here[0]) > 1e-4 or abs(location.get("lon", 0) - here[1]) > 1e-4):
        t.fail(f"the settings the page saved are {stored}, not vegetarian and gluten-free, up to 2, sharing {here}, reduced motion")
    if "reduced-motion" not in driver.execute_script("return document.documentElement.className"):
        t.fail("reduced motion, saved in the settings panel, is not applied to the page")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#settings > summary"))


def check_people(t, driver, base, other, tokens, people, shots):
    """Friends (with their status), a request accepted, blocking from the list and by name, unblocking, and Eva's own
    status, each read back from the server."""
    eva, finn, gus, hal = people
    t.api(other, "POST", "/v1/friends/requests", {"username": eva}, tokens[finn])
    t.api(other, "POST", "/v1/friends/requests", {"username": eva}, tokens[gus])
    t.api(other, "POST", f"/v1/friends/requests/{gus}/accept", None, tokens[eva])
    status_works = t.places_server.call(other, "PUT", "/v1/me/status", {"text": "On the ferry"}, tokens[gus])[0] in (200, 201, 204)
    if not status_works:
        t.fail("PUT /v1/me/status is not served: Gus's status could not be set")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#people > summary"))
    if not t.wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#friends li[data-username="{gus}"]'), "Gus among the friends"):
        return
    if status_works and "On the ferry" not in driver.find_element(By.CSS_SELECTOR, f'#friends li[data-username="{gus}"]').text:
        t.fail(f"Gus's status is not shown beside him: {driver.find_element(By.ID, 'friends').text!r}")
    t.accessible(driver, "the people panel")
    driver.execute_script("document.getElementById('people').scrollIntoView()")
    t.shot(driver, shots, "21-people")
    friends = lambda: [f["user"]["username"] for f in t.api(base, "GET", "/v1/friends", token=tokens[eva])["items"]]
    blocked = lambda: [(b.get("user") or b)["username"] for b in t.api(base, "GET", "/v1/me/blocked", token=tokens[eva])["items"]]
    # Finn's request, accepted from the panel.
    t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#requests-incoming button[aria-label="Accept {finn}"]'))
    t.wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#friends li[data-username="{finn}"]'), "Finn a friend")
    if sorted(friends()) != sorted([finn, gus]):
        t.fail(f"after accepting Finn, Eva's friends are {friends()}")
    # Blocking Finn from the list ends the friendship; unblocking does not bring it back.
    t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#friends button[aria-label="Block {finn}"]'))
    if t.wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#blocked li[data-username="{finn}"]'), "Finn blocked"):
        if friends() != [gus] or blocked() != [finn]:
            t.fail(f"after blocking Finn, Eva's friends are {friends()} and she blocks {blocked()}")
        t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#blocked button[aria-label="Unblock {finn}"]'))
        t.wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#blocked li[data-username="{finn}"]'), "Finn unblocked")
    # Hal, a stranger, blocked by name and unblocked.
    field = driver.find_element(By.ID, "block-username")
    t.click(driver, field)
    field.send_keys(hal + Keys.ENTER)
    if t.wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, f'#blocked li[data-username="{hal}"]'), "Hal blocked by name"):
        if blocked() != [hal]:
            t.fail(f"after blocking Hal by name, Eva blocks {blocked()}")
        t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#blocked button[aria-label="Unblock {hal}"]'))
        t.wait(driver, lambda d: not d.find_elements(By.CSS_SELECTOR, f'#blocked li[data-username="{hal}"]'), "Hal unblocked")
        if blocked():
            t.fail(f"after unblocking, Eva still blocks {blocked()}")
    # Her own status, shown to her and read back; then cleared.
    field = driver.find_element(By.ID, "status-text")
    t.click(driver, field)
    field.send_keys("Out for tacos" + Keys.ENTER)
    if t.wait(driver, lambda d: "Out for tacos" in d.find_element(By.ID, "status-now").text, "Eva's status set"):
        mine = t.api(base, "GET", "/v1/me", token=tokens[eva]).get("status") or {}
        if mine.get("text") != "Out for tacos":
            t.fail(f"the status set in the page reads {mine} on the server")
        t.click(driver, driver.find_element(By.ID, "status-clear"))
        t.wait(driver, lambda d: d.find_element(By.ID, "status-now").text == "You show no status.", "Eva's status cleared")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, "#people > summary"))


def check_meet(t, driver, base, shots):
    """Origins picked on the map (two clicks, and Enter for a third, removed again), each with its 20-mile circle; the
    places listed are meet's, fairest first, each with its distance from every origin. Answers the origins."""
    driver.execute_script("window.location.hash = arguments[0]", "#map={2}/{0}/{1}".format(*BAY))
    t.wait(driver, lambda d: d.find_element(By.ID, "map").get_attribute("data-zoom") == str(BAY[2]), "the map over the bay")
    time.sleep(0.3)
    pick = driver.find_element(By.ID, "meet-pick")
    t.click(driver, pick)
    if pick.get_attribute("aria-pressed") != "true":
        t.fail("'Pick origins on the map' does not say it is on")
    for dx in (-80, 80):
        map_click(driver, dx, 0)
    driver.find_element(By.ID, "map").send_keys(Keys.ENTER)
    if not t.wait(driver, lambda d: d.find_element(By.ID, "meet").get_attribute("data-origins") == "3", "three origins picked"):
        return None
    circles = driver.execute_script("return document.querySelectorAll('#map .overlay circle.meet').length")
    if circles != 3:
        t.fail(f"three origins draw {circles} circles")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, '#meet-origins button[aria-label="Remove origin 3"]'))
    t.wait(driver, lambda d: d.find_element(By.ID, "meet").get_attribute("data-origins") == "2", "the third origin removed")
    t.click(driver, pick)
    origins = [(float(li.get_attribute("data-lat")), float(li.get_attribute("data-lon")))
               for li in driver.find_elements(By.CSS_SELECTOR, "#meet-origins li")]
    if not (origins[0][1] < BAY[1] < origins[1][1]):
        t.fail(f"clicks left and right of the map's centre picked {origins}")
    t.click(driver, driver.find_element(By.ID, "meet-find"))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "results").get_attribute("data-sort") == "meet", "meet's places listed"):
        return None
    time.sleep(0.3)
    query = "&".join(f"at={lat},{lon}" for lat, lon in origins)
    answer = t.api(base, "GET", f"/v1/places/meet?{query}&limit=20")
    shown = [b.get_attribute("data-id") for b in driver.find_elements(By.CSS_SELECTOR, "#results button")]
    wanted = [place["id"] for place in answer["places"]]
    if not wanted or shown != wanted:
        t.fail(f"meet's list shows {shown}, but meet answers {wanted}")
    elif answer["places"]:
        first, line = answer["places"][0], driver.find_element(By.CSS_SELECTOR, "#results button .kind").text
        distances = ", ".join(f"{i + 1}: {d['miles']:.1f} mi" for i, d in enumerate(first["distances"]))
        if distances not in line or f"farthest {first['distanceMiles']:.1f} mi" not in line:
            t.fail(f"meet's first place reads {line!r}, not its distances {distances}")
    t.accessible(driver, "meet's origins and places")
    driver.execute_script("document.getElementById('map').scrollIntoView()")
    t.shot(driver, shots, "22-meet")
    return origins


def check_start_from_meet(t, driver, base, token, crew, shots):
    """The decision form starts from meet: from the participants' shared locations (two are needed: refused beside its
    choice), then from the origins picked, keeping to everyone's needs and budget, with the time the group goes."""
    form = driver.find_element(By.ID, "decision-new")
    t.click(driver, form.find_element(By.ID, "decision-title-input"))
    form.find_element(By.ID, "decision-title-input").send_keys("Meet dinner")
    Select(form.find_element(By.ID, "decision-group")).select_by_value(crew)
    Select(form.find_element(By.ID, "decision-method")).select_by_value("random")
    t.click(driver, form.find_element(By.ID, "decision-source-participants"))
    t.click(driver, form.find_element(By.ID, "decision-respect-needs"))
    t.click(driver, form.find_element(By.ID, "decision-start"))
    if t.wait(driver, lambda d: d.find_element(By.ID, "decision-source-participants-error").text != "", "too few shared locations refused"):
        if driver.find_element(By.ID, "decision-source-participants").get_attribute("aria-invalid") != "true":
            t.fail("the refused choice of the participants' locations is not marked invalid")
    t.click(driver, form.find_element(By.ID, "decision-source-meet-input"))
    # 19:30 in San Francisco three days on, typed in the browser's own time (the page adds its offset).
    there = (datetime.datetime.now(SAN_FRANCISCO) + datetime.timedelta(days=3)).replace(hour=19, minute=30, second=0, microsecond=0)
    visit = there.astimezone()
    driver.execute_script("const f = document.getElementById('decision-visit-at'); f.value = arguments[0];"
                          "f.dispatchEvent(new Event('input', {bubbles: true}));", visit.strftime("%Y-%m-%dT%H:%M"))
    t.click(driver, form.find_element(By.ID, "decision-start"))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "decision-title").text == "Meet dinner", "the decision from meet shown"):
        t.fail(f"the decision from meet did not start: {driver.find_element(By.ID, 'decision-new-status').text!r}")
        return
    decision = next(d for d in t.api(base, "GET", "/v1/decisions?limit=5", token=token)["items"] if d.get("title") == "Meet dinner")
    wanted = visit.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    if decision.get("visitAt") != wanted:
        t.fail(f"the decision's visitAt is {decision.get('visitAt')!r}, not the time typed ({wanted})")
    for candidate in decision["candidates"]:
        place = t.api(base, "GET", f"/v1/places/{candidate['placeId']}")
        if not {"vegetarian", "gluten-free"} <= set(place.get("tags", [])) or place.get("priceLevel", 0) > 2:
            t.fail(f"{place['id']} is a candidate, but it does not serve Eva's needs within her budget: {place.get('tags')}, "
                   f"{place.get('priceLevel')}")
    if "You go " not in driver.find_element(By.ID, "decision-state").text:
        t.fail(f"the decision does not say when the group goes: {driver.find_element(By.ID, 'decision-state').text!r}")
    result = decision.get("result") or {}
    if "winnerOpen" in result:
        said = driver.find_element(By.ID, "decision-result").text
        if ("is open when you go" in said) != result["winnerOpen"]:
            t.fail(f"the result says {said!r}, but winnerOpen is {result['winnerOpen']}")
    driver.execute_script("document.getElementById('decision').scrollIntoView()")
    t.shot(driver, shots, "23-decision-from-meet")
    t.click(driver, driver.find_element(By.ID, "decision-close"))


def check_alerts(t, driver, base, other, tokens, people, crew, walk, shots):
    """An admin's alert form: shown for a group Eva runs, not for one she is a member of; an alert sent from it reaches
    Finn (and not Gus, who turned alerts off); the eleventh in an hour is refused with when to try again. An alert Gus
    sends to his group reaches Eva's notifications live."""
    eva, finn, gus = people
    toggle = t.wait(driver, lambda d: d.find_element(By.CSS_SELECTOR, f'#groups li[data-id="{walk}"] button'), "Gus's group listed")
    if not toggle:
        return
    t.click(driver, toggle)
    if driver.find_element(By.ID, "group-alert").is_displayed():
        t.fail("the alert form is offered in a group Eva does not run")
    t.click(driver, driver.find_element(By.CSS_SELECTOR, f'#groups li[data-id="{crew}"] button'))
    if not t.wait(driver, lambda d: d.find_element(By.ID, "group-alert").is_displayed(), "the alert form of Eva's group"):
        return
    field = driver.find_element(By.ID, "alert-message")
    t.click(driver, field)
    field.send_keys("Table moved to 20:30" + Keys.ENTER)
    if not t.wait(driver, lambda d: "Your alert went to Meet crew" in d.find_element(By.ID, "groups-status").text, "the alert sent"):
        return
    alerts = lambda name: [n for n in t.api(other, "GET", "/v1/notifications?limit=100", token=tokens[name])["items"] if n["kind"] == "adminAlert"]
    if [n["message"] for n in alerts(finn)] != [f"{eva}, admin of Meet crew: Table moved to 20:30"] or alerts(gus):
        t.fail(f"the alert reached Finn as {alerts(finn)} and Gus (alerts off) as {alerts(gus)}")
    t.accessible(driver, "the alert form")
    driver.execute_script("document.getElementById('group-alert').scrollIntoView({block: 'center'})")
    t.shot(driver, shots, "24-alert")
    for n in range(9):
        t.api(other, "POST", f"/v1/groups/{crew}/alerts", {"message": f"Alert {n + 2}"}, tokens[eva])
    field.send_keys("One too many" + Keys.ENTER)
    t.wait(driver, lambda d: "Try again in" in d.find_element(By.ID, "groups-status").text, "the eleventh alert refused, saying when")
    # Gus alerts his group (another instance, in the cluster run): Eva's notifications bring it live.
    t.api(other, "POST", f"/v1/groups/{walk}/alerts", {"message": "Walk starts at the pier"}, tokens[gus])
    t.click(driver, driver.find_element(By.ID, "notifications-toggle"))
    t.wait(driver, lambda d: any("Walk starts at the pier" in li.text for li in d.find_elements(By.CSS_SELECTOR, "#notification-list li")),
           "Gus's alert in Eva's notifications")
    t.click(driver, driver.find_element(By.ID, "notifications-toggle"))
