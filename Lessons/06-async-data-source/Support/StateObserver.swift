/// Something told about every new state of a data source, as the article's `DataSourceObserver`.
///
/// Observers receive the new *state*, never the data source: what they get is a value that existed,
/// and they need not read the data source again (a second read could return a newer state).
///
/// A data source calls `dataSourceChanged` on its own queue (or actor), one state at a time and in
/// the order the states were made. An observer that needs the state somewhere else hops there itself.
public protocol StateObserver<State>: AnyObject, Sendable {
    associatedtype State: Sendable
    func dataSourceChanged(_ newState: State)
}
