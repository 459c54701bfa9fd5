// Compiler probes · lesson 6 · prelude
// What the probes of this lesson share, type-checked together with each of them (see
// CompilerProbe.preludeName): the state object the data sources publish. Each probe holds only the
// data source or observer it measures.

/// The whole state of the collection, replaced as one value.
struct State: Sendable {
    var version = 0
    var header = "v0"
    var items = ["v0 #0", "v0 #1"]
}
