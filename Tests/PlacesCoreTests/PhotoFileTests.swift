import PlacesCore
import PlacesTestSupport
import Testing

/// Uploaded photos are checked by their bytes and cleaned of everything that could say where they were taken: EXIF
/// (GPS), XMP, comments, text chunks, an appended motion-photo video. Their image data is kept byte for byte, and so
/// are ICC profiles and the orientation (as a minimal EXIF of one tag).
@Suite("Photo files")
struct PhotoFileTests {
    /// A JPEG with every kind of metadata: EXIF with GPS and an orientation, XMP, an ICC profile, an MPF index and its
    /// second image after the end-of-image marker, a comment, a motion photo's video.
    static let fullJPEG = TestImages.jpeg(
        width: 40,
        height: 24,
        gps: true,
        orientation: 6,
        xmp: true,
        comment: true,
        mpf: true,
        trailer: true,
        icc: true
    )
    /// Where `fullJPEG`'s own image ends (after its end-of-image marker).
    static let fullJPEGEnd = fullJPEG.count - TestImages.jpeg(gps: true).count - TestImages.motionPhotoVideo.count
    /// A PNG with every kind of metadata: text chunks, XMP, tIME, an eXIf with GPS and an orientation, an ICC profile.
    static let fullPNG = TestImages.png(width: 5, height: 3, textGPS: true, exif: true, orientation: 8, icc: true)
    /// An extended WebP with every kind of metadata: EXIF with GPS and an orientation, XMP, an ICC profile.
    static let fullWebP = TestImages.webp(width: 7, height: 5, gps: true, xmp: true, orientation: 3, icc: true)

    /// The error cleaning `bytes` declared as `type` throws, nil when it succeeds.
    static func failure(_ bytes: [UInt8], _ type: String?) -> PlacesError? {
        do {
            _ = try PhotoFile.clean(bytes, declaredMediaType: type)
            return nil
        } catch {
            return error
        }
    }

    /// The entries of the first directory of TIFF data, as [tag, type, count, value].
    static func entries(_ tiff: [UInt8]) -> [[Int]]? {
        firstDirectory(tiff)?.map { [$0.tag, $0.type, $0.count, $0.value] }
    }

    @Test func theTestImagesCarryTheMarkers() {
        // Otherwise "no marker is left" would prove nothing.
        #expect(Self.leaks(Self.fullJPEG).count >= 9)
        #expect(Self.leaks(Self.fullPNG).count >= 8)
        #expect(Self.leaks(Self.fullWebP).count >= 6)
        let found = Set(Self.leaks(Self.fullJPEG) + Self.leaks(Self.fullPNG) + Self.leaks(Self.fullWebP))
        #expect(found.count == TestImages.gpsMarkers.count)
    }

    @Test func aJPEGLosesItsMetadataAndKeepsItsImage() throws {
        let file = try PhotoFile.clean(Self.fullJPEG, declaredMediaType: "image/jpeg")
        #expect(file.format == .jpeg && file.width == 40 && file.height == 24 && file.orientation == 6)
        #expect(Self.leaks(file.bytes) == [])
        let before = try #require(Self.segments(Self.fullJPEG))
        let after = try #require(Self.segments(file.bytes))
        #expect(after.map(\.marker) == [0xE0, 0xE1, 0xE2, 0xDB, 0xC0, 0xC4, 0xDA, 0xD9])
        // The tables, the frame and the scan with its data are the upload's, byte for byte.
        let image: Set<UInt8> = [0xDB, 0xC0, 0xC4, 0xDA, 0xD9]
        #expect(after.filter { image.contains($0.marker) } == before.filter { image.contains($0.marker) })
        #expect(after[0] == before[0])  // JFIF
        let exif = after[1].payload
        #expect(exif.starts(with: Array("Exif\0\0".utf8)))
        #expect(Self.entries(Array(exif.dropFirst(6))) == [[0x0112, 3, 1, 6]])
        #expect(after[2].payload.starts(with: Array("ICC_PROFILE\0".utf8) + [1, 1] + TestImages.iccProfile))
        #expect(file.bytes.suffix(2) == [0xFF, 0xD9])
        #expect(try PhotoFile.clean(file.bytes, declaredMediaType: "image/jpeg") == file)
    }

    @Test func aPNGLosesItsMetadataAndKeepsItsImage() throws {
        let file = try PhotoFile.clean(Self.fullPNG, declaredMediaType: "image/png")
        #expect(file.format == .png && file.width == 5 && file.height == 3 && file.orientation == 8)
        #expect(Self.leaks(file.bytes) == [])
        let before = try #require(Self.chunks(Self.fullPNG))
        let after = try #require(Self.chunks(file.bytes))
        #expect(after.map(\.type) == ["IHDR", "iCCP", "eXIf", "IDAT", "IEND"])
        #expect(after.allSatisfy { $0.crcMatches })
        for type in ["IHDR", "iCCP", "IDAT", "IEND"] {
            #expect(after.first { $0.type == type } == before.first { $0.type == type }, "\(type)")
        }
        #expect(Self.entries(after[2].data) == [[0x0112, 3, 1, 8]])
        #expect(try PhotoFile.clean(file.bytes, declaredMediaType: "image/png") == file)
    }

