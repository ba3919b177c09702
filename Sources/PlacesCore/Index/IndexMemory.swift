/// The bytes the index's structures hold, one row per structure, each counted by the structure itself (see
/// `HeapCensus` for what is counted and what is estimated): for `places-bench --memory`, which sets them beside the
/// process's resident size.
public struct IndexMemory: Sendable {
    /// One structure's bytes.
    public struct Row: Sendable, Equatable {
        /// What the structure is.
        public let structure: String
        /// The bytes it holds.
        public let bytes: Int
    }

    /// How many live places the index holds.
    public let places: Int
    /// Each structure's bytes, in the order the report lists them.
    public let rows: [Row]

    /// The bytes of every row.
    public var total: Int { rows.reduce(0) { $0 + $1.bytes } }

    /// The bytes of the row named `structure` (0 when there is none).
    public func bytes(of structure: String) -> Int {
        rows.first { $0.structure == structure }?.bytes ?? 0
    }
}
