extension TestImages {
    /// An extended (VP8X) WebP around a lossless bitstream of one colour, `width` × `height` pixels, with the metadata
    /// asked for: EXIF with a GPS IFD, XMP with GPS, an orientation (in the EXIF), an ICC profile; VP8X's flags say
    /// which are there.
    public static func webp(
        width: Int = 1,
        height: Int = 1,
        gps: Bool = false,
        xmp: Bool = false,
        orientation: Int? = nil,
        icc: Bool = false
    ) -> [UInt8] {
        let hasExif = gps || orientation != nil
        let flags = (icc ? 0x20 : 0) | (hasExif ? 0x08 : 0) | (xmp ? 0x04 : 0)
        var body = Array("WEBP".utf8)
        body += riffChunk("VP8X", [UInt8(flags), 0, 0, 0] + Array(uint32(width - 1, false).prefix(3)) + Array(uint32(height - 1, false).prefix(3)))
        if icc { body += riffChunk("ICCP", iccProfile) }
        body += riffChunk("VP8L", losslessBitstream(width: width, height: height))
        if hasExif { body += riffChunk("EXIF", exifTIFF(gps: gps, orientation: orientation, bigEndian: false)) }
        if xmp { body += riffChunk("XMP ", xmpPacket) }
        return Array("RIFF".utf8) + uint32(body.count, false) + body
    }

    /// A simple (lossless, VP8L only) WebP of one colour, `width` × `height` pixels.
    public static func simpleWebP(width: Int = 1, height: Int = 1) -> [UInt8] {
        let body = Array("WEBP".utf8) + riffChunk("VP8L", losslessBitstream(width: width, height: height))
        return Array("RIFF".utf8) + uint32(body.count, false) + body
    }

    /// A VP8L bitstream of one colour (200, 30, 40): each of its Huffman codes has a single symbol, so a pixel takes
    /// no bits and any size decodes from the same bytes after the header (0x2F, 14 bits of width - 1, 14 of height - 1).
    static func losslessBitstream(width: Int, height: Int) -> [UInt8] {
        let size = (width - 1) & 0x3FFF | ((height - 1) & 0x3FFF) << 14
        return [0x2F] + uint32(size, false) + [0x07, 0x50, 0x8F, 0x22, 0x17, 0xA5, 0xFF, 0x81, 0x88, 0xE8, 0x7F, 0x00]
    }

    /// A RIFF chunk: the four-character code, the size (little-endian), the payload, a padding byte for an odd size.
    public static func riffChunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        Array(fourCC.utf8) + uint32(payload.count, false) + payload + (payload.count % 2 == 1 ? [0] : [])
    }
}
