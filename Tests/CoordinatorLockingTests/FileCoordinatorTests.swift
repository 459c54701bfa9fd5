import Foundation
import RaceLabTesting
import Synchronization
import Testing

@testable import CoordinatorLocking

/// The article's coordinator as published: a queue per URL, kept forever. Here only to show the
/// flaw the article itself points out; the lesson's `FileCoordinator` fixes it.
private final class ArticleFileCoordinator: @unchecked Sendable {
    private var queues: [URL: DispatchQueue] = [:]
    private let queueAccessQueue = DispatchQueue(label: "queueAccessQueue")

    private func queue(for url: URL) -> DispatchQueue {
        queueAccessQueue.sync {
            if let queue = queues[url] { return queue }
            let queue = DispatchQueue(label: "queue-for-\(url)", attributes: .concurrent)
            queues[url] = queue
            return queue
        }
    }

    func coordinateWriting(at url: URL, _ block: (URL) throws -> Void) rethrows {
        try queue(for: url).sync(flags: .barrier) { try block(url) }
    }

    var count: Int { queueAccessQueue.sync { queues.count } }
}

/// The largest value ever recorded, from any thread.
private final class Peak: Sendable {
    private let value = Atomic<Int>(0)

    func record(_ candidate: Int) {
        var current = value.load(ordering: .relaxed)
        while candidate > current {
            let (exchanged, original) = value.compareExchange(expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    var max: Int { value.load(ordering: .relaxed) }
}

/// How many writers are inside one file's claim right now.
private final class Occupancy: Sendable {
    let writers = Atomic<Int>(0)
}

@Suite("FileCoordinator: a queue per file, and a map that forgets idle files")
struct FileCoordinatorTests {
    @Test("10,000 concurrent increments through separate storages end at exactly 10,000")
    func articleTest() async throws {
        let folder = try TestFolder()
        defer { folder.remove() }
        let limit = 10_000
        let errors = await onOwnThread { [file = folder.counter] in
            let failures = EventLog()
            DispatchQueue.concurrentPerform(iterations: limit) { _ in
                do { try increment(file, through: FileCoordinator.shared) } catch { failures.append("\(error)") }
            }
            return failures.entries
        }
        #expect(errors.isEmpty)
        #expect(try counterValue(folder.counter) == limit)
    }

    @Test("100,000 distinct URLs: the map holds only the claims in progress, then nothing")
    func mapStaysSmall() async {
        let map = QueueMap()
        let coordinator = FileCoordinator(map: map)
        let peak = Peak()
        await onOwnThread {
            DispatchQueue.concurrentPerform(iterations: 100_000) { index in
                let url = URL(fileURLWithPath: "/racelab-test/never-created/\(index)")
                if index % 2 == 0 {
                    coordinator.coordinateWriting(at: url) { _ in peak.record(map.count) }
                } else {
                    coordinator.coordinateReading(at: url) { _ in peak.record(map.count) }
                }
            }
        }
        // At most one entry per claim running at once: a handful of threads, never 100,000.
        #expect(peak.max >= 1)
        #expect(peak.max <= 64)
        #expect(map.count == 0)
    }

    @Test("the article's map keeps a queue for every URL it ever saw")
    func articleMapGrows() async {
        let coordinator = ArticleFileCoordinator()
        await onOwnThread {
            DispatchQueue.concurrentPerform(iterations: 100_000) { index in
                coordinator.coordinateWriting(at: URL(fileURLWithPath: "/racelab-test/never-created/\(index)")) { _ in }
            }
        }
        #expect(coordinator.count == 100_000)
    }

    @Test("entries dropped and re-created under load never let two writers into one file")
    func droppingEntriesKeepsExclusion() async {
        let map = QueueMap()
        let coordinator = FileCoordinator(map: map)
        let urls = (0..<4).map { URL(fileURLWithPath: "/racelab-test/hot/\($0)") }
        let inside = (0..<4).map { _ in Occupancy() }
        let overlaps = Atomic<Int>(0)
        await onOwnThread {
            DispatchQueue.concurrentPerform(iterations: 100_000) { index in
                let file = index % 4
                coordinator.coordinateWriting(at: urls[file]) { _ in
                    if inside[file].writers.wrappingAdd(1, ordering: .acquiringAndReleasing).oldValue != 0 {
                        overlaps.wrappingAdd(1, ordering: .relaxed)
                    }
                    inside[file].writers.wrappingSubtract(1, ordering: .acquiringAndReleasing)
                }
            }
        }
        #expect(overlaps.load(ordering: .relaxed) == 0)
        #expect(map.count == 0)
    }
}
