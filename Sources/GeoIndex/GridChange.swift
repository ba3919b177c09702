/// One change to the grid's content; a batch of them is applied under a single write.
public enum GridChange: Sendable {
    /// Adds a key at a position (callers keep keys unique).
    case insert(key: UInt32, at: Coordinate)
    /// Removes a key from its current position.
    case remove(key: UInt32, at: Coordinate)
    /// Moves a key from its current position to a new one.
    case move(key: UInt32, from: Coordinate, to: Coordinate)
}
