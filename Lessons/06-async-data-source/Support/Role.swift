import RaceLab

/// What one `concurrentPerform` iteration plays in a trial of this lesson.
///
/// Even iterations are writers ("a network event arrived": publish the next state). Odd iterations
/// are readers (the UI), except one in 64 among the first 512, which adds an observer mid-trial (at
/// most 8 per trial, so that notifying observers costs the same at any trial length). Writers and
/// readers are interleaved, so the two roles run side by side for the whole trial.
enum Role: Equatable {
    case writer
    case reader(cell: Int)
    case observerAdder

    init(_ iteration: Iteration) {
        let index = iteration.index
        if index % 2 == 0 {
            self = .writer
        } else if index % 64 == 1 && index < 512 {
            self = .observerAdder
        } else {
            self = .reader(cell: (index / 2) % CollectionState.minimumItemCount)
        }
    }

    /// Readers alternate between the two reading paths a variant may offer.
    var usesSecondPath: Bool {
        if case .reader(let cell) = self { return cell == 1 }
        return false
    }

    /// The number of writers, hence of updates and the final version, in a trial of `iterations`.
    static func updates(in iterations: Int) -> Int {
        (iterations + 1) / 2
    }
}
