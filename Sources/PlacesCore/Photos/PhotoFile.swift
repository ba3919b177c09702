/// An uploaded image, checked and cleaned: its format read from its own signature (whatever it was declared as), its
/// size from its own header, and its bytes rewritten without anything that could tell where or when it was taken or
/// by whom: EXIF (GPS above all), XMP, IPTC, comments and text, thumbnails, and data hidden after the image (a motion
/// photo's video). The EXIF orientation stays, as a minimal EXIF with that one tag, and so do ICC profiles. The
/// compressed image data is copied byte for byte: pixels are never decoded or re-encoded.
public struct PhotoFile: Sendable, Hashable {
    /// The format, from the bytes' signature (which matched the declared type).
    public let format: PhotoFormat
    /// The width in pixels, from the file's header (a WebP's canvas).
    public let width: Int
    /// The height in pixels, from the file's header (a WebP's canvas).
    public let height: Int
    /// The cleaned bytes (what is stored and served).
    public let bytes: [UInt8]
    /// The EXIF orientation kept (1–8), nil when the upload carried none.
    public let orientation: Int?

    /// The largest upload read: 5 MiB.
    public static let maxBytes = 5_242_880
    /// The largest width or height accepted, in pixels.
    public static let maxSide = 8_000
    /// The brands of an ISO base media file (HEIC, HEIF, AVIF) that say it holds an image.
    static let heifBrands: Set<String> = ["heic", "heix", "hevc", "hevx", "heim", "heis", "mif1", "mif2", "msf1", "avif", "avis"]
    /// The answer to a HEIC (or HEIF, AVIF) upload, which phones send by default.
    static let heifRefused = PlacesError(
        .unsupportedMediaType,
        "HEIC and AVIF images are not accepted: send image/jpeg, image/png or image/webp (convert it first; most phones can share a photo as JPEG)"
    )

    /// Reads `bytes` declared as `declaredMediaType` (the request's Content-Type; nil when absent) and returns the
    /// cleaned file.
    ///
    /// Throws `invalid_input` (field `body`) for an empty body, a broken file or a side of 0 or over `maxSide` pixels;
    /// `payload_too_large` over `maxBytes`; `unsupported_media_type` for a type other than the three, bytes that are
    /// not what was declared, and HEIC.
    public static func clean(_ bytes: [UInt8], declaredMediaType: String?) throws(PlacesError) -> PhotoFile {
        guard !bytes.isEmpty else { throw PlacesError.invalid("body", "the body is empty: send the image itself") }
        guard bytes.count <= maxBytes else {
            throw PlacesError(.payloadTooLarge, "the image is \(bytes.count) bytes: at most 5 MiB (\(grouped(maxBytes)) bytes)")
        }
        guard let declared = declaredMediaType.flatMap(PhotoFormat.init(mediaType:)) else {
            let heifTypes = ["image/heic", "image/heif", "image/heic-sequence", "image/heif-sequence", "image/avif"]
            if isHEIF(bytes) || heifTypes.contains(where: { declaredMediaType?.lowercased().hasPrefix($0) == true }) { throw heifRefused }
            let sent = declaredMediaType.map { "\(PlacesError.quoted($0)) is not accepted: " } ?? ""
            throw PlacesError(.unsupportedMediaType, "\(sent)send the image as image/jpeg, image/png or image/webp")
        }
        guard sniff(bytes) == declared else {
            if isHEIF(bytes) { throw heifRefused }
            throw PlacesError(.unsupportedMediaType, "the bytes are not a \(declared.name) image (\(declared.mediaType))")
        }
        let file: PhotoFile
        switch declared {
        case .jpeg:
            let jpeg = try JPEGFile(cleaning: bytes)
            file = PhotoFile(format: .jpeg, width: jpeg.width, height: jpeg.height, bytes: jpeg.bytes, orientation: jpeg.orientation)
        case .png:
            let png = try PNGFile(cleaning: bytes)
            file = PhotoFile(format: .png, width: png.width, height: png.height, bytes: png.bytes, orientation: png.orientation)
        case .webp:
            let webp = try WebPFile(cleaning: bytes)
            file = PhotoFile(format: .webp, width: webp.width, height: webp.height, bytes: webp.bytes, orientation: webp.orientation)
        }
        guard file.width > 0, file.height > 0 else {
            throw PlacesError.invalid("body", "the image is \(file.width)×\(file.height) pixels: it has no pixels to show")
        }
        guard file.width <= maxSide, file.height <= maxSide else {
            throw PlacesError.invalid(
                "body",
                "the image is \(file.width)×\(file.height) pixels: at most \(grouped(maxSide)) pixels on a side"
            )
        }
        return file
    }

    /// The format the bytes' signature shows, nil when none of the three.
    public static func sniff(_ bytes: some Collection<UInt8>) -> PhotoFormat? {
        let reader = ByteReader(Array(bytes.prefix(12)))
        if reader.matches([0xFF, 0xD8, 0xFF], at: 0) { return .jpeg }
        if reader.matches(PNGFile.signature, at: 0) { return .png }
        if reader.matches(Array("RIFF".utf8), at: 0), reader.matches(Array("WEBP".utf8), at: 8) { return .webp }
        return nil
    }

    /// True when `bytes` start with an ISO base media `ftyp` box whose major or compatible brands name HEIF's image
    /// brands (HEIC, HEIF, AVIF).
    static func isHEIF(_ bytes: [UInt8]) -> Bool {
        let reader = ByteReader(bytes)
        guard reader.matches(Array("ftyp".utf8), at: 4), let size = reader.uint32BE(at: 0) else { return false }
        // The major brand, the minor version, then the compatible brands to the box's end (read no further than 64).
        let end = min(size >= 16 ? size : bytes.count, bytes.count, 16 + 4 * 64)
        let brands = [8] + Array(stride(from: 16, to: end - 3, by: 4))
        return brands.contains { offset in
            reader.range(offset, length: 4).map { heifBrands.contains(String(decoding: bytes[$0], as: UTF8.self)) } ?? false
        }
    }

    /// The error for a file of `format` that cannot be read: `invalid_input` for the body, with why.
    static func broken(_ format: PhotoFormat, _ reason: String) -> PlacesError {
        PlacesError.invalid("body", "the \(format.name) file is broken: \(reason)")
    }

    /// `value` with a comma between thousands (5,242,880).
    private static func grouped(_ value: Int) -> String {
        var text = ""
        for (position, digit) in String(value).reversed().enumerated() {
            if position > 0, position % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return String(text.reversed())
    }
}
