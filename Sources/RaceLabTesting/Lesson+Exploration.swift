import RaceLab

extension Lesson {
    /// The exploration of the variant named `name`, for tests that run the explorer on a lesson.
    ///
    /// Throws, saying which, when the lesson has no such variant or the variant is not explorable,
    /// so that a renamed variant fails the test instead of silently skipping it.
    public func exploration(ofVariant name: String) throws -> Exploration {
        guard let variant = variant(named: name) else {
            throw MissingExploration(description: "lesson \(number) has no variant '\(name)'")
        }
        guard let exploration = variant.exploration else {
            throw MissingExploration(description: "variant '\(name)' of lesson \(number) is not explorable")
        }
        return exploration
    }
}

/// Why `exploration(ofVariant:)` found nothing.
public struct MissingExploration: Error, CustomStringConvertible {
    public let description: String
}
