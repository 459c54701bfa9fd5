import Foundation
import RaceLab

/// One trial's counter file, in a folder of its own under the process's scratch folder, and the
/// increments every variant performs on it.
///
/// Every increment goes through a *new* `ObjectStorage` instance, as code using the type does: the
/// instances share nothing but the file and whatever the coordinator shares.
final class CounterFile: Sendable {
    let folder: URL
    let url: URL
    private let makeCoordinator: @Sendable () -> any FileAccessCoordinator

    /// - Parameter coordinator: makes the coordinator of each new storage instance.
    init(coordinator: @escaping @Sendable () -> any FileAccessCoordinator) throws {
        folder = try ScratchSpace.makeFolder(label: "coordinator-locking")
        url = folder.appendingPathComponent("counter.json")
        makeCoordinator = coordinator
    }

    /// Adds one to the stored counter through a fresh storage instance.
    func increment() throws {
        try ObjectStorage<Counter>(url: url, coordinator: makeCoordinator())
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
