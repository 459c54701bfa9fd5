import RaceLab

/// The child-process protocol's commands: hidden from help, each reading one `Codable` request that
/// `RaceLab` encodes and decodes (`ChildRequest`, `WorkerRequest`); their errors show the tool's usage.
extension ChildRequest: CommandRequest {
    static let descriptor = CommandDescriptor(command, isHidden: true) { _, arguments, _ throws(UsageError) in
        guard let request = try? ChildRequest(commandLine: arguments) else {
            throw UsageError("\(command) is internal to racelab")
        }
        return .request(request)
    }

    /// Runs or explores the variant as asked and answers on the request's channel.
    func run(in tool: RaceLabTool) -> ExitCode {
        // The matrix also runs the TSan calibration, which is not one of the tool's lessons.
        let served = ChildService.serve(self, lessons: tool.lessons + [ThreadSanitizerCalibration.lesson])
        return served ? .success : .error
    }
}

extension WorkerRequest: CommandRequest {
    /// `_worker <request>`, as `WorkerProcess.launch` starts a worker: its lesson and worker must
    /// exist; the worker's own arguments are its business, so they are passed on unread.
    static let descriptor = CommandDescriptor(command, isHidden: true) { _, arguments, lessons throws(UsageError) in
        guard let request = try? WorkerRequest(commandLine: arguments) else {
            throw UsageError("\(command) is internal to racelab")
        }
        let check = CommandValidation(reader: OptionReader([], command: nil), lessons: lessons, arguments: [])
        let lesson = try check.lesson(String(request.lesson))
        guard lesson.workers.contains(where: { $0.name == request.worker }) else {
            throw check.error("lesson \(lesson.number) has no worker \(quoted(request.worker))")
        }
        return .request(request)
    }

    func run(in tool: RaceLabTool) -> ExitCode {
        tool.runWorker(self)
    }
}
