import Foundation
import RaceLab

/// One trial's counter file, in a folder of its own under the process's scratch folder, and the
/// increments every variant performs on it.
///
/// By default every increment goes through a *new* `ObjectStorage` instance, as code using the type
/// does: the instances share nothing but the file and whatever the coordinator shares. With
/// `oneInstance`, every increment goes through one storage made at the start, the shape of the
/// article's own test (one `objectStorage`, hammered by `concurrentPerform`).
final class CounterFile: Sendable {
    let folder: URL
    let url: URL
    private let makeCoordinator: @Sendable () -> any FileAccessCoordinator
    /// The writing claims of every storage of the trial, as their coordinators granted them.
    let meter = ClaimMeter()
    /// The one storage every increment uses, when the trial has one.
    private let sharedStorage: ObjectStorage<Counter>?

    /// - Parameters:
    ///   - coordinator: makes the coordinator of each new storage instance (of the one, with
    ///     `oneInstance`).
    ///   - oneInstance: every increment through one storage instead of a new one each time.
    init(coordinator: @escaping @Sendable () -> any FileAccessCoordinator, oneInstance: Bool = false) throws {
        folder = try ScratchSpace.makeFolder(label: "coordinator-locking")
        url = folder.appendingPathComponent("counter.json")
        let meter = meter
        makeCoordinator = { MeteredCoordinator(base: coordinator(), meter: meter) }
        sharedStorage = oneInstance ? ObjectStorage<Counter>(url: url, coordinator: makeCoordinator()) : nil
    }

    /// Adds one to the stored counter through a fresh storage instance, or through the one.
    func increment() throws {
        try (sharedStorage ?? ObjectStorage<Counter>(url: url, coordinator: makeCoordinator()))
            .mutatingObject(defaultValue: Counter()) { $0.value += 1 }
    }

    /// The counter's value once the trial is over (0 when it was never written).
    func finalValue() throws -> Int {
        try ObjectStorage<Counter>(url: url).fetchObject()?.value ?? 0
    }

    func remove() {
        ScratchSpace.remove(folder)
    }
}
