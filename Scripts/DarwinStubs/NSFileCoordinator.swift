// Darwin-only Foundation API, with the signatures Apple documents (Foundation's NSFileCoordinator.h
// and NSFilePresenter.h as imported into Swift; developer.apple.com/documentation/foundation/
// nsfilecoordinator). Part of the stub module `Darwin` (see Darwin.swift), which typecheck-darwin
// imports into every checked file as Foundation's re-export of Darwin would. Keep each declaration
// to the documented signature, or the check proves nothing.
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
