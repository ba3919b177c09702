import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import PlacesPostgres
import PlacesTestPostgres
import Synchronization
import Testing

/// Admins' alerts over HTTP (`POST /v1/groups/{id}/alerts`): who may send one, who is notified, the text's rules, the
/// bound of 10 a group an hour, and the notification stream, on SQLite and on PostgreSQL.
@Suite("Admin alerts over HTTP")
struct AlertEndpointTests {
    @Test func anAdminsAlertNotifiesEveryOtherMemberWhoseSettingsAllowIt() async throws {
        try await TestApp.withClient(Lisbon.places) { client in
            let crew = try await client.crew("Dinner", admin: "ana", members: ["ben", "cyd"], outsiders: ["dan"])
            let alerts = "/v1/groups/\(crew.id)/alerts"
            // Cyd switches alerts off; Ben keeps the default (on).
            let settings = try await client.object(.patch, "/v1/me/settings", token: crew.cyd, body: ["notifications": ["adminAlerts": false]])
            #expect((settings["notifications"] as? [String: Any])?["adminAlerts"] as? Bool == false)
            #expect(
                ((try await client.object(.get, "/v1/me/settings", token: crew.ben))["notifications"] as? [String: Any])?["adminAlerts"] as? Bool
                    == true
            )

            let sent = try await client.json(.post, alerts, token: crew.ana, body: ["message": "  Table moved to nine "])
            #expect(sent.status == .noContent && sent.body.readableBytes == 0)
            let heard = try await client.notifications(crew.ben, kind: "adminAlert")
            #expect(heard.count == 1)
            #expect(heard.first?["message"] as? String == "ana, admin of Dinner: Table moved to nine", "trimmed, with who and which group")
            let subject = heard.first?["subject"] as? [String: Any]
            #expect(subject?["groupId"] as? String == crew.id && subject?["userId"] as? String != nil)
            #expect(try await client.notifications(crew.cyd, kind: "adminAlert").isEmpty, "alerts switched off")
            #expect(try await client.notifications(crew.ana, kind: "adminAlert").isEmpty, "never the sender")
            #expect(try await client.notifications(crew.dan, kind: "adminAlert").isEmpty)

            // Admins only: a member and a stranger are forbidden, as on the group's other admin routes; unknown is 404.
            #expect(try await client.error(.post, alerts, token: crew.ben, body: ["message": "hi"], expect: .forbidden).code == "forbidden")
            #expect(try await client.error(.post, alerts, token: crew.dan, body: ["message": "hi"], expect: .forbidden).code == "forbidden")
            #expect(
                try await client.error(.post, "/v1/groups/g-none/alerts", token: crew.ana, body: ["message": "hi"], expect: .notFound).code
                    == "not_found"
            )
            #expect(try await client.error(.post, alerts, token: nil, body: ["message": "hi"], expect: .unauthorized).code == "unauthorized")
            // A member made admin may alert too.
            _ = try await client.object(.put, "/v1/groups/\(crew.id)/members/ben/role", token: crew.ana, body: ["role": "admin"])
            #expect(try await client.json(.post, alerts, token: crew.ben, body: ["message": "Bring cash"]).status == .noContent)
            #expect(try await client.notifications(crew.ana, kind: "adminAlert").count == 1)

