import Foundation
import RaceLab
import Testing

@testable import RaceLabCommandLine

/// Every JSON document the tool prints goes through `printJSON`.
@Suite("JSON output")
struct JSONOutputTests {
    /// JSON has no infinity: `JSONEncoder` refuses to encode this.
    struct Unencodable: Encodable {
        var seconds = Double.infinity
    }

    @Test("a document that cannot be encoded: one error line on stderr, nothing on stdout, status 1")
    func failedEncode() async throws {
        // The child ends its stdout with a line of its own: Swift Testing reports an empty output as
        // bytes that were never written (observed with Swift 6.3), so "nothing" is checked as "only that".
        let result = try await #require(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            let tool = RaceLabTool(name: "racelab", lessons: [])
            let status = tool.printJSON(Unencodable(), what: "report")
            print("status \(status.rawValue)")
            exit(0)
        }
        #expect(String(decoding: result.standardOutputContent, as: UTF8.self) == "status 3\n")
        let lines = String(decoding: result.standardErrorContent, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("racelab: error: cannot encode the report: ") == true)
    }

    @Test("a document is printed in the one format: sorted keys, slashes as typed")
    func format() async throws {
        struct Document: Encodable {
            var path = "a/b"
            var count = 1
        }
        let result = try await #require(
            processExitsWith: .success,
            observing: [\.standardOutputContent]
        ) {
            exit(RaceLabTool(lessons: []).printJSON(Document(), what: "document").rawValue)
        }
        #expect(
            String(decoding: result.standardOutputContent, as: UTF8.self)
                == "{\n  \"count\" : 1,\n  \"path\" : \"a/b\"\n}\n"
        )
    }
}
