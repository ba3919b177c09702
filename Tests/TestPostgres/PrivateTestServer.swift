import Foundation
import PlacesCore

/// The private PostgreSQL server of a test run, for when PLACES_TEST_POSTGRES_URL names none.
///
/// `Tests/tools/test_run_postgres.py` starts it on first use, once for every test process of one `swift test` run
/// (`--parallel` included, under a lock file), on loopback at a free port in a temporary folder, and a watcher stops
/// it when the run ends. This type only asks that script for the run's URL.
enum PrivateTestServer {
    /// Where the tools sit in the source tree this test target was built from.
    static let tools = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("tools")

    /// Whether a private server can be started here: PostgreSQL's server programs (Debian keeps them in
    /// /usr/lib/postgresql/N/bin, off the PATH) and python3, which runs the script that starts and watches it.
    static let installed: Bool = {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let debian = versions.contains { FileManager.default.isExecutableFile(atPath: "/usr/lib/postgresql/\($0)/bin/initdb") }
        return (debian || onPath("initdb") && onPath("pg_ctl")) && onPath("python3")
    }()

    /// The run's server URL, started by the first process of the run that asks; the script's own words when it fails.
    static func url() -> Result<String, PlacesError> {
        let script = tools.appendingPathComponent("test_run_postgres.py")
        guard FileManager.default.fileExists(atPath: script.path) else {
            return .failure(PlacesError(.unavailable, "no \(script.path) to start a private PostgreSQL for the tests"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "url", String(ProcessInfo.processInfo.processIdentifier)]
        // One pipe for both streams: the URL is the last line; on failure all of it is the reason.
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return .failure(PlacesError(.unavailable, "could not run python3 \(script.path): \(error)"))
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard process.terminationStatus == 0, let url = lines.last, url.hasPrefix("postgres://") else {
            return .failure(PlacesError(.unavailable, "the private PostgreSQL for the tests did not start: \(text)"))
        }
        return .success(url)
    }

    private static func onPath(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
