import Foundation
import Synchronization

/// Counts the writing claims a trial's coordinator granted, and how many of them it granted while
/// another claim on the file was still held: the evidence, per trial, that the lock let someone in.
final class ClaimMeter: Sendable {
    private let held = Atomic<Int>(0)
    private let granted = Atomic<Int>(0)
    private let overlapping = Atomic<Int>(0)

    /// Claims granted so far.
    var claims: Int { granted.load(ordering: .relaxed) }
    /// Claims granted while another was held.
    var overlaps: Int { overlapping.load(ordering: .relaxed) }

    /// Runs `body` as one granted claim.
    func claim<Value>(_ body: () throws -> Value) rethrows -> Value {
        granted.wrappingAdd(1, ordering: .relaxed)
        if held.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue > 0 {
            overlapping.wrappingAdd(1, ordering: .relaxed)
        }
        defer { held.wrappingSubtract(1, ordering: .acquiringAndReleasing) }
        return try body()
    }
}

/// A coordinator that runs every writing claim of `base` inside `meter`, once `base` has granted it.
struct MeteredCoordinator: FileAccessCoordinator {
    let base: any FileAccessCoordinator
    let meter: ClaimMeter

    func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try base.coordinateReading(at: url, accessor)
    }

    func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try base.coordinateWriting(at: url) { url in try meter.claim { try accessor(url) } }
    }
}
