import PlacesTestSupport

/// The tests' own reading of the three formats' structure, written apart from the reader they check: a JPEG's
/// segments and scan data, a PNG's chunks, a WebP's RIFF chunks, and EXIF's first directory.
extension PhotoFileTests {
    /// One JPEG segment: its marker, its payload and, for a scan, the entropy-coded data after it.
    struct Segment: Equatable {
        var marker: UInt8
        var payload: [UInt8]
        var data: [UInt8] = []
    }

    /// The segments of a JPEG up to its end-of-image marker (which ends the list), or nil where they do not read.
    static func segments(_ bytes: [UInt8]) -> [Segment]? {
        guard bytes.starts(with: [0xFF, 0xD8]) else { return nil }
        var list: [Segment] = []
        var position = 2
        while position + 1 < bytes.count, bytes[position] == 0xFF {
            let marker = bytes[position + 1]
            if marker == 0xD9 { return list + [Segment(marker: marker, payload: [])] }
            guard position + 3 < bytes.count else { return nil }
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            let end = position + 2 + length
            guard length >= 2, end <= bytes.count else { return nil }
            var segment = Segment(marker: marker, payload: Array(bytes[(position + 4)..<end]))
            position = end
            if marker == 0xDA {
                // The data ends at the first FF (fill bytes included) whose next other byte is neither 00 nor a restart.
                var scanEnd = position
                while scanEnd < bytes.count {
                    guard bytes[scanEnd] == 0xFF else {
                        scanEnd += 1
                        continue
                    }
                    guard let next = bytes[(scanEnd + 1)...].firstIndex(where: { $0 != 0xFF }) else { return nil }
                    if bytes[next] != 0, !(0xD0...0xD7).contains(bytes[next]) { break }
                    scanEnd = next + 1
                }
                segment.data = Array(bytes[position..<scanEnd])
                position = scanEnd
            }
            list.append(segment)
        }
        return nil
    }

    /// One PNG chunk: its type, data, and whether its CRC matches.
    struct Chunk: Equatable {
        var type: String
        var data: [UInt8]
        var crcMatches: Bool
    }

    /// The chunks of a PNG, or nil where they do not read.
    static func chunks(_ bytes: [UInt8]) -> [Chunk]? {
        var list: [Chunk] = []
        var position = 8
        while position + 12 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            let end = position + 12 + length
            guard end <= bytes.count else { return nil }
            let typeAndData = Array(bytes[(position + 4)..<(end - 4)])
            let crc = bytes[(end - 4)..<end].reduce(0) { $0 << 8 | UInt32($1) }
            list.append(
                Chunk(
                    type: String(decoding: typeAndData.prefix(4), as: UTF8.self),
                    data: Array(typeAndData.dropFirst(4)),
                    crcMatches: crc == TestImages.crc32(typeAndData)
                )
            )
            position = end
        }
        return position == bytes.count ? list : nil
    }

    /// The chunks of a WebP's RIFF container (code and payload), or nil where they do not read.
    static func riffChunks(_ bytes: [UInt8]) -> [(fourCC: String, payload: [UInt8])]? {
        guard bytes.count >= 12 else { return nil }
        var list: [(fourCC: String, payload: [UInt8])] = []
        var position = 12
        while position + 8 <= bytes.count {
            let size = bytes[(position + 4)..<(position + 8)].reversed().reduce(0) { $0 << 8 | Int($1) }
            guard position + 8 + size <= bytes.count else { return nil }
            list.append((String(decoding: bytes[position..<(position + 4)], as: UTF8.self), Array(bytes[(position + 8)..<(position + 8 + size)])))
            position += 8 + size + size % 2
        }
        return position == bytes.count ? list : nil
    }

    /// The entries of the first directory of TIFF data (tag, type, count, first two value bytes as a number), or nil.
    static func firstDirectory(_ tiff: [UInt8]) -> [(tag: Int, type: Int, count: Int, value: Int)]? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian = tiff.starts(with: [0x4D, 0x4D])
        func number(_ offset: Int, _ length: Int) -> Int? {
            guard offset >= 0, offset + length <= tiff.count else { return nil }
            let bytes = tiff[offset..<(offset + length)]
            return (bigEndian ? Array(bytes) : bytes.reversed()).reduce(0) { $0 << 8 | Int($1) }
        }
        guard let directory = number(4, 4), let count = number(directory, 2) else { return nil }
        var entries: [(tag: Int, type: Int, count: Int, value: Int)] = []
        for index in 0..<count {
            let entry = directory + 2 + 12 * index
            guard let tag = number(entry, 2), let type = number(entry + 2, 2), let values = number(entry + 4, 4),
                let value = number(entry + 8, 2)
            else { return nil }
            entries.append((tag, type, values, value))
        }
        return entries
    }

    /// The markers of `TestImages.gpsMarkers` found in `bytes`, as text.
    static func leaks(_ bytes: [UInt8]) -> [String] { TestImages.leaks(bytes) }
}
