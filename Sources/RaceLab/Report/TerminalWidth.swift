/// The widest line, in columns, of the text reports `racelab run` and `racelab explore` print: what
/// a projected terminal shows without wrapping. The JSON reports carry every text whole.
public let reportWidth = 100

/// `line` broken at spaces into lines of at most `width` columns, each continuation indented by
/// `hang` (by default the line's own indentation plus two). A word too long for a continuation line
/// (a mangled symbol in a stack trace, a path) is cut into pieces that fit.
package func wrapped(_ line: String, width: Int = reportWidth, hang: String? = nil) -> [String] {
    guard line.count > width else { return [line] }
    let indentation = String(line.prefix { $0 == " " })
    let continuation = hang ?? indentation + "  "
    let room = max(1, width - max(indentation.count, continuation.count))
    let words = keepingComparisonsWhole(
        line.dropFirst(indentation.count).split(separator: " ", omittingEmptySubsequences: false)
    )
    .flatMap { word -> [Substring] in
        guard word.count > room else { return [word] }
        return stride(from: 0, to: word.count, by: room).map { start in
            let from = word.index(word.startIndex, offsetBy: start)
            return word[from..<word.index(from, offsetBy: min(room, word.count - start))]
        }
    }
    return packed(words, first: indentation, continuation: continuation, width: width)
}

/// `words` with each comparison (`counter == threads`) joined into one word, so that a line never
/// breaks inside the expression an invariant states.
private func keepingComparisonsWhole(_ words: [Substring]) -> [Substring] {
    let operators: Set<Substring> = ["==", "!=", "<=", ">="]
    var joined: [Substring] = []
    var index = 0
    while index < words.count {
        if operators.contains(words[index]), index + 1 < words.count, let left = joined.popLast() {
            joined.append(Substring(left + " " + words[index] + " " + words[index + 1]))
            index += 2
        } else {
            joined.append(words[index])
            index += 1
        }
    }
    return joined
}

/// `pieces` joined by spaces into lines of at most `width` columns (a piece wider than a line has
/// one to itself): the first line starts with `first`, the others with `continuation`, and each
/// line followed by another ends with `lineEnd`, for which room is kept.
private func packed(
    _ pieces: [some StringProtocol],
    first: String,
    continuation: String,
    lineEnd: String = "",
    width: Int
) -> [String] {
    var lines: [String] = []
    var current = first
    var empty = true
    for piece in pieces {
        if !empty && current.count + 1 + piece.count + lineEnd.count > width {
            lines.append(current + lineEnd)
            current = continuation
            empty = true
        }
        current += (empty ? "" : " ") + piece
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

/// A line that ends in a shell command (`  replay: .build/debug/racelab explore 6 --variant …`)
/// broken into lines of at most `width` columns that still run as one command when pasted: each
/// line but the last ends with ` \`, and a break falls before an option, which keeps its value. The
/// text before the command (`prefix`) is not part of what runs. A piece that alone is wider than a
/// line stays whole: cut, the command would not run.
public func wrappedCommand(prefix: String, command: String, width: Int = reportWidth) -> [String] {
    guard prefix.count + command.count > width else { return [prefix + command] }
    // Each piece is a word, or an option with the value that follows it.
    var pieces: [String] = []
    for word in command.split(separator: " ") {
        if let last = pieces.last, last.hasPrefix("-"), !last.contains(" "), !word.hasPrefix("-") {
            pieces[pieces.count - 1] += " " + word
        } else {
            pieces.append(String(word))
        }
    }
    let continuation = String(repeating: " ", count: prefix.prefix { $0 == " " }.count + 4)
    return packed(pieces, first: prefix, continuation: continuation, lineEnd: " \\", width: width)
}
