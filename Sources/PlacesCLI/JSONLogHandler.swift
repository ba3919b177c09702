import Foundation
import Logging
import PlacesCore
import Synchronization

/// Writes each log event as one JSON object a line on standard error, for log collectors (`--log-format json`): the
/// same fields as the text lines (`timestamp`, `level`, `label`, `source`, `message`, and the metadata's keys beside
/// them; a metadata key that would hide one of those is written as `metadata.KEY`).
struct JSONLogHandler: LogHandler {
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    let label: String

    init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// The fields every line has, in this order.
    static let fixedKeys: Set<String> = ["timestamp", "level", "label", "source", "message"]

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, provided in provided } }
        if let own = event.metadata { merged.merge(own) { _, own in own } }
        let line = JSONLogHandler.line(
            timestamp: Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date.now),
            level: event.level,
            label: label,
            source: event.source,
            message: event.message.description,
            metadata: merged
        )
        JSONLogHandler.output.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// One event as its line of JSON, newline included.
    static func line(timestamp: String, level: Logger.Level, label: String, source: String, message: String, metadata: Logger.Metadata) -> String {
        var line = "{" + pair("timestamp", .string(timestamp))
        line += "," + pair("level", .string(level.rawValue))
        line += "," + pair("label", .string(label))
        line += "," + pair("source", .string(source))
        line += "," + pair("message", .string(message))
        for key in metadata.keys.sorted() {
            line += "," + pair(fixedKeys.contains(key) ? "metadata." + key : key, metadata[key]!)
        }
        return line + "}\n"
    }

    /// One line is written at a time, whole.
    private static let output = Mutex(())

    private static func pair(_ key: String, _ value: Logger.Metadata.Value) -> String {
        quoted(key) + ":" + json(value)
    }

    private static func json(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let text): quoted(text)
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .array(let values): "[" + values.map(json).joined(separator: ",") + "]"
        case .dictionary(let values): "{" + values.keys.sorted().map { pair($0, values[$0]!) }.joined(separator: ",") + "}"
        }
    }

    /// `text` as a JSON string, escaped as the API's answers are.
    static func quoted(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
