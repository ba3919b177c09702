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

    /// Makes a group of `admin` with `members` invited and accepted; returns its id.
    func group(_ name: String, admin: String, members: [(username: String, token: String)]) async throws -> String {
        let group = try await object(.post, "/v1/groups", token: admin, body: ["name": name], expect: .created)
        let id = try #require(group["id"] as? String)
        for member in members {
            _ = try await object(.post, "/v1/groups/\(id)/invitations", token: admin, body: ["username": member.username], expect: .created)
            _ = try await object(.post, "/v1/me/invitations/\(id)/accept", token: member.token)
        }
        return id
    }

    /// The caller's notifications of `kind`.
    func notifications(_ token: String, kind: String) async throws -> [[String: Any]] {
        let page = try await object(.get, "/v1/notifications?limit=100", token: token)
        return (page["items"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == kind }
    }
}

/// The README's random draw, written again here so a test can re-run a draw by hand (the generator is Core's
/// SplitMix64, which its own tests pin to the published sequence).
enum HandDraw {
    /// The README's draw: candidates ascending, one roll in [0, total), the first whose cumulative weight passes it.
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
