import Foundation

/// What the Swift 6 compiler says about a variant's pattern as developers write it: one small,
/// self-contained source file per variant (a *probe*), type-checked with the Swift 6 language mode
/// and complete concurrency checking.
///
/// Every lesson module compiles in Swift 6 mode, because its buggy types say `@unchecked Sendable`:
/// that annotation switches the compiler's check off, so compiling the lesson itself says nothing.
/// A probe instead holds the pattern the way it appears in an app (a class with a queue and no
/// `Sendable`, a captured `var` flag, an actor method with an `await` in the middle), so that the
/// compiler's answer is a measurement of what it can see. A variant without a probe is reported as
/// not measured rather than guessed.
public struct CompilerVerdict: Sendable, Codable, Equatable {
    /// What the compiler made of the probe.
    public enum Outcome: String, Sendable, Codable {
        /// The probe type-checks: the compiler sees nothing wrong.
        case accepted
        /// The compiler refuses the probe; `diagnostic` is its first error.
        case rejected
        /// No probe, or no compiler to run it.
        case notMeasured = "not-measured"
    }

    /// Accepted, rejected, or not measured.
    public var outcome: Outcome
    /// The first error, without its diagnostic group: `reference to captured var 'didExecute' in
    /// concurrently-executing code`.
    public var diagnostic: String?
    /// Where that error is: `buggy.swift:5:16`.
    public var diagnosticLocation: String?
    /// The probe's path, as given.
    public var probe: String?
    /// Why the outcome is `notMeasured`.
    public var note: String?

    /// A verdict for a variant whose probe was not compiled.
    /// - Parameters:
    ///   - note: why not.
    ///   - probe: the probe's path, when there is one.
    /// - Returns: a `notMeasured` verdict.
    public static func notMeasured(_ note: String, probe: String? = nil) -> CompilerVerdict {
        CompilerVerdict(outcome: .notMeasured, diagnostic: nil, diagnosticLocation: nil, probe: probe, note: note)
    }
}

/// Where a variant's compiler probe is (`Lessons/NN-slug/CompilerProbes/<variant>.swift`), and
/// how it is type-checked.
public enum CompilerProbe {
    /// The flags of the measurement: Swift 6 language mode, complete concurrency checking, type
    /// checking only (nothing is built or run).
    static let flags = ["-swift-version", "6", "-strict-concurrency=complete", "-typecheck"]

    /// The folder in a lesson's folder that holds its probes, excluded from the lesson's module:
    /// SwiftPM compiles every `.swift` file in a target's folder, and a probe the compiler rejects
    /// (most of them, by design) would break the lesson's build.
    public static let folderName = "CompilerProbes"

    /// The declarations the probes of a lesson share (the article's types, stand-ins for a network
    /// call, the concurrent callers): `CompilerProbes/Prelude.swift`, optional, type-checked together
    /// with each probe of its folder, so that a probe holds only the pattern it measures. It is not a
    /// probe and names no variant. Prelude and probe make one program: the prelude may call what
    /// every probe declares, but must bring no error of its own (the verdict is the first error, and
    /// an error in the prelude would be every probe's), and a probe must not declare again what the
    /// prelude declares.
    public static let preludeName = "Prelude"

    /// The probe of `variant` in `lesson`: `<lessons>/<NN>-<slug>/CompilerProbes/<variant>.swift`,
    /// where `lessons` is the folder of lesson folders (`Lessons`).
    static func path(in lessons: URL, lesson: Lesson, variant: String) -> URL {
        lessons.appendingPathComponent(lessonFolderName(lesson)).appendingPathComponent(folderName)
            .appendingPathComponent("\(variant).swift")
    }

    /// The variant names `lesson`'s probes are for (their file names without `.swift`), sorted;
    /// empty when the lesson has no probe folder.
    static func probeNames(in lessons: URL, lesson: Lesson) -> [String] {
        probeNames(inLessonFolder: lessons.appendingPathComponent(lessonFolderName(lesson)))
    }

