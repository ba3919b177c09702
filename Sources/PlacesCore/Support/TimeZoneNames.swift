import Foundation
import Synchronization

/// Checks IANA time zone names, remembering the valid ones (a large seed names the same few zones a million times).
///
/// Only names this system knows are remembered: there are a few hundred of them, so the cache stays small whatever
/// strangers send, while an unknown name is simply checked again.
public enum TimeZoneNames {
    private static let known = Mutex<Set<String>>([])

    /// True when `name` is a time zone this system knows.
    public static func isKnown(_ name: String) -> Bool {
        if known.withLock({ $0.contains(name) }) { return true }
        guard TimeZone(identifier: name) != nil, name.contains(where: \.isLetter) else { return false }
        known.withLock { _ = $0.insert(name) }
        return true
    }

    /// True when `name` is remembered (tests: an unknown name never is).
    static func isRemembered(_ name: String) -> Bool { known.withLock { $0.contains(name) } }
}
