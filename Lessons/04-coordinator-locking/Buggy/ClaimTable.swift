import Foundation

/// The claims held on each file, for `OwnerScopedCoordinator`; one table per process, as one
/// coordination service serves a whole system.
///
/// A writing claim is granted when no *other* owner holds any claim on the file; a reading claim
/// when no other owner holds a writing claim. Claims of the same owner always pass, and nest.
/// Entries for files nobody claims are removed, so the table holds only files in use.
final class ClaimTable: @unchecked Sendable {
    static let shared = ClaimTable()

    struct Claim {
        enum Kind { case reading, writing }
        var kind: Kind
        var owner: ClaimOwner
        var url: URL
    }

    /// Who holds what on one file: claims per owner, by kind.
    private struct Holders {
        var writers: [ClaimOwner: Int] = [:]
        var readers: [ClaimOwner: Int] = [:]

        var isEmpty: Bool { writers.isEmpty && readers.isEmpty }

        func admits(_ claim: Claim) -> Bool {
            // hazard: claims of the claim's own owner are left out of the test, so two callers that
            // share an owner are never kept apart, whatever they do to the file.
            let otherWriters = writers.keys.contains { $0 != claim.owner }
            let otherReaders = readers.keys.contains { $0 != claim.owner }
            switch claim.kind {
            case .reading: return !otherWriters
            case .writing: return !otherWriters && !otherReaders
            }
        }

        mutating func add(_ claim: Claim) {
            switch claim.kind {
            case .reading: readers[claim.owner, default: 0] += 1
            case .writing: writers[claim.owner, default: 0] += 1
            }
        }

        mutating func remove(_ claim: Claim) {
            switch claim.kind {
            case .reading: Self.decrement(&readers, claim.owner)
            case .writing: Self.decrement(&writers, claim.owner)
            }
        }

        private static func decrement(_ counts: inout [ClaimOwner: Int], _ owner: ClaimOwner) {
            guard let count = counts[owner] else { preconditionFailure("released a claim that was not held") }
            counts[owner] = count > 1 ? count - 1 : nil
        }
    }

    private let condition = NSCondition()
    private var files: [URL: Holders] = [:]

    /// Blocks until `claim` can be granted, then records it.
    ///
    /// - Parameter bookkeeping: a modelled cost of registering a claim, spent (asleep) under the
    ///   table's lock once the claim is admitted: every other acquire and release waits for it, as
    ///   they would for a coordinator that serializes its per-claim work. Zero grants at once.
    func acquire(_ claim: Claim, bookkeeping: Duration = .zero) {
        condition.lock()
        defer { condition.unlock() }
        while !(files[claim.url] ?? Holders()).admits(claim) {
            condition.wait()
        }
        if bookkeeping > .zero {
            let (seconds, attoseconds) = bookkeeping.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        }
        files[claim.url, default: Holders()].add(claim)
    }

    /// Gives `claim` back and wakes the claims waiting for it.
    func release(_ claim: Claim) {
        condition.lock()
        defer { condition.unlock() }
        files[claim.url]?.remove(claim)
        if files[claim.url]?.isEmpty == true { files[claim.url] = nil }
        condition.broadcast()
    }

    /// The number of files with claims on them.
    var fileCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return files.count
    }
}
