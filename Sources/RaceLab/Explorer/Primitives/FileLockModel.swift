/// The explorer's model of the kernel's locks on one file during an execution, with the kernel's
/// ownership rules.
///
/// A lock has an owner, and only locks of *different* owners conflict (an exclusive lock with any
/// other, a shared one with an exclusive one); a request by an owner that already holds the lock
/// converts it. The owners:
/// - the process, for POSIX record locks (`fcntl(F_SETLKW)`): every logical thread is in the one
///   process, so two threads' record locks never exclude each other, and closing *any* descriptor
///   of the file drops every record lock the process holds on it, whichever thread took it;
/// - an open file description (one `open()`, one `RaceLockFile`), for `F_OFD_SETLKW` and `flock`:
///   two descriptions exclude each other whichever threads use them, and only closing that
///   description drops its lock.
///
/// Record and description locks conflict with each other, as Linux documents for POSIX and OFD
/// locks (`fcntl(2)`), which are one set of locks with two kinds of owner.
final class FileLockModel: ModelObject {
    enum Owner: Hashable {
        case process
        case description(ObjectIdentifier)
    }

    struct Hold {
        var shared: Bool
        /// The logical thread that took it (shown as the holder in a deadlock).
        var thread: Int
    }

    private(set) var holds: [Owner: Hold] = [:]

    /// A hold by another owner that conflicts with `owner` taking the lock, if any.
    func conflict(for owner: Owner, shared: Bool) -> Hold? {
        holds.first { other, hold in other != owner && !(shared && hold.shared) }?.value
    }

    func release(_ owner: Owner) {
        holds[owner] = nil
    }

    /// A description is closed: its lock is dropped, and so is every record lock of the process on
    /// the file (POSIX: closing any descriptor of a file drops the process's locks on it).
    func close(_ description: ObjectIdentifier) {
        holds[.description(description)] = nil
        holds[.process] = nil
    }

    fileprivate func grant(to owner: Owner, shared: Bool, thread: Int) {
        holds[owner] = Hold(shared: shared, thread: thread)
    }
}

/// Taking a kernel lock on a file (`fcntl lock <file>`, `flock <file>`): able to go on while no
/// other owner holds a conflicting lock.
struct FileLockRequest: SchedulingPoint {
    /// Keys the file's model: the same object for every `RaceLockFile` open on the same file.
    let file: ObjectIdentifier
    let owner: FileLockModel.Owner
    let shared: Bool
    let name: String

    func canProceed(_ thread: Int, in state: ExecutionState) -> Bool {
        model(in: state).conflict(for: owner, shared: shared) == nil
    }

    func holder(in state: ExecutionState) -> Int? {
        model(in: state).conflict(for: owner, shared: shared)?.thread
    }

    func chosen(by thread: Int, in state: ExecutionState) {
        model(in: state).grant(to: owner, shared: shared, thread: thread)
    }

    /// The file, whatever the owner: requests on one file are ordered against each other.
    var footprint: Footprint { Footprint(.object(file)) }

    private func model(in state: ExecutionState) -> FileLockModel {
        state.model(of: file, FileLockModel.init)
    }
}
