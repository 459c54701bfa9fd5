// Compiler probe · lesson 2 · errors-protected
// The fix: the callbacks append through Protected<[Error]>.mutate. Correct; rejected by Swift 6
// because Protected, as the article writes it, is a class with no Sendable conformance, captured
// by @Sendable completion handlers.
import Foundation

final class Protected<Resource> {
    private let queue = DispatchQueue(label: "rw", attributes: .concurrent)
    private var resource: Resource

    init(resource: Resource) { self.resource = resource }

    func read() -> Resource { queue.sync { resource } }
    func mutate(_ transform: @escaping (Resource) -> Resource) {
        queue.async(flags: .barrier) { self.resource = transform(self.resource) }
    }
}

func fetchAll(_ count: Int, completion: @escaping @Sendable ([Error]) -> Void) {
    let errors = Protected<[Error]>(resource: [])
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        fetch(index) { result in
            if case .failure(let error) = result { errors.mutate { $0 + [error] } }
            group.leave()
        }
    }
    group.notify(queue: .global()) { completion(errors.read()) }
}
