import Foundation

/// The one order of place ids every tally uses: ascending by UTF-8 bytes (Unicode code point order).
///
/// For the ASCII ids places have this is exactly Swift's `String <` and Python's `sorted`; for other text it stays
/// well defined (no normalisation, no locale), so a person can re-run a tally by hand.
enum CandidateOrder {
    /// True when `a` comes before `b`.
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// `ids` in ascending order.
    static func sorted(_ ids: some Sequence<String>) -> [String] {
        ids.sorted(by: precedes)
    }

    /// A number for a reasoning paragraph: whole numbers without decimals, others with at most four.
    static func format(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        var text = String(format: "%.4f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
