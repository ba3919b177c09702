import Foundation
import Testing

@testable import PlacesCore

/// Opening hours as stored: written by hand, byte for byte what `JSONEncoder` with sorted keys writes (the stored rows,
/// and a re-seed's test for "unchanged", depend on it).
@Suite("Stored opening hours")
struct StoredHoursTests {
    @Test func writtenByHandAsJSONEncoderWritesThem() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var generator = SystemRandomNumberGenerator()
        var schedules: [OpeningHours] = [OpeningHours(days: [:]), OpeningHours(days: [.mon: []])]
        for _ in 0..<500 {
            var days: [OpeningHours.Weekday: [OpeningHours.Interval]] = [:]
            for day in OpeningHours.Weekday.allCases where Bool.random(using: &generator) {
                days[day] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                    OpeningHours.Interval(opens: Int.random(in: 0..<1440, using: &generator), closes: Int.random(in: 1...1440, using: &generator))
                }
            }
            schedules.append(OpeningHours(days: days))
        }
        for hours in schedules {
            let reference = String(decoding: try encoder.encode(hours), as: UTF8.self)
            #expect(StoredText.encodeHours(hours) == reference)
        }
    }
}

/// Text below U+0300 is NFC as it stands (`String.nfc` returns it untouched): checked against Foundation's own
/// composition for every such character and every pair of them.
@Suite("NFC below the combining marks")
struct NFCBelowCombiningMarksTests {
    @Test func everyCharacterAndPairBelowU0300IsItsOwnComposition() {
        let scalars = (0x20..<0x300).compactMap(Unicode.Scalar.init).filter { $0.value < 0x7F || $0.value >= 0xA0 }
        for first in scalars {
            let one = String(first)
            #expect(one.precomposedStringWithCanonicalMapping == one)
            for second in scalars where second.value >= 0x80 || first.value >= 0x80 {
                let pair = one + String(second)
                if pair.precomposedStringWithCanonicalMapping != pair { Issue.record("\(pair) is not NFC") }
            }
        }
        #expect("Cafe\u{301}".nfc == "Café", "a combining mark is still composed")
    }
}
