#if canImport(Testing)
import RaceLab
import Testing

extension Trait where Self == ConditionTrait {
    /// Marks this package's suites of schedule searches over a lesson: disabled under
    /// ThreadSanitizer, where the search would only re-run the lesson one step at a time (the
    /// explorer's own tests in RaceLabTests run under it). `package`: a policy of this repository's
    /// `make test-tsan`, not part of RaceLabTesting's API.
    package static func searchesLessonSchedules(sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        .disabled(
            if: ThreadSanitizer.isActive,
            "a search runs the lesson one step at a time: make test runs these; RaceLabTests run the explorer under TSan",
            sourceLocation: sourceLocation
        )
    }
}
#endif
