"""Schemathesis hooks of the contract run (schemathesis.toml and signed-in.toml load them): photo uploads' bodies.

The photo uploads take the image itself as the body (image/jpeg, image/png, image/webp; `type: string, format: binary`,
which says nothing of the bytes). The document gives each of these an Example Object whose `externalValue` is a `data:`
URI holding a 1×1 image. Schemathesis 4.32.5 reads an `externalValue` with `requests`, which cannot open a `data:` URI,
so it would skip the example; and it sends a string `value` as its UTF-8 encoding, which is no image. So before the
document is loaded, each such example gets the URI's bytes as its `value`, and Schemathesis sends them byte for byte.

Then each image type gets a strategy of its own (`schemathesis.openapi.media_type`), which Schemathesis uses for that
type's bodies in every phase: about two draws in three are well-formed images (the document's examples, drawn first
as the simplest, and the same images carrying EXIF with GPS, a text chunk or a WebP EXIF chunk, which the server
strips), the rest files it must refuse (cut short, a byte changed, another format's bytes, HEIC, a side over 8,000
pixels, random bytes). Without the hook Schemathesis would send its own sample file of the type (positive cases) and
values no image is (negative cases, JSON text); with it the uploads reach the server's parsers with both. To
Schemathesis every one of these bodies is valid (the schema allows any bytes), so a check of its own judges the answers:
an image it knows is well-formed must not be refused for its bytes (415, or 400 naming the body), and a file it knows
is broken must not be stored (2xx).
"""

import sys
from pathlib import Path

import schemathesis
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parent))
import images  # noqa: E402  (beside this file, which Schemathesis loads by path)


@schemathesis.hook
def before_load_schema(context, raw_schema: dict) -> None:
    register(images.examples(raw_schema))
    for _, example in images.image_examples(raw_schema):
        data = images.decode(example.get("externalValue", ""))
        if data is not None:
            del example["externalValue"]
            example["value"] = data


# Whether a body sent as a media type is an image of that type the server must take: (media type, bytes) → True for the
# well-formed images, False for the broken files; random bytes are not judged.
JUDGED: dict[tuple[str, bytes], bool] = {}


def register(found: dict[str, list[bytes]]) -> None:
    for media_type, valid in found.items():
        if not valid:
            continue
        others = [image for other, files in found.items() if other != media_type for image in files]
        dressed = [images.with_metadata(media_type, image) for image in valid]
        broken = [file for image in valid for file in images.broken(media_type, image, others)]
        JUDGED.update({(media_type, file): False for file in broken})
        JUDGED.update({(media_type, file): True for file in valid + dressed})
        refused = st.one_of(st.sampled_from(broken), st.binary(max_size=256))
        schemathesis.openapi.media_type(media_type, st.one_of(st.sampled_from(valid), st.sampled_from(dressed), refused))


@schemathesis.check
def image_bodies_judged(ctx, response, case) -> None:
    """A well-formed image is not refused for its bytes, and a broken file is not stored."""
    body = response.request.body
    # The type the body went as: the coverage phase sends other `Content-Type` headers with the same body.
    sent = (response.request.headers.get("Content-Type") or "").split(";")[0].strip().lower()
    if not isinstance(body, bytes) or sent not in images.IMAGE_TYPES:
        return None
    whole = JUDGED.get((sent, body))
    if whole is True and response.status_code in (400, 415):
        try:
            field = (response.json().get("error") or {}).get("field")
        except ValueError:
            field = None
        if response.status_code == 415 or field == "body":
            raise AssertionError(f"a well-formed {sent} image of {len(body)} bytes was refused for its bytes")
    if whole is False and 200 <= response.status_code < 300:
        raise AssertionError(f"a broken {sent} file of {len(body)} bytes was accepted")
    return None
