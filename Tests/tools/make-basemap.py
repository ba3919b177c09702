#!/usr/bin/env python3
"""Writes Sources/PlacesHTTP/Web/basemap.json, the map's offline background of countries and coastlines.

    python3 Tests/tools/make-basemap.py [WHEEL] [--out PATH]

The data is Natural Earth's 1:110m Admin 0 countries (public domain), as the shapefile `naturalearth_lowres` that
geopandas 0.14.4's wheel carries (later versions dropped it). Without WHEEL the script downloads that wheel with
`python3 -m pip download --no-deps` into a temporary folder; either way it checks the wheel's SHA-256, so the output
is the same bytes on every run. Only the standard library is used: the wheel is a zip, and the shapefile (polygons,
type 5) is read with `struct`.

The JSON, with no whitespace:

    {"source": "...", "scale": 100, "polygons": [[RING, RING, ...], ...]}

- one polygon per country part, in the shapefile's order: its outer ring first, then its holes (South Africa's, where
  Lesotho is); outer rings run clockwise (seen with north up), holes anticlockwise, so a canvas fills them with its
  nonzero rule;
- a ring is a flat list of integers: the first point's lon*scale, lat*scale, then each point's difference from the
  one before. Coordinates are rounded to 1/scale of a degree (0.01°, about 1.1 km, half a pixel at zoom 6), points
  the rounding made equal to the one before are dropped, and a ring is implicitly closed (its first point is not
  repeated at its end);
- latitudes are kept as they are (Antarctica reaches -90): the page clamps them to Web Mercator's ±85.0511°.
"""
import argparse
import hashlib
import io
import json
import math
import os
import struct
import subprocess
import sys
import tempfile
import zipfile

WHEEL = "geopandas-0.14.4-py3-none-any.whl"
WHEEL_SHA256 = "3bb6473cb59d51e1a7fe2dbc24a1a063fb0ebdeddf3ce08ddbf8c7ddc99689aa"
SHAPEFILE = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres.shp"
SOURCE = "Natural Earth 1:110m Admin 0 countries (public domain), naturalearth_lowres in geopandas 0.14.4's wheel"
SCALE = 100
OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "PlacesHTTP", "Web", "basemap.json")


def download(folder):
    """The wheel, downloaded from PyPI into the folder."""
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                    "geopandas==0.14.4", "-d", folder], check=True)
    return os.path.join(folder, WHEEL)


def read_shapes(shp):
    """The shapefile's records, each a list of rings (lists of (lon, lat)); a null shape is an empty list."""
    code, = struct.unpack(">i", shp[:4])
    kind, = struct.unpack("<i", shp[32:36])
    if code != 9994 or kind != 5:
        raise SystemExit(f"make-basemap: not a polygon shapefile (file code {code}, shape type {kind})")
    records, at = [], 100
    while at < len(shp):
        _, words = struct.unpack(">ii", shp[at:at + 8])
        content = shp[at + 8:at + 8 + 2 * words]
        at += 8 + 2 * words
        kind, = struct.unpack("<i", content[:4])
        if kind == 0:
            records.append([])
            continue
        if kind != 5:
            raise SystemExit(f"make-basemap: record {len(records)} has shape type {kind}, not a polygon")
        parts, count = struct.unpack("<ii", content[36:44])
        starts = list(struct.unpack(f"<{parts}i", content[44:44 + 4 * parts])) + [count]
        flat = struct.unpack(f"<{2 * count}d", content[44 + 4 * parts:44 + 4 * parts + 16 * count])
        points = list(zip(flat[0::2], flat[1::2]))
        records.append([points[starts[i]:starts[i + 1]] for i in range(parts)])
    return records


def area(ring):
    """Twice the ring's signed area (positive when anticlockwise with north up); the ring is implicitly closed."""
    return sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))


def inside(point, ring):
    """Whether the point is inside the ring (even-odd)."""
    x, y = point
    result = False
    for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]):
        if (y0 > y) != (y1 > y) and x < x0 + (y - y0) * (x1 - x0) / (y1 - y0):
            result = not result
    return result


def quantize(ring, scale):
    """The ring in integer units of 1/scale degree: repeats, a closing point and spikes (A B A) dropped."""
    points = []
    for lon, lat in ring:
        point = (math.floor(lon * scale + 0.5), math.floor(lat * scale + 0.5))
        if not points or points[-1] != point:
            points.append(point)
    while len(points) > 1 and points[-1] == points[0]:
        points.pop()
    # A spike out and back (A B A, which rounding can make) loses its tip and its return, until there is none.
    while len(points) >= 3:
        count = len(points)
        spike = next((j for j in range(count) if points[j - 1] == points[(j + 1) % count]), None)
        if spike is None:
            break
        for index in sorted({spike, (spike + 1) % count}, reverse=True):
            del points[index]
    return points


def polygons(records, scale):
    """The country parts: each an outer ring (clockwise) and the holes inside it (anticlockwise), quantized."""
    result = []
    for rings in records:
        outers, holes = [], []
        for ring in rings:
            # The shapefile's rule: an outer ring runs clockwise, a hole anticlockwise.
            (holes if area(ring) > 0 else outers).append(ring)
        parts = [[outer] for outer in outers]
        for hole in holes:
            owner = next((part for part in parts if inside(hole[0], part[0])), None)
            if owner is None:
                raise SystemExit("make-basemap: a hole in no outer ring")
            owner.append(hole)
        for part in parts:
            kept = []
            for index, ring in enumerate(part):
                points = quantize(ring, scale)
                if len(points) < 3 or area(points) == 0:
                    if index == 0:
                        break  # an island smaller than the rounding: its holes go with it
                    continue
                # Clockwise outside, anticlockwise holes, whatever the rounding did to a thin ring.
                if (area(points) > 0) != (index > 0):
                    points.reverse()
                kept.append(points)
            if kept:
                result.append(kept)
    return result


def encode(ring):
    """A ring as the flat list: the first point, then each point's difference from the one before."""
    flat = list(ring[0])
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        flat += [x1 - x0, y1 - y0]
    return flat


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", nargs="?", help=f"{WHEEL}, already downloaded (else it is downloaded from PyPI)")
    parser.add_argument("--out", default=OUT, help="the JSON to write (default: Sources/PlacesHTTP/Web/basemap.json)")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = arguments.wheel or download(folder)
        with open(path, "rb") as f:
            data = f.read()
    digest = hashlib.sha256(data).hexdigest()
    if digest != WHEEL_SHA256:
        raise SystemExit(f"make-basemap: {path} has SHA-256 {digest}, not {WHEEL}'s {WHEEL_SHA256}")
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        records = read_shapes(wheel.read(SHAPEFILE))
    parts = polygons(records, SCALE)
    document = {"source": SOURCE, "scale": SCALE, "polygons": [[encode(ring) for ring in part] for part in parts]}
    text = json.dumps(document, separators=(",", ":"))
    with open(arguments.out, "w") as f:
        f.write(text)
    rings = sum(len(part) for part in parts)
    points = sum(len(ring) for part in parts for ring in part)
    countries = sum(1 for rings in records if rings)
    print(f"{os.path.relpath(arguments.out)}: {len(text)} bytes; {countries} countries, {len(parts)} polygons, "
          f"{rings} rings, {points} points at 1/{SCALE}°")


if __name__ == "__main__":
    main()
