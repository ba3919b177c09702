/// The image formats a photo may be uploaded in: each is read by its own signature and header, never by its name.
public enum PhotoFormat: String, Sendable, Hashable, CaseIterable {
    /// JPEG (JFIF or EXIF), baseline or progressive.
    case jpeg
    /// PNG, including animated PNG.
    case png
    /// WebP: lossy, lossless or extended (animation, alpha, ICC profile).
    case webp

    /// The media type the format is sent and served as (`image/jpeg`, `image/png`, `image/webp`).
    public var mediaType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }

    /// The format a Content-Type names: one of the three media types exactly, in any case, with parameters after
    /// `;` and surrounding whitespace ignored. `image/jpg` and other near misses are not accepted.
    public init?(mediaType: String) {
        let essence = mediaType.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let trimmed = essence.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
        guard let format = Self.allCases.first(where: { $0.mediaType == String(trimmed).lowercased() }) else { return nil }
        self = format
    }

    /// The format's name as people write it, for messages.
    var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }
}
