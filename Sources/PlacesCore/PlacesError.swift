/// The one error type that reaches users: a stable machine code, a message for people, and the input field at fault.
public struct PlacesError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable error code; clients may switch on it.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The request or file is malformed or a value is out of range.
        public static let invalidInput = Code(rawValue: "invalid_input")
        /// The thing asked for does not exist.
        public static let notFound = Code(rawValue: "not_found")
        /// The request's body (or a command's option) names something, by id or by name, that does not exist: 422, with
        /// the field named. `not_found` (404) is kept for the resource the address names.
        public static let unknownReference = Code(rawValue: "unknown_reference")
        /// The caller is not signed in.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// The caller is signed in but may not do this.
        public static let forbidden = Code(rawValue: "forbidden")
        /// The request contradicts what is stored (a duplicate, a place seeds do not own).
        public static let conflict = Code(rawValue: "conflict")
        /// A place with the same name already exists within 50 m; `existingID` names it.
        public static let duplicatePlace = Code(rawValue: "duplicate_place")
        /// One account reached a documented bound on what it can make (groups, collections, open decisions, pending
        /// requests): 409.
        public static let limitReached = Code(rawValue: "limit_reached")
        /// The route exists but not for this HTTP method.
        public static let methodNotAllowed = Code(rawValue: "method_not_allowed")
        /// Too many attempts; try again later.
        public static let tooManyAttempts = Code(rawValue: "too_many_attempts")
        /// The person holds as many live event streams open as one may (across every instance): 429, with
        /// `Retry-After`. Close one, or wait for one of a client that left to lapse.
        public static let tooManyStreams = Code(rawValue: "too_many_streams")
        /// The request body is larger than the server accepts.
        public static let payloadTooLarge = Code(rawValue: "payload_too_large")
        /// The request body is sent as a type its route does not take (JSON everywhere but a photo upload, which takes
        /// JPEG, PNG or WebP), or its bytes are not the type it claims: 415.
        public static let unsupportedMediaType = Code(rawValue: "unsupported_media_type")
        /// The request's target (path and query) is longer than the server reads: 414.
        public static let uriTooLong = Code(rawValue: "uri_too_long")
        /// A part the answer needs is missing or not ready (for example an unreadable file, or a database that does not
        /// answer): nothing was changed, try again (HTTP's `Retry-After` says when).
        public static let unavailable = Code(rawValue: "unavailable")
        /// The database stopped answering after a change was sent to it: the change may or may not have been made.
        /// Read what it would have changed before sending it again (a retried ballot is safe; a retried create may
        /// make a second one): 503 with `Retry-After`.
        public static let outcomeUnknown = Code(rawValue: "outcome_unknown")
        /// Something failed inside the service; the message says what, without internals.
        public static let internalError = Code(rawValue: "internal_error")
    }

    /// Why the service could not answer (`unavailable`, `outcome_unknown`): one short stable word, the label of
    /// `places_unavailable_total`.
    public struct Cause: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        /// The pool gave no connection in time.
        public static let noConnection: Cause = "no_connection"
        /// The request's deadline (or an access's own bound) passed.
        public static let timeout: Cause = "timeout"
        /// The database could not be reached.
        public static let unreachable: Cause = "unreachable"
        /// The database answered that it cannot serve now (shutting down, read-only, out of resources, …).
        public static let databaseRefused: Cause = "database_refused"
        /// SQLite's file is locked by another writer.
        public static let databaseBusy: Cause = "database_busy"
        /// The user or password was refused.
        public static let authenticationFailed: Cause = "authentication_failed"
        /// The database named does not exist.
        public static let noSuchDatabase: Cause = "no_such_database"
        /// TLS was required and the server offers none.
        public static let tlsUnavailable: Cause = "tls_unavailable"
        /// A change's answer was lost.
        public static let outcomeUnknown: Cause = "outcome_unknown"
        /// `/ready` did not get its answer in time.
        public static let notReady: Cause = "not_ready"
        /// The place index is still loading.
        public static let indexLoading: Cause = "index_loading"
        /// Every password-hashing slot is taken.
        public static let hashingBusy: Cause = "hashing_busy"
        /// Others kept saving the decision first.
        public static let decisionBusy: Cause = "decision_busy"
        /// A write found, inside its own transaction, a block between the two people it concerns (saved after the
        /// service looked): the service answers as it answers that block.
        public static let blocked: Cause = "blocked"

        /// The causes that mean the database could not answer.
        static let database: Set<Cause> = [.noConnection, .timeout, .unreachable, .databaseRefused, .databaseBusy]
    }

    /// The stable machine code.
    public var code: Code
    /// A sentence for the person reading it.
    public var message: String
    /// The input field at fault, when exactly one is.
    public var field: String?
    /// For `too_many_attempts`: how many seconds to wait (HTTP's `Retry-After`).
    public var retryAfterSeconds: Int?
    /// For a conflict with a stored thing: that thing's id (a `duplicate_place`'s existing place).
    public var existingID: String?
    /// For `unavailable` and `outcome_unknown`: why, for metrics and logs; never shown to a client.
    public var cause: Cause?
    /// What the operator's log needs to know of a failure inside the service (a database's own message); never shown to
    /// a client.
    public var detail: String?

    /// Makes an error with its code, message and (optional) field.
    public init(_ code: Code, _ message: String, field: String? = nil, cause: Cause? = nil) {
        self.code = code
        self.message = message
        self.field = field
        self.cause = cause
    }

    /// Bad input in one field.
    public static func invalid(_ field: String, _ message: String) -> PlacesError {
        PlacesError(.invalidInput, message, field: field)
    }

    /// The caller is not signed in, or the token is unknown or expired.
    public static func unauthorized(_ message: String = "sign in first: send Authorization: Bearer <token>") -> PlacesError {
        PlacesError(.unauthorized, message)
    }

    /// The caller may not do this.
    public static func forbidden(_ message: String) -> PlacesError {
        PlacesError(.forbidden, message)
    }

    /// A change whose outcome nobody knows: it may or may not have been made (503 with `Retry-After`).
    public static var outcomeUnknown: PlacesError {
        var error = PlacesError(
            .outcomeUnknown,
            "the database stopped answering after the change was sent, so it may or may not have been made; read it back before sending it again"
        )
        error.retryAfterSeconds = 1
        error.cause = .outcomeUnknown
        return error
    }

    /// True for `unavailable` because the database could not answer (not a busy password hasher or a loading index):
    /// what a request that already committed a change must not call "nothing changed".
    public var isDatabaseUnavailable: Bool {
        code == .unavailable && cause.map(Cause.database.contains) == true
    }

    /// An unknown id.
    public static func notFound(_ message: String) -> PlacesError {
        PlacesError(.notFound, message)
    }

    /// A command names something (`field`: an id or a username in a request's body) that does not exist. Anything the
    /// caller may not know exists answers the same, so it tells nothing more than "no such thing".
    public static func unknownReference(_ field: String, _ message: String) -> PlacesError {
        PlacesError(.unknownReference, message, field: field)
    }

    /// The result of `lookup`, which finds what a command names in `field`: a `not_found` it throws becomes
    /// `unknown_reference` for `field` (the thing named is missing, not the resource the address names).
    public static func referenced<Found>(_ field: String, _ lookup: () async throws -> Found) async throws -> Found {
        do {
            return try await lookup()
        } catch let error as PlacesError where error.code == .notFound || error.code == .unknownReference {
            throw PlacesError.unknownReference(field, error.message)
        }
    }

    /// The result of `read`, which reads the inside of the field `outer`: a field it names is named in full
    /// (`candidates.meet.kind`).
    public static func within<Value>(_ outer: String, _ read: () throws(PlacesError) -> Value) throws(PlacesError) -> Value {
        do {
            return try read()
        } catch {
            throw PlacesError(error.code, error.message, field: error.field.map { "\(outer).\($0)" })
        }
    }

    /// Input quoted for a message, cut to a readable length: an error never echoes a huge value back.
    public static func quoted(_ text: some StringProtocol) -> String {
        let limit = 40
        if text.count <= limit { return "'\(text)'" }
        return "'\(text.prefix(limit))…' (\(text.count) characters)"
    }

    /// The error as logs and the command line show it: the code, the field, the message, and the detail a client
    /// never sees.
    public var description: String {
        let text = field.map { "\(code.rawValue) (\($0)): \(message)" } ?? "\(code.rawValue): \(message)"
        return detail.map { "\(text) [\($0)]" } ?? text
    }
}
