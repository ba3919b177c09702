import Foundation

extension String {
    /// The string as searches and duplicate checks compare names: without case, accents or width (`Zoë` and `zoe`
    /// match). The one definition: the SQLite engine folds with it too.
    public var folded: String {
        folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// The string without leading and trailing white space (spaces, tabs, line breaks).
    func trimmingWhitespace() -> String {
        // Fast path: most fields start and end with a visible ASCII character.
        guard let first = utf8.first, let last = utf8.last else { return self }
        if first > 0x20 && first < 0x7F && last > 0x20 && last < 0x7F { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The string without leading and trailing spaces, tabs and line breaks (ASCII only): what a pattern of the API
    /// document can say as `[ \t\r\n]*`, for fields whose rule the document states as a pattern.
    func trimmingASCIIWhitespace() -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        let bytes = utf8
        guard let start = bytes.firstIndex(where: { !blank($0) }), let end = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[start...end])
    }

    /// The string in Unicode Normalization Form C; ASCII text is returned as it is.
    var nfc: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        // Below U+0300 (the combining marks) every character is its own composition (NFC_Quick_Check is Yes and none
        // combines with what follows it): most Latin text, accents and all, is NFC already.
        if unicodeScalars.allSatisfy({ $0.value < 0x300 }) { return self }
        return precomposedStringWithCanonicalMapping
    }

    /// True when the string holds an ASCII control character (U+0000–U+001F or U+007F), line breaks included.
    var containsControlCharacter: Bool {
        utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }
}

extension String {
    /// True when the string holds a character that reorders or hides text where people read it: the bidirectional
    /// embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the direction marks (U+200E, U+200F,
    /// U+061C) and the zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF, U+180E).
    var containsInvisibleFormatting: Bool {
        // Every such character is at least two bytes in UTF-8, so ASCII text is never walked twice.
        if utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x202A...0x202E, 0x2066...0x2069, 0x200B...0x200F, 0x2060...0x2064, 0xFEFF, 0x180E, 0x061C: true
            default: false
            }
        }
    }
}

extension PlacesError {
    /// Refuses text holding a control character (`field` at fault). Control characters are never meant and break
    /// terminals, tables and logs; only some fields (descriptions) may hold line breaks and tabs. In UTF-8 they are
    /// single bytes below 0x20 (or 0x7F), never part of a longer sequence.
    static func checkPrintable(_ text: String, field: String, allowLineBreaks: Bool) throws(PlacesError) {
        for byte in text.utf8 where byte < 0x20 || byte == 0x7F {
            if allowLineBreaks && (byte == 0x0A || byte == 0x09 || byte == 0x0D) { continue }
            throw .invalid(field, "\(field) contains a control character")
        }
    }

    /// Refuses a name shown to other people when it holds characters that reorder or hide text (`field` at fault).
    static func checkShownName(_ text: String, field: String) throws(PlacesError) {
        guard text.containsInvisibleFormatting else { return }
        throw .invalid(field, "\(field) contains invisible or text-direction formatting characters (such as U+202E or U+200B)")
    }
}
