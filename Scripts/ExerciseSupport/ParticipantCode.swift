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
