/// Numbers as people type them in query strings, command lines and CSV cells.
enum DecimalText {
    /// The value of a plain decimal number (`-122.42`, `+2`, `1.5e1`) with nothing around it, or nil.
    ///
    /// `Double()` alone also accepts `nan`, `inf` and hex floats; nobody means those as a coordinate or a radius.
    static func number(_ text: String) -> Double? {
        guard !text.isEmpty,
            text.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D || byte == 0x2B || byte == 0x65 || byte == 0x45
            }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }
}
