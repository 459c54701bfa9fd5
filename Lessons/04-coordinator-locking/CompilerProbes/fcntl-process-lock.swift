// Compiler probe · lesson 4 · fcntl-process-lock
// A record lock with fcntl(F_SETLKW): the lock belongs to the process, so every thread of the
// process "holds" it at once and nothing is excluded. Accepted by Swift 6 (a struct holding a URL);
// silent under TSan (TSan does not treat fcntl as a lock, and no memory is shared): a lock with the
// wrong owner is invisible to both.
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

struct Coordinator: Sendable {
    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        let descriptor = open(url.path + ".lock", O_RDWR | O_CREAT, 0o644)
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        _ = fcntl(descriptor, F_SETLKW, &lock)
        defer {
            lock.l_type = Int16(F_UNLCK)
            _ = fcntl(descriptor, F_SETLK, &lock)
        }
        try body(url)
    }
}

/// The article's ObjectStorage: one Codable object in one JSON file; several instances on one file.
struct ObjectStorage<Object: Codable> {
    let url: URL
    let coordinator: Coordinator

    func mutatingObject(defaultValue: Object, _ mutate: (inout Object) -> Void) throws {
        try coordinator.coordinateWriting(at: url) { url in
            var object = (try? JSONDecoder().decode(Object.self, from: Data(contentsOf: url))) ?? defaultValue
            mutate(&object)
            try JSONEncoder().encode(object).write(to: url, options: .atomic)
        }
    }
}

func incrementConcurrently(file: URL, coordinator: Coordinator) {
    DispatchQueue.concurrentPerform(iterations: 1_000) { _ in
        let storage = ObjectStorage<Int>(url: file, coordinator: coordinator)
        try? storage.mutatingObject(defaultValue: 0) { $0 += 1 }
    }
}
