import Foundation
import Hummingbird
import HummingbirdTesting
import PlacesCore
import Testing

/// Places around Lisbon's Bairro Alto for the tests of people together.
enum Lisbon {
    static let places = [
        TestApp.place("lx-a-tasca", 38.7130, -9.1450, kind: .restaurant, name: "A Tasca"),
        TestApp.place("lx-b-miradouro", 38.7125, -9.1445, name: "Miradouro Escondido"),
        TestApp.place("lx-c-cantina", 38.7140, -9.1460, kind: .restaurant, name: "Cantina do Bairro"),
        TestApp.place("lx-d-jardim", 38.7150, -9.1470, name: "Jardim Secreto"),
    ]
}

extension TestClientProtocol {
    /// The JSON object of a request's answer, after checking its status.
    func object(
        _ method: HTTPRequest.Method,
        _ uri: String,
        token: String?,
        body: [String: Any]? = nil,
        expect status: HTTPResponse.Status = .ok,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let response = try await json(method, uri, token: token, body: body)
        #expect(response.status == status, "\(method) \(uri): \(String(buffer: response.body))", sourceLocation: sourceLocation)
        guard response.body.readableBytes > 0 else { return [:] }
        return try TestApp.object(response.body)
    }

    /// Signs `admin`, `members` and `outsiders` up, and makes the group `name` of `admin` with each member invited and
    /// accepted (the outsiders stay out of it).
    func crew(_ name: String, admin: String, members: [String], outsiders: [String] = []) async throws -> Crew {
        var tokens: [String: String] = [:]
        for username in [admin] + members + outsiders {
            tokens[username] = try await signUp(username)
        }
        let group = try await object(.post, "/v1/groups", token: tokens[admin], body: ["name": name], expect: .created)
        let id = try #require(group["id"] as? String)
        for member in members {
            _ = try await object(.post, "/v1/groups/\(id)/invitations", token: tokens[admin], body: ["username": member], expect: .created)
            _ = try await object(.post, "/v1/me/invitations/\(id)/accept", token: tokens[member])
        }
        return Crew(id: id, members: members, tokens: tokens)
    }

    /// The caller's notifications of `kind`.
    func notifications(_ token: String, kind: String) async throws -> [[String: Any]] {
        let page = try await object(.get, "/v1/notifications?limit=100", token: token)
        return (page["items"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind }
    }
}

/// A group a test made and the people it signed up for it: the group's id, and each person's bearer token as
/// `crew.ana` for "ana".
@dynamicMemberLookup
struct Crew: Sendable {
    /// The group's id.
    let id: String
    /// The usernames invited into the group and in it (the admin aside), in the order given.
    let members: [String]
    /// Each person's bearer token, by username.
    let tokens: [String: String]

    /// The bearer token of `username`; a name no one signed up with is an issue of the test.
    func token(_ username: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        guard let token = tokens[username] else {
            Issue.record("no one signed up as \(username)", sourceLocation: sourceLocation)
            return ""
        }
        return token
    }

    /// The bearer token of `username`, as `crew.ana`.
    subscript(dynamicMember username: String) -> String { token(username) }
}

/// The random draw of Sources/PlacesCore/Decisions/README.md, written again here so a test can re-run a draw by hand
/// (the generator is Core's SplitMix64, which its own tests pin to the published sequence).
enum HandDraw {
    /// That draw: candidates ascending, one roll in [0, total), the first whose cumulative weight passes it.
    static func winner(seed: UInt64, weights: [(id: String, weight: Double)]) -> String {
        var generator = SplitMix64(seed: seed)
        let sorted = weights.sorted { $0.id < $1.id }
        let total = sorted.reduce(0) { $0 + $1.weight }
        let roll = Double(generator.next() >> 11) * 0x1p-53 * total
        var cumulative = 0.0
        for candidate in sorted {
            cumulative += candidate.weight
            if cumulative > roll { return candidate.id }
        }
        return sorted[sorted.count - 1].id
    }
}