    @Test func aWebPLosesItsMetadataAndKeepsItsImage() throws {
        let file = try PhotoFile.clean(Self.fullWebP, declaredMediaType: "image/webp")
        #expect(file.format == .webp && file.width == 7 && file.height == 5 && file.orientation == 3)
        #expect(Self.leaks(file.bytes) == [])
        let before = try #require(Self.riffChunks(Self.fullWebP))
        let after = try #require(Self.riffChunks(file.bytes))
        #expect(after.map(\.fourCC) == ["VP8X", "ICCP", "VP8L", "EXIF"])
        #expect(after[0].payload == [0x28, 0, 0, 0, 6, 0, 0, 4, 0, 0])  // ICC and EXIF flags; canvas 7 × 5
        #expect(after[1].payload == TestImages.iccProfile)
        #expect(after[2].payload == before.first { $0.fourCC == "VP8L" }?.payload)
        #expect(Self.entries(after[3].payload) == [[0x0112, 3, 1, 3]])
        #expect(file.bytes[4..<8].reversed().reduce(0) { $0 << 8 | Int($1) } == file.bytes.count - 8)
        #expect(try PhotoFile.clean(file.bytes, declaredMediaType: "image/webp") == file)
    }

    @Test func withoutAnOrientationNoEXIFIsLeft() throws {
        let jpeg = try PhotoFile.clean(TestImages.jpeg(gps: true, xmp: true), declaredMediaType: "image/jpeg")
        #expect(jpeg.orientation == nil)
        #expect(try #require(Self.segments(jpeg.bytes)).map(\.marker) == [0xE0, 0xDB, 0xC0, 0xC4, 0xDA, 0xD9])
        let png = try PhotoFile.clean(TestImages.png(exif: true), declaredMediaType: "image/png")
        #expect(png.orientation == nil)
        #expect(try #require(Self.chunks(png.bytes)).map(\.type) == ["IHDR", "IDAT", "IEND"])
        let webp = try PhotoFile.clean(TestImages.webp(gps: true, xmp: true), declaredMediaType: "image/webp")
        #expect(webp.orientation == nil)
        let chunks = try #require(Self.riffChunks(webp.bytes))
        #expect(chunks.map(\.fourCC) == ["VP8X", "VP8L"])
        #expect(chunks.first?.payload.first == 0)  // EXIF, XMP (and ICC) flags cleared
        // An orientation out of range is none.
        #expect(try PhotoFile.clean(TestImages.jpeg(orientation: 9), declaredMediaType: "image/jpeg").orientation == nil)
    }

    @Test func everyMixOfMetadataIsCleanedTheSameWay() throws {
        for mask in 0..<256 {
            let flag = { (bit: Int) in mask & (1 << bit) != 0 }
            let orientation = flag(1) ? 5 : nil
            let jpeg = TestImages.jpeg(
                width: 9,
                height: 17,
                gps: flag(0),
                orientation: orientation,
                xmp: flag(2),
                comment: flag(3),
                mpf: flag(4),
                trailer: flag(5),
                icc: flag(6)
            )
            let png = TestImages.png(textGPS: flag(0), exif: flag(2), orientation: orientation, icc: flag(6))
            let webp =
                flag(7)
                ? TestImages.simpleWebP(width: 3, height: 2) : TestImages.webp(gps: flag(0), xmp: flag(2), orientation: orientation, icc: flag(6))
            for (bytes, format) in [(jpeg, PhotoFormat.jpeg), (png, .png), (webp, .webp)] {
                let file = try PhotoFile.clean(bytes, declaredMediaType: format.mediaType)
                let expectsOrientation = format == .webp && flag(7) ? nil : orientation
                #expect(file.format == format && file.orientation == expectsOrientation, "mask \(mask), \(format)")
                #expect(Self.leaks(file.bytes) == [], "mask \(mask), \(format)")
                #expect(try PhotoFile.clean(file.bytes, declaredMediaType: format.mediaType) == file, "mask \(mask), \(format)")
            }
        }
    }

    @Test func mediaTypesAreReadExactly() {
        #expect(PhotoFormat(mediaType: "image/jpeg") == .jpeg)
        #expect(PhotoFormat(mediaType: " IMAGE/PNG ; charset=binary") == .png)
        #expect(PhotoFormat(mediaType: "image/WebP;q=1") == .webp)
        for other in ["image/jpg", "image/pjpeg", "image/heic", "image/svg+xml", "text/html", "", "image/", "image/png2", "image / png"] {
            #expect(PhotoFormat(mediaType: other) == nil, "\(other)")
        }
        #expect(PhotoFormat.allCases.map(\.mediaType) == ["image/jpeg", "image/png", "image/webp"])
        #expect(PhotoFile.sniff(TestImages.jpeg()) == .jpeg)
        #expect(PhotoFile.sniff(TestImages.png()[...]) == .png)
        #expect(PhotoFile.sniff(TestImages.webp()) == .webp)
        #expect(PhotoFile.sniff(TestImages.svg) == nil && PhotoFile.sniff(TestImages.heic) == nil && PhotoFile.sniff([UInt8]()) == nil)
    }
}
