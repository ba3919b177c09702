import Foundation

/// How a search finds and ranks places: one definition, which every engine computes alike.
///
/// A text's words are its runs of letters and digits, folded (case, accents and width: "Café" gives "cafe"). A place
/// matches when each word of the query begins a word of its name, tags, cuisine or description. Its relevance is the
/// sum, over the query's words, of the weights of the fields holding such a word: the name 10, the labels (tags and
/// cuisine) 4, the description 1. So "harbor light" scores 20 on a place called "Harbor Lighthouse", 11 when
/// "light" is only in its description.
public enum SearchText {
    /// The fields a search reads, with their weights.
    public enum Field: Int, CaseIterable, Sendable {
        case name = 10
        case labels = 4
        case description = 1

        /// What a query word found in this field adds to the relevance.
        public var weight: Int { rawValue }
    }

    /// The searchable words of a text: runs of letters and digits, folded.
    public static func words(_ text: String) -> [String] {
        // Most text is ASCII: split and lowercase its bytes directly (a million places' fields go through here when
        // they are seeded into PostgreSQL).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return asciiWords(text) }
        var words: [String] = []
        var current = ""
        func finish() {
            guard !current.isEmpty else { return }
            // Folding may split a letter into letters ("ß" → "ss") but never adds a separator.
            words.append(current.unicodeScalars.allSatisfy(\.isASCII) ? current.lowercased() : current.folded.lowercased())
            current = ""
        }
        for scalar in text.nfc.unicodeScalars {
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.unicodeScalars.append(scalar)
            } else {
                finish()
            }
        }
        finish()
        return words
    }

    /// `words(_:)` of an ASCII text.
    private static func asciiWords(_ text: String) -> [String] {
        var words: [String] = []
        forEachASCIIWord(in: text) { words.append(String(decoding: $0, as: UTF8.self)) }
        return words
    }

    /// Calls `body` with the UTF-8 bytes of each of `text`'s words, in order: the words `words(_:)` gives, with no
    /// `String` made for the words of an ASCII text (the postings' builder reads every field of a million places at
    /// start-up this way).
    static func forEachWord(in text: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
            for var word in words(text) { word.withUTF8 { body(UnsafeRawBufferPointer($0)) } }
            return
        }
        forEachASCIIWord(in: text, body)
    }

    /// The words of an ASCII text, its runs of letters and digits lowercased, each handed to `body` as its bytes.
    private static func forEachASCIIWord(in text: String, _ body: (UnsafeRawBufferPointer) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: text.utf8.count) { word in
            var length = 0
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    word[length] = byte
                    length += 1
                case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    word[length] = byte + 0x20
                    length += 1
                default:
                    if length > 0 { body(UnsafeRawBufferPointer(start: word.baseAddress, count: length)) }
                    length = 0
                }
            }
            if length > 0 { body(UnsafeRawBufferPointer(start: word.baseAddress, count: length)) }
        }
    }

    /// The words of each field of a place, in the order of `Field.allCases`: what the engines index.
    public static func wordsByField(name: String, tags: [String], cuisine: String?, description: String) -> [(Field, [String])] {
        [(.name, words(name)), (.labels, tags.flatMap(words) + words(cuisine ?? "")), (.description, words(description))]
    }

    /// The words of each field of a place, each field's words joined by single spaces (as `relevance` reads them).
    public static func fieldWords(name: String, tags: [String], cuisine: String?, description: String) -> [Field: String] {
        Dictionary(
            uniqueKeysWithValues: wordsByField(name: name, tags: tags, cuisine: cuisine, description: description).map { field, words in
                (field, words.joined(separator: " "))
            }
        )
    }

    /// The relevance of a place whose fields hold `fieldWords` (as `fieldWords(…)` makes them) for the query's
    /// words; 0 when some query word begins no word of any field (the place does not match).
    public static func relevance(of queryWords: [String], in fieldWords: [Field: String]) -> Int {
        var total = 0
        for word in queryWords {
            var found = 0
            for field in Field.allCases where contains(fieldWords[field] ?? "", wordStartingWith: word) { found += field.weight }
            guard found > 0 else { return 0 }
            total += found
        }
        return total
    }

    /// True when some word of the space-joined `words` starts with `prefix`.
    static func contains(_ words: String, wordStartingWith prefix: String) -> Bool {
        words.split(separator: " ").contains { $0.hasPrefix(prefix) }
    }
}
