import Foundation
import RaceLab

/// The map from file URL to the concurrent queue that guards it, for `FileCoordinator`, bounded by
/// the number of claims in progress.
///
/// Each entry counts the claims that checked its queue out and have not checked it back in. The
/// entry is removed when that count reaches zero, and a queue is only ever created for a URL that
/// has no entry. So no two queues ever guard one URL at the same time: a second queue can only be
/// made once every claim on the first has finished with it.
///
/// Keys are standardized file URLs (`a/../b` is `b`). Two different paths to one file (a symbolic
/// link, a hard link) are still two keys: like the article's map, this coordinates paths, not files.
final class QueueMap: @unchecked Sendable {
    static let shared = QueueMap()

    private final class Entry {
        /// A `RaceQueue`, so that the schedule explorer sees its work items and models the barrier.
        let queue: RaceQueue
        var claims = 0

        init(url: URL) {
            // The label's last part names the step in a schedule: `sync barrier counter-queue`.
            let stem = url.deletingPathExtension().lastPathComponent
            queue = RaceQueue(label: "racelab.file-coordinator.\(stem)-queue", attributes: .concurrent)
        }
    }

    /// Guards `entries`. Serial, as in the article: "a queue to access the queues". A plain queue:
    /// the map is shared by the whole process, explored threads and others alike, and its items
    /// never reach a scheduling point, so no explored thread ever waits behind a paused one.
    private let access = DispatchQueue(label: "racelab.file-coordinator.map")
    private var entries: [URL: Entry] = [:]

    /// The queue guarding `url`, counted as in use until `checkIn(url)`.
    func checkOut(_ url: URL) -> RaceQueue {
        access.sync {
            let entry = entries[url] ?? Entry(url: url)
            entries[url] = entry
            entry.claims += 1
            return entry.queue
        }
    }

    /// Ends one use of `url`'s queue; forgets the queue when it was the last.
    func checkIn(_ url: URL) {
        access.sync {
            guard let entry = entries[url] else { preconditionFailure("checked in a URL that was not checked out") }
            entry.claims -= 1
            if entry.claims == 0 { entries[url] = nil }
        }
    }

    /// The number of URLs with a queue right now.
    var count: Int {
        access.sync { entries.count }
    }
}
