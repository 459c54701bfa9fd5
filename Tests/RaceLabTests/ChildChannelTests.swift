import Foundation
import Testing

@testable import RaceLab

@Suite("ChildChannel: a child's messages, one per line, whole or not at all")
struct ChildChannelTests {
    @Test("messages are read back in order; a cut last line and a line that is no message are dropped")
    func framing() throws {
        let folder = try ScratchSpace.makeFolder(label: "channel-test")
        defer { ScratchSpace.remove(folder) }
        let path = folder.appendingPathComponent("messages").path
        let writer = try ChildChannel.Writer(path: path)
        try writer.send(.phase(.variant))
        try writer.send(.setupFailed("line one\nline two"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data("not a message\n".utf8))
        try writer.send(.phase(.check))
        // A message without its newline: not yet whole, so not read, even though its JSON is.
        handle.seekToEndOfFile()
        handle.write(Data(try JSONText.encode(ChildMessage.phase(.report), pretty: false).utf8))
        try handle.close()
        #expect(
            ChildChannel.messages(at: path) == [
                .phase(.variant), .setupFailed("line one\nline two"), .phase(.check),
            ]
        )
        #expect(ChildChannel.messages(at: folder.appendingPathComponent("missing").path).isEmpty)
    }

    @Test("an exploration request survives its trip through the command line, options and replay included")
    func requestRoundTrip() throws {
        let request = ChildRequest(
            lesson: 3,
            variant: "lock-order",
            job: .explore(
                options: ExplorationOptions(reduction: .dpor, threads: 3, preemptions: 4, stepBound: 77, marks: false),
                replay: "3:0.1.2",
                states: false
            ),
            channel: "/tmp/a path with spaces"
        )
        let arguments = try request.commandLine()
        #expect(arguments.count == 2)
        #expect(arguments[0] == ChildRequest.command)
        #expect(try ChildRequest(commandLine: Array(arguments.dropFirst())) == request)
        #expect(throws: ChildRequest.Malformed.self) { try ChildRequest(commandLine: ["3", "lock-order"]) }
    }

    @Test("an exploration's result survives the channel: its report and text read the same in the parent")
    func explorationRoundTrip() async throws {
        let report = try await Explorer.explore(ExplorerTests.lostUpdate)
        let failure = try #require(report.failure)
        let replayed = try await Explorer.replay(ExplorerTests.lostUpdate, schedule: failure.schedule)
        for run in [VariantExploration.Run.search(report), .replay(replayed)] {
            let line = try JSONText.encode(ChildMessage.exploration(run, states: ["before", "after"]), pretty: false)
            let decoded = try JSONDecoder().decode(ChildMessage.self, from: Data(line.utf8))
            guard case .exploration(let received, let states) = decoded else {
                Issue.record("not an exploration: \(decoded)")
                continue
            }
            #expect(states == ["before", "after"])
            let sent = VariantExploration(variant: "buggy", kind: .buggy, run: run)
            let read = VariantExploration(variant: "buggy", kind: .buggy, run: received)
            #expect(try JSONText.encode(read) == JSONText.encode(sent))
            #expect(read.text(heading: "buggy") == sent.text(heading: "buggy"))
            #expect(read.verdict == (sent.mode == .search ? "FOUND" : "REPRODUCED"))
        }
    }
}
