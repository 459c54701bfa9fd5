/// The longest piece of the user's input an error message repeats, in characters.
let quotedLimit = 200

/// `text` in single quotes, safe to print on one line of a terminal: control characters (C0, DEL,
/// C1), line and paragraph separators and bidirectional overrides are shown as escapes (`\e`, `\n`,
/// `\u{202E}`), a quote or backslash is escaped, and anything longer than `quotedLimit` characters
/// is cut with a note of how long it was.
///
/// Why: an error message repeats what the user typed. Raw, `racelab run $'\e]0;pwned\a'` would retitle
/// the terminal, and a 100 KB `--replay` would become a 100 KB error line.
func quoted(_ text: String) -> String {
    var result = "'"
    var count = 0
    for character in text {
        if count == quotedLimit {
            result += "' … (\(text.count) characters)"
            return result
        }
        count += 1
        for scalar in character.unicodeScalars { result += escaped(scalar) }
    }
    return result + "'"
}

private func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar {
    case "\n": return "\\n"
    case "\r": return "\\r"
    case "\t": return "\\t"
    case "\u{1B}": return "\\e"
    case "'": return "\\'"
    case "\\": return "\\\\"
    default: break
    }
    let value = scalar.value
    let unsafe =
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
        || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) || value == 0x200E
        || value == 0x200F || value == 0x061C
    return unsafe ? "\\u{\(String(value, radix: 16, uppercase: true))}" : String(scalar)
}
