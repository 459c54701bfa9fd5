/// `racelab explore --trace`: failing schedules as Chrome Trace Event JSON, which Perfetto
/// (ui.perfetto.dev) and chrome://tracing open.
///
/// Each variant with a failing schedule is a process (`pid`, named after the variant), each logical
/// thread a track (`tid`, named `thread 0`, ...), each step a complete slice (`ph: "X"`) named after
/// its operation. Steps have no duration of their own (only the order is real), so step i spans
/// [i, i+1) milliseconds of a made-up clock; the state after the step, where known, is in the
/// slice's `args`.
public enum ScheduleTrace {
    struct Event: Encodable {
        var name: String
        var ph: String
        var pid: Int
        var tid: Int
        var ts: Int?
        var dur: Int?
        var args: [String: String]?
    }

    struct Document: Encodable {
        var traceEvents: [Event]
        var displayTimeUnit = "ms"
    }

    /// Microseconds per step on the made-up clock.
    static let stepMicroseconds = 1_000

    /// The trace of the failing schedules among `pictures`.
    ///
    /// - Throws: `EncodingError` if the document cannot be encoded (it always can).
    public static func render(_ pictures: [SchedulePicture]) throws -> String {
        var events: [Event] = []
        for (index, picture) in pictures.enumerated() {
            guard let failure = picture.failure else { continue }
            let pid = index + 1
            events.append(
                Event(
                    name: "process_name",
                    ph: "M",
                    pid: pid,
                    tid: 0,
                    args: ["name": "variant \(picture.variant) [\(picture.kind.rawValue)]: \(failure.message)"]
                )
            )
            for (tid, name) in picture.threadNames.enumerated() {
                events.append(Event(name: "thread_name", ph: "M", pid: pid, tid: tid, args: ["name": name]))
            }
            for (step, taken) in failure.steps.enumerated() {
                var args = ["step": String(step + 1)]
                if let state = picture.state(after: step) { args["state after"] = state }
                if step == failure.steps.count - 1 { args["failure"] = failure.message }
                events.append(
                    Event(
                        name: taken.operation,
                        ph: "X",
                        pid: pid,
                        tid: taken.thread,
                        ts: step * stepMicroseconds,
                        dur: stepMicroseconds,
                        args: args
                    )
                )
            }
        }
        return try JSONText.encode(Document(traceEvents: events)) + "\n"
    }
}
