import Foundation
import RaceLab

/// A coordinator whose claims belong to an owner, modelled on how `NSFileCoordinator` treats file
/// presenters and purpose identifiers: a claim waits for other owners' conflicting claims, never for
/// claims of its own owner.
///
/// Apple's answer to the article's bug report: file coordination "will NOT block against other
/// read/write claims made with the same NSFileCoordinator instance or NSFileCoordinator instances
/// made with the same filePresenter or purposeIdentifier". Give every storage instance the same
/// owner and the coordinator excludes nothing; give each claim its own owner (`owner: nil`, like
/// `NSFileCoordinator(filePresenter: nil)`) and it excludes every other claim.
public struct OwnerScopedCoordinator: FileAccessCoordinator {
    /// The owner every claim made through this coordinator belongs to; nil gives each claim a new one.
    public let owner: ClaimOwner?
    /// A modelled cost of each claim, spent in the table's bookkeeping (see `ClaimTable.acquire`).
    let claimCost: Duration
    private let table: ClaimTable

    /// - Parameter owner: the identity claims are made under. Sharing one owner between callers that
    ///   must exclude each other is the misconfiguration this lesson is about.
    public init(owner: ClaimOwner? = nil) {
        self.init(owner: owner, table: .shared)
    }

    init(owner: ClaimOwner?, claimCost: Duration = .zero, table: ClaimTable) {
        self.owner = owner
        self.claimCost = claimCost
        self.table = table
    }

    public func coordinateReading<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        try coordinate(.reading, at: url, step: "claim for reading", accessor)
    }

    public func coordinateWriting<Value>(at url: URL, _ accessor: (URL) throws -> Value) rethrows -> Value {
        try coordinate(.writing, at: url, step: "claim for writing", accessor)
    }

    /// Runs `accessor` holding a claim of `kind` on `url`, made under `owner` (a new one when nil).
    private func coordinate<Value>(
        _ kind: ClaimTable.Claim.Kind,
        at url: URL,
        step: StaticString,
        _ accessor: (URL) throws -> Value
    ) rethrows -> Value {
        let claim = ClaimTable.Claim(kind: kind, owner: owner ?? ClaimOwner(), url: url.standardizedFileURL)
        // A scheduling point, so that a schedule shows each claim granted: under one owner, both.
        Race.step(step)
        table.acquire(claim, bookkeeping: claimCost)
        defer { table.release(claim) }
        return try accessor(url)
    }
}
