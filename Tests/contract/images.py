"""Images for the contract run, from the document's own examples (standard library only).

The photo uploads (`addPlacePhoto`, `setMyPicture`) take the image itself as the body, as image/jpeg, image/png or
image/webp. The document gives each of those a tiny valid image as an Example Object whose `externalValue` is a `data:`
URI (OpenAPI 3.2: the serialized example, for a value that is no Unicode string). `examples` reads them back;
`with_metadata` returns the same images carrying what the server must strip before it stores them (EXIF with GPS, a PNG
text chunk, a WebP EXIF chunk), and `broken` files the server must refuse (cut short, a byte changed, another format's
bytes, a HEIC header, a side over 8,000 pixels, nothing at all).

Used by the Schemathesis hooks (hooks.py), fixtures.py and generated-client-tour.py.
"""

import struct
import urllib.request
import zlib

IMAGE_TYPES = ("image/jpeg", "image/png", "image/webp")


def image_examples(document: dict):
    """Every Example Object of a request body's image type, with the type: (media type, example)."""
    for methods in document.get("paths", {}).values():
        for operation in methods.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            for media_type, content in (body or {}).get("content", {}).items():
                if media_type in IMAGE_TYPES:
                    yield from ((media_type, example) for example in content.get("examples", {}).values())


def examples(document: dict) -> dict[str, list[bytes]]:
    """The bytes of every `data:` example of the request bodies' image types, by media type, in document order."""
    found: dict[str, list[bytes]] = {media_type: [] for media_type in IMAGE_TYPES}
    for media_type, example in image_examples(document):
        data = decode(example.get("externalValue", ""))
        if data is not None and data not in found[media_type]:
            found[media_type].append(data)
    return found


def decode(uri: str) -> bytes | None:
    """The bytes a `data:` URI holds (urllib reads them; requests cannot); None for any other URI."""
    if not isinstance(uri, str) or not uri.startswith("data:"):
        return None
    with urllib.request.urlopen(uri) as response:
        return response.read()


# What the server must remove: a camera make and a GPS position, in EXIF without an orientation (an orientation is
# kept, as a minimal EXIF of its own, so an upload without one comes back without any EXIF).
CAMERA = b"Contract camera\0"


def exif() -> bytes:
    """A little-endian TIFF block: IFD0 with Make and a GPS IFD pointer; the GPS IFD with latitude 37°45' N."""
    ifd0_at, make_at = 8, 8 + 2 + 2 * 12 + 4
    gps_at = make_at + len(CAMERA)
    rationals_at = gps_at + 2 + 2 * 12 + 4
    tiff = b"II" + struct.pack("<HI", 42, ifd0_at)
    tiff += struct.pack("<H", 2)
    tiff += struct.pack("<HHII", 0x010F, 2, len(CAMERA), make_at)  # Make
    tiff += struct.pack("<HHII", 0x8825, 4, 1, gps_at)  # GPSInfo
    tiff += struct.pack("<I", 0)
    tiff += CAMERA
    tiff += struct.pack("<H", 2)
    tiff += struct.pack("<HHI", 0x0001, 2, 2) + b"N\0\0\0"  # GPSLatitudeRef
    tiff += struct.pack("<HHII", 0x0002, 5, 3, rationals_at)  # GPSLatitude
    tiff += struct.pack("<I", 0)
    tiff += struct.pack("<6I", 37, 1, 45, 1, 0, 1)
    return tiff


def jpeg_with_exif(jpeg: bytes) -> bytes:
    """`jpeg` with an EXIF APP1 segment after its JFIF header (or right after the start-of-image marker)."""
    payload = b"Exif\0\0" + exif()
    segment = b"\xff\xe1" + struct.pack(">H", 2 + len(payload)) + payload
    at = 2
    if jpeg[2:4] == b"\xff\xe0":
        at = 4 + struct.unpack(">H", jpeg[4:6])[0]
    return jpeg[:at] + segment + jpeg[at:]


def png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_with_text(png: bytes) -> bytes:
    """`png` with a tEXt chunk (a comment giving a position) after its IHDR."""
    ihdr_end = 8 + 8 + struct.unpack(">I", png[8:12])[0] + 4
    return png[:ihdr_end] + png_chunk(b"tEXt", b"Comment\0Taken at 37.7599 N 122.4148 W") + png[ihdr_end:]


def png_of_side(png: bytes, width: int) -> bytes:
    """`png` whose IHDR says `width` pixels wide, its CRC right (the server reads sizes, never pixels)."""
    length = struct.unpack(">I", png[8:12])[0]
    data = struct.pack(">I", width) + png[20:16 + length]
    return png[:8] + png_chunk(b"IHDR", data) + png[16 + length + 4:]


def riff_chunk(kind: bytes, data: bytes) -> bytes:
    return kind + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def webp_chunks(webp: bytes) -> list[tuple[bytes, bytes]]:
    chunks, at = [], 12
    while at + 8 <= len(webp):
        kind, size = webp[at:at + 4], struct.unpack("<I", webp[at + 4:at + 8])[0]
        chunks.append((kind, webp[at + 8:at + 8 + size]))
        at += 8 + size + size % 2
    return chunks


def webp_with_exif(webp: bytes, width: int = 1, height: int = 1) -> bytes:
    """A simple-format `webp` made extended (VP8X, EXIF flag) with an EXIF chunk after its image data."""
    image = [(kind, data) for kind, data in webp_chunks(webp) if kind in (b"VP8 ", b"VP8L")]
    vp8x = bytes([0x08, 0, 0, 0]) + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    body = b"WEBP" + riff_chunk(b"VP8X", vp8x) + b"".join(riff_chunk(kind, data) for kind, data in image)
    body += riff_chunk(b"EXIF", exif())
    return b"RIFF" + struct.pack("<I", len(body)) + body


def with_metadata(media_type: str, image: bytes) -> bytes:
    """`image` carrying metadata the server removes before storing it."""
    if media_type == "image/jpeg":
        return jpeg_with_exif(image)
    if media_type == "image/png":
        return png_with_text(image)
    return webp_with_exif(image)


# The start of an HEIC file (an `ftyp` box naming the heic brand), which phones send by default: refused with 415.
HEIC = struct.pack(">I", 24) + b"ftypheic" + struct.pack(">I", 0) + b"mif1heic"


def broken(media_type: str, image: bytes, others: list[bytes]) -> list[bytes]:
    """Files sent as `media_type` that the server refuses: none of them is a whole, readable `media_type` image."""
    files = [b"", HEIC, image[: len(image) // 2], image[:-1], *others]
    if media_type == "image/png":
        files.append(png_of_side(image, 8_001))
        files.append(image[:29] + bytes([image[29] ^ 0xFF]) + image[30:])  # a CRC that does not match (IHDR's)
    elif media_type == "image/jpeg":
        files.append(image[:-2])  # no end-of-image marker
    else:
        files.append(image[:4] + struct.pack("<I", len(image)) + image[8:])  # a RIFF size past the end
    return files
