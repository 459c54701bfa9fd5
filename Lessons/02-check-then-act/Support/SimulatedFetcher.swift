import Foundation

/// A fetched image, as far as this lesson cares: which fetch produced it.
public struct FetchedImage: Sendable, Equatable {
    public let index: Int

    public init(index: Int) {
        self.index = index
    }
}

/// A failed fetch. It names the fetch, so the check can tell whether each failure was recorded
/// exactly once.
public struct FetchError: Error, Equatable {
    public let index: Int

    public init(index: Int) {
        self.index = index
    }
}

/// Stands in for the article's `ImageFetcher`: fetch number `index` completes on a global concurrent
/// queue, the way network callbacks arrive on whatever thread the library chooses, so callbacks of
/// one batch run at the same time as each other.
///
/// Which fetches fail is fixed (every third, from the first), so every trial knows what to expect.
public struct SimulatedFetcher: Sendable {
    public init() {}

    /// True for the fetches that fail: `0, 3, 6, ...`.
    public static func fails(_ index: Int) -> Bool {
        index % 3 == 0
    }

    /// How many of `count` fetches fail.
    public static func failures(among count: Int) -> Int {
        (count + 2) / 3
    }

    /// Starts fetch `index`; `completion` runs later on a global queue.
    public func fetch(_ index: Int, completion: @escaping @Sendable (Result<FetchedImage, FetchError>) -> Void) {
        DispatchQueue.global().async {
            completion(Self.fails(index) ? .failure(FetchError(index: index)) : .success(FetchedImage(index: index)))
        }
    }
}
