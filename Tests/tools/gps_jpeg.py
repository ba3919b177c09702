"""A real JPEG that gives a location away, for the scripts that check uploads are cleaned (the cluster and browser
tests): a 1×1 baseline JPEG with an EXIF block holding a GPS position (51°30'26.4"N 0°7'40.1"W) and an orientation,
an XMP packet, a comment, and a fake motion-photo video after its end marker; optionally padded with comments to a
size. `location_markers` are byte strings of that metadata, none of which may survive a cleaning."""
import base64, struct

# A 1×1 grey baseline JPEG (JFIF), which every decoder reads.
DOT = base64.b64decode(
    "/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/"
    "wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q=="
)

location_markers = [b"GPS-HOME", b"exif:GPSLatitude", b"shot at home", b"ftypmp42", struct.pack(">II", 2640, 100)]


def exif_with_gps(orientation=6):
    """An APP1 Exif segment (big-endian TIFF): IFD0 with Make, Orientation and a GPS IFD pointer; the GPS IFD with
    latitude and longitude as rationals, and a processing method naming the spot."""
    entries0 = 3
    ifd0_size = 2 + 12 * entries0 + 4
    make = b"GPS-HOME\x00"
    gps_at = 8 + ifd0_size + len(make)
    gps_entries = 5
    gps_size = 2 + 12 * gps_entries + 4
    data_at = gps_at + gps_size
    latitude = struct.pack(">IIIIII", 51, 1, 30, 1, 2640, 100)
    longitude = struct.pack(">IIIIII", 0, 1, 7, 1, 4010, 1000)
    method = b"ASCII\x00\x00\x00GPS-HOME"
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">H", entries0)
    tiff += struct.pack(">HHII", 0x010F, 2, len(make), 8 + ifd0_size)
    tiff += struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0)
    tiff += struct.pack(">HHII", 0x8825, 4, 1, gps_at)
    tiff += struct.pack(">I", 0) + make
    tiff += struct.pack(">H", gps_entries)
    tiff += struct.pack(">HHI4s", 0x0001, 2, 2, b"N\x00\x00\x00")
    tiff += struct.pack(">HHII", 0x0002, 5, 3, data_at)
    tiff += struct.pack(">HHI4s", 0x0003, 2, 2, b"W\x00\x00\x00")
    tiff += struct.pack(">HHII", 0x0004, 5, 3, data_at + len(latitude))
    tiff += struct.pack(">HHII", 0x001B, 7, len(method), data_at + len(latitude) + len(longitude))
    tiff += struct.pack(">I", 0) + latitude + longitude + method
    body = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body


def segment(marker, body):
    return bytes([0xFF, marker]) + struct.pack(">H", len(body) + 2) + body


def jpeg(size=0, orientation=6):
    """The dot with its location in EXIF, XMP, a comment and a trailer; padded with comments to at least `size`."""
    xmp = segment(0xE1, b"http://ns.adobe.com/xap/1.0/\x00<x:xmpmeta><exif:GPSLatitude>51,30.44N</exif:GPSLatitude></x:xmpmeta>")
    comment = segment(0xFE, b"shot at home")
    padding = b""
    base = len(DOT) + 200
    while base + len(padding) < size:
        padding += segment(0xFE, b"a" * min(65_000, size - base - len(padding)))
    trailer = b"\x00\x00\x00\x18ftypmp42" + b"GPS-HOME 51.5074 -0.1278" * 4
    return DOT[:2] + exif_with_gps(orientation) + xmp + comment + padding + DOT[2:] + trailer
