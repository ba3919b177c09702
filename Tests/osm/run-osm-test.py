#!/usr/bin/env python3
"""OpenStreetMap import, checked by an independent reader: `places seed` on an extract this script writes itself.

Usage: Tests/osm/run-osm-test.py PLACES_BINARY   (CI runs it from .ci/run with the debug build)

It writes an OSM XML extract around the City of London (restaurants with every mapped tag and its variants, a café as
a building outline, a concave U-shaped outline whose centroid lies outside it, a park as a multipolygon relation with a
hole where its box's centre is, an open way, gems of every mapped kind, features skipped for each reason, a place with
its own `timezone`, and opening hours of every supported and unsupported shape), converts it with `osmium cat` and
seeds it with `--time-zone`. Its own reader (xml.etree on the .osm file, the mapping table applied here, the opening
hours' schedules written by hand below) says what each place must be; the report's counts and every place, read back
through `places serve`, are compared with it: fields exactly, tags as sets, a node's position exactly, an area's point
inside the polygon (its own point-in-polygon, holes included), a line's point on the line and halfway along it.
Skipped features must be 404.

Then a changed copy under another file name (a restaurant renamed, a garden moved, hours changed, one feature deleted,
one added) is seeded into the served database: its report (new, updated, gone and which), no place twice (the
viewport's listing of the extract's bounds), the changes; then seeded again with `--prune`, which must remove the
deleted feature's place and nothing else: not a place added through the API in the bounds, not a CSV-seeded place with
an `osm:`-like id, not the shipped seeds in the bounds, not the places of another extract imported earlier (outside
the bounds).

Last, the same extract seeded as `.osm` (XML), `.osm.bz2` and as a `.geojsonseq` made with `osmium export` (as
Seeds/README.md says) must give the same places as the `.osm.pbf`, each into a database of its own.

The report's lines are read as the issue words them or as Seeds/README.md does (`secs`, the gone places' ids listed);
a line about the file that neither names is printed as a note. Needs osmium-tool (Debian's `osmium-tool`) and Python
3's standard library only. It starts its servers on free loopback ports and stops them by pid, also when it fails; it
exits non-zero naming every mismatch. PLACES_OSM_KEEP=1 keeps the work folder after a run that passed (a failed run
keeps it anyway).
"""
import bz2, json, math, os, re, shutil, subprocess, sys, tempfile, traceback, urllib.parse
import xml.etree.ElementTree as ElementTree
from xml.sax.saxutils import quoteattr

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "Tests", "tools"))
sys.dont_write_bytecode = True  # no __pycache__ left beside the shared modules
import places_server
from private_postgres import free_port

TIME_ZONE = "Europe/London"
PASSWORD = "a long password"
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

failures = []
notes = []


def fail(message):
    """Records a mismatch; the run goes on and exits non-zero at the end."""
    print("osm test: FAIL:", message, file=sys.stderr, flush=True)
    failures.append(message)


def say(message):
    print("osm test:", message, flush=True)


class Broken(Exception):
    """A step the rest depends on went wrong: the run stops (and still stops its server)."""


# Opening hours: every value the extract uses, with the schedule the API must answer, written by hand (None: not
# understood, so the place is kept without hours and counted).

def every(*spans):
    return {day: list(spans) for day in DAYS}


def on(days, *spans):
    return {day: list(spans) for day in days}


HOURS = {
    "24/7": every("00:00-24:00"),
    "Mo-Fr 08:00-12:00,13:00-18:00": on(DAYS[:5], "08:00-12:00", "13:00-18:00"),
    "Mo,We 10:00-14:00": on(["mon", "wed"], "10:00-14:00"),
    "Sa-Mo 10:00-16:00": on(["sat", "sun", "mon"], "10:00-16:00"),
    "Mo-Sa 10:00-20:00; Su off": on(DAYS[:6], "10:00-20:00"),
    "Mo-Sa 09:00-18:00; Su closed": on(DAYS[:6], "09:00-18:00"),
    "Fr-Sa 18:00-02:00": on(["fri", "sat"], "18:00-02:00"),
    "Fr 22:00-26:00": on(["fri"], "22:00-02:00"),
    "Mo-Su 09:00-17:00; We 12:00-14:00": {**every("09:00-17:00"), "wed": ["12:00-14:00"]},
    "10:00-22:00": every("10:00-22:00"),
    "Mo-Fr 09:00-17:00; We off": on(["mon", "tue", "thu", "fri"], "09:00-17:00"),
    "Mo,Th-Sa 11:30-14:30,17:30-23:00": on(["mon", "thu", "fri", "sat"], "11:30-14:30", "17:30-23:00"),
    "Mo-Su 18:00-24:00": every("18:00-24:00"),
    "Mo-Fr 08:00-18:00; Sa 09:00-13:00": {**on(DAYS[:5], "08:00-18:00"), "sat": ["09:00-13:00"]},
    "Mo-Fr 07:00-15:00": on(DAYS[:5], "07:00-15:00"),
    "Tu-Su 10:00-17:30": on(DAYS[1:], "10:00-17:30"),
    "Th-Sa 19:00-03:00": on(["thu", "fri", "sat"], "19:00-03:00"),
    "Mo-Fr 10:00-20:00, Sa 10:00-14:00": {**on(DAYS[:5], "10:00-20:00"), "sat": ["10:00-14:00"]},  # rules added with `,`
    "Mo-We,Fr 09:00-17:00": on(["mon", "tue", "wed", "fri"], "09:00-17:00"),
    # Not understood: public holidays, months, sunrise, comments, an open end, a fallback rule, prose.
    "Mo-Fr 09:00-17:00; PH off": None,
    "Apr-Sep Mo-Su 10:00-18:00": None,
    "Mo-Su sunrise-sunset": None,
    'Mo-Fr 09:00-17:00 "by appointment"': None,
    "Fr-Sa 20:00+": None,
    'Mo-Fr 09:00-17:00 || "on call"': None,
    "Tu-Su 10:00-18:00; PH 10:00-16:00": None,
    "when the flag is up": None,
    "Mo-Fr 09:00-17:00; SH off": None,
    "Mo-Su 10:00-18:00; Dec 25 off": None,
    "Su[1] 10:00-14:00": None,
    "Mo-Fr 10:00-16:00/01:30": None,
}


# The extract: nodes, ways and one multipolygon relation, written as OSM XML.

