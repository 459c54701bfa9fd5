import Foundation

/// The one JSON format RaceLab writes, for every document and for the line a child process reports
/// with: keys sorted, so that two runs' documents diff line by line, and slashes unescaped, so that
/// paths read as they were typed.
package enum JSONText {
    /// `value` as JSON text: indented over several lines when `pretty`, else on one line.
    ///
    /// - Throws: `EncodingError` when `value` cannot be encoded (a non-finite `Double`, say).
    package static func encode(_ value: some Encodable, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
