import ArgumentParser
import Foundation
import PlacesCore

extension Places {
    /// `places photo add|list|get|delete`: photos of places, as `/v1/places/{id}/photos` and `/v1/photos/{id}`.
    struct PhotoCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "photo",
            abstract: "Add, list, fetch and delete photos of places (metadata such as GPS is removed before storing).",
            subcommands: [Add.self, List.self, Get.self, Delete.self]
        )

        /// `places photo add PLACE FILE --as USER [--caption TEXT]`: as `POST /v1/places/{id}/photos`.
        struct Add: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Add a JPEG, PNG or WebP photo of a place (POST /v1/places/{id}/photos).",
                discussion: "For example: places photo add cafe-1 ./front.jpg --caption 'The terrace' --as ana"
            )

            @Argument(help: "The place's id.") var place: String
            @Argument(help: "The image file (JPEG, PNG or WebP, at most 5 MiB).") var file: String
            @Option(name: .long, help: "A caption, 1–200 characters.") var caption: String?
            @OptionGroup var acting: ActingOptions

            func run() async throws {
                let bytes = try PhotoCommand.read(file)
                try await acting.run { together in
                    // A file has no Content-Type: it is declared as what its bytes are (a HEIC file is still refused).
                    let upload = PhotoUpload(bytes: bytes, mediaType: PhotoFile.sniff(bytes)?.mediaType, caption: caption)
                    return try await together.services.photos.add(upload, toPlace: place, by: together.caller)
                } text: {
                    $0.commandLineText
                }
            }
        }

        /// `places photo list PLACE`: as `GET /v1/places/{id}/photos`, every page.
        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List a place's photos, newest first (GET /v1/places/{id}/photos).")

            @Argument(help: "The place's id.") var place: String
            @Flag(name: .long, help: "Print the API's JSON (one list).") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                do {
                    let photos = try await Composition.open(databaseOptions).services.photos
                    var all: [Photo] = []
                    var page = PageRequest(limit: 100)
                    while true {
                        let listed = try await photos.photos(ofPlace: place, page: page)
                        all += listed.items
                        guard let next = listed.nextCursor else { break }
                        page = try PageRequest.parse(limit: "100", cursor: next)
                    }
                    if json {
                        try printJSON(all)
                    } else {
                        print(all.isEmpty ? "no photos" : all.map(\.commandLineText).joined(separator: "\n"))
                    }
                } catch {
                    throw Failure.exit(error)
                }
            }
        }

        /// `places photo get ID --output FILE`: as `GET /v1/photos/{id}`.
        struct Get: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Write a photo's stored bytes to a file (GET /v1/photos/{id}).")

            @Argument(help: "The photo's id.") var id: String
            @Option(name: .shortAndLong, help: "The file to write (replaced if it exists).") var output: String
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                do {
                    let photos = try await Composition.open(databaseOptions).services.photos
                    let stored = try await photos.photoToServe(id: id)
                    var bytes: [UInt8] = []
                    bytes.reserveCapacity(stored.photo.byteCount)
                    for index in 0..<stored.chunkCount { bytes += try await photos.chunk(of: stored, index: index) }
                    try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
                    print("wrote \(bytes.count) bytes (\(stored.photo.format.mediaType), \(stored.photo.width)×\(stored.photo.height)) to \(output)")
                } catch {
                    throw Failure.exit(error)
                }
            }
        }

        /// `places photo delete ID [--as USER]`: as `DELETE /v1/photos/{id}`; without `--as`, as the operator (any photo,
        /// those of seeded places included).
        struct Delete: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Delete a photo (DELETE /v1/photos/{id}); without --as, as the operator, who may delete any photo."
            )

            @Argument(help: "The photo's id.") var id: String
            @Option(name: .customLong("as"), help: "Act as this user (who added it, or the owner of its place).") var username: String?
            @Flag(name: .long, help: "Print the API's JSON.") var json = false
            @OptionGroup var databaseOptions: DatabaseOptions

            func run() async throws {
                do {
                    let services = try await Composition.open(databaseOptions).services
                    var editor = PlaceEditor.operatorCLI
                    if let username { editor = .person(try await services.accounts.user(username: username)) }
                    try await services.photos.delete(id: id, by: editor)
                    if json { try printJSON(Deleted(id: id)) } else { print("deleted \(id)") }
                } catch {
                    throw Failure.exit(error)
                }
            }
        }

        /// The file's bytes; a missing or unreadable file is a clear error, and one above the limit is refused unread.
        static func read(_ path: String) throws -> [UInt8] {
            let url = URL(fileURLWithPath: path)
            do {
                let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
                guard size <= PhotoFile.maxBytes else {
                    throw PlacesError(.payloadTooLarge, "\(path) is larger than 5 MiB (5,242,880 bytes), the limit of a photo")
                }
                return [UInt8](try Data(contentsOf: url))
            } catch let error as PlacesError {
                throw Failure.exit(error)
            } catch {
                throw Failure.exit(PlacesError.invalid("file", "cannot read \(path): \(error.localizedDescription)"))
            }
        }
    }
}

extension Photo: CommandLineText {
    /// The id, size, caption, who and when.
    var commandLineText: String {
        var line = "\(id)  \(format.mediaType) \(width)×\(height)  by \(username)  \(Timestamp.text(createdAt))"
        if let caption { line += "  \"\(caption)\"" }
        return line
    }
}
