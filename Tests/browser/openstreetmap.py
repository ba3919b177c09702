"""A place imported from OpenStreetMap, on the page: seeded from a `.geojsonseq` (osmium's export, written here) into
the served database while it runs, found by a search, and its panel linking to the object it came from with the
attribution OpenStreetMap's licence asks for."""
import os, subprocess
from selenium.webdriver.common.by import By

import photos

PLACE = "osm:n4242"
# Far from the shipped places and named unlike them, so the page's other checks never meet it.
NAME = "Osmium Lindwurm Gelato"
FEATURE = ('{"type":"Feature","id":"n4242","geometry":{"type":"Point","coordinates":[-21.9426,64.1466]},'
           '"properties":{"amenity":"ice_cream","name":"' + NAME + '","cuisine":"gelato_italiano","opening_hours":"Mo-Fr 08:00-18:00"}}\n')


def seed(t, binary, database, work):
    """Imports the feature into the served database, as an operator would while it runs."""
    path = os.path.join(work, "city.geojsonseq")
    with open(path, "w") as file:
        file.write(FEATURE)
    done = subprocess.run([binary, "seed", path, "--database", database, "--time-zone", "Atlantic/Reykjavik"],
                          capture_output=True, text=True, timeout=60)
    if done.returncode != 0 or "1 new" not in done.stdout:
        t.fail(f"seeding the OpenStreetMap feature: {done.stdout} {done.stderr}")


def check(t, driver, base, shots):
    driver.get(base + "/")
    t.wait(driver, lambda d: d.execute_script("return document.readyState") == "complete", "the page")
    if not photos.open_place(t, driver, PLACE, NAME):
        return
    links = driver.find_elements(By.CSS_SELECTOR, "#place-facts a")
    sources = [link.get_attribute("href") for link in links if link.text == "OpenStreetMap"]
    if sources != ["https://www.openstreetmap.org/node/4242"]:
        t.fail(f"the OpenStreetMap place's panel links to {sources}, not its node")
    facts = driver.find_element(By.ID, "place-facts").text
    if "© OpenStreetMap contributors" not in facts or "gelato italiano" not in facts:
        t.fail(f"the panel lacks the attribution or the cuisine: {facts!r}")
    if driver.find_element(By.ID, "place-hours").get_attribute("hidden") is not None:
        t.fail("the opening hours read from opening_hours are not shown")
    t.shot(driver, shots, "osm-place")