    /// The variant names of the probes in one lesson folder (`Lessons/01-subscript-race`), sorted.
    public static func probeNames(inLessonFolder folder: URL) -> [String] {
        let probes = folder.appendingPathComponent(folderName)
        let files = (try? FileManager.default.contentsOfDirectory(atPath: probes.path)) ?? []
        return files.filter { $0.hasSuffix(".swift") }.map { String($0.dropLast(".swift".count)) }
            .filter { $0 != preludeName }.sorted()
    }

    /// `01-subscript-race`: the name of a lesson's folder under `Lessons/`, also used for its TSan logs.
    public static func lessonFolderName(_ lesson: Lesson) -> String {
        lessonFolderName(number: lesson.number, slug: lesson.slug)
    }

    /// `01-subscript-race`: the folder name of lesson `number` with `slug`.
    public static func lessonFolderName(number: Int, slug: String) -> String {
        (number < 10 ? "0" : "") + "\(number)-\(slug)"
    }

    /// The files type-checked for `probe`: its folder's prelude, when there is one, then the probe.
    static func sources(of probe: URL) -> [String] {
        let prelude = probe.deletingLastPathComponent().appendingPathComponent("\(preludeName).swift")
        return (FileManager.default.fileExists(atPath: prelude.path) ? [prelude.path] : []) + [probe.path]
    }

    /// Type-checks `probe` (with its folder's prelude, see `preludeName`) with `swiftc` and returns
    /// the verdict.
    static func check(_ probe: URL, swiftc: String, displayPath: String? = nil) -> CompilerVerdict {
        let shown = displayPath ?? probe.path
        guard FileManager.default.fileExists(atPath: probe.path) else {
            return .notMeasured("no probe", probe: nil)
        }
        let result: ChildProcess.Result
        do {
            result = try ChildProcess.run(swiftc, arguments: flags + sources(of: probe), timeout: 300)
        } catch {
            return .notMeasured("cannot run \(swiftc): \(error)", probe: shown)
        }
        let output = String(decoding: result.stderr + result.stdout, as: UTF8.self)
        switch result.termination {
        case .exited(0):
            return CompilerVerdict(
                outcome: .accepted,
                diagnostic: nil,
                diagnosticLocation: nil,
                probe: shown,
                note: nil
            )
        case .exited:
            let first = firstError(in: output)
            return CompilerVerdict(
                outcome: .rejected,
                diagnostic: first?.message ?? "(no error line in the compiler's output)",
                diagnosticLocation: first?.location,
                probe: shown,
                note: nil
            )
        case .signaled(let signal):
            return .notMeasured("the compiler died from signal \(signal)", probe: shown)
        case .timedOut:
            return .notMeasured("the compiler took more than 300 s", probe: shown)
        }
    }

    /// The first `error:` line of a compiler's output: `File.swift:5:16: error: message [#Group]`.
    static func firstError(in output: String) -> (location: String, message: String)? {
        for line in output.split(separator: "\n") {
            guard let marker = line.range(of: ": error: ") else { continue }
            let place = line[..<marker.lowerBound]
            var message = String(line[marker.upperBound...])
            if message.hasSuffix("]"), let group = message.range(of: " [#", options: .backwards) {
                message = String(message[..<group.lowerBound])
            }
            let file = place.split(separator: "/").last.map(String.init) ?? String(place)
            return (file, message)
        }
        return nil
    }

    /// The compiler to run: `$SWIFTC`, else `swiftc` on the `PATH`, else next to a `swift` on the `PATH`.
    package static func locateCompiler(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let explicit = environment["SWIFTC"], !explicit.isEmpty { return explicit }
        let folders =
            (environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/opt/swift/usr/bin", "/usr/bin"]
        for folder in folders {
            let candidate = folder + "/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
