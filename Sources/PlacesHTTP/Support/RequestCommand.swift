import Hummingbird
import PlacesCore

/// A command of Core that a request's JSON body carries: the names the body may hold, and how its fields become the
/// command (a wrong type or an unknown name is refused, naming the field).
protocol RequestCommand: Sendable {
    /// The names the body may hold.
    static var fields: Set<String> { get }

    /// The command the body's fields ask for.
    init(body: FieldReader) throws(PlacesError)
}

extension RequestCommand {
    /// The command `request`'s body asks for.
    init(_ request: Request, context: some RequestContext) async throws {
        try self.init(body: try await RequestBody.object(request, context: context, allowed: Self.fields))
    }
}
