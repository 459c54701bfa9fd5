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
}
