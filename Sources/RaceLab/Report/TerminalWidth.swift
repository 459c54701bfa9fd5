/// The widest line, in columns, of the text reports `racelab run` and `racelab explore` print: what
/// a projected terminal shows without wrapping. The JSON reports carry every text whole.
public let reportWidth = 100

/// `line` broken at spaces into lines of at most `width` columns, each continuation indented by
/// `hang` (by default the line's own indentation plus two). A word longer than a line stays whole.
package func wrapped(_ line: String, width: Int = reportWidth, hang: String? = nil) -> [String] {
    guard line.count > width else { return [line] }
    let indentation = String(line.prefix { $0 == " " })
    let continuation = hang ?? indentation + "  "
    var lines: [String] = []
    var current = indentation
    var empty = true
    for word in line.dropFirst(indentation.count).split(separator: " ", omittingEmptySubsequences: false) {
        if !empty && current.count + 1 + word.count > width {
            lines.append(current)
            current = continuation
            empty = true
        }
        current += (empty ? "" : " ") + word
        empty = false
    }
    lines.append(current)
    return lines
}

/// Every line of `text` through `wrapped(_:width:hang:)`.
package func wrappedText(_ text: String, width: Int = reportWidth) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { wrapped(String($0), width: width) }
        .joined(separator: "\n")
}
