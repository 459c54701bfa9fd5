/// A short, stable hash that names a program in its replay strings (FNV-1a, 64 bits, the first
/// six hexadecimal digits): enough to tell one exploration from another, short to copy.
enum Fingerprint {
    static let length = 6

    static func of(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String((String(repeating: "0", count: 16 - hex.count) + hex).prefix(length))
    }
}
