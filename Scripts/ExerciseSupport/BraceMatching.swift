import Foundation

/// Brace matching for the checks that read the participant's code (`participantCode`, with comments
/// and string literals left out, so that their braces do not count): where a block or a
/// declaration's body ends, `{` for `{` and `}` for `}`.
public enum BraceMatching {
    /// The index of the `}` that closes a block whose `{` comes just before `start` in `text`, or
    /// nil when the text ends first.
    public static func closing<Text: Collection>(
        _ text: Text,
        openedBefore start: Text.Index
    ) -> Text.Index? where Text.Element == Character {
        var depth = 1
        var index = start
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index = text.index(after: index)
        }
        return nil
    }

    /// The index of the `}` that closes the `{` at `open` in `text`, or nil when the text ends first.
    public static func closing<Text: Collection>(
        _ text: Text,
        of open: Text.Index
    ) -> Text.Index? where Text.Element == Character {
        closing(text, openedBefore: text.index(after: open))
    }

    /// The text of a block whose `{` ends just before `rest`, up to (not including) its matching
    /// `}`; nil when the text ends first.
    public static func block(after rest: Substring) -> Substring? {
        closing(rest, openedBefore: rest.startIndex).map { rest[..<$0] }
    }

    /// The text between the braces of the first declaration that starts with `declaration` (its
    /// first `{` after that, matched brace for brace); nil when there is none, or it is not closed.
    public static func body(of declaration: String, in code: String) -> Substring? {
        guard let start = code.range(of: declaration),
            let open = code[start.upperBound...].firstIndex(of: "{")
        else { return nil }
        return block(after: code[code.index(after: open)...])
    }

    /// `text` with the inside of every block emptied (`{}` stays): what is declared at its top level.
    public static func blocksEmptied(_ text: String) -> String {
        var depth = 0
        var kept = ""
        for character in text {
            if character == "}" { depth -= 1 }
            if depth == 0 { kept.append(character) }
            if character == "{" { depth += 1 }
        }
        return kept
    }

    /// A body's own statements: the text of its statement blocks (`if`, `else`, `guard`, `get`,
    /// `defer`, loops) kept, each closure dropped with the call it is passed to (`lock.withLock { … }`,
    /// `queue.sync(flags: .barrier) { … }`), since a closure may run under a lock taken by that call.
    public static func ownStatements(_ body: Substring) -> String {
        let statement = /^(\}?\s*else|if|guard|for|while|repeat|switch|do|defer|get|set|case|default|catch)\b/
        var text = ""
        // One entry per open block: whether it is a closure, and the length of `text` at its `{`.
        var open: [(closure: Bool, length: Int)] = []
        for character in body {
            switch character {
            case "{":
                // The statement this block belongs to: the text since the last `;`, newline or brace.
                let from = text.lastIndex { ";\n{}".contains($0) }.map { text.index(after: $0) } ?? text.startIndex
                let head = text[from...].trimmingCharacters(in: .whitespaces)
                // A block right after `(`, `,`, `:` or `=` is an argument or a value: a closure.
                let closure = head.firstMatch(of: statement) == nil || head.last.map { "(,:=".contains($0) } == true
                if closure, let call = text[from...].firstMatch(of: /[\w.$]+\s*(\([^()]*\))?\s*$/) {
                    // Drop the call the closure is passed to: the trailing name and parentheses.
                    text = String(text[..<call.range.lowerBound])
                }
                open.append((closure, text.count))
                if !closure { text.append("{") }
            case "}":
                guard let block = open.popLast() else { continue }
                if block.closure {
                    text = String(text.prefix(block.length))
                } else {
                    text.append("}")
                }
            default:
                text.append(character)
            }
        }
        return text
    }
}
