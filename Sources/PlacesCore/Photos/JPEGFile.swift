/// A JPEG read segment by segment and written back with only what a decoder needs: the tables, the frame, the scans
/// (their entropy-coded data copied byte for byte), the JFIF header without its thumbnail, ICC profiles and Adobe's
/// colour-transform segment. EXIF, XMP, IPTC/Photoshop, MPF, comments and anything after the end-of-image marker
/// (where a motion photo keeps its video) are dropped; an EXIF orientation comes back as a minimal EXIF segment.
struct JPEGFile {
    /// The width, from the first frame header.
    let width: Int
    /// The height, from the first frame header.
    let height: Int
    /// The EXIF orientation the upload carried (1–8).
    let orientation: Int?
    /// The cleaned file.
    let bytes: [UInt8]

    /// Reads `input` (which starts with the JPEG signature) and cleans it.
    init(cleaning input: [UInt8]) throws(PlacesError) {
        let reader = ByteReader(input)
        guard reader.matches([0xFF, 0xD8], at: 0) else { throw Self.broken("it does not start with a start-of-image marker") }
        var leading: [UInt8] = []  // the JFIF header, which must stay right after the start-of-image marker
        var body: [UInt8] = []
        var frame: (width: Int, height: Int)?
        var orientation: Int?
        var scans = 0
        var position = 2
        while true {
            guard reader.byte(at: position) == 0xFF else { throw Self.broken("byte \(position) is not the start of a marker") }
            while reader.byte(at: position) == 0xFF { position += 1 }  // fill bytes before a marker
            guard let marker = reader.byte(at: position) else { throw Self.broken("it ends without an end-of-image marker") }
            position += 1
            switch marker {
            case 0xD9:
                guard let frame else { throw Self.broken("it has no frame header (SOF)") }
                guard scans > 0 else { throw Self.broken("it has no image data (no scan)") }
                var bytes: [UInt8] = [0xFF, 0xD8] + leading
                if let orientation { bytes += Self.exifSegment(orientation: orientation) }
                bytes += body
                bytes += [0xFF, 0xD9]
                self.width = frame.width
                self.height = frame.height
                self.orientation = orientation
                self.bytes = bytes
                return
            case 0x00, 0xD8, 0xD0...0xD7:
                throw Self.broken("a marker \(Self.name(marker)) stands where a segment should start")
            case 0x01:
                continue  // TEM: a marker without a segment, meaningless here
            default:
                break
            }
            guard let length = reader.uint16BE(at: position), length >= 2, let range = reader.range(position + 2, length: length - 2)
            else { throw Self.broken("a segment (\(Self.name(marker))) runs past the end of the file") }
            let payload = input[range]
            let segment = position..<range.upperBound  // the length and the payload, kept as they are
            position = range.upperBound
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                let size = try Self.frameSize(payload)
                if frame == nil { frame = size }
                Self.append(marker, input[segment], to: &body)
            case 0xC4, 0xCC, 0xDB, 0xDC, 0xDD, 0xDE, 0xDF:
                Self.append(marker, input[segment], to: &body)  // DHT, DAC, DQT, DNL, DRI, DHP, EXP
            case 0xDA:
                guard frame != nil else { throw Self.broken("a scan comes before the frame header (SOF)") }
                try Self.checkScanHeader(payload)
                Self.append(marker, input[segment], to: &body)
                let end = try Self.entropyCodedEnd(input, from: position)
                body += input[position..<end]
                position = end
                scans += 1
            case 0xE0:
                guard let header = Self.jfifHeader(payload) else { continue }
                if body.isEmpty { leading += header } else { body += header }
            case 0xE1:
                if orientation == nil, ByteReader(payload).matches(PhotoOrientation.exifPrefix, at: 0) {
                    orientation = PhotoOrientation.read(exif: payload)
                }
            case 0xE2 where ByteReader(payload).matches(Array("ICC_PROFILE\0".utf8), at: 0):
                Self.append(marker, input[segment], to: &body)
            case 0xEE where ByteReader(payload).matches(Array("Adobe".utf8), at: 0):
                Self.append(marker, input[segment], to: &body)
            default:
                continue  // other APPn (XMP, MPF, IPTC/Photoshop, …), COM and reserved segments
            }
        }
    }

    /// The width and height of a frame header (SOFn): precision, height, width, then three bytes per component.
    private static func frameSize(_ payload: ArraySlice<UInt8>) throws(PlacesError) -> (width: Int, height: Int) {
        let reader = ByteReader(payload)
        guard let height = reader.uint16BE(at: 1), let width = reader.uint16BE(at: 3), let components = reader.byte(at: 5),
            components >= 1, payload.count == 6 + 3 * components
        else { throw broken("its frame header (SOF) is malformed") }
        return (width, height)
    }

    /// Checks a scan header (SOS): a component count of 1–4, two bytes per component, then three more.
    private static func checkScanHeader(_ payload: ArraySlice<UInt8>) throws(PlacesError) {
        guard let components = ByteReader(payload).byte(at: 0), (1...4).contains(components), payload.count == 4 + 2 * components
        else { throw broken("a scan header (SOS) is malformed") }
    }

    /// Where the entropy-coded data that starts at `start` ends: at the first marker that is not a stuffed zero
    /// (FF00) or a restart marker (RST0–7), fill bytes before it included in neither.
    private static func entropyCodedEnd(_ input: [UInt8], from start: Int) throws(PlacesError) -> Int {
        var position = start
        while true {
            guard position < input.count, let mark = input[position...].firstIndex(of: 0xFF) else {
                throw broken("its image data ends without an end-of-image marker")
            }
            var next = mark + 1
            while next < input.count, input[next] == 0xFF { next += 1 }
            guard next < input.count else { throw broken("its image data ends without an end-of-image marker") }
            if input[next] == 0x00 || (0xD0...0xD7).contains(input[next]) {
                position = next + 1
            } else {
                return mark
            }
        }
    }

    /// Appends a segment: its marker, then its length and payload as they came.
    private static func append(_ marker: Int, _ segment: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(0xFF)
        bytes.append(UInt8(truncatingIfNeeded: marker))
        bytes += segment
    }

    /// The JFIF header (APP0) as kept: its first 14 bytes with no thumbnail (a thumbnail can show what a crop
    /// removed); nil for any other APP0 (the JFXX thumbnail extension among them) or a short one.
    private static func jfifHeader(_ payload: ArraySlice<UInt8>) -> [UInt8]? {
        guard ByteReader(payload).matches(Array("JFIF\0".utf8), at: 0), payload.count >= 14 else { return nil }
        var header: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + payload.prefix(12)
        header += [0, 0]  // thumbnail width and height
        return header
    }

    /// An APP1 segment holding the minimal EXIF with `orientation`.
    private static func exifSegment(orientation: Int) -> [UInt8] {
        let exif = PhotoOrientation.exifPrefix + PhotoOrientation.tiff(orientation: orientation)
        var segment: [UInt8] = [0xFF, 0xE1]
        segment.appendUInt16BE(exif.count + 2)
        return segment + exif
    }

    /// A marker as JPEG's specification writes it (`FFD9`).
    private static func name(_ marker: Int) -> String {
        let hex = String(marker, radix: 16, uppercase: true)
        return "FF" + (hex.count < 2 ? "0" + hex : hex)
    }

    /// The error for a JPEG that cannot be read.
    private static func broken(_ reason: String) -> PlacesError {
        PhotoFile.broken(.jpeg, reason)
    }
}
