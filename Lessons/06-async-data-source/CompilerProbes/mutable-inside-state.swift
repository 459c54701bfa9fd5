// Compiler probe · lesson 6 · mutable-inside-state
// A state that is a struct of lets (the lesson's LeakyState), but holds a class with a var inside:
// making the next state changes the one every reader already holds. Swift 6 rejects it: a Sendable
// struct may not store a non-Sendable class. Here the compiler catches the bug, unless @unchecked
// silences it (as the lesson does, to run it). TSan reports it too.

final class SharedFooter {
    var version = 0
}

struct LeakyState: Sendable {
    let version: Int
    let footer: SharedFooter

    func next() -> LeakyState {
        footer.version = version + 1
        return LeakyState(version: version + 1, footer: footer)
    }
}
