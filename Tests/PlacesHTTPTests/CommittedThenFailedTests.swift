import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

@testable import PlacesHTTP

/// A request that committed a change and then failed because the database stopped answering is told
/// `outcome_unknown`, never `unavailable` ("nothing changed, retry"): a blind retry would do the change twice.
@Suite("A failure after a commit")
struct CommittedThenFailedTests {
    /// A router with the edge's deadline and error middleware, whose one route commits (or not) and then fails.
    static func router(commits: Bool, failure: PlacesError) -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: DatabaseDeadlineMiddleware(limit: .seconds(60)))
        router.add(middleware: ErrorMiddleware())
        router.post("change") { _, _ -> Response in
            #expect(DatabaseDeadline.current != nil)
            if commits { RequestWrites.current?.committed() }
            throw failure
        }
        return router
    }

    @Test(arguments: [
        (true, "timeout", "outcome_unknown"),
        (true, "no_connection", "outcome_unknown"),
        (false, "timeout", "unavailable"),
        (true, "hashing_busy", "unavailable"),
    ])
    func theAnswerSaysWhetherSomethingMayHaveChanged(_ commits: Bool, _ cause: String, _ code: String) async throws {
        let failure = PlacesError(.unavailable, "the database did not answer in time; try again", cause: PlacesError.Cause(rawValue: cause))
        let app = Application(router: Self.router(commits: commits, failure: failure))
        try await app.test(.router) { client in
            let response = try await client.execute(uri: "/change", method: .post)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
            #expect(try TestApp.error(response.body).code == code)
        }
    }
}
