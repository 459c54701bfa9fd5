// Compiler probe · lesson 1 · actor
// The store as an actor: the compiler checks the isolation itself, so it accepts the code
// without any annotation from the developer, and here its acceptance means something.
import Foundation

actor ActorStorage {
    private var contents: [String: Data] = [:]

    func store(_ data: Data, forIdentifier id: String) {
        contents[id] = data
    }

    var numberOfItems: Int { contents.count }
}

func storeConcurrently() async {
    let storage = ActorStorage()
    await withTaskGroup(of: Void.self) { group in
        for index in 0..<100 {
            group.addTask { await storage.store(Data(), forIdentifier: "item-\(index)") }
        }
    }
}
