#!/usr/bin/env python3
"""Writes N synthetic places as CSV or GeoJSON, for load and seeding measurements.

70% are clustered around 20 US cities (gaussian, sigma ~10 km), 30% uniform over the continental US,
the same distribution the benchmark uses. Deterministic for a given --seed.

    python3 Tests/tools/generate_places.py --places 1000000 --format csv > /tmp/places-1m.csv
"""
import argparse
import json
import random
import sys

CITIES = [
    (40.7128, -74.0060), (34.0522, -118.2437), (41.8781, -87.6298), (29.7604, -95.3698), (33.4484, -112.0740),
    (39.9526, -75.1652), (29.4241, -98.4936), (32.7157, -117.1611), (32.7767, -96.7970), (37.3382, -121.8863),
    (30.2672, -97.7431), (30.3322, -81.6557), (37.7749, -122.4194), (39.9612, -82.9988), (47.6062, -122.3321),
    (39.7392, -104.9903), (42.3601, -71.0589), (36.1627, -86.7816), (45.5152, -122.6784), (25.7617, -80.1918),
]
WORDS = ["Blue", "Hidden", "Old", "Little", "Golden", "Corner", "River", "Hill", "Garden", "Lantern", "Harbor", "Cedar"]
NOUNS = ["Cafe", "Steps", "Mural", "Bistro", "Garden", "Viewpoint", "Noodle Bar", "Bookshop", "Taqueria", "Overlook"]


def places(count, rng):
    for i in range(count):
        if rng.random() < 0.7:
            lat0, lon0 = CITIES[rng.randrange(len(CITIES))]
            lat = lat0 + rng.gauss(0, 0.09)
            lon = lon0 + rng.gauss(0, 0.09 / 0.78)
        else:
            lat = rng.uniform(24.5, 49.0)
            lon = rng.uniform(-124.7, -67.0)
        kind = "restaurant" if rng.random() < 0.5 else "gem"
        name = f"{rng.choice(WORDS)} {rng.choice(NOUNS)} {i}"
        yield {"id": f"gen-{i}", "name": name, "kind": kind, "lat": round(lat, 6), "lon": round(lon, 6),
               "city": "Generated", "tags": ["generated", kind]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--places", type=int, default=1_000_000)
    parser.add_argument("--format", choices=["csv", "geojson"], default="csv")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    out = sys.stdout
    if args.format == "csv":
        out.write("id,name,kind,lat,lon,city,tags\n")
        for p in places(args.places, rng):
            out.write(f'{p["id"]},"{p["name"]}",{p["kind"]},{p["lat"]},{p["lon"]},{p["city"]},{";".join(p["tags"])}\n')
    else:
        out.write('{"type": "FeatureCollection", "features": [\n')
        for i, p in enumerate(places(args.places, rng)):
            feature = {"type": "Feature", "id": p.pop("id"),
                       "geometry": {"type": "Point", "coordinates": [p.pop("lon"), p.pop("lat")]}, "properties": p}
            out.write(("," if i else "") + json.dumps(feature) + "\n")
        out.write("]}\n")


if __name__ == "__main__":
    main()
