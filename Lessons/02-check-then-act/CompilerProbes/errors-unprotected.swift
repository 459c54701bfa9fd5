// Compiler probe · lesson 2 · errors-unprotected
// The article's fan-in: fetch callbacks arrive on a global queue and append their errors to a
// local `var errors: [Error]`. Swift 6 rejects the mutation of a captured `var` from a @Sendable
// completion handler: the compiler catches this bug.
import Foundation

func fetchAll(_ count: Int, completion: @escaping @Sendable ([Error]) -> Void) {
    var errors: [Error] = []
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        fetch(index) { result in
            if case .failure(let error) = result { errors.append(error) }
            group.leave()
        }
    }
    group.notify(queue: .main) { completion(errors) }
}
