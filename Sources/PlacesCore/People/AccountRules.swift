import Foundation

/// The rules of account fields: usernames, e-mail addresses, phone numbers, passwords and profiles.
public enum AccountRules {
    /// Shortest and longest username.
    public static let usernameLength = 3...32
    /// Shortest password, in characters.
    public static let minimumPasswordLength = 10
    /// Longest password, in UTF-8 bytes: bcrypt reads no further.
    public static let maximumPasswordBytes = 72
    /// Longest e-mail address.
    public static let emailLength = 254

    /// A username as given, checked: 3–32 ASCII letters, digits, `_` or `.`.
    public static func username(_ text: String?, field: String = "username") throws(PlacesError) -> String {
        guard let text, !text.isEmpty else { throw .invalid(field, "\(field) is required") }
        guard usernameLength.contains(text.utf8.count),
            text.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x5F || byte == 0x2E
            })
        else {
            throw .invalid(field, "username must be 3–32 letters, digits, '_' or '.'")
        }
        return text
    }

    /// The form usernames are compared in: lowercase.
    public static func usernameKey(_ username: String) -> String { username.lowercased() }

    /// An e-mail address as sent (at most 254 characters), trimmed of spaces, tabs and line breaks and lowercased,
    /// checked for one `@` with a dotted domain after it and nothing inside that the API document's pattern refuses
    /// (white space, control characters, `<` and `>`), so nothing it forbids is repaired into an address and nothing
    /// it allows is refused.
    public static func email(_ text: String, field: String = "email") throws(PlacesError) -> String {
        guard text.unicodeScalars.count <= emailLength else { throw .invalid(field, "\(field) is longer than \(emailLength) characters") }
        let trimmed = text.trimmingASCIIWhitespace()
        let email = trimmed.lowercased()
        // Split by code points, as the document's pattern reads them: split by characters, a "." followed by a
        // combining mark or an emoji modifier would be one character, and no dot at all.
        let parts = Array(email.unicodeScalars).split(separator: "@", omittingEmptySubsequences: false)
        let labels = parts.count == 2 ? parts[1].split(separator: ".", omittingEmptySubsequences: false) : []
        guard parts.count == 2, !parts[0].isEmpty, labels.count >= 2, !labels.contains(where: \.isEmpty),
            !trimmed.unicodeScalars.contains(where: AccountRules.refusedInEmail)
        else {
            throw .invalid(field, "email must look like name@example.com")
        }
        return email
    }

    /// What the document's e-mail pattern refuses inside an address: JSON Schema's `\s` (Unicode white space and
    /// U+FEFF), control characters (C0, DEL and C1), `<` and `>`.
    static func refusedInEmail(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0...0x20, 0x7F...0x9F, 0x3C, 0x3E, 0xFEFF: true
        default: scalar.properties.isWhitespace
        }
    }

    /// Longest phone number as sent, separators and surrounding blanks included.
    public static let phoneLength = 40

    /// A phone number in international form: `+`, then 7–15 digits; spaces, `-`, `.`, `(` and `)` are dropped, and so
    /// are spaces, tabs and line breaks around it.
    public static func phone(_ text: String, field: String = "phone") throws(PlacesError) -> String {
        guard text.unicodeScalars.count <= phoneLength else { throw .invalid(field, "\(field) is longer than \(phoneLength) characters") }
        var digits = ""
        var sawPlus = false
        for (offset, character) in text.trimmingASCIIWhitespace().enumerated() {
            switch character {
            case "+" where offset == 0: sawPlus = true
            case "0"..."9": digits.append(character)
            case " ", "-", ".", "(", ")": continue
            default: throw .invalid(field, "phone must be an international number like +44 20 7946 0958")
            }
        }
        guard sawPlus, (7...15).contains(digits.count) else {
            throw .invalid(field, "phone must be an international number like +44 20 7946 0958 (a '+' and 7–15 digits)")
        }
        return "+" + digits
    }

    /// Checks a new password: 10 characters to 72 bytes, no control characters, not the username.
    public static func checkPassword(_ password: String?, username: String, field: String = "password") throws(PlacesError) {
        guard let password, !password.isEmpty else { throw .invalid(field, "\(field) is required") }
        guard password.count >= minimumPasswordLength else {
            throw .invalid(field, "\(field) must be at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw .invalid(field, "\(field) must be at most \(maximumPasswordBytes) bytes in UTF-8 (bcrypt reads no further)")
        }
        guard !password.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
            throw .invalid(field, "\(field) contains a control character")
        }
        guard password.lowercased() != username.lowercased() else {
            throw .invalid(field, "\(field) must not be the username")
        }
    }

    /// `profile` with the patch applied (a cleared field is none).
    static func applying(_ patch: ProfilePatch, to profile: User.Profile) throws(PlacesError) -> User.Profile {
        var profile = profile
        if patch.displayName.changes {
            profile.displayName = try TextRules.shownName(patch.displayName.applied(to: nil), field: "displayName", limit: 80)
        }
        if patch.bio.changes { profile.bio = try TextRules.text(patch.bio.applied(to: nil), field: "bio", limit: 500, allowLineBreaks: true) }
        if patch.city.changes { profile.city = try TextRules.text(patch.city.applied(to: nil), field: "city", limit: 100) }
        if patch.avatarURL.changes { profile.avatarURL = try TextRules.webURL(patch.avatarURL.applied(to: nil), field: "avatarURL") }
        return profile
    }
}
