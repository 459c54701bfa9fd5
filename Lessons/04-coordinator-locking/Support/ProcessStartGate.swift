import Foundation

/// A start line for worker processes, so that they increment at the same time instead of one after
/// another (a process takes longer to start than the others take to finish).
///
/// Each worker drops a file named after its pid into the gate's folder and waits until `parties`
/// files are there. Like the runner's `StartGate`, it is a best effort: after `patience` a worker
/// starts anyway, so a worker that failed to launch delays the others but cannot stop them.
struct ProcessStartGate {
    let folder: URL
    let parties: Int
    var patience: Duration = .seconds(3)

    func arriveAndWait() throws {
        try Data().write(to: folder.appendingPathComponent("\(getpid())"))
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: patience)
        while clock.now < deadline {
            let arrived = (try? FileManager.default.contentsOfDirectory(atPath: folder.path).count) ?? 0
            if arrived >= parties { return }
            usleep(500)
        }
    }
}
