import Synchronization

/// A wake-up from one task to another: `ring` wakes the task waiting in `wait(upTo:)`, or the next one to wait if none
/// is; a wait also ends when its time is up or its task is cancelled. Rings while nobody waits count as one.
///
/// The change feed rings it when another instance committed, so the index sync runs at once instead of at its next
/// poll.
public final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: (id: UInt64, continuation: CheckedContinuation<Void, Never>)?
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes the waiting task, or the next one to wait.
    public func ring() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil as CheckedContinuation<Void, Never>?
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }

    /// True when the bell rang since the last wait (or look), which this forgets, as a wait would: a look that never
    /// waits (tests check with it which writes ring).
    public func rangSinceLastLook() -> Bool {
        state.withLock { state in
            defer { state.rung = false }
            return state.rung
        }
    }

    /// Returns when the bell rings (or rang since the last wait), when `timeout` has passed, or when the task is
    /// cancelled, whichever comes first.
    public func wait(upTo timeout: Duration) async {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.end(id)
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let rung = state.withLock { state in
                    if state.rung || Task.isCancelled {
                        state.rung = false
                        return true
                    }
                    state.waiter = (id, continuation)
                    return false
                }
                if rung { continuation.resume() }
            }
        } onCancel: {
            end(id)
        }
        timer.cancel()
    }

    /// Ends the wait `id` if it is still waiting.
    private func end(_ id: UInt64) {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter, waiter.id == id else { return nil as CheckedContinuation<Void, Never>? }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume()
    }
}

/// Doorbells rung together: an engine rings its own at every commit of this process, and each task that must hear of
/// them (the live streams' reader of the feed) adds its doorbell.
public final class Doorbells: Sendable {
    private let bells = Mutex<[Doorbell]>([])

    public init() {}

    /// Rings `bell` with the others from now on.
    public func add(_ bell: Doorbell) {
        bells.withLock { $0.append(bell) }
    }

    /// Rings every doorbell added.
    public func ring() {
        for bell in bells.withLock({ $0 }) { bell.ring() }
    }
}
