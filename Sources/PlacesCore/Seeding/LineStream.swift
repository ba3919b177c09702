import Foundation

/// The lines of a file or a pipe, read a chunk at a time, so a file of any size is read in constant memory.
///
/// Lines end at `\n` (a `\r` before it is dropped); a line may not be longer than `maximumLength` bytes.
struct LineStream {
    /// The longest line read: a GeoJSON feature of a large park's outline runs to a few megabytes.
    static let maximumLength = 64 << 20

    private let descriptor: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var atEnd = false
    /// The number of the line `next` handed out last (1-based).
    private(set) var line = 0

    /// Reads from `descriptor`, which the caller keeps open until it is done and then closes.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: 1 << 20)
    }

    /// Hands the next line (without its end) and its number (1-based) to `body`; false after the last. Throws when the file cannot be read or a
    /// line is longer than `maximumLength`.
    mutating func next(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws -> Bool {
        while true {
            let newline = buffer.withUnsafeBufferPointer { bytes in
                bytes[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            }
            if let newline {
                line += 1
                var stop = newline
                if stop > start, buffer[stop - 1] == UInt8(ascii: "\r") { stop -= 1 }
                let (from, number) = (start, line)
                start = newline + 1
                try buffer.withUnsafeBufferPointer { bytes in
                    try body(UnsafeBufferPointer(rebasing: bytes[from..<stop]), number)
                }
                return true
            }
            if atEnd {
                guard start < end else { return false }
                line += 1
                let (from, stop, number) = (start, end, line)
                start = end
                try buffer.withUnsafeBufferPointer { bytes in
                    try body(UnsafeBufferPointer(rebasing: bytes[from..<stop]), number)
                }
                return true
            }
            try fill()
        }
    }

    /// Moves the unread bytes to the front (growing the buffer when a line fills it) and reads more.
    private mutating func fill() throws {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { bytes in
                if end > start { bytes.baseAddress!.update(from: bytes.baseAddress! + start, count: end - start) }
            }
            end -= start
            start = 0
        }
        if end == buffer.count {
            guard buffer.count < LineStream.maximumLength else { throw LineTooLong(line: line + 1) }
            buffer.append(contentsOf: repeatElement(0, count: buffer.count))
        }
        let count = buffer.withUnsafeMutableBufferPointer { bytes in
            read(descriptor, bytes.baseAddress! + end, bytes.count - end)
        }
        if count < 0 {
            if errno == EINTR { return }
            throw ReadFailed(reason: String(cString: strerror(errno)))
        }
        if count == 0 { atEnd = true }
        end += count
    }

    /// A line longer than `maximumLength`.
    struct LineTooLong: Error {
        let line: Int
    }

    /// The file or pipe could not be read.
    struct ReadFailed: Error {
        let reason: String
    }
}
