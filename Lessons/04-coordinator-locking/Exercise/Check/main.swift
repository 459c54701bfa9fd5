// The harness for exercise 4 (do not edit): compiled next to the participant's FileCounter.swift.
import ExerciseSupport
import Foundation
import RaceLab

// The first statement that runs, before any of the participant's code: this check owns the verdict channel.
// `private`, so that the participant's file cannot name it.
private let check = ExerciseCheck("4 · FileCounter keeps every increment of a shared file")

/// A fresh folder per use, removed afterwards: the counter file lives in it.
func makeFolder() throws -> URL {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("racelab-exercise-4-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}
func onDisk(_ url: URL) -> Int? {
    (try? String(contentsOf: url, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
}

// Functional: increments really persist to the file (an `increment` that does nothing never loses
// one, and must not pass), and another instance of the same URL sees them.
do {
    let folder = try makeFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("counter.txt")
    let first = FileCounter(url: url)
    check.require((try? first.value()) == 0, "a counter whose file does not exist yet is 0")
    for _ in 0..<3 { try first.increment() }
    check.require(
        (try? first.value()) == 3,
        "three increments make 3",
        evidence: "value() is \(String(describing: try? first.value()))"
    )
    check.require(
        onDisk(url) == 3,
        "the file holds the count (a decimal number)",
        evidence: "the file holds \(String(describing: try? String(contentsOf: url, encoding: .utf8)))"
    )
    let second = FileCounter(url: url)
    try second.increment()
    check.require(
        (try? first.value()) == 4,
        "another instance of the same URL continues from the file",
        evidence: "after 3 + 1 increments value() is \(String(describing: try? first.value()))"
    )
    let other = FileCounter(url: folder.appendingPathComponent("other.txt"))
    try other.increment()
    check.require((try? other.value()) == 1 && onDisk(url) == 4, "two files count separately")
} catch {
    check.require(false, "the functional checks run without errors", evidence: "\(error)")
}

// Concurrent: every iteration increments the trial's file once, through a NEW instance (as code
// that makes a storage wherever it needs one); afterwards the file must hold the number of iterations.
struct Trial: Sendable {
    let folder: URL
    var url: URL { folder.appendingPathComponent("counter.txt") }
}
let variant = ExerciseCheck.variant(
    of: "FileCounter",
    makeState: { Trial(folder: try makeFolder()) },
    operation: { trial, _ in try FileCounter(url: trial.url).increment() },
    check: { trial, info in .kept(onDisk(trial.url) ?? 0, of: info.iterations, unit: "increments") },
    tearDown: { trial in try? FileManager.default.removeItem(at: trial.folder) }
)
check.stress(
    variant,
    workload: Workload(trials: 5, iterations: 200),
    requirement: "200 concurrent increments of one file end at exactly 200 (every trial)"
)
check.finish()
