import Foundation
import RaceLab
import Testing

@testable import racelab

/// The repository's root.
private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite("One lesson, one folder, one registration line")
struct LessonLayoutTests {
    @Test(
        "the Lessons/ folders, racelab list --json, the README's table and the declared expectations and probes agree"
    )
    func repositoryAgrees() async throws {
        let output = try await Executable.racelab.run("list", "--json")
        #expect(output.status == 0, "stderr: \(output.stderr)")
        let listed = try LessonLayout.listed(fromJSON: output.stdout)
        #expect(listed.count == LessonLayout.lessonFolders(in: repositoryRoot.appendingPathComponent("Lessons")).count)
        let problems = LessonLayout.problems(root: repositoryRoot, listed: listed, declared: catalog)
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test("the generated catalog holds the lessons in number order, each declaring its expectations")
    func catalogOrder() {
        #expect(catalog.map(\.number) == Array(1...catalog.count))
        #expect(catalog.allSatisfy { $0.variants.allSatisfy(\.declaresToolExpectations) })
    }

    // MARK: The check itself, on a synthetic tree

    static let variant = Synthetic.variant("buggy", .buggy)

    static func lesson(_ number: Int, _ slug: String, expecting: Bool = true) -> Lesson {
        Synthetic.lesson(
            number,
            slug,
            [expecting ? variant.expecting(tsan: .silent, compiler: .accepted, on: .linux, because: "r") : variant]
        )
    }

    /// The problems of the tree at `root` when `lessons` are both registered and listed.
    static func problems(root: URL, registered lessons: [Lesson]) -> [String] {
        LessonLayout.problems(root: root, listed: lessons.map(listed), declared: lessons)
    }

    static func listed(_ lesson: Lesson) -> LessonLayout.Listed {
        LessonLayout.Listed(
            number: lesson.number,
            slug: lesson.slug,
            variants: lesson.variants.map { .init(name: $0.name) }
        )
    }

    /// A repository-shaped tree with one complete lesson, `01-first`, and the lesson folders
    /// `unregistered` (not in its README), in a fresh temporary folder.
    static func tree(unregistered: [String] = []) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("racelab-layout-\(UUID().uuidString)")
        for folder in ["01-first"] + unregistered { try addLessonFolder(folder, to: root) }
        try Data(
            """
            # A package

            ## Lessons

            | # | slug | the bug | folder |
            |---|------|---------|--------|
            | 1 | `first` | a bug | [Lessons/01-first](Lessons/01-first) |

            ## Next
            """.utf8
        ).write(to: root.appendingPathComponent("README.md"))
        return root
    }

    static func addLessonFolder(_ name: String, to root: URL) throws {
        let folder = root.appendingPathComponent("Lessons").appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Exercise"),
            withIntermediateDirectories: true
        )
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent(CompilerProbe.folderName),
            withIntermediateDirectories: true
        )
        try Data("# lesson".utf8).write(to: folder.appendingPathComponent("README.md"))
        try Data("struct S {}".utf8).write(
            to: folder.appendingPathComponent(CompilerProbe.folderName).appendingPathComponent("buggy.swift")
        )
    }

    @Test("a complete synthetic tree passes: the check is not failing for its own reasons")
    func syntheticTreeAgrees() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = Self.lesson(1, "first")
        #expect(Self.problems(root: root, registered: [first]).isEmpty)
    }

    @Test("a lesson folder added without registration fails the check, naming the folder and Package.swift")
    func unregisteredFolderFails() throws {
        let root = try Self.tree(unregistered: ["02-second"])
        defer { try? FileManager.default.removeItem(at: root) }
        let first = Self.lesson(1, "first")
        let problems = Self.problems(root: root, registered: [first])
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("Lessons/02-second is not a registered lesson") == true)
        #expect(problems.first?.contains("Package.swift") == true)
    }

    @Test("a file at the top of a lesson folder, outside Buggy/ Fixed/ Model/ Support/, fails the check")
    func strayFileFails() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Lessons/01-first")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Fixed"),
            withIntermediateDirectories: true
        )
        try Data().write(to: folder.appendingPathComponent("Fixed/Store.swift"))
        try Data().write(to: folder.appendingPathComponent("FirstLesson.swift"))
        #expect(Self.problems(root: root, registered: [Self.lesson(1, "first")]).isEmpty)
        try Data().write(to: folder.appendingPathComponent("Store.swift"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Variants"),
            withIntermediateDirectories: true
        )
        #expect(
            Self.problems(root: root, registered: [Self.lesson(1, "first")]) == [
                "Lessons/01-first/Store.swift is outside the lesson folder's shape: put code in "
                    + "Buggy/, Fixed/, Model/, Support/",
                "Lessons/01-first/Variants is outside the lesson folder's shape: put code in "
                    + "Buggy/, Fixed/, Model/, Support/",
            ]
        )
    }

    @Test("a registered lesson missing from the README's table, or a variant without expectation or probe, fails")
    func otherDisagreementsFail() throws {
        let root = try Self.tree(unregistered: ["02-second"])
        defer { try? FileManager.default.removeItem(at: root) }
        // Registered (listed and declared) but not in the README, and declaring no expectation.
        let first = Self.lesson(1, "first")
        let second = Self.lesson(2, "second", expecting: false)
        var problems = Self.problems(root: root, registered: [first, second])
        #expect(
            problems == [
                "README.md's lesson table has no row for lesson 2 second",
                "lesson 2 second variant buggy declares no TSan/compiler expectation: "
                    + "add .expecting(tsan:compiler:on:because:) from a make tsan run",
            ]
        )
        // A probe that names no variant, and a variant with no probe.
        let probes = root.appendingPathComponent("Lessons/01-first/\(CompilerProbe.folderName)")
        try FileManager.default.moveItem(
            at: probes.appendingPathComponent("buggy.swift"),
            to: probes.appendingPathComponent("gone.swift")
        )
        problems = Self.problems(root: root, registered: [first])
        #expect(problems.contains("Lessons/01-first/CompilerProbes/gone.swift names no variant of lesson first"))
        #expect(
            problems.contains(
                "lesson 1 first variant buggy has no compiler probe Lessons/01-first/CompilerProbes/buggy.swift"
            )
        )
    }

    @Test("a probe that declares again a type its folder's prelude declares fails, naming both")
    func probeRestatingThePreludeFails() throws {
        let root = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = Self.lesson(1, "first")
        let probes = root.appendingPathComponent("Lessons/01-first/\(CompilerProbe.folderName)")
        try Data("struct Item: Sendable {}\nfinal class Store {}\n".utf8)
            .write(to: probes.appendingPathComponent("\(CompilerProbe.preludeName).swift"))
        #expect(Self.problems(root: root, registered: [first]).isEmpty)

        try Data("// probe\nstruct Item: Sendable {}\nfunc use(_ store: Store) {}\n".utf8)
            .write(to: probes.appendingPathComponent("buggy.swift"))
        #expect(
            Self.problems(root: root, registered: [first]) == [
                "Lessons/01-first/CompilerProbes/buggy.swift declares Item, which its Prelude.swift declares: "
                    + "use the prelude's"
            ]
        )
    }
}
