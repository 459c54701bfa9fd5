import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The channel a child process answers its parent on: a file of its own, named in the
/// `ChildRequest`, that holds one `ChildMessage` per line as JSON.
///
/// The code under test shares the child's stdout and stderr, so nothing it prints (a line without a
/// newline, a line that looks like a report) can reach the channel, and nothing on stdout is ever
/// taken for a report. A message counts only once its closing newline is written: one cut short by
/// a crash is dropped, never misread. The descriptor is close-on-exec, so processes the variant
/// starts do not inherit it.
package enum ChildChannel {
    /// The child's end: appends messages to the channel file.
    package final class Writer {
        private let descriptor: Int32

        /// Opens the channel file `path` for appending.
        ///
        /// - Throws: `POSIXError` when the file cannot be opened.
        package init(path: String) throws {
            let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }

        /// Writes `message` as one line, with one `write` per chunk until it is all out.
        ///
        /// - Throws: an encoding error, or `POSIXError` when a write fails (a full disk, say).
        package func send(_ message: ChildMessage) throws {
            let line = Array((try JSONText.encode(message, pretty: false) + "\n").utf8)
            var written = 0
            while written < line.count {
                let count = line[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                if count < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                written += count
            }
        }
    }

    /// The parent's end: every complete message in the channel file at `path`, in order.
    ///
    /// A last line without its newline (the child died while writing it) and a line that is not a
    /// message are skipped.
    package static func messages(at path: String) -> [ChildMessage] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        var lines = data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        // The piece after the last newline is empty for a complete file, a cut message otherwise.
        lines.removeLast()
        let decoder = JSONDecoder()
        return lines.compactMap { try? decoder.decode(ChildMessage.self, from: Data($0)) }
    }
}

/// One message of a child on its `ChildChannel`.
package enum ChildMessage: Codable, Equatable, Sendable {
    /// The child enters `phase`: a crash after this message happened there.
    case phase(ChildPhase)
    /// A stress run's report.
    case report(VariantReport)
    /// A stress run's report of the trials done so far: what the parent reports when the child dies
    /// in a later trial. Not a result.
    case progress(VariantReport)
    /// What an exploration ran (its report, or the replayed execution), and the states along its
    /// failing schedule when asked for.
    case exploration(VariantExploration.Run, states: [String])
    /// A sample of the explorer's, as `racelab power` measures it.
    case rate(DetectionRate)
    /// A worker's task outcomes (`Explorer.runTasks`'s reply).
    case tasks(String)
    /// One shard's results (`ShardResult` as JSON text).
    case shard(String)
    /// The variant could not be set up (its state could not be made, say): an error, not a verdict.
    case setupFailed(String)
    /// The schedule to replay does not fit the variant (`ReplayRefusal`): nothing was judged.
    case replayRefused(String)
}

/// Where a child is in its work, so that the parent can tell a crash in the variant's own code
/// from one in the harness around it.
package enum ChildPhase: String, Codable, Equatable, Sendable {
    /// Making a trial's state and running its operations: the variant's code.
    case variant
    /// Checking a trial, and tearing it down: the lesson's check, the harness side.
    case check
    /// Writing the result.
    case report
}
