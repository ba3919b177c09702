/// A WebP read chunk by chunk inside its RIFF container and written back with the image chunks only. A simple file
/// (one VP8 or VP8L chunk) keeps that chunk; an extended one (VP8X) keeps its header, ICC profile, animation, alpha and
/// image chunks and drops EXIF, XMP and unknown chunks, with VP8X's flags saying so. An EXIF orientation comes back as
/// a minimal EXIF chunk. Anything past the RIFF's end is dropped.
struct WebPFile {
    /// The chunks an extended file keeps, in the order they come.
    static let kept: Set<String> = ["ICCP", "ANIM", "ANMF", "ALPH", "VP8 ", "VP8L"]
    /// VP8X's flag for an ICC profile.
    static let iccFlag: UInt8 = 0x20
    /// VP8X's flag for EXIF metadata.
    static let exifFlag: UInt8 = 0x08
    /// VP8X's flag for XMP metadata.
    static let xmpFlag: UInt8 = 0x04

    /// The width (the canvas's, for an extended file).
    let width: Int
    /// The height (the canvas's, for an extended file).
    let height: Int
    /// The EXIF orientation the upload carried (1–8).
    let orientation: Int?
    /// The cleaned file.
    let bytes: [UInt8]

    /// One chunk: its four-character code and where its payload lies in the input.
    private struct Chunk {
        let fourCC: String
        let payload: Range<Int>
    }

    /// Reads `input` (which starts with the RIFF/WEBP signature) and cleans it.
    init(cleaning input: [UInt8]) throws(PlacesError) {
        let reader = ByteReader(input)
        guard reader.matches(Array("RIFF".utf8), at: 0), reader.matches(Array("WEBP".utf8), at: 8), let size = reader.uint32LE(at: 4)
        else { throw Self.broken("it does not start with a RIFF/WEBP header") }
        guard size >= 4, let riff = reader.range(8, length: size) else {
            throw Self.broken("its RIFF size says \(size) bytes but \(max(0, input.count - 8)) follow")
        }
        var chunks: [Chunk] = []
        var position = 12
        while position < riff.upperBound {
            guard position + 8 <= riff.upperBound, let length = reader.uint32LE(at: position + 4),
                let payload = reader.range(position + 8, length: length), payload.upperBound <= riff.upperBound
            else { throw Self.broken("a chunk runs past the end of the RIFF container") }
            chunks.append(Chunk(fourCC: String(decoding: input[position..<(position + 4)], as: UTF8.self), payload: payload))
            position = payload.upperBound + (length & 1)  // payloads are padded to an even size
        }
        guard let first = chunks.first else { throw Self.broken("it holds no chunk") }
        var orientation: Int?
        var kept: [Chunk] = []
        let dimensions: (width: Int, height: Int)
        switch first.fourCC {
        case "VP8 ", "VP8L":
            dimensions = try Self.bitstreamSize(first, input)
            kept = [first]
        case "VP8X":
            let reader = ByteReader(input[first.payload])
            guard first.payload.count >= 10, let width = reader.uint24LE(at: 4), let height = reader.uint24LE(at: 7) else {
                throw Self.broken("its VP8X header is shorter than 10 bytes")
            }
            dimensions = (width + 1, height + 1)
            for chunk in chunks.dropFirst() {
                switch chunk.fourCC {
                case "VP8 ", "VP8L":
                    _ = try Self.bitstreamSize(chunk, input)
                    kept.append(chunk)
                case "EXIF":
                    if orientation == nil { orientation = PhotoOrientation.read(exif: input[chunk.payload]) }
                case let fourCC where Self.kept.contains(fourCC):
                    kept.append(chunk)
                default:
                    continue  // XMP and chunks WebP does not define
                }
            }
            guard kept.contains(where: { ["VP8 ", "VP8L", "ANMF"].contains($0.fourCC) }) else {
                throw Self.broken("it has no image data (VP8, VP8L or ANMF)")
            }
        default:
            throw Self.broken("its first chunk is '\(first.fourCC)', not VP8, VP8L or VP8X")
        }

        var body: [UInt8] = Array("WEBP".utf8)
        if first.fourCC == "VP8X" {
            var header = Array(input[first.payload.lowerBound..<(first.payload.lowerBound + 10)])
            header[0] &= ~(Self.exifFlag | Self.xmpFlag | Self.iccFlag)
            if orientation != nil { header[0] |= Self.exifFlag }
            if kept.contains(where: { $0.fourCC == "ICCP" }) { header[0] |= Self.iccFlag }
            Self.append("VP8X", header[...], to: &body)
        }
        for chunk in kept { Self.append(chunk.fourCC, input[chunk.payload], to: &body) }
        if let orientation { Self.append("EXIF", PhotoOrientation.tiff(orientation: orientation)[...], to: &body) }
        var bytes = Array("RIFF".utf8)
        bytes.appendUInt32LE(body.count)
        self.bytes = bytes + body
        self.width = dimensions.width
        self.height = dimensions.height
        self.orientation = orientation
    }

    /// The width and height a VP8 (lossy key frame) or VP8L (lossless) bitstream starts with, its signature checked.
    private static func bitstreamSize(_ chunk: Chunk, _ input: [UInt8]) throws(PlacesError) -> (width: Int, height: Int) {
        let reader = ByteReader(input[chunk.payload])
        if chunk.fourCC == "VP8L" {
            // 0x2F, then 14 bits of width - 1, 14 of height - 1, 1 of alpha, 3 of version (0).
            guard reader.byte(at: 0) == 0x2F, let bits = reader.uint32LE(at: 1), bits >> 29 == 0 else {
                throw broken("its lossless bitstream (VP8L) has no valid header")
            }
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
        // A frame tag whose lowest bit is 0 for a key frame, the start code 9D 01 2A, then 14-bit width and height.
        guard let tag = reader.byte(at: 0), tag & 1 == 0, reader.matches([0x9D, 0x01, 0x2A], at: 3),
            let width = reader.uint16LE(at: 6), let height = reader.uint16LE(at: 8)
        else { throw broken("its lossy bitstream (VP8) has no valid key frame header") }
        return (width & 0x3FFF, height & 0x3FFF)
    }

    /// Appends a chunk: its code, its size (little-endian), its payload and a padding byte when the size is odd.
    private static func append(_ fourCC: String, _ payload: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        bytes += Array(fourCC.utf8)
        bytes.appendUInt32LE(payload.count)
        bytes += payload
        if payload.count % 2 == 1 { bytes.append(0) }
    }

    /// The error for a WebP that cannot be read.
    private static func broken(_ reason: String) -> PlacesError {
        PhotoFile.broken(.webp, reason)
    }
}
