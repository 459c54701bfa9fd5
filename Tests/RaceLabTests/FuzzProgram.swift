import Foundation
import RaceLab

/// A small random program over the explorer's primitives, for `DifferentialFuzzTests`: a few
/// threads, each a short list of operations on three `@RaceShared` integers (`a`, `b`, `c`), two
/// plain cells behind race windows (`w0`, `w1`), two `RaceLock`s and two `RaceQueue`s (serial `Q`,
/// concurrent `C`). A seed makes one program, the same on every run and platform.
///
/// Every step touches only what its scheduling point declares, so the program's footprints are
/// complete: a `@RaceShared` access declares its variable, a window `on:` its cell, a window
/// `reading:` a cell it only reads, a window with no object everything, and a register (`r0`, what
/// a read saw) belongs to the one operation that writes it and is read only after every thread
/// finished. Blocks (a lock, a `sync`, an `async`) hold plain operations only, never another block,
/// so no program deadlocks.
struct FuzzProgram: CustomStringConvertible, Sendable {
    enum Variable: Int, CaseIterable, CustomStringConvertible, Sendable {
        case a, b, c

        var description: String { ["a", "b", "c"][rawValue] }
    }

    enum Queue: CustomStringConvertible, Sendable {
        case serial, concurrent

        var description: String { self == .serial ? "Q" : "C" }
    }

    enum Operation: CustomStringConvertible, Sendable {
        /// `a = 3`
        case write(Variable, Int)
        /// `a = c + 1`: a read of `c`, then a write of `a`.
        case copy(Variable, from: Variable, plus: Int)
        /// `a += 1`: a read, then a write.
        case add(Variable, Int)
        /// `r0 = c`: a read into a register.
        case read(Variable, register: Int)
        /// A window on cell `w` (or, undeclared, on nothing named), then `w = 3w + k`.
        case update(cell: Int, declared: Bool, plus: Int)
        /// A window that only reads cell `w`, then `r = w`.
        case look(cell: Int, register: Int)
        /// `L0 { … }`: lock `L0` (or `L1`) held around plain operations.
        indirect case locked(Int, [Operation])
        /// `Q.sync { … }`, `C.sync barrier { … }`.
        indirect case sync(Queue, barrier: Bool, [Operation])
        /// `Q.async { … }`: the operations run by the queue's new item thread.
        indirect case async(Queue, barrier: Bool, [Operation])

        var description: String {
            switch self {
            case .write(let variable, let value): "\(variable) = \(value)"
            case .copy(let variable, let from, let plus): "\(variable) = \(from)" + (plus == 0 ? "" : " + \(plus)")
            case .add(let variable, let value): "\(variable) += \(value)"
            case .read(let variable, let register): "r\(register) = \(variable)"
            case .update(let cell, let declared, let plus):
                "window\(declared ? " on w\(cell)" : ""): w\(cell) = 3*w\(cell) + \(plus)"
            case .look(let cell, let register): "window reading w\(cell): r\(register) = w\(cell)"
            case .locked(let lock, let body): "L\(lock) { \(Self.text(body)) }"
            case .sync(let queue, let barrier, let body):
                "\(queue).sync\(barrier ? " barrier" : "") { \(Self.text(body)) }"
            case .async(let queue, let barrier, let body):
                "\(queue).async\(barrier ? " barrier" : "") { \(Self.text(body)) }"
            }
        }

        static func text(_ operations: [Operation]) -> String {
            operations.map(\.description).joined(separator: "; ")
        }
    }

    let threads: [[Operation]]
    /// How many registers the operations write (`r0 ..< rN`).
    let registers: Int

    /// `T0: r0 = c; a += 1 | T1: c = 3`
    var description: String {
        threads.enumerated().map { "T\($0.offset): \(Operation.text($0.element))" }.joined(separator: " | ")
    }

    init(threads: [[Operation]], registers: Int) {
        self.threads = threads
        self.registers = registers
    }

