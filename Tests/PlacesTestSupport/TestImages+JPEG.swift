extension TestImages {
    /// A baseline greyscale JPEG that decodes to a uniform mid-grey image of `width` × `height` pixels, with the
    /// metadata asked for: EXIF (camera make, GPS, orientation), XMP with GPS, a comment, an MPF index with a second
    /// image (carrying its own GPS) after the end-of-image marker, a motion photo's video appended, an ICC profile.
    ///
    /// Its Huffman tables hold one code each (DC difference 0, end of block), so every 8×8 block is two bits.
    public static func jpeg(
        width: Int = 8,
        height: Int = 8,
        gps: Bool = false,
        orientation: Int? = nil,
        xmp: Bool = false,
        comment: Bool = false,
        mpf: Bool = false,
        trailer: Bool = false,
        icc: Bool = false
    ) -> [UInt8] {
        var head: [UInt8] = [0xFF, 0xD8]
        head += segment(0xE0, Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        if gps || orientation != nil {
            head += segment(0xE1, Array("Exif\0\0".utf8) + exifTIFF(gps: gps, orientation: orientation, bigEndian: false))
        }
        if xmp { head += segment(0xE1, Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmpPacket) }
        if icc { head += segment(0xE2, Array("ICC_PROFILE\0".utf8) + [1, 1] + iccProfile) }
        var tail: [UInt8] = []
        if comment { tail += segment(0xFE, Array("shot at home".utf8)) }
        tail += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
        tail += segment(0xC0, [8] + uint16(height, true) + uint16(width, true) + [1, 1, 0x11, 0])
        // DC table 0 and AC table 0: one code, of length 1, for symbol 0.
        let oneCode: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]
        tail += segment(0xC4, [0x00] + oneCode + [0x10] + oneCode)
        tail += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
        tail += scanData(blocks: ((width + 7) / 8) * ((height + 7) / 8))
        tail += [0xFF, 0xD9]
        var bytes = head
        if mpf {
            // The index's size does not depend on the offsets in it.
            let second = jpeg(gps: true)
            let size = segment(0xE2, mpfIndex(firstImageSize: 0, secondImageOffset: 0, secondImageSize: 0)).count
            let firstImageSize = head.count + size + tail.count
            let headerStart = head.count + 8  // after the marker, the length and "MPF\0"
            bytes += segment(
                0xE2,
                mpfIndex(firstImageSize: firstImageSize, secondImageOffset: firstImageSize - headerStart, secondImageSize: second.count)
            )
            bytes += tail + second
        } else {
            bytes += tail
        }
        if trailer { bytes += motionPhotoVideo }
        return bytes
    }

    /// What a motion photo appends after its JPEG: the start of an MP4 video, with a GPS position in its metadata.
    public static let motionPhotoVideo: [UInt8] =
        [0, 0, 0, 0x18] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("isommp42".utf8) + [0, 0, 0, 0x24] + Array("udta".utf8)
        + Array("GPS 51.5074 -0.1278 +0011.000/".utf8)

    /// A JPEG segment: the marker, the length (which counts itself), the payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + uint16(payload.count + 2, true) + payload
    }

    /// The entropy-coded data of `blocks` blocks whose coefficients are all zero: bits 0 (DC difference 0) and 0
    /// (end of block) for each, padded with one bits to a whole byte; no byte can be FF.
    static func scanData(blocks: Int) -> [UInt8] {
        let bits = 2 * blocks
        var bytes = [UInt8](repeating: 0, count: (bits + 7) / 8)
        if bits % 8 != 0, let last = bytes.indices.last { bytes[last] = 0xFF >> (bits % 8) }
        return bytes
    }

    /// An APP2 MPF segment's payload: the Multi-Picture format's index (version, number of images, the entries of the
    /// two images: this one, then the one after it, whose offset counts from the index's own TIFF header).
    static func mpfIndex(firstImageSize: Int, secondImageOffset: Int, secondImageSize: Int) -> [UInt8] {
        var bytes = Array("MPF\0".utf8) + [0x4D, 0x4D, 0, 0x2A] + uint32(8, true)
        bytes += uint16(3, true)
        bytes += entry(0xB000, type: 7, count: 4, value: Array("0100".utf8), true)
        bytes += entry(0xB001, type: 4, count: 1, value: uint32(2, true), true)
        bytes += entry(0xB002, type: 7, count: 32, value: uint32(8 + 2 + 36 + 4, true), true)
        bytes += uint32(0, true)
        bytes += uint32(0x2003_0000, true) + uint32(firstImageSize, true) + uint32(0, true) + uint16(0, true) + uint16(0, true)
        bytes +=
            uint32(0x0002_0002, true) + uint32(secondImageSize, true) + uint32(secondImageOffset, true) + uint16(0, true)
            + uint16(0, true)
        return bytes
    }
}
