// Compiler probe · lesson 4 · uncoordinated
// The article's ObjectStorage with no coordination: every instance reads, changes and writes the
// same file at once, and ~70% of the increments are lost. Swift 6 accepts it: the shared state is
// a file, which the compiler does not model, and the struct holds only Sendable values. TSan is
// silent too: no memory is shared between the threads, only the file.
import Foundation

/// No coordination at all.
struct Coordinator: Sendable {
    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
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
