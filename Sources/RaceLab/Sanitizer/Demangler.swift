import Foundation

/// Turns the mangled Swift symbols in TSan's reports (`$s12CheckThenAct8RacyOnceC3runyyyyXEF`) into
/// names a reader recognizes (`CheckThenAct.RacyOnce.run`).
///
/// TSan's symbolizer leaves Swift names mangled. The Swift runtime's own demangler is called here,
/// rather than the `swift demangle` tool, so that reading a report needs no toolchain.
enum Demangler {
    /// The full demangled form, or the input unchanged when it is not a Swift symbol.
    static func demangle(_ symbol: String) -> String {
        guard symbol.hasPrefix("$s") || symbol.hasPrefix("_$s") else { return symbol }
        return symbol.withCString { pointer in
            guard let demangled = _swiftDemangle(pointer, strlen(pointer), nil, nil, 0) else { return symbol }
            defer { free(demangled) }
            return String(cString: demangled)
        }
    }

    /// The demangled name without parameter lists, generic arguments and return types:
    /// `CheckThenAct.RacyOnce.run`, `specialized Swift._NativeDictionary._insert`,
    /// `closure #1 in static CheckThenAct.CheckThenActLesson.buggy`.
    static func shortName(_ symbol: String) -> String {
        var text = demangle(symbol)
        guard text != symbol else { return symbol }
        text = removingGroups(text, open: "<", close: ">")
        text = removingGroups(text, open: "(", close: ")")
        // What is left of signatures: " -> " before a return type, " : Type" after a variable.
        var words = text.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        var index = 0
        while index < words.count {
            if words[index] == "->" {
                // The arrow and its return type; a closure's "-> in ..." keeps its "in".
                let next = index + 1 < words.count && words[index + 1] != "in" ? 2 : 1
                words.removeSubrange(index..<min(index + next, words.count))
            } else if words[index].hasPrefix("@") {
                words.remove(at: index)  // @Sendable, @escaping: attributes of the removed signature
            } else if words[index] == ":" {
                words.removeSubrange(index..<min(index + 2, words.count))
                continue
            } else {
                index += 1
            }
        }
        text = words.joined(separator: " ")
        for (long, short) in [
            ("generic specialization of ", "specialized "),
            ("variable initialization expression of ", ""),
            ("function signature specialization of ", "specialized "),
        ] {
            text = text.replacingOccurrences(of: long, with: short)
        }
        return text.isEmpty ? symbol : text
    }

    /// `text` without any balanced `open`…`close` group (nested groups included).
    private static func removingGroups(_ text: String, open: Character, close: Character) -> String {
        var depth = 0
        var result = ""
        var previous: Character = " "
        for character in text {
            // "->" is an arrow, not a closing angle bracket.
            if character == close && close == ">" && previous == "-" {
                if depth == 0 { result.append(character) }
            } else if character == open {
                depth += 1
            } else if character == close && depth > 0 {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
            previous = character
        }
        return result
    }
}

/// The Swift runtime's demangler (`swift_demangle` in libswiftCore): returns a `malloc`ed C string,
/// or nil when the input is not a mangled name.
@_silgen_name("swift_demangle")
private func _swiftDemangle(
    _ mangledName: UnsafePointer<CChar>?,
    _ mangledNameLength: Int,
    _ outputBuffer: UnsafeMutablePointer<CChar>?,
    _ outputBufferSize: UnsafeMutablePointer<Int>?,
    _ flags: UInt32
) -> UnsafeMutablePointer<CChar>?
