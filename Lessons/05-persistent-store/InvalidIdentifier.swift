/// An identifier (or store name) that cannot safely become a file name, and why.
///
/// Identifiers become file names inside the store's folder. Anything that could name a file
/// elsewhere (`..`, a `/`), or that the file system would refuse or mangle, is rejected before any
/// file is touched.
public struct InvalidIdentifier: Error, Equatable, CustomStringConvertible {
    public enum Reason: Equatable, Sendable {
        case empty
        case dotOrDotDot
        case leadingDot
        case containsSlash
        case containsNUL
        case containsControlCharacter(UInt32)
        case tooLong(bytes: Int)
    }

    /// The longest identifier, in UTF-8 bytes: `NAME_MAX` on Linux and macOS.
    public static let maximumLength = 255

    public let identifier: String
    public let reason: Reason

    public var description: String {
        let shown = identifier.count > 40 ? String(identifier.prefix(40)) + "…" : identifier
        let why =
            switch reason {
            case .empty: "it is empty"
            case .dotOrDotDot: "'.' and '..' name folders, not files"
            case .leadingDot: "names starting with '.' are reserved for the store's own files"
            case .containsSlash: "it contains '/', which would name a file in another folder"
            case .containsNUL: "it contains a NUL character, which ends a path early"
            case .containsControlCharacter(let scalar):
                "it contains the control character U+\(String(scalar, radix: 16, uppercase: true))"
            case .tooLong(let bytes): "it is \(bytes) bytes long; the limit is \(Self.maximumLength)"
            }
        return "invalid identifier \(shown.debugDescription): \(why)"
    }

    /// Throws unless `identifier` is a plain file name the store may use.
    public static func check(_ identifier: String) throws(InvalidIdentifier) {
        func reject(_ reason: Reason) -> InvalidIdentifier { InvalidIdentifier(identifier: identifier, reason: reason) }
        if identifier.isEmpty { throw reject(.empty) }
        if identifier == "." || identifier == ".." { throw reject(.dotOrDotDot) }
        if identifier.hasPrefix(".") { throw reject(.leadingDot) }
        for scalar in identifier.unicodeScalars {
            if scalar == "/" { throw reject(.containsSlash) }
            if scalar.value == 0 { throw reject(.containsNUL) }
            if scalar.value < 0x20 || scalar.value == 0x7F { throw reject(.containsControlCharacter(scalar.value)) }
        }
        let bytes = identifier.utf8.count
        if bytes > maximumLength { throw reject(.tooLong(bytes: bytes)) }
    }

    /// Whether `identifier` passes `check`.
    public static func isValid(_ identifier: String) -> Bool {
        (try? check(identifier)) != nil
    }
}
