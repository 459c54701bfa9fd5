import Foundation

/// The participant's file compiled beside a check, for a diagnosis only the code can tell (which
/// lock it takes, where it re-checks): its text without comments (`//` to the end of the line,
/// `/* ... */` over any lines) and string literals, so that words in them match nothing; empty if
/// it cannot be read.
///
/// - Parameters:
///   - fileName: the participant's file (`Storage.swift`), in the check's folder.
///   - checkFile: the check's own source file: the call site's, by default.
public func participantCode(_ fileName: String, besideCheck checkFile: String = #filePath) -> String {
    let file = URL(fileURLWithPath: checkFile).deletingLastPathComponent().appendingPathComponent(fileName)
    var code = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    for pattern in [#"/\*[\s\S]*?\*/"#, #"//[^\n]*"#, #""[^"\n]*""#] {
        if let regex = try? Regex(pattern) { code = code.replacing(regex, with: " ") }
    }
    return code
}

/// Whether `pattern` (a regular expression, often made of a name read from the code) matches in
/// `text`, with `\b` between a word and any other character (`items.count`, `self.items`), not
/// Swift's default Unicode word boundary, which reads `items.count` as one word.
public func codeMatches(_ pattern: String, in text: some StringProtocol) -> Bool {
    guard let regex = try? Regex(pattern) else { return false }
    return String(text).firstMatch(of: regex.wordBoundaryKind(.simple)) != nil
}
