import Foundation
import RaceLab

/// The article's fan-in: many fetches join one `DispatchGroup`, failed ones record their error, and
/// a completion registered with `notify` reads every error once the last fetch has left the group.
///
/// The article does all of this inside one `fetchImages(by:completion:)`; here it is split so that
/// the runner can start fetches from many threads (`fetch`) and run the completion afterwards
/// (`completion()`). The invariant is the article's: every failure is recorded exactly once, and the
/// completion sees all of them.
public final class FetchBatch: Sendable {
    private let group = DispatchGroup()
    private let fetcher = SimulatedFetcher()
    /// Internal, so that the schedule explorer can show what the callbacks recorded between steps.
    let errors: any ErrorCollector

    /// - Parameter errors: where the callbacks record failures (plain array or `Protected`).
    public init(collectingInto errors: any ErrorCollector) {
        self.errors = errors
    }

    /// Starts fetch `index` and returns; its callback records a failure, then leaves the group.
    ///
    /// The callback runs on another thread, where the caller's race-window hook is not bound. The
    /// hand-off carries it over, the way a task-local flows into a child task, so that the runner's
    /// noise reaches the windows the callback passes, and the schedule explorer runs the callback
    /// as a thread of its own.
    public func fetch(_ index: Int) {
        group.enter()
        let callback = Race.handOff("fetch callback")
        fetcher.fetch(index) { result in
            callback.run {
                if case .failure(let error) = result {
                    self.errors.record(error)
                }
            }
            // With `Protected`, the record above is already enqueued as a barrier when the group is
            // left, so the completion's `read()` (enqueued later) runs after it.
            self.group.leave()
        }
    }

    /// The errors as the article's `group.notify` completion sees them, once every fetch started
    /// before this call has called back.
    public func completion() async -> [any Error] {
        await withCheckedContinuation { continuation in
            group.notify(queue: .global()) {
                continuation.resume(returning: self.errors.recorded())
            }
        }
    }

    /// What `completion()` returns, for a caller that may block (the explorer's invariant): it
    /// waits for the group with `wait()` where `completion()` registers a `notify`.
    public func waitForCompletion() -> [any Error] {
        group.wait()
        return errors.recorded()
    }
}