class Extract:
    def __init__(self):
        self.nodes = {}      # id -> (lat, lon, tags)
        self.ways = {}       # id -> ([node ids], tags)
        self.relations = {}  # id -> ([(way id, role)], tags)
        self.next_bare = 9000

    def node(self, id, lat, lon, **tags):
        self.nodes[id] = (round(lat, 7), round(lon, 7), tags)

    def bare(self, lat, lon):
        """An untagged node of a way."""
        self.next_bare += 1
        self.nodes[self.next_bare] = (round(lat, 7), round(lon, 7), {})
        return self.next_bare

    def way(self, id, points, closed, **tags):
        refs = [self.bare(lat, lon) for lat, lon in points]
        self.ways[id] = (refs + refs[:1] if closed else refs, tags)

    def copy(self):
        other = Extract()
        other.nodes = {k: (a, b, dict(t)) for k, (a, b, t) in self.nodes.items()}
        other.ways = {k: (list(r), dict(t)) for k, (r, t) in self.ways.items()}
        other.relations = {k: (list(m), dict(t)) for k, (m, t) in self.relations.items()}
        other.next_bare = self.next_bare
        return other

    def xml(self):
        def tags(t):
            return "".join(f"<tag k={quoteattr(k)} v={quoteattr(v)}/>" for k, v in t.items())
        out = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="run-osm-test.py">']
        for id, (lat, lon, t) in sorted(self.nodes.items()):
            out.append(f'<node id="{id}" version="1" lat="{lat:.7f}" lon="{lon:.7f}">{tags(t)}</node>')
        for id, (refs, t) in sorted(self.ways.items()):
            out.append(f'<way id="{id}" version="1">' + "".join(f'<nd ref="{r}"/>' for r in refs) + tags(t) + "</way>")
        for id, (members, t) in sorted(self.relations.items()):
            out.append(f'<relation id="{id}" version="1">'
                       + "".join(f'<member type="way" ref="{w}" role="{role}"/>' for w, role in members) + tags(t) + "</relation>")
        out.append("</osm>")
        return "\n".join(out) + "\n"


LONG_NAME = "The Extraordinarily Long-Named Restaurant " * 6  # 252 characters: more than a name may hold


