// Exercise 5, reference solution: two rules, two jobs. A store is a BARRIER work item, alone on the
// queue: stores of one document run one at a time in the order they were submitted, and the
// store's own loads never run during one. And a store writes a temporary file and RENAMES it over
// the document: rename replaces the file in one step, so any reader, even one outside the queue
// or after a crash, sees the whole old file or the whole new one. (`Data.write(to:options:
// .atomic)` does the same temp-and-rename.)
import Foundation

final class DocumentStore: @unchecked Sendable {
    let folder: URL
    private let queue = DispatchQueue(label: "exercise.document-store", attributes: .concurrent)

    init(folder: URL) {
        self.folder = folder
    }

    @inline(never)
    func store(_ data: Data, as name: String, completion: @escaping @Sendable (Error?) -> Void) {
        queue.async(flags: .barrier) {
            do {
                try self.replace(name, with: data)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Writes `data` to a temporary file, then renames it over `folder/name`.
    private func replace(_ name: String, with data: Data) throws {
        let url = folder.appendingPathComponent(name)
        // The temporary file is in the same folder (rename does not cross file systems) and
        // hidden with a leading dot; a unique name, so no two writes ever share one.
        let temporary = folder.appendingPathComponent(".\(name).\(UUID().uuidString).tmp")
        FileManager.default.createFile(atPath: temporary.path, contents: nil)
        do {
            let handle = try FileHandle(forWritingTo: temporary)
            defer { try? handle.close() }
            for start in stride(from: 0, to: data.count, by: 4_096) {
                try handle.write(contentsOf: data[start..<min(start + 4_096, data.count)])
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO)
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
