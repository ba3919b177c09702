import Foundation

/// The rules every text a person sends follows, whatever carried it (a request body, a command-line flag): the limit
/// in code points as sent, no control character anywhere, then trimmed and NFC. Services apply them to the raw text of
/// their commands, so a rule and its message are written once.
public enum TextRules {
    /// The text trimmed and NFC; nil when absent or blank.
    public static func text(_ raw: String?, field: String, limit: Int, allowLineBreaks: Bool = false) throws(PlacesError) -> String? {
        guard let raw else { return nil }
        // The limit counts what was sent, in Unicode code points, as JSON Schema's maxLength does.
        guard raw.utf8.count <= limit || raw.unicodeScalars.count <= limit else {
            throw .invalid(field, "\(field) is longer than \(limit) characters")
        }
        // Control characters are refused wherever they stand, before trimming, as the API document's patterns say: a
        // stray tab or line break around a name is refused rather than trimmed away.
        try PlacesError.checkPrintable(raw, field: field, allowLineBreaks: allowLineBreaks)
        let text = raw.trimmingWhitespace().nfc
        return text.isEmpty ? nil : text
    }

    /// As `text`, for a field that may be left out but not given blank (an empty `successor` names nobody: the caller
    /// meant something, and it is not what they sent).
    public static func nonBlankText(_ raw: String?, field: String, limit: Int, blank message: String) throws(PlacesError) -> String? {
        guard let raw else { return nil }
        guard let text = try text(raw, field: field, limit: limit) else { throw .invalid(field, message) }
        return text
    }

    /// Refuses a NUL (U+0000) in any text a request carries, whatever the field, before anything reads it: no field
    /// means one, a storage engine may refuse it (PostgreSQL's text cannot hold it) or cut the text at it, and a C
    /// library reads it as the end of the text. Other control characters are each field's rule (`text`).
    public static func checkNoNUL(_ text: String, field: String) throws(PlacesError) {
        guard text.utf8.contains(0) else { return }
        throw .invalid(field, "\(field) contains a control character (U+0000)")
    }

    /// The text as `text` reads it, for a name other people see (a display name, a group's name): it may not hold
    /// characters that reorder or hide text (bidirectional overrides, zero-width characters).
    public static func shownName(_ raw: String?, field: String, limit: Int) throws(PlacesError) -> String? {
        guard let text = try text(raw, field: field, limit: limit) else { return nil }
        try PlacesError.checkShownName(text, field: field)
        return text
    }

    /// An http(s) URL (a picture, a website); nil when absent or blank.
    public static func webURL(_ raw: String?, field: String, limit: Int = 2_000) throws(PlacesError) -> String? {
        guard let text = try text(raw, field: field, limit: limit) else { return nil }
        try checkWebURL(text, field: field)
        return text
    }

    /// Refuses a trimmed text that is not an http(s) URL as the document's pattern has it: no white space inside (as
    /// JSON Schema's `\s` counts it; Foundation's URL parser would quietly escape a space), and a host.
    static func checkWebURL(_ text: String, field: String) throws(PlacesError) {
        guard !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value == 0xFEFF }),
            let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host, !host.isEmpty
        else { throw .invalid(field, "\(field) must be an http or https URL") }
    }
}
