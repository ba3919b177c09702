/// Real, decodable images built in code, with every kind of metadata a phone or an editor leaves in a file (GPS in
/// EXIF and XMP, comments, text chunks, an appended motion-photo video), for the tests of photo uploads. Each builder
/// makes the same bytes on every run.
public enum TestImages {
    /// Byte strings that a cleaned file must never hold: the test images' GPS values (as text and as EXIF's
    /// rationals), the camera's name, their comments, XMP's GPS property and the appended video's signature. None can
    /// turn up by chance in what cleaning keeps (the test images' tables, headers and pixel data).
    public static let gpsMarkers: [[UInt8]] = [
        rational(2640, 100, bigEndian: true), rational(2640, 100, bigEndian: false),
        rational(4008, 100, bigEndian: true), rational(4008, 100, bigEndian: false),
        Array("51.5074".utf8), Array("GPS".utf8), Array("exif:GPSLatitude".utf8), Array("shot at home".utf8),
        Array("ftypmp42".utf8), Array(cameraMake.utf8), Array("http://ns.adobe.com/xap/1.0/".utf8), Array("MPF\0".utf8),
        Array("2024:05:04".utf8),
    ]

    /// The EXIF camera make of the test images (a marker too: EXIF is dropped whole).
    public static let cameraMake = "PlacesTestCam"

    /// The test images' ICC profile: a well-formed header (its size, a grey display profile, `acsp`, D50) and no tags,
    /// so not one a viewer can use (viewers ignore such a profile); the tests only need to find it kept as it is.
    public static let iccProfile: [UInt8] = {
        var bytes = uint32(132, true) + [0, 0, 0, 0] + [0x02, 0x10, 0, 0] + Array("mntrGRAYXYZ ".utf8)
        bytes += [UInt8](repeating: 0, count: 12) + Array("acsp".utf8)  // no date; the signature
        bytes += [UInt8](repeating: 0, count: 12) + Array("test".utf8) + [UInt8](repeating: 0, count: 12)  // …, model, …, intent 0
        bytes += [0, 0, 0xF6, 0xD6, 0, 1, 0, 0, 0, 0, 0xD3, 0x2D] + Array("plcs".utf8)  // D50, creator
        bytes += [UInt8](repeating: 0, count: 16 + 28)  // profile ID, reserved
        return bytes + uint32(0, true)  // no tags
    }()

