#!/usr/bin/env python3
"""Importing OpenStreetMap: how fast `places seed` reads an extract, against the project's own CSV seed format.

Generates an OSM XML extract of N features spread over a city-sized box (Berlin's): named restaurants, cafés, fast
food, bars and pubs with cuisine, diet, wheelchair, address and opening_hours tags, about 10% of them building
outlines (closed ways), about 5% without a name (skipped). osmium converts it to `.osm.pbf` (`osmium cat`) and exports
it as a GeoJSON text sequence as Seeds/README.md says (`osmium export --config areas.json --add-unique-id=type_id -f
geojsonseq`, closed ways as areas only: by default osmium writes each twice); the same places are written as
a CSV seed (id, lat, lon, name, kind, tags, cuisine, opening_hours: Seeds/README.md) as the baseline. Then, each into a
new SQLite database, rounds interleaved: `places seed x.geojsonseq`, `places seed x.csv`, `places seed x.osm.pbf`
(the whole import, osmium included). It prints the median seconds, features a second, the geojsonseq:CSV ratio and the
peak resident memory of each seed; `--memory-check` also seeds an extract of N/4 features, to show the geojsonseq seed's
memory does not grow with the file. Every seed's report must say it loaded the places the generator made.

    swift build -c release --product places
    Tests/load/osm-import.py .build/release/places                       # 1,000,000 features, 3 rounds
    Tests/load/osm-import.py .build/release/places --features 100000 --rounds 1 --memory-check

Generated files stay in /tmp/places-osm-load (--work) and are reused by later runs of the same size; the databases are
made anew in each round and deleted after. Targets (issue 39): at least 50,000 features a second from `.geojsonseq`
into SQLite, the whole `.osm.pbf` import of 1M features well under a minute.
"""
import argparse, csv, itertools, json, os, random, re, shutil, sqlite3, statistics, subprocess, sys, tempfile, time

# Berlin, about 45 × 38 km.
BOX = (52.34, 13.09, 52.68, 13.76)
TIME_ZONE = "Europe/Berlin"
AMENITIES = [("restaurant", 55), ("cafe", 30), ("fast_food", 5), ("bar", 5), ("pub", 5)]
CUISINES = ["italian", "pizza", "german", "turkish", "vietnamese", "thai", "indian", "japanese", "sushi", "burger",
            "kebab", "greek", "chinese", "coffee_shop", "vegan", "mexican", "korean", "lebanese", "french", "regional"]
DIETS = [("diet:vegetarian", "vegetarian", 0.30), ("diet:vegan", "vegan", 0.12), ("diet:halal", "halal", 0.06),
         ("diet:kosher", "kosher", 0.01), ("diet:gluten_free", "gluten-free", 0.05), ("diet:lactose_free", "dairy-free", 0.03)]
WORDS = ["Blaue", "Alte", "Kleine", "Goldene", "Ecke", "Spree", "Linden", "Kiez", "Hof", "Laterne", "Brücke", "Markt"]
NOUNS = ["Küche", "Café", "Imbiss", "Bistro", "Stube", "Kantine", "Bar", "Garten", "Eck", "Haus"]
STREETS = ["Hauptstraße", "Schönhauser Allee", "Kastanienallee", "Oranienstraße", "Bergmannstraße", "Sonnenallee"]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
# Supported opening hours and their schedules (the CSV carries the schedule), and some the importer leaves out.
HOURS = [
    ("Mo-Fr 08:00-18:00", {d: ["08:00-18:00"] for d in DAYS[:5]}),
    ("Mo-Sa 11:00-23:00; Su off", {d: ["11:00-23:00"] for d in DAYS[:6]}),
    ("Mo-Su 12:00-15:00,18:00-23:00", {d: ["12:00-15:00", "18:00-23:00"] for d in DAYS}),
    ("Tu-Su 17:00-01:00", {d: ["17:00-01:00"] for d in DAYS[1:]}),
    ("24/7", {d: ["00:00-24:00"] for d in DAYS}),
    ("Fr-Sa 20:00-28:00", {d: ["20:00-04:00"] for d in ("fri", "sat")}),
]
UNSUPPORTED_HOURS = ["Mo-Fr 09:00-18:00; PH off", "Mo-Su 10:00+", "sunrise-sunset"]


