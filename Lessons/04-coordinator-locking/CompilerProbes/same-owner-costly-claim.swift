// Compiler probe · lesson 4 · same-owner-costly-claim
// same-owner with a costly claim: the coordinator's bookkeeping per claim is slower, the developer's
// code is the same. The article's NSFileCoordinator created with one file presenter shared by every
// storage: claims by the same presenter never block each other, so the coordination excludes
// nothing between them. NSFileCoordinator is not in Foundation on Linux; the prelude's
// OwnerScopedCoordinator over its claim table stands in for it, written the way a library is (its
// thread safety is the library's promise, hence @unchecked). The developer's code here is accepted
// by Swift 6: the compiler cannot know that a claim's owner decides whom it excludes.
import Foundation

func incrementWithOnePresenter(file: URL) {
    incrementConcurrently(file: file, coordinator: OwnerScopedCoordinator(owner: UUID()))
}