            // The text's rules: required, 1–280 characters, one line, nothing that hides text; unknown fields refused.
            for body: [String: Any] in [
                [:], ["message": "   "], ["message": String(repeating: "a", count: 281)], ["message": "two\nlines"], ["message": "hid\u{200B}den"],
                ["message": 5],
            ] {
                #expect(try await client.error(.post, alerts, token: crew.ana, body: body, expect: .badRequest).field == "message", "\(body)")
            }
            #expect(
                try await client.error(.post, alerts, token: crew.ana, body: ["message": "hi", "to": "ben"], expect: .badRequest).code
                    == "invalid_input"
            )
            #expect(try await client.json(.post, alerts, token: crew.ana, body: ["message": String(repeating: "é", count: 280)]).status == .noContent)
            #expect(try await client.notifications(crew.ben, kind: "adminAlert").count == 2)
        }
    }

    @Test func theEleventhAlertInAnHourIs429WithTheSecondsToWait() async throws {
        let now = Mutex(TestApp.now)
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { now.withLock { $0 } }).app
        try await app.test(.router) { client in
            let crew = try await client.crew("Walks", admin: "ana", members: ["ben"])
            let other = try await client.crew("Other", admin: "cyd", members: [])
            _ = try await client.object(.put, "/v1/groups/\(crew.id)/members/ben/role", token: crew.ana, body: ["role": "admin"])
            let alerts = "/v1/groups/\(crew.id)/alerts"
            // Ten alerts a minute apart, from either admin: the bound is the group's.
            for minute in 0..<10 {
                now.withLock { $0 = TestApp.now.addingTimeInterval(Double(minute * 60)) }
                let sender = minute % 2 == 0 ? crew.ana : crew.ben
                #expect(try await client.json(.post, alerts, token: sender, body: ["message": "alert \(minute)"]).status == .noContent)
            }
            let refused = try await client.json(.post, alerts, token: crew.ben, body: ["message": "one more"])
            #expect(refused.status == .tooManyRequests)
            #expect(try TestApp.error(refused.body).code == "too_many_attempts")
            // The first was sent 9 minutes ago: it leaves the hour in 51 minutes.
            #expect(refused.headers[.retryAfter] == "3060")
            // Another group has its own bound; this one takes one more once the first left the hour.
            #expect(try await client.json(.post, "/v1/groups/\(other.id)/alerts", token: other.cyd, body: ["message": "hello"]).status == .noContent)
            now.withLock { $0 = TestApp.now.addingTimeInterval(3_600.5) }
            #expect(try await client.json(.post, alerts, token: crew.ana, body: ["message": "again"]).status == .noContent)
            #expect(try await client.notifications(crew.ana, kind: "adminAlert").count == 5, "Ben's five")
        }
    }

    @Test func alertsSentAtOnceStoreExactlyTen() async throws {
        try await TestApp.withClient(Lisbon.places) { client in try await Self.sendAtOnce(client) }
    }

    @Test func anAlertReachesTheNotificationStream() async throws {
        let app = try await TestApp.togetherServices(Lisbon.places, clock: { Date() }).app
        try await app.test(.live) { client in
            try await Self.streamCarriesAlert(writer: client, reader: client)
        }
    }

    // MARK: Both engines

    /// Fifteen alerts sent to one group at once: exactly ten are stored (Ben is notified ten times), the others are 429
    /// with `Retry-After` the whole hour (all were sent at the same moment).
    static func sendAtOnce(_ client: any TestClientProtocol) async throws {
        let crew = try await client.crew("Rush", admin: "ana", members: ["ben"])
        let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
            for index in 0..<15 {
                group.addTask { try await client.json(.post, "/v1/groups/\(crew.id)/alerts", token: crew.ana, body: ["message": "alert \(index)"]) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(responses.filter { $0.status == .noContent }.count == 10)
        let refused = responses.filter { $0.status == .tooManyRequests }
        #expect(refused.count == 5)
        #expect(refused.allSatisfy { $0.headers[.retryAfter] == "3600" })
        #expect(try await client.notifications(crew.ben, kind: "adminAlert").count == 10)
    }

    /// Ben's notification stream, held through `reader`, carries Ana's alert sent through `writer`.
    static func streamCarriesAlert(writer: any TestClientProtocol, reader: any TestClientProtocol) async throws {
        let crew = try await writer.crew("Dinner", admin: "ana", members: ["ben"])
        let stream = try await EventStreamClient.open(port: try #require(reader.port), "/v1/notifications/events", token: crew.ben)
        defer { stream.close() }
        #expect(try await stream.events(1)[0].name == "snapshot")
        #expect(
            try await writer.json(.post, "/v1/groups/\(crew.id)/alerts", token: crew.ana, body: ["message": "Doors at eight"]).status == .noContent
        )
        let note = try await stream.events(2)[1]
        #expect(note.name == "notification")
        #expect(note.object["kind"] as? String == "adminAlert")
        #expect(note.object["message"] as? String == "ana, admin of Dinner: Doors at eight")
    }
}

/// The same on PostgreSQL: the bound counted exactly when alerts arrive at once, and the stream on another instance.
@Suite("Admin alerts on PostgreSQL", TestPostgres.enabled)
struct PostgresAlertTests {
    @Test func alertsSentAtOnceStoreExactlyTen() async throws {
        try await PostgresFlowTests.withClient(Lisbon.places) { client in try await AlertEndpointTests.sendAtOnce(client) }
    }

    @Test func anAlertThroughOneInstanceReachesAStreamOnAnother() async throws {
        let first = try await TestPostgres.database()
        let second = try await PostgresPlacesDatabase.open(
            try TestPostgres.location(),
            schema: first.schema,
            maximumConnections: 4,
            leaseTimeout: .seconds(30)
        )
        do {
            let writer = try await TestApp.postgres(first, clock: { Date() }, listening: true)
            let reader = try await TestApp.postgres(second, clock: { Date() }, listening: true)
            try await writer.test(.live) { writerClient in
                try await reader.test(.live) { readerClient in
                    try await AlertEndpointTests.streamCarriesAlert(writer: writerClient, reader: readerClient)
                }
            }
        } catch {
            second.close()
            try? await PostgresStore(database: first).close()
            throw error
        }
        second.close()
        try await PostgresStore(database: first).close()
    }
}
