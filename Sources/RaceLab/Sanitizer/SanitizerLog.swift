import Foundation

/// Reads ThreadSanitizer's log files: the reports in them, and the failures that are not reports
/// (TSan refusing to start, a crash TSan caught).
///
/// A variant's child runs with `log_path=<folder>/<name>`, and TSan writes to `<folder>/<name>.<pid>`,
/// one file per process. Every file with that prefix belongs to that variant, including those of
/// worker processes it started; nothing else writes there. That prefix is how a report is attributed
/// to the variant that produced it, and never to another.
public struct SanitizerLog: Sendable, Equatable {
    /// Every warning, in the order written (several per race are possible, see `SanitizerReport`).
    public var warnings: [SanitizerReport]
    /// Lines saying TSan or the program failed rather than found a race: `FATAL: ...`,
    /// `ERROR: ThreadSanitizer: SEGV on unknown address ...`.
    public var failures: [String]
    /// The files read.
    public var files: [String]

    /// A log made of its parts.
    public init(warnings: [SanitizerReport] = [], failures: [String] = [], files: [String] = []) {
        self.warnings = warnings
        self.failures = failures
        self.files = files
    }

    /// One report per distinct race, first occurrence kept, in order of appearance.
    public var distinctReports: [SanitizerReport] {
        var seen = Set<String>()
        return warnings.filter { seen.insert($0.identity).inserted }
    }

    /// Whether TSan refused to start because of the address layout (see
    /// `ThreadSanitizer.unexpectedMappingMessage`): the run measured nothing and should be repeated
    /// without address randomization.
    public var failedOnMemoryMapping: Bool {
        failures.contains { $0.contains(ThreadSanitizer.unexpectedMappingMessage) }
    }

    /// How many processes wrote a log.
    public var processes: Int { files.count }

    /// Reads every log file whose name starts with `prefix` (`<name>.`) in `folder`.
    ///
    /// - Parameters:
    ///   - folder: the log folder.
    ///   - prefix: the start of the files' names, without the `.` that follows it.
    ///   - base: a folder to show source paths relative to (usually the current one).
    public static func read(folder: URL, prefix: String, relativeTo base: String? = nil) -> SanitizerLog {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix(prefix + ".") }
            .sorted()
        var log = SanitizerLog()
        for name in names {
            let path = folder.appendingPathComponent(name).path
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            let parsed = parse(String(decoding: data, as: UTF8.self), relativeTo: base)
            log.warnings += parsed.warnings
            log.failures += parsed.failures
            log.files.append(path)
        }
        return log
    }

    /// Removes the log files `read(folder:prefix:)` would read, so that a new run starts empty.
    public static func remove(folder: URL, prefix: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix + ".") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// Parses the text of one log (or of a TSan-instrumented program's stderr).
    public static func parse(_ text: String, relativeTo base: String? = nil) -> SanitizerLog {
        var log = SanitizerLog()
        var current: ReportBuilder?
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(rawLine)
            if let rest = line.dropPrefix("WARNING: ThreadSanitizer: ") {
                if let report = current?.build() { log.warnings.append(report) }
                current = ReportBuilder(header: rest, base: base)
            } else if line.hasPrefix("SUMMARY: ThreadSanitizer: ") {
                if current != nil {
                    current?.summary(line)
                    if let report = current?.build() { log.warnings.append(report) }
                    current = nil
                } else {
                    // A SUMMARY without a WARNING: the summary of a crash (`SEGV`), already recorded.
                    continue
                }
            } else if line.contains("FATAL: ThreadSanitizer") || line.contains("ERROR: ThreadSanitizer") {
                log.failures.append(line.trimmingCharacters(in: .whitespaces))
            } else if current != nil {
                current?.add(line)
            }
        }
        if let report = current?.build() { log.warnings.append(report) }
        return log
    }
}

/// Collects one report's lines until its `SUMMARY`.
private struct ReportBuilder {
    var kind: String
    var pid: Int?
    var location = "?"
    var function = "?"
    var symbol = ""
    var accesses: [SanitizerReport.Access] = []
    /// The access whose stack is being read and still lacks a Swift source frame.
    var openAccess: Int?
    let base: String?

    init(header: String, base: String?) {
        self.base = base
        // "data race (pid=373)"
        if let open = header.range(of: " (pid=", options: .backwards) {
            kind = String(header[..<open.lowerBound])
            pid = Int(header[open.upperBound...].prefix { $0.isNumber })
        } else {
            kind = header
        }
    }

    mutating func add(_ line: String) {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#") {
            guard let index = openAccess else { return }
            let fields = trimmed.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 3 else { return }
            let place = String(fields[2])
            guard place.contains(".swift:") else { return }
            accesses[index].location = shortPath(place, base: base)
            accesses[index].function = Demangler.shortName(String(fields[1]))
            openAccess = nil
        } else if line.hasPrefix("  "), !line.hasPrefix("   "), trimmed.hasSuffix(":") {
            openAccess = nil
            // Stack headers. Keep the accesses ("Write of size 1 at 0x... by main thread:",
            // "Previous read ...", "Modifying access of Swift variable at 0x... by thread T2:");
            // skip where the memory came from and who created the threads.
            let skipped = ["Location is", "Thread T", "Mutex ", "Previous atomic", "Atomic "]
            guard accesses.count < 2, !skipped.contains(where: { trimmed.hasPrefix($0) }) else { return }
            accesses.append(
                .init(description: withoutAddresses(String(trimmed.dropLast())), location: nil, function: nil)
            )
            openAccess = accesses.count - 1
        }
    }

    /// `SUMMARY: ThreadSanitizer: data race /path/File.swift:25:20 in $s...`
    mutating func summary(_ line: String) {
        let body = line.dropPrefix("SUMMARY: ThreadSanitizer: ") ?? line
        guard let inRange = body.range(of: " in ", options: .backwards) else { return }
        symbol = String(body[inRange.upperBound...])
        function = Demangler.shortName(symbol)
        let head = body[..<inRange.lowerBound]
        let place =
            head.hasPrefix(kind + " ")
            ? String(head.dropFirst(kind.count + 1)) : String(head.split(separator: " ").last ?? "")
        location = shortPath(place, base: base)
    }

    func build() -> SanitizerReport? {
        SanitizerReport(
            kind: kind,
            pid: pid,
            location: location,
            function: function,
            symbol: symbol,
            accesses: accesses
        )
    }
}

/// `/work/main/Lessons/x.swift:3:4` as `Lessons/x.swift:3:4` when under `base`; `/<compiler-generated>`
/// as `<compiler-generated>`.
private func shortPath(_ path: String, base: String?) -> String {
    if path.hasPrefix("/<") { return String(path.dropFirst()) }
    if let base, path.hasPrefix(base + "/") { return String(path.dropFirst(base.count + 1)) }
    return path
}

/// "Write of size 1 at 0x720800000db0 by main thread" as "Write of size 1 by main thread": addresses
/// differ from run to run and mean nothing to a reader.
private func withoutAddresses(_ text: String) -> String {
    var words: [Substring] = []
    for word in text.split(separator: " ") {
        if word.hasPrefix("0x") || word.hasPrefix("(0x") {
            if words.last == "at" { words.removeLast() }
            continue
        }
        words.append(word)
    }
    return words.joined(separator: " ")
}

extension String {
    /// The rest of the string after `prefix`, or nil when it does not start with it.
    fileprivate func dropPrefix(_ prefix: String) -> String? {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : nil
    }
}
