#if canImport(Testing)
import RaceLab
import Testing

extension Trait where Self == ConditionTrait {
    /// Marks a test that races on purpose: it drives a buggy variant whose bug *is* a data race (a
    /// plain flag or array written from several threads), so ThreadSanitizer reports it, correctly,
    /// and would fail the run. The test is disabled when its process runs under ThreadSanitizer
    /// (`ThreadSanitizer.isActive`, i.e. `swift test --sanitize=thread`) and runs everywhere else.
    ///
    /// ```swift
    /// @Test("two threads both run the work", .racesOnPurpose("the plain didExecute flag is a data race"))
    /// ```
    ///
    /// - Parameter comment: which race the test provokes, shown when it is skipped.
    public static func racesOnPurpose(
        _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        .disabled(if: ThreadSanitizer.isActive, comment, sourceLocation: sourceLocation)
    }
}
#endif
