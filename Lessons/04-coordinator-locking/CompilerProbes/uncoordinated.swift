// Compiler probe · lesson 4 · uncoordinated
// The article's ObjectStorage with no coordination: every instance reads, changes and writes the
// same file at once, and ~70% of the increments are lost. Swift 6 accepts it: the shared state is
// a file, which the compiler does not model, and the struct holds only Sendable values. TSan is
// silent too: no memory is shared between the threads, only the file.
import Foundation

/// No coordination at all.
struct Coordinator: FileAccessCoordinator {
    func coordinateWriting(at url: URL, _ body: (URL) throws -> Void) throws {
        try body(url)
    }
}
