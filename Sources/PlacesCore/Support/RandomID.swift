/// Ids for things people create: a short prefix naming the kind (`g-` a group) and 16 random hex digits.
public enum RandomID {
    /// `prefix` and 16 hex digits from the system's generator.
    public static func make(_ prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        return prefix + Hex.text(generator.next() as UInt64)
    }
}
