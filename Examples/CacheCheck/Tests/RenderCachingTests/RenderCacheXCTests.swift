import RaceLabTesting
import RenderCaching
import XCTest

/// The same check from XCTest: `assertClean` fails with `XCTFail` at this line, with the report.
final class RenderCacheXCTests: XCTestCase {
    func testLockedCacheIsClean() async {
        await assertClean(CacheScenario.lockWholeLookup)
    }
}
