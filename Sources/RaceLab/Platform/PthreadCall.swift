/// Stops the program when a pthread call returned an error: `error` is what the call returned
/// (0 or an errno value), `call` names it in the message. `also` is one more value that means
/// success (`ETIMEDOUT` for a timed wait).
@inline(__always)
func requirePthreadSuccess(_ error: Int32, _ call: StaticString, also allowed: Int32 = 0) {
    precondition(error == 0 || error == allowed, "\(call) failed: \(error)")
}
