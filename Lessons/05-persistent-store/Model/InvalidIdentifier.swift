import Foundation

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
        case containsLineOrParagraphSeparator(UInt32)
        case containsBidiControl(UInt32)
        case tooLong(bytes: Int)
    }

    /// The longest identifier, in UTF-8 bytes: `NAME_MAX` on Linux and macOS.
    public static let maximumLength = 255

    public let identifier: String
    public let reason: Reason

    public var description: String {
        // debugDescription escapes controls; the separators and bidi controls it leaves as they are
        // are escaped here, so that the message itself is neither broken nor reordered.
        let cut = identifier.count > 40 ? String(identifier.prefix(40)) + "…" : identifier
        let shown = String(
            String.UnicodeScalarView(
                cut.debugDescription.unicodeScalars.flatMap { scalar in
                    Self.isSeparator(scalar) || Self.isBidiControl(scalar)
                        ? Array("\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars) : [scalar]
                }
            )
        )
        let why =
            switch reason {
            case .empty: "it is empty"
            case .dotOrDotDot: "'.' and '..' name folders, not files"
            case .leadingDot: "names starting with '.' are reserved for the store's own files"
            case .containsSlash: "it contains '/', which would name a file in another folder"
            case .containsNUL: "it contains a NUL character, which ends a path early"
            case .containsControlCharacter(let scalar):
                "it contains the control character \(Self.codePoint(scalar))"
            case .containsLineOrParagraphSeparator(let scalar):
                "it contains the \(scalar == 0x2028 ? "line" : "paragraph") separator \(Self.codePoint(scalar)), which "
                    + "breaks the line it is shown on"
            case .containsBidiControl(let scalar):
                "it contains the bidirectional control \(Self.codePoint(scalar)), which makes the name display in "
                    + "a different order than it is stored"
            case .tooLong(let bytes): "it is \(bytes) bytes long; the limit is \(Self.maximumLength)"
            }
        return "invalid identifier \(shown): \(why)"
    }

    /// The file name of `identifier`: `identifier` in Unicode normalization form C, so that the
    /// composed and decomposed spellings of one name (`é` as one scalar, or `e` and a combining
    /// accent) are one file, on every file system.
    ///
    /// - Throws: unless the name is a plain file name the store may use: not empty, `.` or `..`;
    ///   no leading `.`, `/` or NUL; no C0 or C1 control character (or DEL), line or paragraph
    ///   separator (U+2028, U+2029), bidirectional override or isolate (U+202A–U+202E,
    ///   U+2066–U+2069); at most `maximumLength` UTF-8 bytes once normalized.
    public static func fileName(for identifier: String) throws(InvalidIdentifier) -> String {
        func reject(_ reason: Reason) -> InvalidIdentifier { InvalidIdentifier(identifier: identifier, reason: reason) }
        let name = identifier.precomposedStringWithCanonicalMapping
        if name.isEmpty { throw reject(.empty) }
        if name == "." || name == ".." { throw reject(.dotOrDotDot) }
        if name.hasPrefix(".") { throw reject(.leadingDot) }
        for scalar in name.unicodeScalars {
            if scalar == "/" { throw reject(.containsSlash) }
            if scalar.value == 0 { throw reject(.containsNUL) }
            if isControl(scalar) { throw reject(.containsControlCharacter(scalar.value)) }
            if isSeparator(scalar) { throw reject(.containsLineOrParagraphSeparator(scalar.value)) }
            if isBidiControl(scalar) { throw reject(.containsBidiControl(scalar.value)) }
        }
        let bytes = name.utf8.count
        if bytes > maximumLength { throw reject(.tooLong(bytes: bytes)) }
        return name
    }

    /// Throws unless `identifier` is a plain file name the store may use; see `fileName(for:)`.
    public static func check(_ identifier: String) throws(InvalidIdentifier) {
        _ = try fileName(for: identifier)
    }

    /// Whether `identifier` passes `check`.
    public static func isValid(_ identifier: String) -> Bool {
        (try? check(identifier)) != nil
    }

    /// C0 controls, DEL and C1 controls.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR.
    private static func isSeparator(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x2028 || scalar.value == 0x2029
    }

    /// The embeddings and overrides U+202A–U+202E and the isolates U+2066–U+2069: they reorder how
    /// the text after them is shown ("invoice\u{202E}fdp.exe" shows as "invoiceexe.pdf").
    private static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    private static func codePoint(_ scalar: UInt32) -> String {
        "U+" + String(scalar, radix: 16, uppercase: true).leftPadded(to: 4)
    }
}

extension String {
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
