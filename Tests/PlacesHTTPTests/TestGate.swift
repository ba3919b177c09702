import Synchronization

/// A gate that a test's stand-ins put in the way of a call: it counts the callers that pass and, while held, keeps
/// them waiting until the test opens it.
final class TestGate: Sendable {
    private struct State {
        var passed = 0
        var holding: Bool
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(holding: Bool = false) { state = Mutex(State(holding: holding)) }

    /// How many callers came to the gate.
    var passed: Int { state.withLock { $0.passed } }

    /// Keeps every caller that comes from now on, until `open`.
    func hold() { state.withLock { $0.holding = true } }

    /// Lets the waiting callers, and every later one, through.
    func open() {
        let waiting = state.withLock { state in
            state.holding = false
            defer { state.waiting = [] }
            return state.waiting
        }
        for caller in waiting { caller.resume() }
    }

    /// Comes to the gate: passes at once, or waits while it is held.
    func pass() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let go = state.withLock { state in
                state.passed += 1
                if state.holding { state.waiting.append(continuation) }
                return !state.holding
            }
            if go { continuation.resume() }
        }
    }

    /// Waits (yielding, never sleeping) until `count` callers wait at the gate; false if they never do.
    func waiting(_ count: Int) async -> Bool {
        for _ in 0..<1_000_000 {
            if state.withLock({ $0.waiting.count }) >= count { return true }
            await Task.yield()
        }
        return false
    }
}
