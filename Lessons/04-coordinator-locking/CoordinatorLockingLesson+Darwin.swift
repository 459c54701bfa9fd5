import Foundation
import RaceLab

// The article's own code runs where Foundation has NSFileCoordinator: Darwin. Elsewhere the lesson
// has the model (OwnerScopedCoordinator) and the kernel locks only. On Linux, Scripts/typecheck-darwin
// type-checks this file against stubs carrying Apple's documented signatures (Scripts/DarwinStubs).
#if canImport(Darwin)
extension CoordinatorLockingLesson {
    /// They test Foundation's `NSFileCoordinator`, whose owner rule the lesson takes from Apple's
    /// documentation and the explorer cannot check: their verdicts are printed, and do not decide
    /// the lesson's.
    static let systemCoordinatorVariants = [nsFileCoordinatorSharedPurpose, nsFileCoordinator].map { variant in
        variant.unmeasured(
            on: .macOS,
            because: "it tests Foundation's NSFileCoordinator, whose rule the lesson takes from Apple's "
                + "documentation and cannot explore. The buggy one should lose increments and the fixed one "
                + "none; if yours disagrees, the lesson's reading of Apple's rule is wrong"
        )
    }

    static let nsFileCoordinatorSharedPurpose = counterVariant(
        name: "nsfilecoordinator-shared-purpose",
        kind: .buggy,
        summary: "NSFileCoordinator, every claim with one purposeIdentifier",
        coordinator: { owner in SystemFileCoordinator(purpose: "racelab.\(owner)") },
        overlap: "same purpose",
        explorable: false
    )

    static let nsFileCoordinator = counterVariant(
        name: "nsfilecoordinator",
        kind: .fixed,
        summary: "NSFileCoordinator(filePresenter: nil): a unique purposeIdentifier each",
        coordinator: { _ in SystemFileCoordinator(purpose: nil) },
        overlap: "unique purposes",
        workload: Workload(trials: 8, iterations: 200),
        explorable: false
    )
}

/// `FileAccessCoordinator` over Foundation's `NSFileCoordinator`, one coordinator per claim, as the
/// article's `ObjectStorage` creates one per call.
///
/// Apple documents `purposeIdentifier` so: coordinators that share one do not block each other's
/// coordinated reads and writes; by default every coordinator gets a unique one. A coordinator made
/// with a file presenter takes the presenter's identifier, so every storage created with the same
/// presenter (or given the same identifier, as here) excludes nothing: the read-modify-write in
/// `mutatingObject` runs in several threads at once. That is the bug; the default identifier is the fix.
public struct SystemFileCoordinator: FileAccessCoordinator {
    /// The purpose identifier every claim's coordinator is given; nil: the default (unique).
    public let purpose: String?

    public init(purpose: String?) {
        self.purpose = purpose
    }

    private func makeCoordinator() -> NSFileCoordinator {
        let coordinator = NSFileCoordinator(filePresenter: nil)
        if let purpose {
            // hazard: claims of one purpose never block each other, whichever thread makes them.
            coordinator.purposeIdentifier = purpose
        }
        return coordinator
    }

    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try coordinated(accessor) { coordinator, failure, run in
            coordinator.coordinate(readingItemAt: url, options: [], error: &failure, byAccessor: run)
        }
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try coordinated(accessor) { coordinator, failure, run in
            coordinator.coordinate(writingItemAt: url, options: [], error: &failure, byAccessor: run)
        }
    }

    /// Runs `accessor` under the claim that `claim` makes with a new coordinator.
    /// - Returns: the accessor's value.
    /// - Throws: the accessor's error, or the coordinator's when it did not run the accessor.
    private func coordinated<Value>(
        _ accessor: (URL) throws -> Value,
        claim: (NSFileCoordinator, inout NSError?, (URL) -> Void) -> Void
    ) throws -> Value {
        var result: Result<Value, any Error>?
        var failure: NSError?
        // `claim` runs the accessor before it returns, never later: it does not escape.
        withoutActuallyEscaping(accessor) { accessor in
            claim(makeCoordinator(), &failure) { url in
                result = Result { try accessor(url) }
            }
        }
        if let result { return try result.get() }
        throw failure ?? CocoaError(.fileLocking)
    }
}
#else
extension CoordinatorLockingLesson {
    /// No NSFileCoordinator outside Darwin.
    static let systemCoordinatorVariants: [Variant] = []
}
#endif
