import RaceLab

/// The errors in a plain array that every callback appends to, with nothing in between: what the
/// article's `Protected` exists to prevent.
///
/// `record` is a simplified `append`: read the count, store the element in the next slot, write the
/// count plus one. Two callbacks that both read the same count store into the same slot, and one
/// error is gone. A literal `errors.append(error)` loses elements to the same race, but it is not
/// exactly this race: `Array.append` also checks that its buffer is uniquely referenced and may
/// allocate a larger one and move the elements, so two unsynchronized appends can also free a buffer
/// under each other and crash. Its window lies inside the standard library, where no race-window mark
/// can reach; spelled out, the window is visible, and the runner can widen it.
///
/// Two details keep the damage to lost errors, so that the lesson can count them instead of crashing:
/// - the slots are one buffer allocated once, which never moves and is never copied (an `Array` that
///   grew while two threads appended would free its old buffer under the other thread, and in debug
///   builds even a subscript store on an `Array` property may copy the buffer and free the old one);
/// - the slots hold `FetchError` values, plain integers inside. Two callbacks storing into one slot
///   just overwrite each other. With a reference-counted element (`any Error` is a box) each of them
///   would release the value it replaced, the same box twice, and the process could die.
public final class UnprotectedErrors: ErrorCollector, @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<FetchError>
    /// A plain `Int`; `@RaceShared` only lets the schedule explorer see its reads and writes.
    @RaceShared("errors.count") private var count = 0

    /// - Parameter capacity: the most errors it can hold; the slots are allocated once, here.
    ///   Records beyond it are dropped.
    public init(capacity: Int = 1 << 16) {
        slots = .allocate(capacity: capacity)
        slots.initialize(repeating: FetchError(index: -1))
    }

    deinit {
        slots.deallocate()
    }

    @inline(never)
    public func record(_ error: FetchError) {
        let next = count
        // hazard: read-modify-write of the count with no lock. Another callback can read the same
        // count now; both store into slot `next`, both write `next + 1`, and one error is lost.
        Race.window("chose slot")
        guard next < slots.count else { return }
        slots[next] = error
        count = next + 1
    }

    /// The count and every slot written so far, for the explorer's state line
    /// (`errors.count 0 · slot 0 holds fetch 3's error`): a store into a slot lands before the count
    /// is written, so an overwritten slot shows. Read between steps only, when every thread is
    /// paused (a read in `record` goes through the same wrapper).
    var stateBetweenSteps: String {
        let written = slots.enumerated().filter { $0.element.index >= 0 }
            .map { "slot \($0.offset) holds fetch \($0.element.index)'s error" }
        return (["errors.count \(count)"] + written).joined(separator: " · ")
    }

    /// The errors recorded, in slot order. Only meaningful once every callback has finished.
    public func recorded() -> [any Error] {
        slots.prefix(count).map { $0 }
    }
}
