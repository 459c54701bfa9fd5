import Foundation

/// Colours for text written to stdout: only when stdout is a terminal, and never when `NO_COLOR`
/// is set to anything but the empty string (https://no-color.org). Piped output stays plain, so a
/// transcript compares as text.
struct TerminalStyle {
    let enabled: Bool

    init(enabled: Bool) {
        self.enabled = enabled
    }

    /// The style for stdout in this process's environment.
    static var standardOutput: TerminalStyle {
        TerminalStyle(enabled: colours(terminal: isatty(STDOUT_FILENO) == 1, ProcessInfo.processInfo.environment))
    }

    /// Whether to colour output that goes to a terminal (`terminal`) or not, in `environment`.
    static func colours(terminal: Bool, _ environment: [String: String]) -> Bool {
        terminal && (environment["NO_COLOR"] ?? "").isEmpty
    }

    func bold(_ text: String) -> String { paint(text, "1") }
    func red(_ text: String) -> String { paint(text, "1;31") }
    func green(_ text: String) -> String { paint(text, "1;32") }
    func dim(_ text: String) -> String { paint(text, "2") }

    private func paint(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}
