/// The frame of RaceLab's HTML pages (`explore --html`, `run --html`): one self-contained file,
/// CSS and script inline, no font, image or URL, so that it opens from a USB stick on a projector
/// with no network.
enum HTMLPage {
    /// A whole page: `body` lines inside the shared frame, with the page's own `style` after the
    /// shared one, and `script` (if any) at the end.
    static func document(title: String, style: String, body: [String], script: String? = nil) -> String {
        var lines = [
            "<!DOCTYPE html>",
            "<html lang=\"en\">",
            "<head>",
            "<meta charset=\"utf-8\">",
            "<title>RaceLab: \(xmlEscaped(title))</title>",
            "<style>\n\(sharedStyle)\n\(style)\n</style>",
            "</head>",
            "<body>",
            "<h1>\(xmlEscaped(title))</h1>",
        ]
        lines += body
        if let script { lines.append("<script>\n\(script)\n</script>") }
        lines += ["</body>", "</html>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a verdict badge says about the code, and so its colour: red for a bug seen, green for
    /// none, grey for no verdict (an error).
    enum Finding {
        case bug, clean, error
    }

    /// A verdict badge, coloured by what it found (a bug is red even where a buggy variant was
    /// expected to show it: the room reads the colour first), and a note of whether the verdict is
    /// the one the variant's kind calls for.
    static func verdict(_ label: String, finding: Finding, expected: Bool) -> String {
        "<span class=\"verdict \(finding)\">\(xmlEscaped(label))</span>"
            + (expected
                ? " <span class=\"expectation\">as expected</span>"
                : " <span class=\"expectation unexpected\">NOT as expected</span>")
    }

    private static let sharedStyle = """
        body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; margin: 2em; color: #1d1d1f;
          font-size: 18px; }
        h1 { font-size: 1.6em; }
        h2 { font-size: 1.3em; margin-top: 2em; }
        .kind { color: #6e6e73; font-weight: normal; }
        .verdict { padding: 0.1em 0.5em; border-radius: 0.3em; color: white; font-size: 0.8em; }
        .verdict.bug { background: #c62828; }
        .verdict.clean { background: #2e7d32; }
        .verdict.error { background: #6e6e73; }
        .expectation { color: #6e6e73; font-weight: normal; font-size: 0.8em; }
        .expectation.unexpected { color: #c62828; font-weight: bold; }
        .figures, .help { color: #6e6e73; }
        table { border-collapse: collapse; margin: 1em 0; }
        th, td { border: 1px solid #d2d2d7; padding: 0.35em 0.8em; text-align: left; }
        th { background: #f5f5f7; }
        code, kbd { background: #f5f5f7; padding: 0.2em 0.4em; font-family: Menlo, Consolas, "DejaVu Sans Mono", monospace;
          font-size: 0.9em; }
        """
}
