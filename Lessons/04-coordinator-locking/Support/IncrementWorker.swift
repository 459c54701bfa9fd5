import Foundation
import RaceLab

/// The body of a worker process in the cross-process variant: increments the shared counter file a
/// number of times, from several threads, through a chosen coordinator.
///
/// Arguments: `--file PATH --increments N --coordination open-file-description|process-record-lock|none`
/// and, optionally, `--gate FOLDER --parties P` to start together with the other workers and
/// `--meter FOLDER` to count claims granted while another was held (`CrossProcessMeteredCoordinator`).
struct IncrementWorker {
    enum Coordination: String, CaseIterable {
        case openFileDescription = "open-file-description"
        case processRecordLock = "process-record-lock"
        case none

        var coordinator: any FileAccessCoordinator {
            switch self {
            case .openFileDescription: OpenFileDescriptionLock()
            case .processRecordLock: ProcessRecordLock()
            case .none: Uncoordinated()
            }
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    var file: URL
    var increments: Int
    var coordination: Coordination
    var gate: ProcessStartGate?
    var meter: URL?

    /// The command-line arguments that make a worker run `increments` increments of `file`.
    static func arguments(
        file: URL,
        increments: Int,
        coordination: Coordination,
        gate: URL?,
        parties: Int,
        meter: URL? = nil
    ) -> [String] {
        var arguments = [
            "--file", file.path, "--increments", String(increments), "--coordination", coordination.rawValue,
        ]
        if let gate { arguments += ["--gate", gate.path, "--parties", String(parties)] }
        if let meter { arguments += ["--meter", meter.path] }
        return arguments
    }

    init(arguments: [String]) throws {
        var options: [String: String] = [:]
        var rest = arguments[...]
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else {
                throw UsageError(description: "expected '--option value', got '\(name)'")
            }
            options[String(name.dropFirst(2))] = value
        }
        guard let path = options["file"], let count = options["increments"].flatMap(Int.init), count >= 0,
            let coordination = options["coordination"].flatMap(Coordination.init(rawValue:))
        else {
            throw UsageError(
                description: "needs --file PATH --increments N --coordination "
                    + Coordination.allCases.map(\.rawValue).joined(separator: "|")
            )
        }
        file = URL(fileURLWithPath: path)
        increments = count
        self.coordination = coordination
        if let folder = options["gate"], let parties = options["parties"].flatMap(Int.init) {
            gate = ProcessStartGate(folder: URL(fileURLWithPath: folder), parties: parties)
        }
        meter = options["meter"].map { URL(fileURLWithPath: $0, isDirectory: true) }
    }

    /// Waits at the gate, then performs the increments on every core, a new storage each time.
    func run() throws {
        try gate?.arriveAndWait()
        let base = coordination.coordinator
        let coordinator = meter.map { CrossProcessMeteredCoordinator(base: base, folder: $0) } ?? base
        let firstError = FirstError()
        DispatchQueue.concurrentPerform(iterations: increments) { _ in
            do {
                try ObjectStorage<Counter>(url: file, coordinator: coordinator)
                    .mutatingObject(defaultValue: Counter()) { $0.value += 1 }
            } catch {
                firstError.keep(error)
            }
        }
        if let error = firstError.error { throw error }
    }
}

/// The first error of many threads.
private final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private var kept: (any Error)?

    func keep(_ error: any Error) {
        lock.lock()
        defer { lock.unlock() }
        if kept == nil { kept = error }
    }

    var error: (any Error)? {
        lock.lock()
        defer { lock.unlock() }
        return kept
    }
}
