import Foundation
import Synchronization

/// Checks IANA time zone names, remembering the answers (a large seed names the same few zones a million times).
enum TimeZoneNames {
    private static let known = Mutex<[String: Bool]>([:])

    /// True when `name` is a time zone this system knows.
    static func isKnown(_ name: String) -> Bool {
        if let answer = known.withLock({ $0[name] }) { return answer }
        let answer = TimeZone(identifier: name) != nil && name.contains(where: \.isLetter)
        known.withLock { $0[name] = answer }
        return answer
    }
}
