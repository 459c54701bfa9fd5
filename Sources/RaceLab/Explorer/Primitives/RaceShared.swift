/// A plain shared variable whose reads and writes the schedule explorer can see: the one-attribute
/// change that makes an unsynchronised `var` explorable.
///
/// ```swift
/// @RaceShared("didExecute") private var didExecute = false
/// ```
///
/// Like loom's `UnsafeCell` and Shuttle's instrumented accesses, it adds no synchronisation: each
/// read and write is a plain load or store of the value, in a box of its own that the variable
/// owns. Outside exploration an access costs a call, one relaxed atomic load (is any logical
/// thread alive in the process?) and one hop to the box, and stays the data race it was:
/// ThreadSanitizer reports it (at the caller's line: the accessors are transparent), and the
/// enclosing type still needs `@unchecked Sendable` to be shared.
///
/// On a logical thread of the explorer, each read is a scheduling point named `read <name>` and
/// each write one named `write <name>`, with the variable in the step's footprint. The explorer
/// pauses the thread *before* the access, so which thread's access comes first is its choice. A
/// read followed by a write (`counter += 1`, `guard !flag … flag = true`) is two points, so another
/// thread can run between them, as it can on a real machine. The accesses are points with marks
/// off too (`ExplorationOptions.marks`): they are operations the explorer sees by itself.
///
/// Why the value is in a box (a class) and not stored in the struct itself: reading a struct
/// property of a class copies the struct out of the object before any method of it runs, so a
/// struct's getter would pause *after* the load, and the explorer would order nothing (both
/// threads of lesson 2 would pass the check in every schedule). The box reference is loaded
/// first; the value only after the pause.
///
/// What it does not do: make anything atomic, order memory, or see accesses that bypass it. A
/// mutating method called on the value (`array.append(x)`) is one read and one write of the whole
/// value around it. It is meant for stored properties of classes, where shared state lives: in a
/// struct, copies of the struct share the one box, which a plain `var` would not.
@propertyWrapper
public struct RaceShared<Value> {
    @usableFromInline let box: RaceSharedBox<Value>

    /// - Parameters:
    ///   - wrappedValue: the initial value (`= false` in the declaration).
    ///   - name: the variable's name in schedules: `read <name>`, `write <name>`.
    public init(wrappedValue: Value, _ name: StaticString) {
        box = RaceSharedBox(wrappedValue, name: name)
    }

    // Transparent, so that the load and the store are compiled into the caller, where `Value` is
    // known (a `Bool`), even in a debug build: ThreadSanitizer instruments them there. In generic
    // code a `Value` is copied by its value witness, inside the uninstrumented runtime, and TSan
    // sees nothing (`make tsan`'s lesson 2 `buggy` row goes silent).
    public var wrappedValue: Value {
        @_transparent get {
            box.willRead()
            return box.value
        }
        @_transparent nonmutating set {
            box.willWrite()
            box.value = newValue
        }
    }
}

/// The storage of one `RaceShared` variable; its identity is the variable's in footprints, so that
/// partial-order reduction treats two accesses to one variable as dependent unless both read it,
/// and accesses to different variables as independent.
@usableFromInline
final class RaceSharedBox<Value> {
    /// Read and written with plain loads and stores, never under a lock.
    @usableFromInline var value: Value
    let name: StaticString

    init(_ value: Value, name: StaticString) {
        self.value = value
        self.name = name
    }

    /// Under the explorer, pauses before a read. Outside it, one relaxed atomic load (no logical
    /// thread exists) and nothing else.
    @usableFromInline
    func willRead() {
        guard LogicalThread.mayExist, let logical = LogicalThread.current else { return }
        pause(.read, on: logical)
    }

    /// Under the explorer, pauses before a write. Outside it, as for a read.
    @usableFromInline
    func willWrite() {
        guard LogicalThread.mayExist, let logical = LogicalThread.current else { return }
        pause(.write, on: logical)
    }

    private func pause(_ kind: SharedAccess.Kind, on logical: LogicalThread) {
        logical.pause(at: SharedAccess(variable: ObjectIdentifier(self), kind: kind, variableName: name))
    }
}

/// A read or a write of a `RaceShared` variable: always able to go on (nothing excludes a plain
/// access), changing no model. It reads or writes the variable (`Footprint.Access`).
struct SharedAccess: SchedulingPoint {
    enum Kind: String {
        case read, write
    }

    let variable: ObjectIdentifier
    let kind: Kind
    let variableName: StaticString

    var name: String { "\(kind.rawValue) \(variableName)" }

    /// A read commutes with other reads of the variable; a write with no access to it.
    var footprint: Footprint { Footprint(.object(variable), kind == .read ? .read : .write) }
}
