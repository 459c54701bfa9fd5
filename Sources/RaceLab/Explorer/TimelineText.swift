/// Renders a schedule as a timeline with one column per thread, the way the lessons' READMEs draw
/// their losing interleavings.
///
/// ```
///   step  thread 0       thread 1
///      1  get contents
///      2                 get contents
///      3  set contents
///      4                 set contents
/// ```
public enum TimelineText {
    /// The timeline of `steps`, one line per step and one column per thread.
    /// - Parameters:
    ///   - steps: the steps, in order.
    ///   - threads: the program's own threads; the columns extend to threads it started.
    ///   - indent: the prefix of every line.
    /// - Returns: the lines, joined by newlines.
    public static func render(_ steps: [ScheduleStep], threads: Int, indent: String = "  ") -> String {
        let width = max(12, (steps.map(\.operation.count).max() ?? 0)) + 2
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        let stepWidth = max(4, String(steps.count).count)
        func right(_ text: String) -> String { String(repeating: " ", count: max(0, stepWidth - text.count)) + text }
        var lines = [indent + right("step") + "  " + (0..<threads).map { pad("thread \($0)") }.joined()]
        for (index, step) in steps.enumerated() {
            let cells = (0..<threads).map { $0 == step.thread ? pad(step.operation) : pad("") }.joined()
            lines.append(indent + right(String(index + 1)) + "  " + cells)
        }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }
}
