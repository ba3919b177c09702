import PlacesCore
import PlacesTestSupport
import Testing

/// What is refused, and how: 415 for what is not one of the three formats (or not what it was declared as), 400 for
/// a broken or oversized image; and no input, however mangled, crashes the reader.
extension PhotoFileTests {
    @Test(arguments: [nil, "image/heic", "image/heif", "image/jpeg", "image/png", "image/webp", "application/octet-stream"])
    func heicIsRefusedNamingTheThreeTypes(declared: String?) {
        var avif = TestImages.heic
        avif.replaceSubrange(8..<12, with: Array("avif".utf8))
        avif.replaceSubrange(16..<24, with: Array("avifmiaf".utf8))
        for bytes in [TestImages.heic, avif] {
            let error = Self.failure(bytes, declared)
            #expect(error?.code == .unsupportedMediaType && error?.field == nil)
            for word in ["HEIC", "image/jpeg", "image/png", "image/webp"] {
                #expect(error?.message.contains(word) == true, "\(word) in \(String(describing: error))")
            }
        }
    }

    @Test func bytesThatAreNotTheDeclaredTypeAreRefused() {
        let cases: [(bytes: [UInt8], declared: String?, says: String)] = [
            (TestImages.svg, "image/png", "not a PNG image"),
            (TestImages.html, "image/png", "not a PNG image"),
            (TestImages.jpeg(), "image/png", "not a PNG image"),
            (TestImages.png(), "image/webp", "not a WebP image"),
            (TestImages.webp(), "image/jpeg", "not a JPEG image"),
            (Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 20), "image/jpeg", "not a JPEG image"),
            (TestImages.svg, "image/svg+xml", "image/jpeg, image/png or image/webp"),
            (TestImages.jpeg(), "text/plain", "'text/plain' is not accepted"),
            (TestImages.jpeg(), "image/jpg", "image/jpeg, image/png or image/webp"),
            (TestImages.png(), nil, "image/jpeg, image/png or image/webp"),
        ]
        for (bytes, declared, says) in cases {
            let error = Self.failure(bytes, declared)
            #expect(error?.code == .unsupportedMediaType, "\(String(describing: declared))")
            #expect(error?.message.contains(says) == true, "\(String(describing: error))")
        }
    }

    @Test func emptyAndOversizedBodiesAreRefused() throws {
        let empty = Self.failure([], "image/jpeg")
        #expect(empty?.code == .invalidInput && empty?.field == "body" && empty?.message == "the body is empty: send the image itself")
        let jpeg = TestImages.jpeg()
        let large = jpeg + [UInt8](repeating: 0, count: PhotoFile.maxBytes - jpeg.count + 1)
        #expect(Self.failure(large, "image/jpeg")?.code == .payloadTooLarge)
        // At the bound exactly it is read (and what follows the end-of-image marker dropped).
        let bound = Array(large.dropLast())
        #expect(try PhotoFile.clean(bound, declaredMediaType: "image/jpeg").bytes == PhotoFile.clean(jpeg, declaredMediaType: "image/jpeg").bytes)
    }

    @Test func aSideOverEightThousandPixelsIsRefused() throws {
        let tooLarge: [(String, [UInt8], String)] = [
            ("JPEG wide", TestImages.jpeg(width: 8_001, height: 8), "image/jpeg"),
            ("JPEG tall", TestImages.jpeg(width: 8, height: 8_001), "image/jpeg"),
            ("PNG wide", TestImages.png(width: 8_001, height: 1), "image/png"),
            ("PNG tall", TestImages.png(width: 1, height: 8_001), "image/png"),
            ("WebP wide", TestImages.webp(width: 8_001), "image/webp"),
            ("WebP tall simple", TestImages.simpleWebP(height: 8_001), "image/webp"),
        ]
        for (name, bytes, type) in tooLarge {
            let error = Self.failure(bytes, type)
            #expect(error?.code == .invalidInput && error?.field == "body", "\(name)")
            #expect(error?.message.contains("at most 8,000 pixels on a side") == true, "\(name): \(String(describing: error))")
        }
        #expect(try PhotoFile.clean(TestImages.jpeg(width: 8_000, height: 8_000), declaredMediaType: "image/jpeg").width == 8_000)
        #expect(try PhotoFile.clean(TestImages.png(width: 8_000, height: 1), declaredMediaType: "image/png").width == 8_000)
        // A side of 0 is no image either.
        #expect(Self.failure(TestImages.jpeg(width: 0), "image/jpeg")?.code == .invalidInput)
        #expect(Self.failure(TestImages.png(width: 0, height: 1), "image/png")?.code == .invalidInput)
    }

    @Test func everyPrefixFailsUntilTheImageIsComplete() throws {
        let images: [(bytes: [UInt8], type: String, complete: Int)] = [
            (Self.fullJPEG, "image/jpeg", Self.fullJPEGEnd),
            (TestImages.jpeg(), "image/jpeg", TestImages.jpeg().count),
            (Self.fullPNG, "image/png", Self.fullPNG.count),
            (Self.fullWebP, "image/webp", Self.fullWebP.count),
            (TestImages.simpleWebP(), "image/webp", TestImages.simpleWebP().count),
        ]
        for (bytes, type, complete) in images {
            let whole = try PhotoFile.clean(bytes, declaredMediaType: type)
            for length in 0..<bytes.count {
                let prefix = Array(bytes.prefix(length))
                if length >= complete {
                    // What follows a JPEG's end-of-image marker is dropped: cutting it changes nothing.
                    #expect(try PhotoFile.clean(prefix, declaredMediaType: type) == whole, "\(type), \(length) bytes")
                } else {
                    let error = Self.failure(prefix, type)
                    #expect(error?.code == .invalidInput || error?.code == .unsupportedMediaType, "\(type), \(length) bytes")
                }
            }
        }
    }

    @Test func aPNGWhoseCRCDoesNotMatchIsRefused() {
        var crc = TestImages.png()
        crc[8 + 4 + 4 + 13 + 3] ^= 0x01  // IHDR's CRC
        var data = TestImages.png()
        let idat = data.count - 12 - 4 - 5  // a byte of IDAT's pixels
        data[idat] ^= 0x40
        for bytes in [crc, data] {
            let error = Self.failure(bytes, "image/png")
            #expect(error?.code == .invalidInput && error?.field == "body" && error?.message.contains("CRC") == true, "\(String(describing: error))")
        }
    }

    @Test func aPNGsChunksAreCheckedAndUnknownOnesDropped() throws {
        let png = TestImages.png()
        let end = png.count - 12  // IEND
        let withChunk = { (chunk: [UInt8]) in Array(png[..<end]) + chunk + Array(png[end...]) }
        // An ancillary chunk PNG does not define (a private one, say) is dropped; one that is critical is refused.
        #expect(try PhotoFile.clean(withChunk(TestImages.chunk("prVt", Array("GPS 51.5074".utf8))), declaredMediaType: "image/png").bytes == png)
        #expect(Self.failure(withChunk(TestImages.chunk("ABCD", [1, 2])), "image/png")?.code == .invalidInput)
        // Bytes after IEND are dropped.
        #expect(try PhotoFile.clean(png + Array("GPS 51.5074".utf8), declaredMediaType: "image/png").bytes == png)
        // No IDAT, a second IHDR, a length past 2³¹: refused.
        let noImage = Array(png[..<33]) + TestImages.chunk("IEND", [])
        let secondHeader = withChunk(Array(png[8..<33]))
        var hugeLength = png
        hugeLength.replaceSubrange(33..<37, with: [0xFF, 0xFF, 0xFF, 0xF0])
        for bytes in [noImage, secondHeader, hugeLength] {
            #expect(Self.failure(bytes, "image/png")?.code == .invalidInput)
        }
    }

    @Test func aJPEGsScansAreCopiedWhole() throws {
        let segment = { (marker: UInt8, payload: [UInt8]) -> [UInt8] in
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        let oneCode: [UInt8] = [1] + [UInt8](repeating: 0, count: 15) + [0]
        let header =
            [0xFF, 0xD8] + segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
            + segment(0xC2, [8, 0, 16, 0, 16, 1, 1, 0x11, 0]) + segment(0xDD, [0, 2])  // progressive, restart interval 2
        let firstScan: [UInt8] = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xFF, 0xD1, 0x78]  // stuffing, RST0, fill + RST1
        let secondScan: [UInt8] = [0x9A, 0xFF, 0x00, 0xBC]
        let bytes =
            header + segment(0xC4, [0x00] + oneCode) + segment(0xDA, [1, 1, 0x00, 0, 0, 0]) + firstScan
            + segment(0xC4, [0x10] + oneCode) + segment(0xFE, Array("shot at home".utf8)) + segment(0xDA, [1, 1, 0x00, 1, 63, 0])
            + secondScan + [0xFF, 0xFF, 0xD9]
        let file = try PhotoFile.clean(bytes, declaredMediaType: "image/jpeg")
        #expect(file.width == 16 && file.height == 16)
        let scans = try #require(Self.segments(file.bytes)).filter { $0.marker == 0xDA }.map(\.data)
        #expect(scans == [firstScan, secondScan])
        #expect(Self.leaks(file.bytes) == [])
        // A scan before any frame header, a restart marker outside a scan: refused.
        let noFrame = [0xFF, 0xD8] + segment(0xDA, [1, 1, 0x00, 0, 63, 0]) + [0x00, 0xFF, 0xD9]
        let strayRestart = header + [0xFF, 0xD0] + segment(0xDA, [1, 1, 0x00, 0, 63, 0]) + [0x00, 0xFF, 0xD9]
        for broken in [noFrame, strayRestart] {
            #expect(Self.failure(broken, "image/jpeg")?.code == .invalidInput)
        }
    }

    @Test func aWebPsContainerIsCheckedAndTrimmed() throws {
        let simple = TestImages.simpleWebP(width: 3, height: 2)
        let file = try PhotoFile.clean(simple + Array("GPS 51.5074".utf8), declaredMediaType: "image/webp")
        #expect(file.bytes == simple && file.width == 3 && file.height == 2)
        var tooLong = simple
        tooLong[4] &+= 2  // the RIFF size says two bytes more than there are
        #expect(Self.failure(tooLong, "image/webp")?.code == .invalidInput)
        // A lossy key frame's header gives the size; a frame that is not a key frame is refused.
        let lossy = { (tag: UInt8) in
            let payload: [UInt8] = [tag, 0x02, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x01, 0xF0, 0x00] + [UInt8](repeating: 0, count: 10)
            let body = Array("WEBP".utf8) + TestImages.riffChunk("VP8 ", payload)
            return Array("RIFF".utf8) + [UInt8(body.count), 0, 0, 0] + body
        }
        let keyFrame = try PhotoFile.clean(lossy(0x50), declaredMediaType: "image/webp")
        #expect(keyFrame.width == 320 && keyFrame.height == 240 && keyFrame.bytes == lossy(0x50))
        #expect(Self.failure(lossy(0x51), "image/webp")?.code == .invalidInput)
        // EXIF written with JPEG's "Exif\0\0" before its TIFF data is read all the same; unknown chunks are dropped.
        let exif = Array("Exif\0\0".utf8) + TestImages.exifTIFF(gps: true, orientation: 7, bigEndian: true)
        let extended = TestImages.webp()
        let body = Array(extended[12...]) + TestImages.riffChunk("EXIF", exif) + TestImages.riffChunk("GPSx", Array("51.5074".utf8))
        let withPrefix = Array("RIFF".utf8) + [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: (body.count + 4) >> $0) } + Array("WEBP".utf8) + body
        let cleaned = try PhotoFile.clean(withPrefix, declaredMediaType: "image/webp")
        #expect(cleaned.orientation == 7 && Self.leaks(cleaned.bytes) == [])
        #expect(try #require(Self.riffChunks(cleaned.bytes)).map(\.fourCC) == ["VP8X", "VP8L", "EXIF"])
    }

    /// `input` changed one to three times: a byte set or a bit flipped, bytes inserted, a span deleted or repeated,
    /// a length-like field overwritten, the tail cut.
    static func mutate(_ input: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = input
        for _ in 0...Int(random.next() % 3) {
            let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
            switch random.next() % 7 {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: random.next())
            case 1 where !bytes.isEmpty: bytes[position] ^= 1 << UInt8(random.next() % 8)
            case 2: bytes.insert(contentsOf: [[0xFF], [0xFF, 0xD9], [0, 0], [0xFF, 0xDA]][Int(random.next() % 4)], at: position)
            case 3 where !bytes.isEmpty: bytes.removeSubrange(position..<min(bytes.count, position + Int(random.next() % 16) + 1))
            case 4 where !bytes.isEmpty:
                bytes.insert(contentsOf: bytes[position..<min(bytes.count, position + Int(random.next() % 24) + 1)], at: position)
            case 5 where position + 4 <= bytes.count:
                let values: [[UInt8]] = [
                    [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0, 0, 0, 0], [0, 0, 0xFF, 0xFF], [0xFF, 0xFF, 0, 0],
                ]
                bytes.replaceSubrange(position..<(position + 4), with: values[Int(random.next() % 5)])
            default: bytes = Array(bytes.prefix(position))
            }
        }
        return bytes
    }

    @Test func mutatedImagesAnswerACleanFileOrAnError() {
        let images: [(bytes: [UInt8], type: String)] = [
            (Self.fullJPEG, "image/jpeg"), (TestImages.jpeg(width: 24, height: 16), "image/jpeg"), (Self.fullPNG, "image/png"),
            (TestImages.png(), "image/png"), (Self.fullWebP, "image/webp"), (TestImages.simpleWebP(width: 2, height: 2), "image/webp"),
        ]
        var random = SplitMix64(seed: 0x9407_0F11)
        var cleaned = 0
        var refused = 0
        for iteration in 0..<2_000 {
            let (original, type) = images[iteration % images.count]
            var bytes = Self.mutate(original, &random)
            if iteration % 10 == 9 {
                // A signature followed by noise.
                bytes = Array(original.prefix(12)) + (0..<Int(random.next() % 64)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            do {
                let file = try PhotoFile.clean(bytes, declaredMediaType: type)
                cleaned += 1
                #expect((1...PhotoFile.maxSide).contains(file.width) && (1...PhotoFile.maxSide).contains(file.height))
                #expect(try PhotoFile.clean(file.bytes, declaredMediaType: type) == file, "iteration \(iteration): \(bytes)")
            } catch {
                refused += 1
                #expect([.invalidInput, .unsupportedMediaType].contains(error.code), "iteration \(iteration): \(error)")
            }
        }
        // Both outcomes occur, so the mutations reach past the first checks.
        #expect(cleaned > 100 && refused > 100, "cleaned \(cleaned), refused \(refused)")
    }
}
