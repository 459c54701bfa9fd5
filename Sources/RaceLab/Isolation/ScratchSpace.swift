import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one folder under the temporary directory where a RaceLab process keeps its files, so that
/// lessons on real files (and the harness's own child-process logs) clean up after themselves even
/// when a process is killed.
///
/// Each process gets `<tmp>/racelab-<pid>-<start>`, where `<start>` is when the process started
/// (clock ticks since boot on Linux). The folder is created on first use and removed when the process
/// exits normally. A process killed with `SIGKILL` cannot clean up, so the first use in any later
/// RaceLab process, and the start of every `RaceLabTool` command, removes every
/// `racelab-<pid>-<start>` folder whose process is gone: a pid that no longer runs, or that now
/// belongs to a process started at another time (a reused pid).
///
/// - Note: Only names of exactly that shape are ever removed; nothing else in the temporary directory
///   is touched.
public enum ScratchSpace {
    /// The prefix of every process folder.
    public static let prefix = "racelab-"

    /// This process's folder, created (and stale folders swept) on first use.
    ///
    /// - Throws: when the folder cannot be created.
    public static func processFolder() throws -> URL {
        try created.get()
    }

    /// A new, empty folder inside the process folder, for example for one trial.
    ///
    /// - Parameter label: the start of the folder's name (a UUID follows), e.g. `"trial"`.
    public static func makeFolder(label: String) throws -> URL {
        let folder = try processFolder().appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        return folder
    }

    /// Removes `folder` and everything in it, if it lies inside this process's folder.
    ///
    /// Anything else is refused silently: a bug in a lesson must never delete files it did not make.
    public static func remove(_ folder: URL) {
        guard let root = try? processFolder() else { return }
        let path = folder.standardizedFileURL.path
        guard path.hasPrefix(root.standardizedFileURL.path + "/") else { return }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Removes the process folders in the temporary directory whose process is gone (one killed with
    /// `SIGKILL` could not remove its own): what a tool calls as it starts, whatever its command.
    ///
    /// - Returns: the names of the folders removed.
    @discardableResult
    public static func sweepStaleFolders() -> [String] {
        sweepStaleFolders(in: FileManager.default.temporaryDirectory)
    }

    /// The name of the folder of the process `pid` that started at `start`.
    static func folderName(pid: pid_t, start: UInt64) -> String {
        "\(prefix)\(pid)-\(start)"
    }

    /// The pid and start time a process folder's name encodes, or nil for any other name.
    static func owner(ofFolderNamed name: String) -> (pid: pid_t, start: UInt64)? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
            let pid = pid_t(parts[0]), pid > 0, let start = UInt64(parts[1])
        else { return nil }
        return (pid, start)
    }

    /// Removes the process folders in `root` whose process no longer runs; returns their names.
    ///
    /// Safe to run in several processes at once: a folder two of them remove is simply gone.
    @discardableResult
    static func sweepStaleFolders(in root: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        var removed: [String] = []
        for name in names {
            guard let owner = owner(ofFolderNamed: name), !isRunning(pid: owner.pid, startedAt: owner.start) else {
                continue
            }
            if (try? FileManager.default.removeItem(at: root.appendingPathComponent(name))) != nil {
                removed.append(name)
            }
        }
        return removed
    }

    /// Whether the process `pid` is running and started at `start` (when the platform can tell).
    ///
    /// Errs on the side of "running": a folder is only removed when its owner is certainly gone.
    static func isRunning(pid: pid_t, startedAt start: UInt64) -> Bool {
        #if os(Linux)
        guard let started = startTime(of: pid) else {
            return FileManager.default.fileExists(atPath: "/proc/\(pid)")
        }
        return started == start
        #else
        return kill(pid, 0) == 0 || errno == EPERM
        #endif
    }

    /// When the process `pid` started, in clock ticks since boot: field 22 of `/proc/<pid>/stat`.
    ///
    /// Field 2 (the command name) is in parentheses and may hold spaces, so the fields are counted
    /// from after its closing parenthesis, where field 3 begins.
    static func startTime(of pid: pid_t) -> UInt64? {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19 else { return nil }
        return UInt64(fields[19])
        #else
        return 0
        #endif
    }

    /// The process folder could not be made: the temporary directory is missing, read-only or full.
    public struct CreationError: Error, CustomStringConvertible {
        /// The folder that could not be made.
        public let path: String
        /// The system's error number.
        public let errno: Int32

        public var description: String {
            "could not create the scratch folder: \(path): \(String(cString: strerror(errno)))"
        }
    }

    private static let created: Result<URL, any Error> = Result {
        let root = FileManager.default.temporaryDirectory
        sweepStaleFolders(in: root)
        let pid = getpid()
        let folder = root.appendingPathComponent(
            folderName(pid: pid, start: startTime(of: pid) ?? 0),
            isDirectory: true
        )
        // mkdir(2), not createDirectory(withIntermediateDirectories:): a missing temporary directory
        // is a setting to fix, not a folder to create silently and leave behind.
        guard mkdir(folder.path, 0o700) == 0 || errno == EEXIST else {
            throw CreationError(path: folder.path, errno: errno)
        }
        atexit { ScratchSpace.removeProcessFolder() }
        return folder
    }

    private static func removeProcessFolder() {
        if case .success(let folder) = created { try? FileManager.default.removeItem(at: folder) }
    }
}
