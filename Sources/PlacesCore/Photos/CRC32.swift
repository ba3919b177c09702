/// CRC-32 as PNG checks its chunks with it (ISO 3309 / ITU-T V.42: polynomial 0xEDB88320 reflected, starting from
/// and finished with all ones bits), computed with a 256-entry table.
enum CRC32 {
    /// The remainder of each byte value, computed once.
    private static let table: [UInt32] = (0..<256).map { value in
        var remainder = UInt32(value)
        for _ in 0..<8 { remainder = remainder & 1 == 1 ? 0xEDB8_8320 ^ (remainder >> 1) : remainder >> 1 }
        return remainder
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        let table = table
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
