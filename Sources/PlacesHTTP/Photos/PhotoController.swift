import Foundation
import Hummingbird
import PlacesCore

/// Photos of places and people's pictures: uploads (the body is the image itself), lists, the bytes, and removal.
struct PhotoController: Sendable {
    let photos: PhotoService
    /// How long each read of a photo's chunk may take, once the handler has returned (the request's own deadline ends
    /// with the handler, and the body is written after it).
    let chunkDeadline: Duration

    /// How long a browser or a shared cache may keep a photo's bytes without asking again: a day, since a photo can be
    /// deleted (then it answers 404) and its place too; its address never shows other bytes.
    static let cacheControl = "public, max-age=86400"

    /// The uploads that take bodies up to `PhotoFile.maxBytes` (every other route refuses more than 1 MiB): adding a
    /// photo to a place and setting one's picture.
    static func isUpload(method: HTTPRequest.Method, path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        switch method {
        case .post: return parts.count == 5 && parts[0].isEmpty && parts[1] == "v1" && parts[2] == "places" && parts[4] == "photos"
        case .put: return path == "/v1/me/picture"
        default: return false
        }
    }

    /// The answers whose body is streamed from the database a chunk at a time (`GET /v1/photos/{id}`); every other
    /// answer's body is bytes in memory (`RequestMetricsMiddleware` times them apart).
    static func streamsBytes(method: HTTPRequest.Method, path: String) -> Bool {
        guard method == .get else { return false }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0].isEmpty && parts[1] == "v1" && parts[2] == "photos" && !parts[3].isEmpty
    }

    /// `POST /v1/places/{id}/photos?caption=` (signed in), the image as the body → 201 with the photo.
    @Sendable func add(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let placeID = try context.pathText("id")
        let upload = try await Self.upload(request, context: context, caption: context.query["caption"])
        let photo = try await photos.add(upload, toPlace: placeID, by: caller.user)
        return try JSONResponse.created(photo, at: photo.url)
    }

    /// `GET /v1/places/{id}/photos?limit=&cursor=`: a live place's photos, newest first.
    @Sendable func list(request: Request, context: PlacesRequestContext) async throws -> Response {
        let placeID = try context.pathText("id")
        return try JSONResponse.make(try await photos.photos(ofPlace: placeID, page: try PageRequest(context.query)))
    }

    /// `GET /v1/photos/{id}` (no sign-in: an `<img>` sends no bearer token): the bytes with their type, tagged with
    /// their hash, streamed a chunk at a time (each read bounded by its own deadline); 304 to `If-None-Match`.
    @Sendable func bytes(request: Request, context: PlacesRequestContext) async throws -> Response {
        let stored = try await photos.photoToServe(id: try context.pathText("id"))
        let tag = "\"\(stored.photo.contentHash)\""
        var headers: HTTPFields = [.eTag: tag, .cacheControl: Self.cacheControl]
        if let ifNoneMatch = request.headers[.ifNoneMatch], EntityTag.matches(ifNoneMatch, tag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = stored.photo.format.mediaType
        let photos = photos
        let deadline = chunkDeadline
        let body = ResponseBody(contentLength: stored.photo.byteCount) { writer in
            for index in 0..<stored.chunkCount {
                let chunk = try await DatabaseDeadline.own(deadline) { try await photos.chunk(of: stored, index: index) }
                try await writer.write(ByteBuffer(bytes: chunk))
            }
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// `DELETE /v1/photos/{id}` (who added it, or the owner of its place) → 204.
    @Sendable func delete(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await photos.delete(id: try context.pathText("id"), by: .person(caller.user))
        return Response(status: .noContent)
    }

    /// `PUT /v1/me/picture`, the image as the body → the picture (its `url` is the account's `pictureURL`).
    @Sendable func setPicture(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        let upload = try await Self.upload(request, context: context, caption: nil)
        return try JSONResponse.make(try await photos.setPicture(upload, of: caller.user))
    }

    /// `DELETE /v1/me/picture` → 204 (idempotent).
    @Sendable func removePicture(request: Request, context: PlacesRequestContext, caller: Caller) async throws -> Response {
        try await photos.removePicture(of: caller.user)
        return Response(status: .noContent)
    }

    /// The upload's bytes (up to `PhotoFile.maxBytes`: 413 beyond, answered by `RequestLimitsMiddleware`), its declared
    /// type and caption.
    private static func upload(_ request: Request, context: PlacesRequestContext, caption: String?) async throws -> PhotoUpload {
        var request = request
        let buffer = try await request.collectBody(upTo: PhotoFile.maxBytes)
        return PhotoUpload(bytes: Array(buffer.readableBytesView), mediaType: request.headers[.contentType], caption: caption)
    }
}

extension PhotoController {
    /// The photo routes, in the order their paths' `Allow` headers name their methods.
    var routes: [Route] {
        [
            Route(.post, "v1/places/{id}/photos", query: ["caption"], signedIn: add),
            Route(.get, "v1/places/{id}/photos", query: .page, use: list),
            Route(.get, "v1/photos/{id}", use: bytes),
            Route(.delete, "v1/photos/{id}", signedIn: delete),
            Route(.put, "v1/me/picture", signedIn: setPicture),
            Route(.delete, "v1/me/picture", signedIn: removePicture),
        ]
    }
}
