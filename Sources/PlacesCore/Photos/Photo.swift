import Crypto
import Foundation

/// A picture stored in Places: a photo of a place, or a person's own picture. Its bytes were cleaned of every
/// metadata block that could say where it was taken (`PhotoFile`) before they were stored, and are kept once per
/// content (`contentHash`), however many photos show them.
@PublicInit
public struct Photo: Sendable, Hashable, Identifiable {
    /// Not guessable: `ph-` and 32 random hex digits (128 bits), since anyone with the id may fetch the bytes.
    public var id: String
    /// The place it shows; nil for a person's picture.
    public var placeID: String?
    /// Who added it.
    public var userID: String
    /// Their username (read with the photo).
    public var username: String
    /// JPEG, PNG or WebP.
    public var format: PhotoFormat
    /// Width in pixels, from the file's own header.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// The size of the stored (cleaned) bytes.
    public var byteCount: Int
    /// The SHA-256 of the stored bytes, in lowercase hex: where the bytes are found, and the HTTP entity tag.
    public var contentHash: String
    /// A few words about it (1–200 characters), if any.
    public var caption: String?
    /// When it was added.
    public var createdAt: Date

    /// The address it is served at (relative to the server: `GET /v1/photos/{id}` needs no sign-in).
    public var url: String { Photo.url(id: id) }

    /// The address of the photo `id`.
    public static func url(id: String) -> String { "/v1/photos/\(id)" }

    /// A new photo's id.
    public static func makeID() -> String {
        var generator = SystemRandomNumberGenerator()
        let halves = [generator.next() as UInt64, generator.next() as UInt64]
        return "ph-" + halves.map(Hex.text).joined()
    }

    /// True when `id` could be a photo's id (so a malformed one is a 404 without a database read).
    public static func isWellFormedID(_ id: String) -> Bool {
        id.utf8.count == 35 && id.hasPrefix("ph-") && id.utf8.dropFirst(3).allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

extension Photo: Encodable {
    private enum CodingKeys: String, CodingKey {
        case id, url, placeId, mediaType, width, height, bytes, caption, addedBy, createdAt
    }

    /// The photo as the API shows it: where it is served, its size, its caption, who added it and when (never its
    /// content hash, which its `ETag` carries).
    public func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: CodingKeys.self)
        try fields.encode(id, forKey: .id)
        try fields.encode(url, forKey: .url)
        try fields.encodeIfPresent(placeID, forKey: .placeId)
        try fields.encode(format.mediaType, forKey: .mediaType)
        try fields.encode(width, forKey: .width)
        try fields.encode(height, forKey: .height)
        try fields.encode(byteCount, forKey: .bytes)
        try fields.encodeIfPresent(caption, forKey: .caption)
        try fields.encode(username, forKey: .addedBy)
        try fields.encode(createdAt, forKey: .createdAt)
    }
}

/// A stored photo with what serving or deleting it needs to know of its place.
@PublicInit
public struct StoredPhoto: Sendable, Hashable {
    /// The photo.
    public var photo: Photo
    /// The owner of its place (nil for a seeded place, and for a picture).
    public var placeOwnerID: String?
    /// True when its place is soft-deleted: the photo answers 404 until the place is restored.
    public var placeDeleted: Bool
    /// How many chunks its bytes are stored in.
    public var chunkCount: Int
}

/// A photo's cleaned bytes on their way into storage, split into the chunks the database keeps.
public struct PhotoContent: Sendable, Hashable {
    /// How many bytes one stored chunk holds (the last holds the rest): small enough that serving a photo holds one
    /// chunk in memory at a time, large enough that a 5 MiB photo is 20 reads.
    public static let chunkSize = 262_144

    /// The SHA-256 of `bytes`, lowercase hex.
    public let hash: String
    /// The bytes.
    public let bytes: [UInt8]

    /// The content of `bytes`, its hash computed.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        hash = Hex.text(SHA256.hash(data: bytes))
    }

    /// The bytes in chunks of `chunkSize`, in order.
    public var chunks: [ArraySlice<UInt8>] {
        stride(from: 0, to: bytes.count, by: PhotoContent.chunkSize).map { bytes[$0..<min($0 + PhotoContent.chunkSize, bytes.count)] }
    }
}