def features(count, seed):
    """The generated features, deterministic for (count, seed): dicts with id ("n…"/"w…"), lat, lon, tags, place (the
    CSV row's fields, or None when the feature is skipped) and, for a building, its corners."""
    rng = random.Random(seed)
    amenities = [a for a, weight in AMENITIES for _ in range(weight)]
    south, west, north, east = BOX
    for i in range(count):
        lat = round(rng.uniform(south, north), 7)
        lon = round(rng.uniform(west, east), 7)
        amenity = rng.choice(amenities)
        tags = {"amenity": amenity}
        named = rng.random() >= 0.05
        name = f"{rng.choice(WORDS)} {rng.choice(NOUNS)} {i}"
        if named:
            tags["name"] = name
        cuisines = rng.sample(CUISINES, rng.choice((0, 1, 1, 1, 2)))
        if cuisines:
            tags["cuisine"] = ";".join(cuisines)
        place_tags = [amenity.replace("_", "-")] + [c.replace("_", "-") for c in cuisines]
        for key, tag, share in DIETS:
            if rng.random() < share:
                tags[key] = "yes"
                place_tags.append(tag)
        if rng.random() < 0.2:
            tags["wheelchair"] = "yes"
            place_tags.append("wheelchair")
        address = None
        if rng.random() < 0.5:
            tags["addr:street"] = rng.choice(STREETS)
            tags["addr:housenumber"] = str(rng.randint(1, 200))
            tags["addr:city"] = "Berlin"
            address = f"{tags['addr:housenumber']} {tags['addr:street']}"
        schedule = None
        roll = rng.random()
        if roll < 0.70:
            text, schedule = rng.choice(HOURS)
            tags["opening_hours"] = text
        elif roll < 0.75:
            tags["opening_hours"] = rng.choice(UNSUPPORTED_HOURS)
        building = rng.random() < 0.10
        corners = None
        if building:
            tags["building"] = "yes"
            h = 0.00009  # about 10 m from the centre to a side
            corners = [(lat - h, lon - h), (lat - h, lon + h), (lat + h, lon + h), (lat + h, lon - h)]
        place = None
        if named:
            place = {"id": f"osm:{'w' if building else 'n'}{i + 1}", "lat": lat, "lon": lon, "name": name,
                     "kind": "restaurant", "tags": place_tags,
                     "cuisine": ", ".join(c.replace("_", " ") for c in cuisines),
                     "address": address, "city": tags.get("addr:city"), "opening_hours": schedule}
        yield {"id": i + 1, "building": building, "lat": lat, "lon": lon, "tags": tags, "corners": corners, "place": place}


def generate(count, seed, folder):
    """Writes NAME.osm, NAME.osm.pbf, NAME.geojsonseq and NAME.csv in `folder` unless they are there (a file is
    written under a temporary name and renamed when whole). Answers the paths and the number of places."""
    name = f"osm-{count}-s{seed}-areas"
    paths = {kind: os.path.join(folder, f"{name}.{kind}") for kind in ("osm", "osm.pbf", "geojsonseq", "csv")}
    facts_path = os.path.join(folder, f"{name}.json")
    if all(os.path.exists(p) for p in paths.values()) and os.path.exists(facts_path):
        with open(facts_path) as file:
            facts = json.load(file)
        print(f"osm import: reusing {name}.* in {folder} ({facts['places']} places)")
        return paths, facts
    os.makedirs(folder, exist_ok=True)
    started = time.monotonic()
    nodes, corners, ways, rows = [], [], [], []
    bare = count + 1  # ids of the buildings' untagged corner nodes follow the features'
    places = 0
    for feature in features(count, seed):
        tag_xml = "".join(f'<tag k="{k}" v="{v}"/>' for k, v in feature["tags"].items())
        if feature["building"]:
            refs = []
            for lat, lon in feature["corners"]:
                corners.append(f'<node id="{bare}" version="1" lat="{lat:.7f}" lon="{lon:.7f}"/>')
                refs.append(bare)
                bare += 1
            ways.append(f'<way id="{feature["id"]}" version="1">'
                        + "".join(f'<nd ref="{r}"/>' for r in refs + refs[:1]) + tag_xml + "</way>")
        else:
            nodes.append(f'<node id="{feature["id"]}" version="1" lat="{feature["lat"]:.7f}" lon="{feature["lon"]:.7f}">{tag_xml}</node>')
        place = feature["place"]
        if place:
            places += 1
            rows.append((place["id"], f"{place['lat']:.7f}", f"{place['lon']:.7f}", place["name"], place["kind"],
                         ";".join(place["tags"]), place["cuisine"], place["address"] or "", place["city"] or "",
                         json.dumps(place["opening_hours"], separators=(",", ":")) if place["opening_hours"] else ""))
    # Nodes by id (the features', then the corners' after them), then ways: the order osmium expects of an OSM file.
    nodes += corners
    osm_temp = paths["osm"] + ".part"
    with open(osm_temp, "w") as file:
        file.write('<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6" generator="osm-import.py">\n')
        for start in range(0, len(nodes), 100_000):
            file.write("\n".join(nodes[start:start + 100_000]) + "\n")
        file.write("\n".join(ways) + "\n</osm>\n")
    os.replace(osm_temp, paths["osm"])
    csv_temp = paths["csv"] + ".part"
    with open(csv_temp, "w", newline="") as file:
        writer = csv.writer(file)
        writer.writerow(["id", "lat", "lon", "name", "kind", "tags", "cuisine", "address", "city", "opening_hours"])
        writer.writerows(rows)
    os.replace(csv_temp, paths["csv"])
    generated = time.monotonic() - started
    started = time.monotonic()
    subprocess.run(["osmium", "cat", paths["osm"], "-o", paths["osm.pbf"] + ".part", "-f", "pbf", "-O", "--no-progress"], check=True)
    os.replace(paths["osm.pbf"] + ".part", paths["osm.pbf"])
    converted = time.monotonic() - started
    started = time.monotonic()
    # Closed ways as areas only, as Seeds/README.md says: by default osmium writes a closed way twice (a line and an
    # area), and Places skips the second as a repeated id, leaving a building's place on its outline.
    areas = os.path.join(folder, "areas.json")
    with open(areas, "w") as file:
        file.write('{"linear_tags": false, "area_tags": true}\n')
    subprocess.run(["osmium", "export", paths["osm.pbf"], "--config", areas, "-f", "geojsonseq", "--add-unique-id=type_id",
                    "-O", "--no-progress", "-o", paths["geojsonseq"] + ".part"], check=True)
    os.replace(paths["geojsonseq"] + ".part", paths["geojsonseq"])
    exported = time.monotonic() - started
    with open(paths["geojsonseq"], "rb") as file:
        lines = sum(1 for _ in file)
    facts = {"features": count, "places": places, "skipped": count - places, "geojsonseq_lines": lines,
             "generate_seconds": round(generated, 2), "osmium_cat_seconds": round(converted, 2),
             "osmium_export_seconds": round(exported, 2)}
    with open(facts_path, "w") as file:
        json.dump(facts, file)
    sizes = ", ".join(f"{kind} {os.path.getsize(p) / 2**20:.0f} MiB" for kind, p in paths.items())
    print(f"osm import: generated {count} features ({places} places) in {generated:.1f} s; osmium cat {converted:.1f} s, "
          f"osmium export {exported:.1f} s ({lines} lines); {sizes}")
    return paths, facts


