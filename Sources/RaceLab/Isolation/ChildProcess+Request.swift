import Foundation

extension ChildProcess {
    /// How a child that served a `ChildRequest` ended, and what it said on its channel.
    package struct Answer {
        package var result: Result
        /// The messages on the channel, in order.
        package var messages: [ChildMessage]

        /// The phase the child said it entered last; nil when it said none.
        package var lastPhase: ChildPhase? {
            for message in messages.reversed() {
                if case .phase(let phase) = message { return phase }
            }
            return nil
        }

        /// The child's last report of the trials done so far, if it sent one.
        package var progress: VariantReport? {
            for message in messages.reversed() {
                if case .progress(let report) = message { return report }
            }
            return nil
        }

        /// Whether the child wrote its result, whatever became of it afterwards.
        package var wroteResult: Bool {
            guard let last = messages.last else { return false }
            switch last {
            case .phase, .progress: return false
            default: return true
            }
        }

        /// How the child ended, in words: `exited with status 66`, `died from signal 4 (SIGILL)`.
        package var ending: String {
            switch result.termination {
            case .exited(let status): "exited with status \(status)"
            case .signaled(let number): "died from signal \(number) (\(signalName(number)))"
            case .timedOut: "was killed by the watchdog"
            }
        }

        /// The child's result: its last message that is not a phase, provided the child exited with
        /// status 0 after writing it (a result followed by a crash is not trusted).
        package var reply: ChildMessage? {
            guard case .exited(0) = result.termination, wroteResult else { return nil }
            return messages.last
        }
    }

    /// Swift's crash backtracer prints registers and memory maps, which bury the one line that
    /// matters (`Fatal error: ...`) in a report's stderr tail. Children run without it unless the
    /// user asked for it explicitly.
    static var childEnvironment: [String: String] {
        ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] == nil ? ["SWIFT_BACKTRACE": "enable=no"] : [:]
    }

    /// Starts `executable` with the request for `job` on `variant` of lesson `lesson`, on a channel
    /// file of its own, waits as `run` does, and returns how the child ended with what it said.
    ///
    /// - Parameters:
    ///   - environment: more variables for the child (the matrix sets `TSAN_OPTIONS` here).
    ///   - launcher: a command that starts the child, e.g. `["/usr/bin/setarch", "x86_64", "-R"]`
    ///     to run it without address randomization; empty to start `executable` directly.
    /// - Throws: when the child could not be started (`LaunchError`, or the request not encoded).
    package static func serve(
        _ job: ChildRequest.Job,
        lesson: Int,
        variant: String,
        executable: String,
        environment: [String: String] = [:],
        launcher: [String] = [],
        timeout: Double,
        whileWaiting: (Double) -> Void = { _ in }
    ) throws -> Answer {
        try withScratchFolder(label: "channel") { folder in
            let channel = folder.appendingPathComponent("messages").path
            let request = ChildRequest(lesson: lesson, variant: variant, job: job, channel: channel)
            let command = launcher + [executable] + (try request.commandLine())
            let result = try run(
                command[0],
                arguments: Array(command.dropFirst()),
                environment: childEnvironment.merging(environment) { _, new in new },
                timeout: timeout,
                whileWaiting: whileWaiting
            )
            return Answer(result: result, messages: ChildChannel.messages(at: channel))
        }
    }
}
