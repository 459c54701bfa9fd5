// A common wrong fix for exercise 5 (CI checks that it FAILS): make the store a barrier and keep
// writing in place. Stores no longer overlap and the store's own loads wait for them, so nothing
// read through `load` is ever torn. A reader outside the queue (another process, a backup, the
// next launch after a crash) still finds the file emptied and half rewritten.
import Foundation
import RaceLab

final class DocumentStore: @unchecked Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "exercise.document-store", attributes: .concurrent)

    init(folder: URL) {
        self.folder = folder
    }

    @inline(never)
    func store(_ data: Data, as name: String) throws {
        try queue.sync(flags: .barrier) {
            let url = folder.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: url.path) {
                FileManager.default.createFile(atPath: url.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
            var offset = 0
            while offset < data.count {
                let end = min(offset + 4_096, data.count)
                try handle.write(contentsOf: data[offset..<end])
                Race.window("write chunk")
                offset = end
            }
        }
    }

    func load(_ name: String) throws -> Data? {
        try queue.sync {
            let url = folder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return try Data(contentsOf: url)
        }
    }
}