def peak_rss_command(command, rss_file):
    """The command wrapped so that its peak resident memory (KiB) ends up in `rss_file`: GNU time when installed,
    else a Python parent reading its children's rusage."""
    if os.path.exists("/usr/bin/time"):
        return ["/usr/bin/time", "-v", "-o", rss_file, *command]
    wrapper = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[2:]); "
               "open(sys.argv[1], 'w').write('Maximum resident set size (kbytes): %d\\n' % "
               "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss); sys.exit(code)")
    return [sys.executable, "-c", wrapper, rss_file, *command]


def sample_rows(csv_path, count=2000):
    """The first `count` places of the CSV seed: {id: (lat, lon, name)}, what every format must have loaded."""
    with open(csv_path, newline="") as file:
        return {row["id"]: (float(row["lat"]), float(row["lon"]), row["name"])
                for row in itertools.islice(csv.DictReader(file), count)}


def check_sample(database, sample, path):
    """The sampled places, read from the database, are where and what the generator made them (a building's place at
    its square's centre, which is its interior point)."""
    with sqlite3.connect(database) as db:
        found = {row[0]: row[1:] for row in db.execute(
            f"SELECT id, latitude, longitude, name FROM place WHERE id IN ({','.join('?' * len(sample))})", list(sample))}
    wrong = [(place_id, found.get(place_id), want) for place_id, want in sample.items()
             if place_id not in found or abs(found[place_id][0] - want[0]) > 1e-6 or abs(found[place_id][1] - want[1]) > 1e-6
             or found[place_id][2] != want[2]]
    if wrong:
        raise SystemExit(f"osm import: `places seed {path}` loaded {len(wrong)} of {len(sample)} sampled places otherwise "
                         f"than generated, e.g. {wrong[:3]}")


