import Foundation
import RaceLab

/// Checks that every place naming the lessons names the same ones: the `Lessons/NN-slug` folders,
/// the tool's catalog (`racelab list --json`, generated from `Package.swift`'s `lessons` list), the
/// README's lesson table, and the lessons' own declarations (each variant's TSan/compiler
/// expectation and its compiler probe).
///
/// A function of a folder tree and two lists, so that a test can run it on a synthetic tree in a
/// temporary folder as well as on the repository.
enum LessonLayout {
    /// A lesson as `racelab list --json` prints it (only what the check needs).
    struct Listed: Decodable, Equatable {
        struct Variant: Decodable, Equatable {
            var name: String
        }

        var number: Int
        var slug: String
        var variants: [Variant]
    }

    /// The `lessons` array of `racelab list --json`'s output.
    static func listed(fromJSON text: String) throws -> [Listed] {
        struct Document: Decodable { var lessons: [Listed] }
        return try JSONDecoder().decode(Document.self, from: Data(text.utf8)).lessons
    }

    /// One problem per disagreement, each naming the lesson and what to fix; empty when all agree.
    ///
    /// - Parameters:
    ///   - root: the repository (or a tree shaped like it): `Lessons/`, `README.md`.
    ///   - listed: what the built tool lists.
    ///   - declared: the lesson values the tool is built from, for their variants' expectations.
    static func problems(root: URL, listed: [Listed], declared: [Lesson]) -> [String] {
        var problems: [String] = []
        let lessonsFolder = root.appendingPathComponent("Lessons")
        let folders = lessonFolders(in: lessonsFolder)
        let registered = Dictionary(
            listed.map { (CompilerProbe.lessonFolderName(number: $0.number, slug: $0.slug), $0) },
            uniquingKeysWith: { first, _ in first }
        )

        for folder in folders where registered[folder] == nil {
            problems.append(
                "Lessons/\(folder) is not a registered lesson: add its (module, folder) line to Package.swift's "
                    + "`lessons` list (or the folder name does not match the lesson's NN-slug)"
            )
        }
        let measuredNowhere = Set(
            declared.flatMap { lesson in
                lesson.variants.filter { $0.toolExpectations.isEmpty }.map { "\(lesson.number) \($0.name)" }
            }
        )
        for (folder, lesson) in registered.sorted(by: { $0.key < $1.key }) {
            guard folders.contains(folder) else {
                problems.append("lesson \(lesson.number) \(lesson.slug) has no folder Lessons/\(folder)")
                continue
            }
            let path = lessonsFolder.appendingPathComponent(folder)
            for required in ["README.md", "Exercise", CompilerProbe.folderName]
            where !FileManager.default.fileExists(atPath: path.appendingPathComponent(required).path) {
                problems.append("Lessons/\(folder) has no \(required)")
            }
            problems += shapeProblems(lessonFolder: path, folder: folder)
            let variants = Set(lesson.variants.map(\.name))
            for probe in CompilerProbe.probeNames(inLessonFolder: path) where !variants.contains(probe) {
                problems.append(
                    "Lessons/\(folder)/\(CompilerProbe.folderName)/\(probe).swift names no variant of lesson \(lesson.slug)"
                )
            }
            let probes = Set(CompilerProbe.probeNames(inLessonFolder: path))
            // A variant measured on no system yet (declared unmeasured only) has no probe to compare.
            for variant in lesson.variants
            where !probes.contains(variant.name) && !measuredNowhere.contains("\(lesson.number) \(variant.name)") {
                problems.append(
                    "lesson \(lesson.number) \(lesson.slug) variant \(variant.name) has no compiler probe "
                        + "Lessons/\(folder)/\(CompilerProbe.folderName)/\(variant.name).swift"
                )
            }
            problems += preludeProblems(probes: path.appendingPathComponent(CompilerProbe.folderName), folder: folder)
        }

        problems += readmeProblems(root: root, listed: listed)
        problems += declarationProblems(listed: listed, declared: declared)
        return problems
    }

    /// The folders a lesson folder may hold besides `Exercise` and the compiler probes, each with
    /// one meaning in every lesson: the code only buggy variants run, the code only fixed variants
    /// run, the article's types both run (or that a variant configures), and the harness around them
    /// (trials, checks, workers, variant definitions).
    static let codeFolders = ["Buggy", "Fixed", "Model", "Support"]