    /// The program `seed` makes: 2 to 4 threads, fewer operations each the more threads there are,
    /// on one to three of the variables and one or two of the cells (the fewer, the more races).
    init(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
        let (variables, cells) = (2 + pick(2), 1 + pick(2))
        var registers = 0
        func plain() -> Operation {
            let variable = Variable(rawValue: pick(variables))!
            switch pick(10) {
            case 0, 1, 2: return .write(variable, 1 + pick(3))
            case 3, 4: return .copy(variable, from: Variable(rawValue: pick(variables))!, plus: 1 + pick(2))
            case 5: return .add(variable, 1 + pick(2))
            case 6, 7:
                registers += 1
                return .read(variable, register: registers - 1)
            case 8: return .update(cell: pick(cells), declared: pick(4) != 0, plus: 1 + pick(2))
            default:
                registers += 1
                return .look(cell: pick(cells), register: registers - 1)
            }
        }
        func operation() -> Operation {
            let body = { (0...pick(2)).map { _ in plain() } }
            switch pick(16) {
            case 0: return .locked(pick(2), body())
            case 1:
                let queue: Queue = pick(2) == 0 ? .serial : .concurrent
                return .sync(queue, barrier: queue == .concurrent && pick(2) == 0, body())
            case 2:
                let queue: Queue = pick(2) == 0 ? .serial : .concurrent
                return .async(queue, barrier: queue == .concurrent && pick(2) == 0, body())
            default: return plain()
            }
        }
        let count = [2, 3, 3, 4][pick(4)]
        let most = [2: 3, 3: 3, 4: 1][count]!
        self.threads = (0..<count).map { _ in (0...pick(most)).map { _ in operation() } }
        self.registers = registers
    }

    /// The shared state of one execution.
    final class State: @unchecked Sendable {
        @RaceShared("a") var a = 0
        @RaceShared("b") var b = 0
        @RaceShared("c") var c = 0
        let cells = [Cell(), Cell()]
        let locks = [RaceLock("L0"), RaceLock("L1")]
        let serial = RaceQueue(label: "racelab.fuzz.Q")
        let concurrent = RaceQueue(label: "racelab.fuzz.C", attributes: .concurrent)
        let registers: [Cell]

        init(registers: Int) {
            self.registers = (0..<registers).map { _ in Cell(0) }
        }

        subscript(variable: Variable) -> Int {
            get {
                switch variable {
                case .a: a
                case .b: b
                case .c: c
                }
            }
            set {
                switch variable {
                case .a: a = newValue
                case .b: b = newValue
                case .c: c = newValue
                }
            }
        }

        /// `a=5 b=0 c=3 w0=1 w1=4 r0=1`
        var description: String {
            let variables = Variable.allCases.map { "\($0)=\(self[$0])" }
            let cells = cells.indices.map { "w\($0)=\(self.cells[$0].value)" }
            let registers = registers.indices.map { "r\($0)=\(self.registers[$0].value)" }
            return (variables + cells + registers).joined(separator: " ")
        }

        func queue(_ queue: Queue) -> RaceQueue { queue == .serial ? serial : concurrent }
    }

    /// Plain memory: a window's cell, or a register.
    final class Cell: @unchecked Sendable {
        var value: Int

        init(_ value: Int = 1) {
            self.value = value
        }
    }

    static func run(_ operations: [Operation], on state: State) {
        for operation in operations { run(operation, on: state) }
    }

    static func run(_ operation: Operation, on state: State) {
        switch operation {
        case .write(let variable, let value): state[variable] = value
        case .copy(let variable, let from, let plus):
            let value = state[from]
            state[variable] = value + plus
        case .add(let variable, let value): state[variable] += value
        case .read(let variable, let register): state.registers[register].value = state[variable]
        case .update(let cell, let declared, let plus):
            if declared { Race.window("update", on: state.cells[cell]) } else { Race.window("update") }
            state.cells[cell].value = 3 * state.cells[cell].value + plus
        case .look(let cell, let register):
            Race.window("look", reading: state.cells[cell])
            state.registers[register].value = state.cells[cell].value
        case .locked(let lock, let body): state.locks[lock].withLock { run(body, on: state) }
        case .sync(let queue, let barrier, let body):
            state.queue(queue).sync(flags: barrier ? .barrier : []) { run(body, on: state) }
        case .async(let queue, let barrier, let body):
            state.queue(queue).async(flags: barrier ? .barrier : []) { run(body, on: state) }
        }
    }

    /// The program as an exploration with complete footprints. Each execution's final state goes to
    /// `finals`; the invariant fails on the final states `fails` picks.
    func exploration(
        recording finals: FinalStates,
        failingWhen fails: @escaping @Sendable (String) -> Bool
    )
        -> Exploration
    {
        let (threads, registers) = (self.threads, self.registers)
        return Exploration(
            summary: description,
            defaultThreads: threads.count,
            makeState: { State(registers: registers) },
            thread: { state, index in Self.run(threads[index], on: state) },
            invariant: { state, _ in
                let final = state.description
                finals.insert(final)
                return fails(final) ? "final state \(final)" : nil
            }
        ).declaringCompleteFootprints()
    }
}

/// The final states an exploration's executions ended in.
final class FinalStates: @unchecked Sendable {
    private let lock = NSLock()
    private var states: Set<String> = []

    func insert(_ state: String) {
        lock.withLock { _ = states.insert(state) }
    }

    var all: Set<String> { lock.withLock { states } }
}
