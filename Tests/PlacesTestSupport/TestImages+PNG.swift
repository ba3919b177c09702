extension TestImages {
    /// An 8-bit RGB PNG of `width` × `height` pixels (a gradient), with the metadata asked for: text chunks (a comment,
    /// a GPS position, XMP with GPS in an iTXt) and a time stamp, an eXIf chunk with a GPS IFD, an orientation (in the
    /// eXIf), an ICC profile. Its IDAT is a zlib stream of stored deflate blocks.
    public static func png(
        width: Int = 4,
        height: Int = 4,
        textGPS: Bool = false,
        exif: Bool = false,
        orientation: Int? = nil,
        icc: Bool = false
    ) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        bytes += chunk("IHDR", uint32(width, true) + uint32(height, true) + [8, 2, 0, 0, 0])
        if icc { bytes += chunk("iCCP", Array("test\0".utf8) + [0] + zlibStored(iccProfile)) }
        if exif || orientation != nil { bytes += chunk("eXIf", exifTIFF(gps: exif, orientation: orientation, bigEndian: true)) }
        if textGPS {
            bytes += chunk("tEXt", Array("Comment\0shot at home".utf8))
            bytes += chunk("tEXt", Array("GPS\0GPS 51.5074,-0.1278".utf8))
            bytes += chunk("iTXt", Array("XML:com.adobe.xmp\0".utf8) + [0, 0, 0, 0] + xmpPacket)
            bytes += chunk("tIME", uint16(2024, true) + [5, 4, 10, 11, 12])
        }
        var pixels: [UInt8] = []
        for y in 0..<height {
            pixels.append(0)  // filter: none
            for x in 0..<width { pixels += [UInt8(truncatingIfNeeded: x * 40), UInt8(truncatingIfNeeded: y * 40), 128] }
        }
        bytes += chunk("IDAT", zlibStored(pixels))
        bytes += chunk("IEND", [])
        return bytes
    }

    /// A PNG chunk: the data's length, the type, the data, the CRC-32 of type and data.
    public static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return uint32(data.count, true) + typeAndData + uint32(Int(crc32(typeAndData)), true)
    }

    /// A zlib stream of `data` in stored (uncompressed) deflate blocks, with its Adler-32.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(data.count, start + 65_535)
            bytes.append(end == data.count ? 1 : 0)
            bytes += uint16(end - start, false) + uint16(~(end - start), false)
            bytes += data[start..<end]
            start = end
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return bytes + uint32(Int(b << 16 | a), true)
    }

    /// CRC-32 (as PNG computes it), bit by bit: slow and plain, a second opinion on the table the reader uses.
    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
