import Foundation

/// Something that decides which code may touch a file when: the role `NSFileCoordinator` plays.
///
/// A *writing* claim must exclude every other claim on the same file, reading or writing; reading
/// claims may share the file with each other. How well an implementation keeps that promise, and
/// between whom (threads, instances, processes), is what this lesson measures.
///
/// The accessor gets the URL to use (always the one passed in here) and its result is returned.
/// Implementations that take a file lock can fail to take it, so the requirements may throw; the
/// in-process `FileCoordinator` only rethrows.
public protocol FileAccessCoordinator: Sendable {
    /// Runs `accessor` under a reading claim on `url`.
    func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value
    /// Runs `accessor` under a writing claim on `url`.
    func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) throws -> Value
}

/// No coordination at all: every accessor runs at once. What `ObjectStorage` did before the article
/// added coordination.
public struct Uncoordinated: FileAccessCoordinator {
    public init() {}

    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        try accessor(url)
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        // hazard: nothing is claimed; every other writer of this file runs alongside this one.
        try accessor(url)
    }
}
