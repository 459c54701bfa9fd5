import Foundation
import Testing

/// Exercise 5's completion on the main queue: the article this lesson comes from ends every store
/// with `DispatchQueue.main.async { completion(...) }`. The harness waits for completions off the
/// main thread, which serves the main queue as an app's does, so that fix passes like any other. In
/// `ExerciseAdviceTests`, whose checks run one at a time.
extension ExerciseAdviceTests {
    /// The solution with the article's store: a barrier, `Data.write(to:options: .atomic)`, and the
    /// completion on the main queue.
    static let completionOnMainQueue = """
        The article's store: a barrier, an atomic write, the completion on the main queue.
        --- Solution/DocumentStore.swift
        +++ Article/DocumentStore.swift
        @@ -19,9 +19,13 @@
                 queue.async(flags: .barrier) {
                     do {
        -                try self.replace(name, with: data)
        -                completion(nil)
        +                try data.write(to: self.folder.appendingPathComponent(name), options: .atomic)
        +                DispatchQueue.main.async {
        +                    completion(nil)
        +                }
                     } catch {
        -                completion(error)
        +                DispatchQueue.main.async {
        +                    completion(error)
        +                }
                     }
                 }
             }

        """

    @Test(
        "exercise 5: a store that calls its completion on the main queue passes (the article's fix)",
        .timeLimit(.minutes(20))
    )
    func completionOnTheMainQueuePasses() async throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("racelab-main-queue-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let patch = folder.appendingPathComponent("CompletionOnMainQueue.patch")
        try Self.completionOnMainQueue.write(to: patch, atomically: true, encoding: .utf8)
        let text = try await Self.checkPasses(exercise: 5, .patch(patch.path))
        #expect(text.contains("\nPASS: 5 · DocumentStore"), "\(text)")
        #expect(!text.contains("never ran"), "\(text)")
    }
}
