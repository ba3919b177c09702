import Foundation
import PlacesCore
import PostgresNIO

/// Where a PostgreSQL database is, read from a `postgres://user:password@host:5432/places?sslmode=require` URL.
///
/// The password comes from the URL, else from `PGPASSWORD`; it never appears in `description` (which is what logs,
/// errors and the process title show).
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode` names it.
    public enum SSLMode: String, Sendable, CaseIterable {
        /// Never encrypted.
        case disable
        /// Encrypted when the server offers it, without checking its certificate (libpq's default).
        case prefer
        /// Always encrypted, without checking the certificate.
        case require
        /// Always encrypted, the certificate checked against the system's roots and the host name.
        case verifyFull = "verify-full"
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var sslMode: SSLMode

    /// True when `text` names a PostgreSQL database rather than a SQLite file.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// Reads a `postgres://` or `postgresql://` URL; `invalid_input` (field `database`) naming what is wrong, without
    /// repeating the password.
    public init(url text: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(PlacesError) {
        guard PostgresLocation.isURL(text), let components = URLComponents(string: text), let host = components.host,
            !host.isEmpty
        else {
            throw PlacesError.invalid("database", "not a PostgreSQL URL: expected postgres://user:password@host:5432/database")
        }
        guard let username = components.user, !username.isEmpty else {
            throw PlacesError.invalid("database", "the PostgreSQL URL names no user (postgres://USER@\(host)/…)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw PlacesError.invalid("database", "the PostgreSQL URL names no database (postgres://…@\(host)/DATABASE)")
        }
        var sslMode = SSLMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = SSLMode(rawValue: value) else {
                    let known = SSLMode.allCases.map(\.rawValue).joined(separator: ", ")
                    throw PlacesError.invalid("database", "sslmode must be one of \(known); got '\(item.value ?? "")'")
                }
                sslMode = mode
            default:
                throw PlacesError.invalid("database", "the PostgreSQL URL has an unknown parameter '\(item.name)' (only sslmode is known)")
            }
        }
        self.host = host
        self.port = components.port ?? 5432
        self.username = components.user?.removingPercentEncoding ?? username
        self.password = components.password?.removingPercentEncoding ?? environment["PGPASSWORD"]
        self.database = database.removingPercentEncoding ?? database
        self.sslMode = sslMode
    }

    /// The URL without its password: safe for logs, errors and the process title.
    public var description: String {
        let secret = password == nil ? "" : ":•••"
        return "postgres://\(username)\(secret)@\(host):\(port)/\(database)?sslmode=\(sslMode.rawValue)"
    }

    /// The client's configuration for this location.
    var configuration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch tlsConfiguration {
            case nil: .disable
            case let configuration? where sslMode == .prefer: .prefer(configuration)
            case let configuration?: .require(configuration)
            }
        return PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
    }

    /// One connection's configuration for this location (a direct connection, outside the pool).
    public var connectionConfiguration: PostgresConnection.Configuration {
        get throws {
            let tls: PostgresConnection.Configuration.TLS =
                switch tlsConfiguration {
                case nil: .disable
                case let configuration? where sslMode == .prefer: .prefer(try NIOSSLContext(configuration: configuration))
                case let configuration?: .require(try NIOSSLContext(configuration: configuration))
                }
            return PostgresConnection.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls)
        }
    }

    /// The TLS the mode asks for; nil when disabled. `prefer` and `require` do not check the certificate (as libpq).
    private var tlsConfiguration: TLSConfiguration? {
        switch sslMode {
        case .disable:
            return nil
        case .prefer, .require:
            var unchecked = TLSConfiguration.makeClientConfiguration()
            unchecked.certificateVerification = .none
            return unchecked
        case .verifyFull:
            return .makeClientConfiguration()
        }
    }
}
