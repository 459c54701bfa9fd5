import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// How the harness hands its verdict to `Scripts/check-exercise`, past the participant's code.
///
/// The participant's file runs in the harness's process, so the process's exit status and its
/// output are the participant's to forge (`exit(0)` in an initializer; printing "PASS"). The
/// script therefore trusts neither. For each run it makes two random tokens, one for PASS and one
/// for FAIL, and passes them on descriptor 3, a pipe; the harness reads them when its
/// `ExerciseCheck` is made, the first statement of the check's `main.swift` (before any of the
/// participant's code can run: Swift has no static initializers), and closes the pipe. At the end
/// it writes `PASS <pass token>` or `FAIL <fail token>` to descriptor 4, which the script reads. A
/// run that ends without the pass token there fails.
///
/// What the participant's code could see, and why it does not help: the arguments and the
/// environment hold no token; descriptor 3 is drained and closed; descriptor 4 receives only the
/// token of the verdict the harness reached, so intercepting a FAIL reveals nothing about the PASS
/// token; a second `ExerciseCheck` gets no channel; and this module's `exit`, `print` and `write`
/// are the standard ones whatever the participant's module declares. The tokens are kept masked
/// with a random key, so they never sit in memory as the text the script looks for. A program that
/// sets out to read the harness's memory, or to take over its code, is out of reach of any check
/// that runs in the same process; that is not the threat this guards against.
enum VerdictChannel {
    /// The descriptor the tokens arrive on.
    static let tokenDescriptor: Int32 = 3
    /// The descriptor the verdict goes to.
    static let verdictDescriptor: Int32 = 4

    private struct Tokens {
        var pass: [UInt8]
        var fail: [UInt8]
        var key: [UInt8]
    }

    /// nil until claimed; `.some(nil)` once claimed when no tokens arrived (the harness was run by
    /// hand, not by the script).
    private static let state = Mutex<Tokens??>(nil)

    /// Reads the tokens, the first time only. Returns whether this caller owns the channel.
    static func claim() -> Bool {
        state.withLock { state in
            guard state == nil else { return false }
            state = .some(readTokens())
            return true
        }
    }

    /// Writes the verdict with its token, and after it the kinds of failure seen (`lost-writes`,
    /// `functional`…), which only choose the script's hint; does nothing when the channel has no tokens.
    static func send(passed: Bool, kinds: [String] = []) {
        state.withLock { state in
            guard case .some(.some(let tokens)) = state else { return }
            var line = Array((passed ? "PASS " : "FAIL ").utf8)
            line += zip(passed ? tokens.pass : tokens.fail, tokens.key).map { $0 ^ $1 }
            if !kinds.isEmpty { line += Array((" " + kinds.joined(separator: " ")).utf8) }
            line.append(UInt8(ascii: "\n"))
            writeAll(line)
            for index in line.indices { line[index] = 0 }
            close(verdictDescriptor)
        }
    }

    /// Writes `stage <name>` (no token) when the check enters a stage, so that the script can tell a
    /// crash under concurrent calls from one in the single-threaded checks. A forged stage line can
    /// only change the explanation of a crash, never the verdict.
    static func enter(stage: String) {
        state.withLock { state in
            guard case .some(.some) = state else { return }
            writeAll(Array("stage \(stage)\n".utf8))
        }
    }

    /// Writes `checking <requirement>` (no token) when the check begins work for a requirement, and
    /// `checked` (`requirement` nil) when it has its answer, so that the script can name the
    /// requirement a check that runs long, or hangs, is on. Like a stage line, a forged one can only
    /// change that message, never the verdict.
    static func checking(_ requirement: String?) {
        state.withLock { state in
            guard case .some(.some) = state else { return }
            // One line, whatever the requirement's text holds.
            let text = requirement.map { "checking " + $0.split(whereSeparator: \.isNewline).joined(separator: " ") }
            writeAll(Array("\(text ?? "checked")\n".utf8))
        }
    }

    /// Writes `trial started` (no token) when a trial of the stress run begins, and `trial finished`
    /// when it has been checked and torn down, so that the script can stop a run in which no trial
    /// finished for far longer than one takes (a deadlock) without waiting for the whole limit. A
    /// forged line can only delay that stop to the whole limit, or make it come sooner for a check
    /// that hangs anyway; never change the verdict.
    static func trial(started: Bool) {
        state.withLock { state in
            guard case .some(.some) = state else { return }
            writeAll(Array("trial \(started ? "started" : "finished")\n".utf8))
        }
    }

    /// Writes `reading <kind> <line>` (no token) for a diagnosis read from the participant's code
    /// before the run from many threads, so that the script can add it to a crash's diagnosis (a run
    /// that crashes never reaches its own); `reading <kind>` alone for one already printed. A forged
    /// line can only change that crash's hint and the line under it, never the verdict.
    static func reading(kind: String, line: String) {
        state.withLock { state in
            guard case .some(.some) = state else { return }
            let text = line.split(whereSeparator: \.isNewline).joined(separator: " ")
            writeAll(Array("reading \(kind)\(text.isEmpty ? "" : " " + text)\n".utf8))
        }
    }

    private static func writeAll(_ line: [UInt8]) {
        line.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(verdictDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { break }
                offset += written
            }
        }
    }

    /// Reads `<pass token> <fail token>\n` from the token descriptor to its end and closes it.
    private static func readTokens() -> Tokens? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while received.count < 4_096 {
            let count = buffer.withUnsafeMutableBytes { read(tokenDescriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        close(tokenDescriptor)
        defer {
            for index in received.indices { received[index] = 0 }
            for index in buffer.indices { buffer[index] = 0 }
        }
        let fields = received.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }
        guard fields.count == 2, fields[0].count == fields[1].count, !fields[0].isEmpty else { return nil }
        var generator = SystemRandomNumberGenerator()
        let key = (0..<fields[0].count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Tokens(
            pass: zip(fields[0], key).map { $0 ^ $1 },
            fail: zip(fields[1], key).map { $0 ^ $1 },
            key: key
        )
    }
}
