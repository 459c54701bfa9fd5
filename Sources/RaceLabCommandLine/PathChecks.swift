import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Checks a path the tool will write a file to (`--junit FILE`) before anything runs.
enum OutputPath {
    /// Why `path` cannot take a new file, in a few words; nil when it can.
    ///
    /// The folder must already exist (the tool never creates folders for a report) and be writable;
    /// the path must not name a folder, and an existing file must be writable.
    static func problem(with path: String) -> String? {
        if path.isEmpty { return "is empty; give a file name" }
        if path.hasSuffix("/") { return "names a folder; give a file name" }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue { return "is a folder; give a file name" }
            return access(path, W_OK) == 0 ? nil : "cannot be written: \(String(cString: strerror(errno)))"
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: parent, isDirectory: &isFolder), isFolder.boolValue else {
            return "its folder does not exist (it is not created)"
        }
        return access(parent, W_OK) == 0
            ? nil : "its folder cannot be written: \(String(cString: strerror(errno)))"
    }
}

/// Checks the temporary directory the tool keeps its scratch folders in, before anything runs.
enum TemporaryDirectory {
    /// Why `TMPDIR` cannot be used, in one line; nil when it is unset or names an existing folder.
    ///
    /// A `TMPDIR` that does not exist is refused rather than created: creating it would leave a
    /// folder behind wherever a typo pointed. (A folder that exists but cannot be written shows up
    /// later, per variant, as an ERROR that names it.)
    static func problem(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        guard let path = environment["TMPDIR"], !path.isEmpty else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            return "TMPDIR \(quoted(path)) does not exist; create it or unset TMPDIR"
        }
        return isFolder.boolValue ? nil : "TMPDIR \(quoted(path)) is not a folder"
    }
}
