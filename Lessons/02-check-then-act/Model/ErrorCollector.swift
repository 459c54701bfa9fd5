/// Where a batch of fetches puts the errors its callbacks report.
public protocol ErrorCollector: Sendable {
    /// Adds one error. Called from many callbacks at once.
    func record(_ error: FetchError)
    /// Every error recorded so far, for the batch's completion.
    func recorded() -> [any Error]
}

/// The article's choice: the errors in a `Protected<[Error]>`, each append one barrier item.
extension Protected: ErrorCollector where Resource == [any Error] {
    /// Appends in one barrier item, written as the article writes it. The copy into a `var` makes
    /// every append copy the whole array (the closure's argument still holds the old buffer), which
    /// is cheap for a handful of errors and worth knowing for thousands.
    public func record(_ error: FetchError) {
        mutate { errors in
            var mutableErrors = errors
            mutableErrors.append(error)
            return mutableErrors
        }
    }

    public func recorded() -> [any Error] {
        read()
    }
}
