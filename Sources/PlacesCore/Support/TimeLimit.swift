/// Runs `body` in a task of its own and answers with its value, or nil when it has not finished within `limit` (the
/// task is then cancelled, and not waited for: a connection to a server that stopped may ignore cancellation). A value
/// that comes too late is handed to `late` (a connection to close, say).
public func withTimeLimit<T: Sendable>(
    _ limit: Duration,
    _ body: @escaping @Sendable () async throws -> T,
    late: @escaping @Sendable (T) async -> Void = { _ in }
) async throws -> T? {
    let answer = OneAnswer<T?>()
    let work = Task {
        do {
            let value = try await body()
            if !answer.give(.success(value)) { await late(value) }
        } catch {
            answer.give(.failure(error))
        }
    }
    let timer = Task {
        try? await Task.sleep(for: limit)
        if answer.give(.success(nil)) { work.cancel() }
    }
    answer.whenAnswered { timer.cancel() }
    return try await answer.value()
}
