import Foundation

extension String {
    /// The string without leading and trailing white space (spaces, tabs, line breaks).
    func trimmingWhitespace() -> String {
        // Fast path: most fields start and end with a visible ASCII character.
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The string in Unicode Normalization Form C; ASCII text is returned as it is.
    var nfc: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        return precomposedStringWithCanonicalMapping
    }

    /// True when the string holds an ASCII control character (U+0000–U+001F or U+007F), line breaks included.
    var containsControlCharacter: Bool {
        utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}
