import Synchronization

/// A wake-up from one task to another: `ring` wakes the task waiting in `wait(upTo:)`, or the next one to wait if none
/// is; a wait also ends when its time is up or its task is cancelled. Rings while nobody waits count as one.
///
/// The change feed rings it when another instance committed, so the index sync runs at once instead of at its next
/// poll.
public final class Doorbell: Sendable {
    private struct State {
        var rung = false
        var waiter: OneAnswer<Void>?
    }

    private let state = Mutex(State())

    public init() {}

    /// Wakes the waiting task, or the next one to wait.
    public func ring() {
        let waiter = state.withLock { state in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil as OneAnswer<Void>?
            }
            state.waiter = nil
            return waiter
        }
        waiter?.give()
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
        let answer = OneAnswer<Void>()
        let rung = state.withLock { state in
            guard !state.rung else {
                state.rung = false
                return true
            }
            state.waiter = answer
            return false
        }
        if rung { return }
        // The time up takes the waiter away first, so that a ring after it is kept for the next wait.
        let timer = Task {
            try? await Task.sleep(for: timeout)
            if !Task.isCancelled { self.end(answer) }
        }
        answer.whenAnswered { timer.cancel() }
        try? await answer.value(ifCancelled: .success(()))
        end(answer)
    }

    /// Ends the wait `answer` if it is still waiting.
    private func end(_ answer: OneAnswer<Void>) {
        state.withLock { state in
            if state.waiter === answer { state.waiter = nil }
        }
        answer.give()
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

    /// How many doorbells it rings.
    public var count: Int { bells.withLock { $0.count } }

    /// Rings `bell` no more.
    public func remove(_ bell: Doorbell) {
        bells.withLock { $0.removeAll { $0 === bell } }
    }

    /// Rings every doorbell added.
    public func ring() {
        for bell in bells.withLock({ $0 }) { bell.ring() }
    }
}
