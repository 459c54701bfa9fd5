// Stubs of Darwin-only Foundation API, with the signatures Apple documents (Foundation's
// NSFileCoordinator.h and NSFilePresenter.h as imported into Swift), for Scripts/typecheck-darwin:
// they let Linux type-check RaceLab's `#if canImport(Darwin)` code. Never built into a product;
// nothing here runs. Keep each declaration to the documented signature, or the check proves nothing.
#if RACELAB_DARWIN_STUBS
import Foundation

/// Darwin: `AutoreleasingUnsafeMutablePointer<NSError?>?`, which needs the Objective-C runtime.
/// Call sites pass `&error` to either, so the check holds for them.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

public protocol NSFilePresenter: NSObjectProtocol {
    var presentedItemURL: URL? { get }
    var presentedItemOperationQueue: OperationQueue { get }
}

open class NSFileCoordinator: NSObject {
    public struct ReadingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
    }

    public struct WritingOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let forReplacing = WritingOptions(rawValue: 1 << 3)
    }

    public init(filePresenter filePresenterOrNil: (any NSFilePresenter)?) { fatalError("stub") }

    open var purposeIdentifier: String {
        get { fatalError("stub") }
        set { fatalError("stub") }
    }

    open func coordinate(
        readingItemAt url: URL,
        options: NSFileCoordinator.ReadingOptions = [],
        error outError: NSErrorPointer,
        byAccessor reader: (URL) -> Void
    ) { fatalError("stub") }

    open func coordinate(
        writingItemAt url: URL,
        options: NSFileCoordinator.WritingOptions = [],
        error outError: NSErrorPointer,
        byAccessor writer: (URL) -> Void
    ) { fatalError("stub") }
}
#endif
