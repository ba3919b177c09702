/// A PNG read chunk by chunk (each one's CRC checked) and written back with the chunks a decoder or a colour-managed
/// viewer needs, copied as they are. Text chunks (tEXt, zTXt, iTXt: comments, XMP), eXIf, tIME and any other
/// ancillary chunk are dropped, and so is anything after IEND; an EXIF orientation comes back as a minimal eXIf.
struct PNGFile {
    /// The PNG signature.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The chunks kept besides IHDR, IDAT and IEND: palette, transparency, colour space, physical size, suggested
    /// palettes, histogram, and APNG's animation chunks.
    static let kept: Set<String> = [
        "PLTE", "tRNS", "cHRM", "gAMA", "iCCP", "sBIT", "sRGB", "cICP", "mDCv", "cLLi", "bKGD", "pHYs", "sPLT", "hIST", "acTL",
        "fcTL", "fdAT",
    ]

    /// The width, from IHDR.
    let width: Int
    /// The height, from IHDR.
    let height: Int
    /// The EXIF orientation the upload carried (1–8).
    let orientation: Int?
    /// The cleaned file.
    let bytes: [UInt8]

    /// Reads `input` (which starts with the PNG signature) and cleans it.
    init(cleaning input: [UInt8]) throws(PlacesError) {
        let reader = ByteReader(input)
        guard reader.matches(Self.signature, at: 0) else { throw Self.broken("it does not start with the PNG signature") }
        var bytes = Self.signature
        var header: (width: Int, height: Int, colourType: Int)?
        var orientation: Int?
        var exifAt: Int?  // where the minimal eXIf goes: before the first IDAT
        var sawPalette = false
        var position = Self.signature.count
        while true {
            guard let length = reader.uint32BE(at: position), let type = reader.slice(position + 4..<position + 8) else {
                throw Self.broken("it ends before its IEND chunk")
            }
            guard length <= 0x7FFF_FFFF, let data = reader.range(position + 8, length: length),
                let stored = reader.uint32BE(at: data.upperBound)
            else { throw Self.broken("a chunk runs past the end of the file") }
            guard type.allSatisfy({ (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw Self.broken("a chunk's type is not four letters")
            }
            let name = String(decoding: type, as: UTF8.self)
            guard CRC32.checksum(input[(position + 4)..<data.upperBound]) == UInt32(stored) else {
                throw Self.broken("the \(name) chunk's CRC does not match its contents")
            }
            let chunk = input[position..<(data.upperBound + 4)]
            let isFirst = position == Self.signature.count
            position = data.upperBound + 4
            guard isFirst == (name == "IHDR") else { throw Self.broken("IHDR is not the first chunk, or not the only one") }
            switch name {
            case "IHDR":
                header = try Self.header(input[data])
                bytes += chunk
            case "IEND":
                guard let header, exifAt != nil else { throw Self.broken("it has no image data (IDAT)") }
                guard data.isEmpty else { throw Self.broken("its IEND chunk is not empty") }
                guard header.colourType != 3 || sawPalette else { throw Self.broken("its colours are indexed but it has no palette") }
                bytes += chunk
                if let orientation, let exifAt { bytes.insert(contentsOf: Self.exifChunk(orientation: orientation), at: exifAt) }
                self.width = header.width
                self.height = header.height
                self.orientation = orientation
                self.bytes = bytes
                return
            case "IDAT":
                if exifAt == nil { exifAt = bytes.count }
                bytes += chunk
            case "eXIf":
                if orientation == nil { orientation = PhotoOrientation.read(exif: input[data]) }
            case _ where Self.kept.contains(name):
                if name == "PLTE" { sawPalette = true }
                bytes += chunk
            case _ where (0x41...0x5A).contains(type[type.startIndex]):
                throw Self.broken("it has a critical chunk (\(name)) that PNG does not define")
            default:
                continue  // text, time and other ancillary chunks
            }
        }
    }

    /// The width, height and colour type of IHDR's 13 bytes, checked: sizes within 2³¹ - 1, a bit depth the colour
    /// type allows, compression and filter method 0, interlace 0 or 1.
    private static func header(_ data: ArraySlice<UInt8>) throws(PlacesError) -> (width: Int, height: Int, colourType: Int) {
        let reader = ByteReader(data)
        let depths: [Int: Set<Int>] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard data.count == 13, let width = reader.uint32BE(at: 0), let height = reader.uint32BE(at: 4),
            width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF,
            let depth = reader.byte(at: 8), let colourType = reader.byte(at: 9), depths[colourType]?.contains(depth) == true,
            reader.byte(at: 10) == 0, reader.byte(at: 11) == 0, let interlace = reader.byte(at: 12), interlace <= 1
        else { throw broken("its header (IHDR) is malformed") }
        return (width, height, colourType)
    }

    /// An eXIf chunk holding the minimal EXIF with `orientation` (the TIFF data itself, as PNG's eXIf holds it).
    private static func exifChunk(orientation: Int) -> [UInt8] {
        let tiff = PhotoOrientation.tiff(orientation: orientation)
        let typeAndData = Array("eXIf".utf8) + tiff
        var chunk: [UInt8] = []
        chunk.appendUInt32BE(tiff.count)
        chunk += typeAndData
        chunk.appendUInt32BE(Int(CRC32.checksum(typeAndData)))
        return chunk
    }

    /// The error for a PNG that cannot be read.
    private static func broken(_ reason: String) -> PlacesError {
        PhotoFile.broken(.png, reason)
    }
}