def city_extract():
    """The extract around the City of London (inside the box 51.506..51.520, -0.124..-0.088)."""
    e = Extract()
    spots = iter((51.507 + (k % 12) * 0.001, -0.122 + (k // 12) * 0.0028) for k in range(200))

    def node(id, **tags):
        lat, lon = next(spots)
        e.node(id, lat, lon, **tags)

    # Restaurants with every mapped tag and its variants.
    node(1001, amenity="restaurant", name="Trattoria Roma", cuisine="italian;pizza", **{
        "diet:vegetarian": "yes", "diet:vegan": "only", "wheelchair": "yes", "addr:housenumber": "12",
        "addr:street": "Baker Street", "addr:postcode": "NW1 6XE", "addr:city": "London",
        "website": "https://roma.example.com/", "phone": "+44 20 7946 0001;+44 20 7946 0002",
        "description": "Wood-fired pizza since 1978.", "opening_hours": "Mo-Fr 08:00-12:00,13:00-18:00"})
    node(1002, amenity="cafe", name="Green Leaf Café", cuisine=" coffee_shop ; Vegan_Bakery", **{
        "diet:gluten_free": "yes", "diet:lactose_free": "yes", "diet:halal": "no", "wheelchair": "limited",
        "addr:full": "Unit 3, 5 Market Row, London", "addr:housenumber": "99", "addr:street": "Ignored Street",
        "addr:city": "London", "contact:website": "http://greenleaf.example.org/menu",
        "contact:phone": "020 7946 0100", "opening_hours": "Mo,We 10:00-14:00"})
    node(1003, amenity="fast_food", name="Burger Box", cuisine="burger", **{
        "diet:halal": "yes", "diet:kosher": "only", "diet:nut_free": "yes", "wheelchair": "no",
        "addr:street": "Fleet Street", "website": "www.example.com", "phone": "call us", "opening_hours": "24/7"})
    node(1004, amenity="pub", name="The Crown", **{
        "diet:dairy_free": "yes", "diet:vegetarian": "limited", "addr:housenumber": "7", "addr:postcode": "EC4A 2BB",
        "website": "https://crown.example.com", "contact:website": "https://other.example.com",
        "phone": "+44 20 7946 0003", "contact:phone": "+44 20 7946 0999", "opening_hours": "Mo-Sa 10:00-20:00; Su off"})
    node(1005, amenity="bar", name="Bar Nocturne", opening_hours="Fr-Sa 18:00-02:00")
    node(1006, amenity="biergarten", name="Riverside Beer Garden", opening_hours="Fr 22:00-26:00")
    node(1007, amenity="ice_cream", name="Gelato Uno", opening_hours="Sa-Mo 10:00-16:00")
    node(1008, amenity="food_court", name="Market Hall Food Court", opening_hours="Mo-Su 09:00-17:00; We 12:00-14:00")
    node(1009, amenity="restaurant", name="Curry Corner", cuisine="south_indian", **{
        "diet:vegetarian": "yes", "addr:housenumber": "3", "addr:street": "Brick Lane", "addr:city": "London",
        "opening_hours": "10:00-22:00"})
    node(1010, amenity="cafe", tourism="attraction", name="Cat Café", opening_hours="Mo-Fr 09:00-17:00; We off")
    node(1011, amenity="restaurant", name="Noodle Bar", cuisine="chinese;noodle", opening_hours="Mo,Th-Sa 11:30-14:30,17:30-23:00")
    node(1012, amenity="restaurant", name="Late Diner", cuisine="american", opening_hours="Mo-Su 18:00-24:00")
    node(1013, amenity="restaurant", name="Closed Sundays", opening_hours="Mo-Sa 09:00-18:00; Su closed")
    node(1014, amenity="restaurant", name="Two Rules Bistro", opening_hours="Mo-Fr 08:00-18:00; Sa 09:00-13:00")
    # Opening hours outside the subset: kept without hours, counted.
    node(1015, amenity="restaurant", name="Holiday Bistro", opening_hours="Mo-Fr 09:00-17:00; PH off")
    node(1016, amenity="cafe", name="Summer Kiosk", opening_hours="Apr-Sep Mo-Su 10:00-18:00")
    node(1017, amenity="cafe", name="Dawn Café", opening_hours="Mo-Su sunrise-sunset")
    node(1018, amenity="cafe", name="Appointment Tea Room", opening_hours='Mo-Fr 09:00-17:00 "by appointment"')
    node(1019, amenity="pub", name="Open End Pub", opening_hours="Fr-Sa 20:00+")
    node(1020, amenity="restaurant", name="Fallback Grill", opening_hours='Mo-Fr 09:00-17:00 || "on call"')
    node(1021, tourism="attraction", name="Guildhall Crypt", opening_hours="Tu-Su 10:00-18:00; PH 10:00-16:00")
    node(1022, amenity="fast_food", name="Flag Kebab", opening_hours="when the flag is up")
    # Gems of every mapped kind.
    node(1101, tourism="viewpoint", name="Tower Viewpoint", description="The river from above.")
    node(1102, tourism="artwork", name="Bronze Heron", wheelchair="yes")
    node(1103, tourism="attraction", name="Whispering Arch", opening_hours="Tu-Su 10:00-17:30")
    node(1104, historic="castle", name="Baynard Castle Ruins")
    node(1105, historic="yes", name="Old Well")
    node(1106, historic="memorial", memorial="statue", name="Firefighters Memorial")
    node(1107, historic="city_gate", name="Ald Gate")
    node(1108, leisure="garden", name="Herb Garden")
    node(1109, leisure="park", name="Pocket Park")
    node(1110, natural="peak", name="Ludgate Hill Summit")
    node(1111, natural="waterfall", name="Little Falls")
    node(1112, natural="beach", name="Thames Foreshore")
    node(1113, natural="cave_entrance", name="Chalk Cave")
    node(1114, amenity="fountain", name="Drinking Fountain")
    node(1115, historic="memorial", name="Plague Pit Memorial")  # a memorial without `memorial` is a gem
    # Skipped, one reason each.
    node(1201, amenity="restaurant", cuisine="thai")                          # without a name
    node(1202, tourism="viewpoint")                                           # without a name
    node(1203, amenity="bench", name="Memorial Bench")                        # not mapped
    node(1204, historic="milestone", name="Mile Three")                       # not mapped
    node(1205, historic="boundary_stone", name="Parish Stone")                # not mapped
    node(1206, historic="memorial", memorial="stolperstein", name="Stolperstein Anna K.")  # not mapped
    node(1207, historic="memorial", memorial="plaque", name="Blue Plaque")    # not mapped
    node(1208, tourism="hotel", name="Grand Hotel")                           # not mapped
    node(1209, leisure="garden", access="private", name="Private Garden")     # private
    node(1210, amenity="cafe", access="no", name="Staff Canteen")             # private
    node(1211, amenity="restaurant", name=LONG_NAME)                          # invalid: the name is too long
    node(1212, historic="no", name="Nothing Historic")                        # not mapped (Seeds/README.md's table)
    # More hours, and a place with its own time zone (`timezone`, which --time-zone does not override).
    node(1023, amenity="restaurant", name="Comma Rules Kitchen", opening_hours="Mo-Fr 10:00-20:00, Sa 10:00-14:00")
    node(1024, amenity="cafe", name="Mixed Days Café", opening_hours="Mo-We,Fr 09:00-17:00")
    node(1025, amenity="restaurant", name="School Holiday Diner", opening_hours="Mo-Fr 09:00-17:00; SH off")
    node(1026, amenity="restaurant", name="Christmas Closed", opening_hours="Mo-Su 10:00-18:00; Dec 25 off")
    node(1027, amenity="cafe", name="First Sunday Brunch", opening_hours="Su[1] 10:00-14:00")
    node(1028, tourism="attraction", name="Tower Tours", opening_hours="Mo-Fr 10:00-16:00/01:30")
    node(1029, amenity="restaurant", name="Paris Time Bistro", timezone="Europe/Paris", opening_hours="Mo-Sa 10:00-20:00; Su off")
    # Areas and a line. A square building (a café).
    u = 0.0004
    e.way(2001, [(51.5215, -0.1100), (51.5215, -0.1096), (51.5219, -0.1096), (51.5219, -0.1100)], True,
          amenity="cafe", building="yes", name="Square Café", cuisine="coffee_shop", opening_hours="Mo-Fr 07:00-15:00")
    # A U-shape open at the top, its right arm wider: its centroid (and its box's centre) lie in the notch, outside.
    x0, y0 = -0.1050, 51.5205
    shape = [(0, 0), (3.5, 0), (3.5, 2), (2, 2), (2, 0.4), (1, 0.4), (1, 2), (0, 2)]
    e.way(2002, [(y0 + y * u, x0 + x * u) for x, y in shape], True, tourism="attraction", name="Courtyard Gallery")
    # An unnamed outline: skipped without a name.
    e.way(2003, [(51.5202, -0.0950), (51.5202, -0.0946), (51.5206, -0.0946)], True, leisure="park")
    # An open way: the old city wall, in segments of different lengths and directions.
    e.way(2004, [(51.5160, -0.0900), (51.5170, -0.0900), (51.5175, -0.0890), (51.5175, -0.0880)], False,
          historic="citywalls", name="London Wall")
    # A park as a multipolygon relation: an outer ring with a hole off the middle (member ways are untagged).
    e.way(2101, [(51.5190, -0.1230), (51.5190, -0.1200), (51.5200, -0.1200), (51.5200, -0.1230)], True)
    e.way(2102, [(51.5193, -0.1222), (51.5193, -0.1212), (51.5197, -0.1212), (51.5197, -0.1222)], True)
    e.relations[3001] = ([(2101, "outer"), (2102, "inner")], {"type": "multipolygon", "leisure": "park",
                                                              "name": "Finsbury Circus Gardens", "wheelchair": "yes"})
    return e


def changed_extract(first):
    """The newer extract: a restaurant renamed, a garden moved, hours changed, a castle gone, a restaurant new."""
    e = first.copy()
    e.nodes[1001][2]["name"] = "Trattoria Roma Nuova"
    lat, lon, tags = e.nodes[1108]
    e.nodes[1108] = (round(lat + 0.0007, 7), round(lon + 0.0003, 7), tags)
    e.nodes[1005][2]["opening_hours"] = "Th-Sa 19:00-03:00"
    del e.nodes[1104]
    e.node(1300, 51.5123, -0.1011, amenity="restaurant", name="New Noodles", cuisine="ramen", opening_hours="24/7")
    return e


def other_extract():
    """A second extract far away (Lisbon): its places lie outside the City's bounds and must survive its imports."""
    e = Extract()
    e.node(5001, 38.7139, -9.1394, amenity="restaurant", name="Tasca do Chico", cuisine="portuguese")
    e.node(5002, 38.7110, -9.1360, tourism="viewpoint", name="Miradouro de Santa Luzia")
    return e


# The independent reader: the .osm file read back with xml.etree, the mapping table applied here.

RESTAURANT = {"restaurant", "cafe", "fast_food", "bar", "pub", "biergarten", "ice_cream", "food_court"}
GEM_VALUES = {"tourism": {"viewpoint", "artwork", "attraction"}, "leisure": {"park", "garden"},
              "natural": {"peak", "waterfall", "beach", "cave_entrance"}, "amenity": {"fountain"}}
DIETS = {"diet:vegetarian": "vegetarian", "diet:vegan": "vegan", "diet:halal": "halal", "diet:kosher": "kosher",
         "diet:gluten_free": "gluten-free", "diet:lactose_free": "dairy-free", "diet:dairy_free": "dairy-free",
         "diet:nut_free": "nut-free"}


def tag_text(value):
    return value.strip().lower().replace("_", "-")


def read_osm(path):
    """The features of an .osm file: {osm id: (tags, geometry)}, geometry ("point", (lat, lon)), ("line", [(lat, lon)])
    or ("area", [rings]) with the outer ring first, then holes (each ring closed)."""
    tree = ElementTree.parse(path)
    coords, ways, features = {}, {}, {}

    def tags_of(element):
        return {t.get("k"): t.get("v") for t in element.findall("tag")}

    for n in tree.getroot().iter("node"):
        coords[n.get("id")] = (float(n.get("lat")), float(n.get("lon")))
        if tags_of(n):
            features["n" + n.get("id")] = (tags_of(n), ("point", coords[n.get("id")]))
    for w in tree.getroot().iter("way"):
        points = [coords[nd.get("ref")] for nd in w.findall("nd")]
        ways[w.get("id")] = points
        if tags_of(w):
            features["w" + w.get("id")] = (tags_of(w), ("area", [points]) if points[0] == points[-1] else ("line", points))
    for r in tree.getroot().iter("relation"):
        tags = tags_of(r)
        if tags.get("type") != "multipolygon":
            raise Broken(f"the reader handles multipolygons only, not relation {r.get('id')}")
        members = r.findall("member")
        outer = [ways[m.get("ref")] for m in members if m.get("role") == "outer"]
        inner = [ways[m.get("ref")] for m in members if m.get("role") == "inner"]
        if len(outer) != 1 or any(ring[0] != ring[-1] for ring in outer + inner):
            raise Broken("the reader expects one closed outer way and closed inner ways")
        features["r" + r.get("id")] = (tags, ("area", outer + inner))
    return features


def expected_place(tags):
    """(place fields, None) for a feature that becomes a place, or (None, reason) for a skipped one."""
    name = (tags.get("name") or "").strip()
    if not name:
        return None, "without a name"
    if tags.get("access") in ("private", "no"):
        return None, "private"
    amenity, historic = tags.get("amenity"), tags.get("historic")
    if amenity in RESTAURANT:
        kind, kind_tags = "restaurant", [tag_text(amenity)]
    else:
        kind, kind_tags = None, []
        for key, values in GEM_VALUES.items():
            if tags.get(key) in values:
                kind, kind_tags = "gem", [tag_text(tags[key])]
        if historic and historic not in ("milestone", "boundary_stone", "no") \
                and not (historic == "memorial" and tags.get("memorial") in ("plaque", "stolperstein")):
            kind, kind_tags = "gem", ["historic"] + ([tag_text(historic)] if historic != "yes" else [])
        if kind is None:
            return None, "not mapped"
    if len(name) > 200:
        return None, "invalid"
    cuisines = [c.strip() for c in (tags.get("cuisine") or "").split(";") if c.strip()]
    place_tags = set(kind_tags) | {tag_text(c) for c in cuisines}
    for key, tag in DIETS.items():
        if tags.get(key) in ("yes", "only"):
            place_tags.add(tag)
    if tags.get("wheelchair") == "yes":
        place_tags.add("wheelchair")
    elif tags.get("wheelchair") == "limited":
        place_tags.add("wheelchair-limited")
    if "addr:full" in tags:
        address = tags["addr:full"]
    else:
        address = " ".join(v for v in (tags.get("addr:housenumber"), tags.get("addr:street")) if v) or None
    if address and tags.get("addr:postcode"):
        address += ", " + tags["addr:postcode"]
    left_out = []
    website = tags.get("website") or tags.get("contact:website")
    if website and not re.match(r"(?i)https?://", website):
        website = None
        left_out.append("website")
    phone = tags.get("phone") or tags.get("contact:phone")
    phone = phone.split(";")[0].strip() if phone else None
    if phone and (re.search(r"[^0-9+\-(). /]", phone) or not re.search(r"[0-9]", phone)):
        phone = None
        left_out.append("phone")
    hours = None
    if "opening_hours" in tags:
        if tags["opening_hours"] not in HOURS:
            raise Broken(f"no hand-written schedule for opening_hours {tags['opening_hours']!r}")
        hours = HOURS[tags["opening_hours"]]
    return {"kind": kind, "name": name, "tags": place_tags, "cuisine": ", ".join(c.replace("_", " ") for c in cuisines) or None,
            "address": address, "city": tags.get("addr:city"), "phone": phone, "website": website,
            "openingHours": hours, "hoursNotUnderstood": "opening_hours" in tags and hours is None, "leftOut": left_out,
            "timeZone": tags.get("timezone") or TIME_ZONE, "description": tags.get("description")}, None


def could_map(tags):
    """Whether osmium's filter lets the feature through to the reader: a tag of the mapping table (`historic` with any
    value), whatever its name, access or the exceptions. An extract's features outside it (a bench, a hotel) are not
    read at all; a .geojsonseq, which no filter has seen, has them read and skipped as not mapped."""
    return (tags.get("amenity") in RESTAURANT | {"fountain"} or "historic" in tags
            or any(tags.get(key) in values for key, values in GEM_VALUES.items() if key != "amenity"))


class Expected:
    """What importing one .osm file must do."""

    def __init__(self, path):
        self.features = read_osm(path)
        self.places = {}   # place id -> (fields, geometry)
        self.skipped = {}  # place id -> reason
        for osm_id, (tags, geometry) in self.features.items():
            fields, reason = expected_place(tags)
            if fields:
                self.places["osm:" + osm_id] = (fields, geometry)
            else:
                self.skipped["osm:" + osm_id] = reason
        self.all_reasons = {}
        for reason in self.skipped.values():
            self.all_reasons[reason] = self.all_reasons.get(reason, 0) + 1
        # Through osmium's filter (.osm.pbf, .osm, .osm.bz2): what is read and skipped.
        self.read = sum(1 for tags, _ in self.features.values() if could_map(tags))
        self.reasons = {}
        for place_id, reason in self.skipped.items():
            if could_map(self.features[place_id[4:]][0]):
                self.reasons[reason] = self.reasons.get(reason, 0) + 1
        self.skipped_read = sum(self.reasons.values())
        self.not_understood = sum(1 for fields, _ in self.places.values() if fields["hoursNotUnderstood"])
        self.left_out = {}
        for fields, _ in self.places.values():
            for field in fields["leftOut"]:
                self.left_out[field] = self.left_out.get(field, 0) + 1
        points = [p for _, g in self.features.values() for p in geometry_points(g)]
        self.bounds = (min(p[0] for p in points), min(p[1] for p in points), max(p[0] for p in points), max(p[1] for p in points))


def geometry_points(geometry):
    kind, value = geometry
    if kind == "point":
        return [value]
    if kind == "line":
        return value
    return [p for ring in value for p in ring]


# Geometry checks, in degrees on the plane (x = lon, y = lat)

def inside_ring(lat, lon, ring):
    hit = False
    for (y1, x1), (y2, x2) in zip(ring, ring[1:]):
        if (y1 > lat) != (y2 > lat) and lon < x1 + (lat - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def distance_to_ring(lat, lon, ring):
    return min(segment_distance(lat, lon, a, b)[0] for a, b in zip(ring, ring[1:]))


def segment_distance(lat, lon, a, b):
    """The distance from the point to segment a-b and the fraction along it of the nearest point."""
    (ay, ax), (by, bx) = a, b
    dx, dy = bx - ax, by - ay
    t = 0.0 if dx == dy == 0 else max(0.0, min(1.0, ((lon - ax) * dx + (lat - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(lon - (ax + t * dx), lat - (ay + t * dy)), t


def inside_area(lat, lon, rings):
    """Strictly inside the outer ring and outside every hole (more than 1e-9° from every edge)."""
    if any(distance_to_ring(lat, lon, ring) < 1e-9 for ring in rings):
        return False
    return inside_ring(lat, lon, rings[0]) and not any(inside_ring(lat, lon, hole) for hole in rings[1:])


def point_on_surface(rings):
    """The point the issue describes: the middle of the widest span of a horizontal line through the middle of the
    shape's height, as PostGIS's ST_PointOnSurface finds it."""
    lats = [p[0] for p in rings[0]]
    centre = (min(lats) + max(lats)) / 2
    # GEOS (which ST_PointOnSurface runs) moves the line off the vertices: halfway between the nearest vertex at or
    # below the middle and the nearest above it.
    below = max(p[0] for ring in rings for p in ring if p[0] <= centre)
    above = min((p[0] for ring in rings for p in ring if p[0] > centre), default=max(lats))
    y = (below + above) / 2
    xs = sorted(x1 + (y - y1) * (x2 - x1) / (y2 - y1)
                for ring in rings for (y1, x1), (y2, x2) in zip(ring, ring[1:]) if (y1 > y) != (y2 > y))
    spans = [(xs[i + 1] - xs[i], (xs[i] + xs[i + 1]) / 2) for i in range(0, len(xs) - 1, 2)]
    return y, max(spans)[1]


def halfway_fractions(lat, lon, line):
    """Where along the line the point lies, as a fraction of its length, on the plane of degrees and in metres (lon
    scaled by cos(lat)); and its distance from the line in degrees."""
    best = min((segment_distance(lat, lon, a, b) + (i,) for i, (a, b) in enumerate(zip(line, line[1:]))))
    distance, t, index = best
    fractions = []
    for scale in (1.0, math.cos(math.radians(line[0][0]))):
        lengths = [math.hypot((b[1] - a[1]) * scale, b[0] - a[0]) for a, b in zip(line, line[1:])]
        fractions.append((sum(lengths[:index]) + t * lengths[index]) / sum(lengths))
    return distance, fractions


# Running the binary

def seed(binary, files, database, *extra, zone=True):
    """`places seed FILES --database DATABASE --time-zone ZONE EXTRA` (without the zone for other seeds): its output,
    stdout then stderr; a failure stops the run."""
    command = [binary, "seed", *files, "--database", database, *(["--time-zone", TIME_ZONE] if zone else []), *extra]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if result.returncode != 0:
        raise Broken(f"`{' '.join(command)}` exited {result.returncode}:\n{result.stdout}{result.stderr}")
    return result.stdout + result.stderr


# The report's lines, as the issue gives them and as Seeds/README.md shows them: the time in `s` (the issue) or `secs`
# (the README, as every seed's line says it), and the ids of the places gone listed after their count (the README).
REPORT_LINES = [
    ("loaded", r"loaded (\d+) places? from (.+) in \d+(?:\.\d+)? (?:s|secs)"),
    ("read", r"(.+): read (\d+) features?: (\d+) new, (\d+) updated, (\d+) skipped"),
    ("skipped", r"(.+): skipped (\d+) (without a name|not mapped|private|invalid)"),
    ("hours", r"(.+): opening hours not understood for (\d+) places? \(kept without hours\)"),
    ("gone", r"(.+): (\d+) places? gone from OpenStreetMap within the extract's bounds; --prune removes them(?: \((.*)\))?"),
    ("removed", r"(.+): removed (\d+) places? gone from OpenStreetMap within the extract's bounds(?: \((.*)\))?"),
    ("left out", r"(.+): left out (\d+) (\w+) values? the place rules refuse"),  # the README's, not the issue's
]
noted_lines = set()


def parse_report(output, file):
    """The report's figures for `file`: loaded, read, new, updated, skipped, reasons, hours, gone, removed (None when
    its line is missing), the ids listed as gone or removed (None when not listed); and the lines about the file that
    neither the issue nor the README name (`places: ...` messages on stderr aside)."""
    report = {"loaded": None, "read": None, "new": None, "updated": None, "skipped": None, "reasons": {},
              "hours": None, "gone": None, "removed": None, "listed": None, "left out": {}}
    base = os.path.basename(file)
    extra = []
    for line in output.splitlines():
        line = line.strip()
        for what, pattern in REPORT_LINES:
            match = re.fullmatch(pattern, line)
            if not match:
                continue
            named = match.group(2) if what == "loaded" else match.group(1)
            if os.path.basename(named) != base:
                continue
            numbers = [int(g) for g in match.groups() if g and g.isdigit()]
            if what == "loaded":
                report["loaded"] = numbers[0]
            elif what == "read":
                report["read"], report["new"], report["updated"], report["skipped"] = numbers
            elif what == "skipped":
                report["reasons"][match.group(3)] = numbers[0]
            elif what == "left out":
                report["left out"][match.group(3)] = numbers[0]
            else:
                report[what] = numbers[0]
                if what in ("gone", "removed") and match.group(3) is not None:
                    report["listed"] = [i.strip() for i in match.group(3).split(",")]
            break
        else:
            if line.startswith(file + ": ") or line.startswith(base + ": "):
                extra.append(line)
    return report, extra


def check_report(where, output, file, want):
    """Compares the report of seeding `file` with `want` (keys as parse_report's; absent lines as None / {}; `gone_ids`
    the ids a listing of the gone places must name, when it lists them)."""
    got, extra = parse_report(output, file)
    for line in extra:
        shape = re.sub(r"\d+", "N", line.replace(file, "FILE"))
        if shape not in noted_lines:
            noted_lines.add(shape)
            notes.append(f"{where}: a report line the issue does not name: {line!r}")
    wrong = [f"{key} {got[key]} (expected {value})" for key, value in want.items() if key != "gone_ids" and got[key] != value]
    if "gone_ids" in want and got["listed"] is not None and got["listed"] != want["gone_ids"]:
        wrong.append(f"places listed as gone {got['listed']} (expected {want['gone_ids']})")
    if wrong:
        fail(f"{where}: the report's " + ", ".join(wrong) + f"; the output was:\n{output.rstrip()}")
    if got["read"] is not None and got["read"] != got["new"] + got["updated"] + got["skipped"]:
        fail(f"{where}: read {got['read']} is not new + updated + skipped: {got}")
    if got["skipped"] is not None and got["skipped"] != sum(got["reasons"].values()):
        fail(f"{where}: skipped {got['skipped']} is not the sum of its reasons {got['reasons']}")
    return got


class Server:
    """`places serve` on one database, a free loopback port, stopped by its pid."""

    def __init__(self, binary, database, work, name):
        self.binary, self.database, self.work, self.name = binary, database, work, name
        self.process = None

    def start(self):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        empty = os.path.join(self.work, "no-seeds")
        os.makedirs(empty, exist_ok=True)
        self.process = places_server.start(
            self.binary, ["--database", self.database, "--host", "127.0.0.1", "--port", str(self.port), "--seeds", empty,
                          "--bcrypt-cost", "4", "--log-level", "warning"],
            os.path.join(self.work, f"server-{self.name}.log"), self.base, seconds=120, who="osm test", log_mode="a")
        return self

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            places_server.stop(self.process)
        self.process = None

    def call(self, method, path, body=None, token=None):
        return places_server.call(self.base, method, path, body, token)

    def place(self, place_id):
        return self.call("GET", "/v1/places/" + urllib.parse.quote(place_id, safe=":"))

    def within(self, bounds):
        """Every place the viewport's listing gives for the box (south, west, north, east), page after page."""
        south, west, north, east = bounds
        found, cursor = [], None
        for _ in range(100):
            path = f"/v1/places/within?bbox={west:.7f},{south:.7f},{east:.7f},{north:.7f}&limit=500"
            if cursor:
                path += "&cursor=" + urllib.parse.quote(cursor)
            status, answer = self.call("GET", path)
            if status != 200:
                raise Broken(f"GET {path} answered {status}: {answer}")
            found += [p["id"] for p in answer["places"]]
            cursor = answer.get("nextCursor")
            if not cursor:
                return found
        raise Broken("the viewport's listing never ended")


def blank(value):
    return value is None or value == "" or value == []


def hours_of(value):
    if not value:
        return {}
    return {day: sorted(spans) for day, spans in value.items() if spans}


def compare_place(where, place_id, got, fields, geometry):
    """Every field of one answered place against the reader's."""
    for key in ("kind", "name", "cuisine", "address", "city", "phone", "website", "timeZone", "description"):
        want = fields[key]
        if not (got.get(key) == want or (want is None and blank(got.get(key)))):
            fail(f"{where}: {place_id} {key} is {got.get(key)!r}, expected {want!r}")
    if set(got.get("tags") or []) != fields["tags"]:
        fail(f"{where}: {place_id} tags are {sorted(got.get('tags') or [])}, expected {sorted(fields['tags'])}")
    if hours_of(got.get("openingHours")) != hours_of(fields["openingHours"]):
        fail(f"{where}: {place_id} openingHours are {got.get('openingHours')}, expected {fields['openingHours']}")
    lat, lon = got.get("lat"), got.get("lon")
    kind, value = geometry
    if kind == "point":
        if abs(lat - value[0]) > 1e-7 or abs(lon - value[1]) > 1e-7:
            fail(f"{where}: {place_id} is at {lat},{lon}, the node at {value[0]},{value[1]}")
    elif kind == "area":
        if not inside_area(lat, lon, value):
            fail(f"{where}: {place_id} is at {lat},{lon}, not inside its polygon {value}")
        else:
            y, x = point_on_surface(value)
            if abs(lat - y) > 1e-6 or abs(lon - x) > 1e-6:
                notes.append(f"{place_id} is inside its polygon at {lat},{lon} but not at the described point {y:.7f},{x:.7f}")
    else:
        distance, fractions = halfway_fractions(lat, lon, value)
        if distance > 1e-6:
            fail(f"{where}: {place_id} is at {lat},{lon}, {distance:.2e}° off its line")
        elif not any(abs(f - 0.5) < 1e-4 for f in fractions):
            fail(f"{where}: {place_id} is on its line but not halfway along it (at {fractions[0]:.4f} of its length in "
                 f"degrees, {fractions[1]:.4f} in metres)")


def check_places(where, server, expected):
    """Every expected place answered by id and equal to the reader's; every skipped feature 404."""
    answers = {}
    for place_id, (fields, geometry) in sorted(expected.places.items()):
        status, got = server.place(place_id)
        if status != 200:
            fail(f"{where}: GET {place_id} answered {status}: {got}")
            continue
        answers[place_id] = got
        compare_place(where, place_id, got, fields, geometry)
    for place_id, reason in sorted(expected.skipped.items()):
        status, _ = server.place(place_id)
        if status != 404:
            fail(f"{where}: {place_id}, skipped ({reason}), answered {status}, not 404")
    return answers


def osm_ids(ids):
    return sorted(i for i in ids if i.startswith("osm:"))


# The run

def run(binary, work):
    city = city_extract()
    osm = os.path.join(work, "city.osm")
    with open(osm, "w") as file:
        file.write(city.xml())
    pbf = os.path.join(work, "city.osm.pbf")
    subprocess.run(["osmium", "cat", osm, "-o", pbf, "-O"], check=True)
    expected = Expected(osm)
    places_count = len(expected.places)
    say(f"wrote {os.path.basename(osm)}: {len(expected.features)} features ({expected.read} through osmium's filter), "
        f"{places_count} places, skipped {expected.reasons}, {expected.not_understood} places' hours not understood")

    database = os.path.join(work, "places.sqlite")
    # The shipped seeds (some inside the City's bounds) and another extract (outside them) are there first.
    seed(binary, [os.path.join(root, "Seeds")], database, zone=False)
    shipped_inside = []
    for name in sorted(os.listdir(os.path.join(root, "Seeds"))):
        if name.endswith(".json"):
            with open(os.path.join(root, "Seeds", name)) as file:
                shipped_inside += [p["id"] for p in json.load(file)["places"] if within_bounds(p["lat"], p["lon"], expected.bounds)]
    if not shipped_inside:
        raise Broken("no shipped seed lies inside the extract's bounds")
    other = os.path.join(work, "lisbon.osm")
    with open(other, "w") as file:
        file.write(other_extract().xml())
    output = seed(binary, [other], database)
    check_report("lisbon.osm", output, other, {"loaded": 2, "read": 2, "new": 2, "updated": 0, "skipped": 0, "reasons": {},
                                               "hours": None, "gone": None, "removed": None})

    # 1. The extract, as .osm.pbf.
    output = seed(binary, [pbf], database)
    first = check_report("first import", output, pbf, {
        "loaded": places_count, "read": expected.read, "new": places_count, "updated": 0,
        "skipped": expected.skipped_read, "reasons": expected.reasons, "hours": expected.not_understood or None,
        "gone": None, "removed": None, "left out": expected.left_out})
    server = Server(binary, database, work, "main").start()
    try:
        failed = len(failures)
        answers = check_places("first import", server, expected)
        listed = listing(server, expected.bounds, sorted(expected.places))
        if listed != sorted(expected.places):
            fail(f"first import: the bounds list {len(listed)} osm: places, expected {places_count}: "
                 f"extra {sorted(set(listed) - set(expected.places))[:5]}, missing {sorted(set(expected.places) - set(listed))[:5]}")
        say(f"first import: {places_count} places checked field by field, {len(expected.skipped)} skipped features "
            f"asked for: {'ok' if len(failures) == failed else 'FAILED'}")
        failed = len(failures)

        # 2. The changed copy, under another name, seeded into the served database.
        changed = changed_extract(city)
        osm2 = os.path.join(work, "city-v2.osm")
        with open(osm2, "w") as file:
            file.write(changed.xml())
        pbf2 = os.path.join(work, "city-v2.osm.pbf")
        subprocess.run(["osmium", "cat", osm2, "-o", pbf2, "-O"], check=True)
        expected2 = Expected(osm2)
        gone = sorted(set(expected.places) - set(expected2.places))
        added = sorted(set(expected2.places) - set(expected.places))
        if gone != ["osm:n1104"] or added != ["osm:n1300"] or not within_bounds(*city.nodes[1104][:2], expected2.bounds, strictly=True):
            raise Broken(f"the changed copy is not what the test means: gone {gone}, added {added}")
        output = seed(binary, [pbf2], database)
        # A seed into a served database reaches the server's index within a moment.
        if wait_for(lambda: server.place("osm:n1300")[0], 200, seconds=10) != 200:
            fail("changed copy: the new restaurant osm:n1300 did not appear on the served database within 10 s")
        check_report("changed copy", output, pbf2, {
            "loaded": len(expected2.places), "read": expected2.read, "new": 1, "updated": len(expected2.places) - 1,
            "skipped": expected2.skipped_read, "reasons": expected2.reasons, "hours": expected2.not_understood or None,
            "left out": expected2.left_out, "gone": 1, "removed": None, "gone_ids": ["osm:n1104"]})
        check_places("changed copy", server, only(expected2, exclude=gone))
        if server.place("osm:n1104")[0] != 200:
            fail("changed copy: osm:n1104, gone from OpenStreetMap, was removed without --prune")
        want = sorted(set(expected2.places) | set(gone))
        listed = listing(server, expected2.bounds, want)
        if listed != want:
            fail(f"changed copy: the bounds list {len(listed)} osm: places, expected {len(want)} (no place twice): "
                 f"extra {sorted(set(listed) - set(want))[:5]}, missing {sorted(set(want) - set(listed))[:5]}")
        say(f"changed copy (new 1, updated {len(expected2.places) - 1}, gone 1; {len(want)} osm: places in the bounds, "
            f"none twice; renamed, moved, hours changed): {'ok' if len(failures) == failed else 'FAILED'}")
        failed = len(failures)

        # 3. --prune: only the gone OSM place goes.
        server.call("POST", "/v1/auth/register", {"username": "osmtester", "email": "osmtester@example.com", "password": PASSWORD})
        status, login = server.call("POST", "/v1/auth/login", {"username": "osmtester", "password": PASSWORD})
        if status != 200:
            raise Broken(f"login answered {status}: {login}")
        status, own = server.call("POST", "/v1/places", {"name": "Owner's Corner", "kind": "gem", "lat": 51.5131,
                                                         "lon": -0.1052, "allowDuplicate": True}, login["token"])
        if status != 201:
            raise Broken(f"POST /v1/places answered {status}: {own}")
        lookalike = os.path.join(work, "lookalike.csv")
        with open(lookalike, "w") as file:
            file.write("id,lat,lon,name,kind\nosm:n900000001,51.5142,-0.1033,Lookalike Gem,gem\n")
        seed(binary, [lookalike], database, zone=False)
        output = seed(binary, [pbf2], database, "--prune")
        check_report("--prune", output, pbf2, {
            "loaded": len(expected2.places), "read": expected2.read, "new": 0, "updated": len(expected2.places),
            "skipped": expected2.skipped_read, "reasons": expected2.reasons, "gone": None, "removed": 1,
            "gone_ids": ["osm:n1104"]})
        status = wait_for(lambda: server.place("osm:n1104")[0], 404)
        if status != 404:
            fail(f"--prune: osm:n1104, gone from OpenStreetMap, answers {status}, not 404")
        keep = [own["id"], "osm:n900000001", "osm:n5001", "osm:n5002", *shipped_inside]
        for place_id in keep:
            status, answer = server.place(place_id)
            if status != 200:
                fail(f"--prune removed {place_id}, which did not come from this extract: it answers {status} {answer}")
        want = sorted(set(expected2.places) | {"osm:n900000001"})
        listed = listing(server, expected2.bounds, want)
        if listed != want:
            fail(f"--prune: the bounds list {len(listed)} osm: places, expected {len(want)}: "
                 f"extra {sorted(set(listed) - set(want))[:5]}, missing {sorted(set(want) - set(listed))[:5]}")
        say(f"--prune (removes osm:n1104 only; keeps an API place, a CSV place with an osm: id, {len(shipped_inside)} "
            f"shipped seeds in the bounds and another extract's 2 places): {'ok' if len(failures) == failed else 'FAILED'}")
    finally:
        server.stop()

    # 4. The same extract as .osm, .osm.bz2 and .geojsonseq: the same places as the .osm.pbf gave.
    with open(osm, "rb") as source, bz2.open(os.path.join(work, "city.osm.bz2"), "wb") as target:
        shutil.copyfileobj(source, target)
    # A .geojsonseq made as Seeds/README.md says (closed ways as areas only: by default osmium writes them twice).
    geojsonseq = os.path.join(work, "city.geojsonseq")
    areas = os.path.join(work, "areas.json")
    with open(areas, "w") as file:
        file.write('{"linear_tags": false, "area_tags": true}\n')
    subprocess.run(["osmium", "export", pbf, "--config", areas, "--add-unique-id=type_id", "-f", "geojsonseq", "-O",
                    "-o", geojsonseq], check=True)
    for path in (osm, os.path.join(work, "city.osm.bz2"), geojsonseq):
        name = os.path.basename(path)
        other_database = os.path.join(work, f"{name}.sqlite")
        output = seed(binary, [path], other_database)
        if path != geojsonseq:
            check_report(name, output, path, {
                "loaded": places_count, "read": expected.read, "new": places_count, "updated": 0,
                "skipped": expected.skipped_read, "reasons": expected.reasons, "hours": expected.not_understood or None,
                "gone": None, "removed": None, "left out": expected.left_out})
        else:
            # No filter has seen it: every feature is read, the bench and the hotel skipped as not mapped.
            check_report(name, output, path, {
                "loaded": places_count, "read": len(expected.features), "new": places_count, "updated": 0,
                "skipped": len(expected.skipped), "reasons": expected.all_reasons, "hours": expected.not_understood or None,
                "gone": None, "removed": None, "left out": expected.left_out})
        other_server = Server(binary, other_database, work, name).start()
        try:
            check_places(name, other_server, expected)
            same = 0
            for place_id, want in sorted(answers.items()):
                status, got = other_server.place(place_id)
                if status != 200:
                    continue  # check_places said so
                differences = [key for key in sorted(set(want) | set(got)) if key not in ("createdAt", "updatedAt")
                               and not same_value(want.get(key), got.get(key))]
                if differences:
                    fail(f"{name}: {place_id} differs from the .osm.pbf's in {differences}: "
                         + "; ".join(f"{k} {got.get(k)!r} against {want.get(k)!r}" for k in differences))
                else:
                    same += 1
            listed = listing(other_server, expected.bounds, sorted(expected.places))
            if listed != sorted(expected.places):
                fail(f"{name}: the bounds list {len(listed)} osm: places, expected {places_count}: "
                     f"extra {sorted(set(listed) - set(expected.places))[:5]}, missing {sorted(set(expected.places) - set(listed))[:5]}")
        finally:
            other_server.stop()
        say(f"{name}: {same} of {len(answers)} places the same as the .osm.pbf's")
    return places_count


def only(expected, exclude):
    """A view of `expected` without the places in `exclude` (a place gone but not pruned keeps its old fields)."""
    view = Expected.__new__(Expected)
    view.places = {k: v for k, v in expected.places.items() if k not in exclude}
    view.skipped = expected.skipped
    return view


def listing(server, bounds, want, seconds=10.0):
    """The osm: ids the viewport's listing gives for the bounds, asked again until they are `want` or `seconds` pass:
    a seed into a served database reaches its index through the change feed, within about a second."""
    return wait_for(lambda: osm_ids(server.within(bounds)), want, seconds)


def within_bounds(lat, lon, bounds, strictly=False):
    south, west, north, east = bounds
    if strictly:
        return south < lat < north and west < lon < east
    return south <= lat <= north and west <= lon <= east


def wait_for(probe, wanted, seconds=5.0):
    """Asks `probe` until it answers `wanted` or `seconds` pass (a seed into a served database reaches its index
    within a moment); its last answer."""
    import time
    deadline = time.monotonic() + seconds
    while True:
        answer = probe()
        if answer == wanted or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def same_value(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return a is not None and b is not None and abs(a - b) < 1e-9
    if isinstance(a, list) and isinstance(b, list) and all(isinstance(x, str) for x in a + b):
        return sorted(a) == sorted(b)
    if isinstance(a, dict) and isinstance(b, dict) and set(a) <= set(DAYS) and set(b) <= set(DAYS):
        return hours_of(a) == hours_of(b)
    return a == b or (blank(a) and blank(b))


def summary_of(report):
    return (f"read {report['read']}: {report['new']} new, {report['updated']} updated, {report['skipped']} skipped "
            f"{report['reasons']}, hours {report['hours']}")


def main():
    if len(sys.argv) != 2:
        raise SystemExit("usage: Tests/osm/run-osm-test.py PLACES_BINARY")
    binary = os.path.abspath(sys.argv[1])
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"osm test: no places binary at {binary}")
    if not shutil.which("osmium"):
        raise SystemExit("osm test: osmium not found; install Debian's osmium-tool")
    work = tempfile.mkdtemp(prefix="places-osm-")
    places = 0
    try:
        places = run(binary, work)
    except Broken as error:
        fail(f"the run stopped: {error}")
    except Exception:
        fail(f"the run stopped on an error of its own:\n{traceback.format_exc()}")
    for note in notes:
        print(f"osm test: note: {note}")
    if failures:
        print(f"osm test: {len(failures)} failure(s); work folder kept at {work}", file=sys.stderr)
        for failure in failures:
            print(f"  ✘ {failure.splitlines()[0]}", file=sys.stderr)
        sys.exit(1)
    if os.environ.get("PLACES_OSM_KEEP"):
        say(f"work folder kept at {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    say(f"ok: {places} places from an OSM extract match an independent reading of it, through an update, --prune, "
        f"and as .osm.pbf, .osm, .osm.bz2 and .geojsonseq")


if __name__ == "__main__":
    main()
