import Synchronization

/// Reads that the streams given one delivery of the feed share: the first stream to ask for a read runs it, and the
/// others wait for its answer, so that an event followed by fifty streams reads the decision once, not fifty times.
/// Each delivery (and each stream's opening) has its own, so nothing read is older than what it renders.
final class SharedReads: Sendable {
    private let reads = Mutex<[String: Task<any Sendable, any Error>]>([:])

    /// The answer of `read` under `key`: run once, by the first caller; a failure is every caller's.
    func value<T: Sendable>(_ key: String, _ read: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = reads.withLock { reads in
            if let running = reads[key] { return running }
            // A task of its own: the first stream's client may leave (its task cancelled) while others wait for the read.
            let started = Task<any Sendable, any Error> { try await read() }
            reads[key] = started
            return started
        }
        guard let value = try await task.value as? T else {
            throw PlacesError(.internalError, "a shared read under '\(key)' answered another type")
        }
        return value
    }
}