    /// Entries at the top of a lesson folder outside its one shape: the texts, `Exercise`, the probes,
    /// the `codeFolders`, and the lesson's registration files (`…Lesson.swift`, `…Lesson+….swift`).
    static func shapeProblems(lessonFolder: URL, folder: String) -> [String] {
        let allowed = Set(["README.md", "APPENDIX.md", "Exercise", CompilerProbe.folderName] + codeFolders)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lessonFolder.path)) ?? []
        return names.sorted().filter { name in
            !name.hasPrefix(".") && !allowed.contains(name)
                && !(name.hasSuffix(".swift") && (name.hasSuffix("Lesson.swift") || name.contains("Lesson+")))
        }.map { name in
            "Lessons/\(folder)/\(name) is outside the lesson folder's shape: put code in "
                + codeFolders.map { "\($0)/" }.joined(separator: ", ")
        }
    }

    /// Types a probe declares again although its folder's prelude declares them: compiled together,
    /// the two would make the probe "rejected" for a redeclaration, not for the pattern it measures.
    static func preludeProblems(probes: URL, folder: String) -> [String] {
        let prelude = probes.appendingPathComponent("\(CompilerProbe.preludeName).swift")
        guard let preludeText = try? String(contentsOf: prelude, encoding: .utf8) else { return [] }
        let shared = topLevelTypes(in: preludeText)
        var problems: [String] = []
        for name in CompilerProbe.probeNames(inLessonFolder: probes.deletingLastPathComponent()) {
            let probe = probes.appendingPathComponent("\(name).swift")
            let text = (try? String(contentsOf: probe, encoding: .utf8)) ?? ""
            for type in topLevelTypes(in: text).sorted() where shared.contains(type) {
                problems.append(
                    "Lessons/\(folder)/\(CompilerProbe.folderName)/\(name).swift declares \(type), "
                        + "which its \(CompilerProbe.preludeName).swift declares: use the prelude's"
                )
            }
        }
        return problems
    }

    /// The names of the types declared at the start of a line (top level) in Swift source `text`.
    static func topLevelTypes(in text: String) -> Set<String> {
        let kinds: Set<String> = ["class", "struct", "enum", "actor", "protocol"]
        var names: Set<String> = []
        for line in text.split(separator: "\n") where !line.hasPrefix(" ") {
            let words = line.split(whereSeparator: { " :<{(".contains($0) }).map(String.init)
            guard let kind = words.firstIndex(where: kinds.contains), kind + 1 < words.count else { continue }
            guard words[..<kind].allSatisfy({ ["final", "public", "private", "fileprivate", "internal"].contains($0) })
            else { continue }
            names.insert(words[kind + 1])
        }
        return names
    }

    /// The folders `Lessons/[0-9]*`, sorted.
    static func lessonFolders(in lessonsFolder: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: lessonsFolder.path)) ?? []
        return names.filter { name in
            var isFolder: ObjCBool = false
            return name.first?.isNumber == true
                && FileManager.default.fileExists(
                    atPath: lessonsFolder.appendingPathComponent(name).path,
                    isDirectory: &isFolder
                ) && isFolder.boolValue
        }.sorted()
    }

    /// The rows of the README's lesson table (under `## Lessons`): number, slug and linked folder.
    static func readmeRows(_ text: String) -> [(number: Int, slug: String, folder: String)] {
        var rows: [(Int, String, String)] = []
        var inSection = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") {
                inSection = line == "## Lessons"
                continue
            }
            guard inSection, line.hasPrefix("|") else { continue }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 3, let number = Int(cells[0]) else { continue }
            let slug = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let link = cells.last ?? ""
            let folder =
                link.range(of: "(Lessons/").map { String(link[$0.upperBound...].prefix { $0 != ")" }) } ?? ""
            rows.append((number, slug, folder))
        }
        return rows
    }

    private static func readmeProblems(root: URL, listed: [Listed]) -> [String] {
        guard let text = try? String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8) else {
            return ["README.md cannot be read"]
        }
        var problems: [String] = []
        let rows = readmeRows(text)
        for lesson in listed {
            let folder = CompilerProbe.lessonFolderName(number: lesson.number, slug: lesson.slug)
            guard let row = rows.first(where: { $0.number == lesson.number }) else {
                problems.append("README.md's lesson table has no row for lesson \(lesson.number) \(lesson.slug)")
                continue
            }
            if row.slug != lesson.slug || row.folder != folder {
                problems.append(
                    "README.md's lesson table row \(row.number) says `\(row.slug)` in Lessons/\(row.folder); "
                        + "the tool has \(lesson.slug) in Lessons/\(folder)"
                )
            }
        }
        for row in rows where !listed.contains(where: { $0.number == row.number }) {
            problems.append(
                "README.md's lesson table lists lesson \(row.number) \(row.slug), which the tool does not have"
            )
        }
        return problems
    }

    private static func declarationProblems(listed: [Listed], declared: [Lesson]) -> [String] {
        var problems: [String] = []
        let fromList = listed.map { "\($0.number) \($0.slug): " + $0.variants.map(\.name).joined(separator: " ") }
        let fromCode = declared.map { "\($0.number) \($0.slug): " + $0.variants.map(\.name).joined(separator: " ") }
        if fromList != fromCode {
            problems.append("racelab list --json (\(fromList)) differs from the lessons' code (\(fromCode))")
        }
        for lesson in declared {
            for variant in lesson.variants where !variant.declaresToolExpectations {
                problems.append(
                    "lesson \(lesson.number) \(lesson.slug) variant \(variant.name) declares no TSan/compiler "
                        + "expectation: add .expecting(tsan:compiler:on:because:) from a make tsan run"
                )
            }
        }
        return problems
    }
}
