/// One field of a change: left as it is (absent), cleared (`null`), or set to a value. Every patch command (a place,
/// settings, a profile) spells its fields with this, so "absent keeps, null clears" is one rule, not one per field.
public enum Patch<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Leave the field as it is.
    case keep
    /// Clear the field (back to none, or to its default).
    case clear
    /// Set the field to this value.
    case set(Value)

    /// The field's new value, given its value now: the same when kept, nil when cleared.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .keep: current
        case .clear: nil
        case .set(let value): value
        }
    }

    /// True unless the field is kept.
    public var changes: Bool { self != .keep }

    /// The patch with its value transformed (a check or a normalisation that may refuse it).
    public func map<Other>(_ transform: (Value) throws(PlacesError) -> Other) throws(PlacesError) -> Patch<Other> {
        switch self {
        case .keep: .keep
        case .clear: .clear
        case .set(let value): .set(try transform(value))
        }
    }
}
