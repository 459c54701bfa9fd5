import Foundation

/// A request a parent passes to a process it starts with a hidden command (`ChildRequest`,
/// `WorkerRequest`): one `Codable` value, written as the process's only argument after `command` by
/// `commandLine()` and read back by `init(commandLine:)`, so that the two sides cannot disagree on an
/// argument's position.
package protocol HiddenCommandRequest: Codable {
    /// The hidden command the process is started with.
    static var command: String { get }
    /// Whether a decoded request holds values its process can serve; true unless a request says
    /// otherwise.
    var isWellFormed: Bool { get }
}

extension HiddenCommandRequest {
    package var isWellFormed: Bool { true }

    /// The process's arguments after its executable: the command, then the request as one JSON text.
    package func commandLine() throws -> [String] {
        [Self.command, try JSONText.encode(self, pretty: false)]
    }

    /// Reads a request from the arguments that follow `command`.
    ///
    /// - Throws: `ChildRequest.Malformed` unless they are exactly one well-formed request as
    ///   `commandLine()` writes it.
    package init(commandLine arguments: [String]) throws(ChildRequest.Malformed) {
        guard arguments.count == 1,
            let request = try? JSONDecoder().decode(Self.self, from: Data(arguments[0].utf8)),
            request.isWellFormed
        else { throw ChildRequest.Malformed() }
        self = request
    }
}
