/// The EXIF orientation (tag 0x0112: how a viewer turns the stored pixels upright), the one piece of EXIF a cleaned
/// photo keeps: dropping it would show a phone's portrait photos on their side.
///
/// It is read from the TIFF structure that EXIF is (a byte-order mark `II` or `MM`, the number 42, the offset of the
/// first directory) and written back as the smallest such structure: one directory holding that one tag.
enum PhotoOrientation {
    /// The orientation's tag number.
    static let tag = 0x0112
    /// What JPEG's APP1 (and sometimes a PNG's eXIf or a WebP's EXIF) puts before the TIFF data.
    static let exifPrefix: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]

    /// The orientation (1–8) in EXIF data that may start with `Exif\0\0`; nil when it has none, or one out of range,
    /// or the data cannot be read (broken metadata is dropped, not refused: none of it is kept).
    static func read(exif: ArraySlice<UInt8>) -> Int? {
        let reader = ByteReader(exif)
        return read(tiff: reader.matches(exifPrefix, at: 0) ? exif.dropFirst(exifPrefix.count) : exif)
    }

    /// The orientation (1–8) in TIFF data, from its first directory (IFD0).
    static func read(tiff: ArraySlice<UInt8>) -> Int? {
        let reader = ByteReader(tiff)
        let bigEndian: Bool
        if reader.matches([0x4D, 0x4D], at: 0) {
            bigEndian = true
        } else if reader.matches([0x49, 0x49], at: 0) {
            bigEndian = false
        } else {
            return nil
        }
        guard reader.uint(at: 2, length: 2, bigEndian: bigEndian) == 42,
            let directory = reader.uint(at: 4, length: 4, bigEndian: bigEndian),
            let entries = reader.uint(at: directory, length: 2, bigEndian: bigEndian)
        else { return nil }
        for number in 0..<entries {
            let entry = directory + 2 + 12 * number
            guard let tag = reader.uint(at: entry, length: 2, bigEndian: bigEndian) else { return nil }
            guard tag == Self.tag else { continue }
            // SHORT (type 3), at least one value, which sits in the first two bytes of the value field.
            guard reader.uint(at: entry + 2, length: 2, bigEndian: bigEndian) == 3,
                let valueCount = reader.uint(at: entry + 4, length: 4, bigEndian: bigEndian), valueCount >= 1,
                let value = reader.uint(at: entry + 8, length: 2, bigEndian: bigEndian), (1...8).contains(value)
            else { return nil }
            return value
        }
        return nil
    }

    /// The smallest TIFF data holding `orientation`: the header (big-endian), a directory of one entry (0x0112, SHORT,
    /// count 1) and no next directory. 26 bytes.
    static func tiff(orientation: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A]
        bytes.appendUInt32BE(8)  // IFD0 right after the header
        bytes.appendUInt16BE(1)  // one entry
        bytes.appendUInt16BE(tag)
        bytes.appendUInt16BE(3)  // SHORT
        bytes.appendUInt32BE(1)  // one value
        bytes.appendUInt16BE(orientation)
        bytes.appendUInt16BE(0)  // the value field's unused half
        bytes.appendUInt32BE(0)  // no next directory
        return bytes
    }
}
