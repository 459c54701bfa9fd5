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
    /// Told when a writing claim ends, so that its copy no longer shows as on its way back.
    var copies: CounterCopies? = nil

    func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try base.coordinateReading(at: url, accessor)
    }

    func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try base.coordinateWriting(at: url) { url in
            try meter.claim {
                defer { copies?.saved() }
                return try accessor(url)
            }
        }
    }
}

/// `ClaimMeter` for claims made in several processes: each writing claim, once `base` has granted it,
/// leaves a marker file in `folder` while it runs and looks for the markers of others. A claim that
/// finds one was granted while another was held, and leaves an `overlap-` file that the trial counts.
struct CrossProcessMeteredCoordinator: FileAccessCoordinator {
    let base: any FileAccessCoordinator
    let folder: URL

    /// Claims granted while another was held, in every process that metered into `folder`.
    static func overlaps(in folder: URL) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("overlap-") }.count
    }

    func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try base.coordinateReading(at: url, accessor)
    }

    func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value {
        try base.coordinateWriting(at: url) { url in
            let files = FileManager.default
            let marker = folder.appendingPathComponent("held-\(UUID().uuidString)")
            guard files.createFile(atPath: marker.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: marker.path])
            }
            defer { try? files.removeItem(at: marker) }
            if try files.contentsOfDirectory(atPath: folder.path).filter({ $0.hasPrefix("held-") }).count > 1 {
                let overlap = folder.appendingPathComponent("overlap-\(UUID().uuidString)")
                guard files.createFile(atPath: overlap.path, contents: nil) else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: overlap.path])
                }
            }
            return try accessor(url)
        }
    }
}
