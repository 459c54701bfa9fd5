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
///
/// A table wider than `maxWidth` columns gets narrower columns, narrow enough (where they can be) for
/// every label to fit on its line: a step's label runs on into the empty cells to its right, and a
/// label that would still pass `maxWidth` goes on in the lines below it, in its thread's column,
/// broken at spaces; no label is cut.
public enum TimelineText {
    /// The timeline of `steps`, one line per step and one column per thread.
    /// - Parameters:
    ///   - steps: the steps, in order.
    ///   - threads: the program's own threads; the columns extend to threads it started.
    ///   - indent: the prefix of every line.
    ///   - maxWidth: the widest line wanted, in columns.
    ///   - unit: what a column is called: `thread`, or `task` when the program's units are Swift tasks.
    ///   - marked: a step (from 1) whose label ends with `marker`: where the failure was first seen
    ///     (`FailureSeen`); nil for none.
    /// - Returns: the lines, joined by newlines.
    public static func render(
        _ steps: [ScheduleStep],
        threads: Int,
        indent: String = "  ",
        maxWidth: Int = reportWidth,
        unit: String = "thread",
        marked: Int? = nil
    ) -> String {
        let labels = steps.enumerated().map { index, step in
            index + 1 == marked ? step.operation + marker : step.operation
        }
        let stepWidth = max(4, String(steps.count).count)
        let prefix = indent.count + stepWidth + 2
        let natural = max(12, (labels.map(\.count).max() ?? 0)) + 2
        let even = max(10, (maxWidth - prefix) / max(1, threads))
        // Too wide: the widest columns, no wider than an even share, in which every label fits on
        // its line (running on into the cells to its right); failing that, the even share.
        let fitting = (10...max(10, even)).reversed().first { width in
            zip(steps, labels).allSatisfy { prefix + width * $0.thread + $1.count <= maxWidth }
        }
        let width = prefix + natural * max(1, threads) <= maxWidth ? natural : fitting ?? even
        func pad(_ text: String) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
        func right(_ text: String) -> String { String(repeating: " ", count: max(0, stepWidth - text.count)) + text }
        var lines = [indent + right("step") + "  " + (0..<threads).map { pad("\(unit) \($0)") }.joined()]
        for (index, step) in steps.enumerated() {
            let start = indent + right(String(index + 1)) + "  " + String(repeating: " ", count: width * step.thread)
            // A label that would pass maxWidth goes on under itself, in its thread's column.
            let room = max(width - 2, maxWidth - start.count)
            let pieces = wrapped(labels[index], width: room, hang: "")
            lines.append(start + pieces[0])
            let under = String(repeating: " ", count: start.count)
            lines += pieces.dropFirst().map { under + $0 }
        }
        return lines.map { String($0.reversed().drop(while: { $0 == " " }).reversed()) }.joined(separator: "\n")
    }

    /// What ends the label of the step `render` marks.
    public static let marker = "  ✗ seen broken"

    /// The legend line of a started thread, naming the columns as the table does (`unit`):
    /// `task 2 is 'load', started by task 0`.
    public static func legend(_ spawned: SpawnedThread, unit: String = "thread") -> String {
        "\(unit) \(spawned.thread) is '\(spawned.name)', started by \(unit) \(spawned.parent)"
    }
}
