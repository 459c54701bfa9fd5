/// `racelab explore --html`: one self-contained HTML page of a lesson's explored variants.
///
/// Everything is inline (CSS and a few lines of script, no font, image or URL), so the file works
/// from a USB stick on a projector with no network. Each failing schedule is a table with one
/// column per thread, the state after each step where the exploration describes it, the last step
/// (after which the failure showed) marked, and the step at which the code saw it when it said so
/// (`FailureSeen`), the invariant and the replay command. The script only
/// adds a step-through: the page is complete without it (printed, or with scripts off).
public enum ScheduleHTML {
    /// - Parameters:
    ///   - title: the page's heading (the lesson).
    ///   - pictures: one per variant, in order.
    public static func render(title: String, pictures: [SchedulePicture]) -> String {
        var body = [
            "<p class=\"help\">Each failing schedule below runs top to bottom, one column per thread. "
                + "Press <kbd>s</kbd> (or the button) to step through it; <kbd>&#8594;</kbd> shows the next step.</p>"
        ]
        for (index, picture) in pictures.enumerated() {
            body += section(picture, id: index)
        }
        return HTMLPage.document(title: title, style: style, body: body, script: script)
    }

    private static func section(_ picture: SchedulePicture, id: Int) -> [String] {
        let expected = ["FOUND", "REPRODUCED", "CLEAN"].contains(picture.verdict)
        let finding: HTMLPage.Finding =
            picture.failure != nil ? .bug : picture.verdict.hasPrefix("CLEAN") ? .clean : .error
        var lines = [
            "<section class=\"variant\" id=\"variant-\(id)\">",
            "<h2>variant \(xmlEscaped(picture.variant)) <span class=\"kind\">[\(picture.kind.rawValue)]</span> "
                + HTMLPage.verdict(picture.verdict, finding: finding, expected: expected) + "</h2>",
            "<p class=\"invariant\">\(xmlEscaped(picture.invariant))</p>",
            "<p class=\"figures\">\(xmlEscaped(picture.figures))</p>",
        ]
        guard let failure = picture.failure else {
            lines += ["<p class=\"outcome clean\">No failing schedule.</p>", "</section>"]
            return lines
        }
        let showsState = !picture.states.isEmpty
        lines.append("<p class=\"outcome\">\(xmlEscaped(failure.message))</p>")
        lines.append("<button type=\"button\" class=\"step-through\">step through</button>")
        lines.append("<table class=\"timeline\">")
        let headers =
            ["step"] + picture.threadNames + (showsState ? ["state after the step"] : [])
        lines.append("<thead><tr>" + headers.map { "<th>\(xmlEscaped($0))</th>" }.joined() + "</tr></thead>")
        lines.append("<tbody>")
        if showsState {
            let blanks = String(repeating: "<td></td>", count: picture.threadNames.count)
            lines.append(
                "<tr class=\"initial\"><td>start</td>\(blanks)<td class=\"state\">\(stateLines(picture.states[0]))</td></tr>"
            )
        }
        for (index, step) in failure.steps.enumerated() {
            let last = index == failure.steps.count - 1
            // The step at which the code saw the failure, when it said so (`FailureSeen`).
            let seen = failure.failureSeen?.step == index + 1
            let marks =
                (seen ? " <span class=\"mark\">seen broken</span>" : "")
                + (last ? " <span class=\"mark\">failure</span>" : "")
            var cells = "<td class=\"number\">\(index + 1)\(marks)</td>"
            for thread in picture.threadNames.indices {
                cells +=
                    thread == step.thread
                    ? "<td class=\"op thread-\(thread % 6)\">\(xmlEscaped(step.operation))</td>" : "<td></td>"
            }
            if showsState { cells += "<td class=\"state\">\(stateLines(picture.state(after: index) ?? ""))</td>" }
            let classes = "step" + (seen ? " seen" : "") + (last ? " failing" : "")
            lines.append("<tr class=\"\(classes)\" data-step=\"\(index + 1)\">\(cells)</tr>")
        }
        lines.append("</tbody>")
        lines.append("</table>")
        let spawned = failure.spawned ?? []
        if !spawned.isEmpty {
            lines.append("<ul class=\"spawned\">")
            lines += spawned.map { "<li>\(xmlEscaped($0.description))</li>" }
            lines.append("</ul>")
        }
        lines.append(
            "<p class=\"failing-note\">The failure showed after step \(failure.steps.count), the last one: "
                + "\(xmlEscaped(failure.message)).</p>"
        )
        if let seen = failure.failureSeen {
            lines.append("<p class=\"seen-note\">\(xmlEscaped(seen.line())).</p>")
        }
        if let deadlock = failure.deadlock {
            lines.append("<ul class=\"deadlock\">")
            lines += deadlock.map { "<li>\(xmlEscaped($0.description))</li>" }
            lines.append("</ul>")
        }
        lines.append(
            "<p class=\"replay\">replay: <code>\(xmlEscaped(picture.replayCommand ?? failure.replay))</code></p>"
        )
        lines.append("</section>")
        return lines
    }

    /// A state description's parts (`store holds [] · thread 0's copy: [item-0]`), one per line.
    private static func stateLines(_ state: String) -> String {
        state.components(separatedBy: " · ").map(xmlEscaped).joined(separator: "<br>")
    }

    private static let style = """
        .invariant { font-style: italic; }
        .outcome { font-weight: bold; color: #c62828; }
        .outcome.clean { color: #2e7d32; }
        table.timeline { font-family: Menlo, Consolas, monospace; }
        .timeline td.number { text-align: right; color: #6e6e73; }
        .timeline td.op { font-weight: bold; }
        .thread-0 { background: #e3f2fd; } .thread-1 { background: #fff3e0; } .thread-2 { background: #e8f5e9; }
        .thread-3 { background: #f3e5f5; } .thread-4 { background: #e0f7fa; } .thread-5 { background: #fbe9e7; }
        .timeline td.state { color: #424245; }
        tr.failing td { border-top: 3px solid #c62828; border-bottom: 3px solid #c62828; }
        tr.failing td.op { background: #ffcdd2; }
        tr.seen td { border-top: 3px dashed #c62828; border-bottom: 3px dashed #c62828; }
        tr.seen td.op { background: #ffcdd2; }
        .mark { color: #c62828; font-weight: bold; }
        tr.hidden { visibility: hidden; }
        button { font-size: 1em; }
        """

    /// Step-through: hides a section's steps, then shows one more per press.
    private static let script = """
        (function () {
          var current = null;
          function rows(section) { return section.querySelectorAll("tr.step"); }
          function start(section) {
            current = section;
            rows(section).forEach(function (row) { row.classList.add("hidden"); });
          }
          function next() {
            if (!current) { return; }
            var hidden = current.querySelector("tr.step.hidden");
            if (hidden) { hidden.classList.remove("hidden"); }
          }
          document.querySelectorAll("button.step-through").forEach(function (button) {
            button.addEventListener("click", function () { start(button.closest("section")); });
          });
          document.addEventListener("keydown", function (event) {
            if (event.key === "s") {
              var first = document.querySelector("button.step-through");
              if (first) { start(current || first.closest("section")); }
            } else if (event.key === "ArrowRight" || event.key === " ") {
              next();
              event.preventDefault();
            }
          });
        })();
        """
}
