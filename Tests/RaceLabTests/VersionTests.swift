import Foundation
import RaceLab
import Testing

@Suite("The release version")
struct VersionTests {
    @Test("raceLabVersion is the newest release heading of CHANGELOG.md")
    func versionMatchesChangelog() throws {
        let changelog = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CHANGELOG.md")
        let text = try String(contentsOf: changelog, encoding: .utf8)
        let newest = try #require(
            text.split(separator: "\n").first { $0.hasPrefix("## [") },
            "CHANGELOG.md has no release heading"
        )
        #expect(newest.hasPrefix("## [\(raceLabVersion)]"), "newest heading: \(newest)")
        let parts = raceLabVersion.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "not major.minor.patch: \(raceLabVersion)")
    }
}
