// Compiler probe · lesson 4 · cross-process
// Open-file-description locks (F_OFD_SETLKW, Linux): owned by the open file, so they exclude
// other threads and other processes alike. Accepted by Swift 6, as the process-owned lock is: the
// compiler cannot tell the right lock owner from the wrong one.
import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

struct Coordinator: Sendable {
    /// F_OFD_SETLKW and F_OFD_SETLK on Linux (not exported by Glibc's module map).
    static let setLockWait: Int32 = 38
    static let setLock: Int32 = 37

    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        let descriptor = open(url.path + ".lock", O_RDWR | O_CREAT, 0o644)
        defer { close(descriptor) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        _ = fcntl(descriptor, Self.setLockWait, &lock)
        defer {
            lock.l_type = Int16(F_UNLCK)
            _ = fcntl(descriptor, Self.setLock, &lock)
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