    /// An SVG drawing (with a script in it), which is text, not one of the accepted images.
    public static let svg = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><script>alert(1)</script><rect width="8" height="8"/></svg>
        """.utf8
    )

    /// An HTML page, as someone might upload it named `.png`.
    public static let html = Array("<!DOCTYPE html><html><body><img src=x onerror=alert(1)><p>not an image</p></body></html>\n".utf8)

    /// The start of a HEIC file: an ISO base media `ftyp` box (major brand `heic`, compatible `mif1` and `heic`), then
    /// the start of a `meta` box.
    public static let heic: [UInt8] =
        [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8) + [0, 0, 0, 0x22] + Array("meta".utf8)
        + [UInt8](repeating: 0, count: 30)

    /// EXIF's TIFF data: IFD0 with the camera make, the orientation when given and, with `gps`, a GPS IFD
    /// (51°30'26.40" N, 0°7'40.08" W: 51.5074, -0.1278) and a date. In the byte order asked for.
    public static func exifTIFF(gps: Bool, orientation: Int?, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        bytes += uint16(42, bigEndian) + uint32(8, bigEndian)
        let make = Array(cameraMake.utf8) + [0]
        let ifd0Count = 1 + (orientation == nil ? 0 : 1) + (gps ? 1 : 0)
        let makeOffset = 8 + 2 + 12 * ifd0Count + 4
        let gpsOffset = makeOffset + make.count
        let date = Array("2024:05:04\0".utf8) + [0]  // GPSDateStamp, padded to an even size
        let gpsCount = 6
        let dateOffset = gpsOffset + 2 + 12 * gpsCount + 4
        let latitudeOffset = dateOffset + date.count
        let longitudeOffset = latitudeOffset + 24
        // IFD0, its entries in tag order.
        bytes += uint16(ifd0Count, bigEndian)
        bytes += entry(0x010F, type: 2, count: make.count, value: uint32(makeOffset, bigEndian), bigEndian)
        if let orientation { bytes += entry(0x0112, type: 3, count: 1, value: uint16(orientation, bigEndian) + [0, 0], bigEndian) }
        if gps { bytes += entry(0x8825, type: 4, count: 1, value: uint32(gpsOffset, bigEndian), bigEndian) }
        bytes += uint32(0, bigEndian) + make
        guard gps else { return bytes }
        bytes += uint16(gpsCount, bigEndian)
        bytes += entry(0x0000, type: 1, count: 4, value: [2, 2, 0, 0], bigEndian)  // GPSVersionID 2.2
        bytes += entry(0x0001, type: 2, count: 2, value: Array("N".utf8) + [0, 0, 0], bigEndian)
        bytes += entry(0x0002, type: 5, count: 3, value: uint32(latitudeOffset, bigEndian), bigEndian)
        bytes += entry(0x0003, type: 2, count: 2, value: Array("W".utf8) + [0, 0, 0], bigEndian)
        bytes += entry(0x0004, type: 5, count: 3, value: uint32(longitudeOffset, bigEndian), bigEndian)
        bytes += entry(0x001D, type: 2, count: 11, value: uint32(dateOffset, bigEndian), bigEndian)
        bytes += uint32(0, bigEndian) + date
        bytes += rational(51, 1, bigEndian: bigEndian) + rational(30, 1, bigEndian: bigEndian) + rational(2640, 100, bigEndian: bigEndian)
        bytes += rational(0, 1, bigEndian: bigEndian) + rational(7, 1, bigEndian: bigEndian) + rational(4008, 100, bigEndian: bigEndian)
        return bytes
    }

    /// An XMP packet with the GPS position in it, as cameras and editors write it.
    public static let xmpPacket = Array(
        """
        <?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF \
        xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
        xmlns:exif="http://ns.adobe.com/exif/1.0/"><exif:GPSLatitude>51,30.44N</exif:GPSLatitude>\
        <exif:GPSLongitude>0,7.668W</exif:GPSLongitude></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>
        """.utf8
    )

    /// A 12-byte TIFF directory entry.
    static func entry(_ tag: Int, type: Int, count: Int, value: [UInt8], _ bigEndian: Bool) -> [UInt8] {
        uint16(tag, bigEndian) + uint16(type, bigEndian) + uint32(count, bigEndian) + value
    }

    /// A TIFF RATIONAL: numerator and denominator, 32 bits each.
    static func rational(_ numerator: Int, _ denominator: Int, bigEndian: Bool) -> [UInt8] {
        uint32(numerator, bigEndian) + uint32(denominator, bigEndian)
    }

    /// The low 16 bits of `value` in the byte order asked for.
    static func uint16(_ value: Int, _ bigEndian: Bool) -> [UInt8] {
        let bytes = [UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
        return bigEndian ? bytes : bytes.reversed()
    }

    /// The low 32 bits of `value` in the byte order asked for.
    static func uint32(_ value: Int, _ bigEndian: Bool) -> [UInt8] {
        let bytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
        return bigEndian ? bytes : bytes.reversed()
    }

    /// True when `needle` occurs in `haystack`.
    public static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The markers of `gpsMarkers` found in `bytes`, as text: empty for a cleaned file.
    public static func leaks(_ bytes: [UInt8]) -> [String] {
        gpsMarkers.filter { contains(bytes, $0) }.map { String(decoding: $0, as: UTF8.self).debugDescription }
    }
}