def seed_once(binary, path, work, expected_places, sample=None):
    """`places seed PATH` into a new database: (seconds, peak RSS in MiB, report line); with `sample`, the sampled
    places are checked in it."""
    database = os.path.join(work, "bench.sqlite")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    rss_file = os.path.join(work, "rss.txt")
    command = peak_rss_command([binary, "seed", path, "--database", database, "--time-zone", TIME_ZONE], rss_file)
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        raise SystemExit(f"osm import: `places seed {path}` exited {result.returncode}:\n{result.stdout}{result.stderr}")
    with open(rss_file) as file:
        rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", file.read()).group(1)) / 1024
    loaded = re.search(r"^loaded (\d+) places? from", result.stdout + result.stderr, re.M)
    if not loaded or int(loaded.group(1)) != expected_places:
        raise SystemExit(f"osm import: `places seed {path}` did not load the {expected_places} generated places:\n"
                         f"{result.stdout}{result.stderr}")
    read = re.search(r": read \d+ features?: .*$", result.stdout + result.stderr, re.M)
    if sample:
        check_sample(database, sample, path)
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(database + suffix):
            os.remove(database + suffix)
    return seconds, rss, read.group(0).lstrip(": ") if read else ""


def bench(binary, paths, facts, rounds, work):
    """Rounds of the three seeds, interleaved: {format: [(seconds, rss, report)]}."""
    results = {"geojsonseq": [], "csv": [], "osm.pbf": []}
    sample = sample_rows(paths["csv"])
    for round_number in range(rounds):
        for kind in results:
            seconds, rss, report = seed_once(binary, paths[kind], work, facts["places"], sample if round_number == 0 else None)
            results[kind].append((seconds, rss, report))
            print(f"osm import: round {round_number + 1}: {kind:<10} {seconds:7.2f} s, peak RSS {rss:6.0f} MiB  {report}", flush=True)
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary", help="the places binary (a release build)")
    parser.add_argument("--features", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=39, help="the generator's random seed")
    parser.add_argument("--memory-check", action="store_true", help="also seed an extract of N/4 features and compare the peak memory")
    parser.add_argument("--work", default="/tmp/places-osm-load", help="where generated files are kept and reused")
    parser.add_argument("--json", action="store_true", help="also print the figures as one JSON object")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"osm import: no places binary at {binary}")
    if not shutil.which("osmium"):
        raise SystemExit("osm import: osmium not found; install Debian's osmium-tool")
    if "/debug/" in binary:
        print("osm import: warning: a debug build; the figures mean something in release (swift build -c release)", file=sys.stderr)
    paths, facts = generate(options.features, options.seed, options.work)
    scratch = tempfile.mkdtemp(prefix="places-osm-bench-", dir=options.work)
    try:
        results = bench(binary, paths, facts, options.rounds, scratch)
        small = None
        if options.memory_check:
            quarter = max(1, options.features // 4)
            small_paths, small_facts = generate(quarter, options.seed, options.work)
            small = [seed_once(binary, small_paths["geojsonseq"], scratch, small_facts["places"]) for _ in range(options.rounds)]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    median = {kind: statistics.median(s for s, _, _ in runs) for kind, runs in results.items()}
    peak = {kind: max(r for _, r, _ in runs) for kind, runs in results.items()}
    n = options.features
    print(f"\nosm import: {n} features ({facts['places']} places, {facts['skipped']} without a name; "
          f"{facts['geojsonseq_lines']} GeoJSON lines), median of {options.rounds} round(s), each into a new SQLite database:")
    print(f"  {'format':<12} {'median s':>9} {'features/s':>11} {'places/s':>9} {'peak RSS':>10}")
    for kind in results:
        print(f"  {kind:<12} {median[kind]:9.2f} {n / median[kind]:11,.0f} {facts['places'] / median[kind]:9,.0f} {peak[kind]:7.0f} MiB")
    ratio = median["geojsonseq"] / median["csv"]
    print(f"  geojsonseq:CSV time ratio {ratio:.2f} (the CSV seed of the same places is the baseline)")
    rate = n / median["geojsonseq"]
    print(f"  target: .geojsonseq at least 50,000 features/s: {rate:,.0f} ({'met' if rate >= 50_000 else 'NOT met'}); "
          f".osm.pbf whole import of {n} features well under 60 s: {median['osm.pbf']:.1f} s")
    figures = {"features": n, "places": facts["places"], "rounds": options.rounds, "median_seconds": median,
               "peak_rss_mib": peak, "geojsonseq_csv_ratio": round(ratio, 3), "generation": facts}
    if small:
        small_peak = max(r for _, r, _ in small)
        small_median = statistics.median(s for s, _, _ in small)
        growth = peak["geojsonseq"] - small_peak
        print(f"  memory: the .geojsonseq seed peaks at {small_peak:.0f} MiB for {n // 4} features and {peak['geojsonseq']:.0f} MiB "
              f"for {n} ({growth:+.0f} MiB for 4× the features; {small_median:.2f} s and {median['geojsonseq']:.2f} s)")
        figures["memory_check"] = {"features": n // 4, "peak_rss_mib": small_peak, "median_seconds": small_median}
    if options.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
