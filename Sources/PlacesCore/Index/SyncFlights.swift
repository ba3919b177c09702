import Synchronization

/// Index syncs in flight, shared by the copies of a place service: callers at the same moment share one sync, so N
/// read-your-writes catch-ups after a new generation load the whole table once, not N times.
///
/// At most one sync runs and one waits behind it. A caller that needs what was committed before it called (a write
/// about to answer, `/ready`, the periodic round) joins the waiting one, which starts after every one of its callers
/// arrived, or queues it; a caller that only needs a revision first waits for the running one and asks again only when
/// that one fell short.
///
/// A caller may name places to re-read (a write of its own): the flight it joins reads them with the feed, in the same
/// snapshot, so the write is in the index once the flight lands even while the feed's horizon is still below it.
///
/// A flight asks for what it re-reads only once its read is about to be sent (it has its connection): until then a
/// caller that needs a fresh sync joins the running flight itself, since the read will start after it arrived. Under
/// load a write then waits for the rest of one flight, not for the rest of one and the whole of the next.
final class SyncFlights: Sendable {
    private struct State {
        var running: Task<IndexSync, any Error>?
        var waiting: Task<IndexSync, any Error>?
        /// The places the running flight re-reads, and those its callers asked the waiting one to.
        var runningRereads: Set<String> = []
        var waitingRereads: Set<String> = []
        /// True once the running flight asked for its re-reads (its read is being sent): nobody joins it any more.
        var runningSealed = false
        /// Callers awaiting a flight right now (tests wait until they all joined).
        var joined = 0
    }

    private let state = Mutex(State())

    /// The result of a sync that starts after this call (the one waiting behind the running one, or a new one) and
    /// re-reads `rereading` besides what the feed names.
    func fresh(
        rereading: Set<String> = [],
        _ sync: @escaping @Sendable (@escaping @Sendable () -> Set<String>) async throws -> IndexSync
    ) async throws -> IndexSync {
        let flight = state.withLock { state -> Task<IndexSync, any Error> in
            state.joined += 1
            if let running = state.running, !state.runningSealed {
                state.runningRereads.formUnion(rereading)
                return running
            }
            if let waiting = state.waiting {
                state.waitingRereads.formUnion(rereading)
                return waiting
            }
            let before = state.running
            // Unstructured, so a caller that is cancelled does not cancel the sync the others wait for; and without
            // the deadline of the request that happened to start it, which is no deadline of the others' (each
            // access of the sync then keeps its own bound).
            let flight = DatabaseDeadline.$current.withValue(nil) {
                Task {
                    if let before { _ = await before.result }
                    defer { self.landed() }
                    // Asked for when its read is sent: from then on, nobody joins it any more.
                    return try await sync { self.sealRereads() }
                }
            }
            if before == nil {
                state.running = flight
                state.runningRereads = rereading
                state.runningSealed = false
            } else {
                state.waiting = flight
                state.waitingRereads = rereading
            }
            return flight
        }
        defer { state.withLock { $0.joined -= 1 } }
        // A caller with a deadline (a request) waits no longer than it has.
        guard let deadline = DatabaseDeadline.current else { return try await flight.value }
        guard let value = try await withTimeLimit(deadline - ContinuousClock.now, { try await flight.value }) else {
            throw PlacesError(.unavailable, "the index did not catch up in time; try again", cause: .timeout)
        }
        return value
    }

    /// Waits for the sync running now, if any, but not past `deadline`; its failure is left to the caller's own sync.
    func running(until deadline: ContinuousClock.Instant) async {
        let flight = state.withLock { state -> Task<IndexSync, any Error>? in
            if state.running != nil { state.joined += 1 }
            return state.running
        }
        guard let flight else { return }
        _ = try? await withTimeLimit(deadline - ContinuousClock.now) { _ = await flight.result }
        state.withLock { $0.joined -= 1 }
    }

    /// How many callers await a sync now.
    var joined: Int { state.withLock { $0.joined } }

    /// The running flight's read is being sent: what it re-reads is settled.
    private func sealRereads() -> Set<String> {
        state.withLock { state in
            state.runningSealed = true
            return state.runningRereads
        }
    }

    /// The running sync ended: the waiting one (already past its wait) is the running one now.
    private func landed() {
        state.withLock { state in
            state.running = state.waiting
            state.runningRereads = state.waitingRereads
            state.runningSealed = false
            state.waiting = nil
            state.waitingRereads = []
        }
    }
}

/// What one index sync did.
struct IndexSync: Sendable {
    /// How many places it changed in the index.
    var changed: Int
    /// A write committed before the sync started is at or below this feed position (`PlaceChanges.reach`).
    var reach: Int64
    /// True when changes were committed above the feed's horizon: worth looking again soon.
    var pending: Bool
}
