import RaceLabTesting
import RenderCaching
import Testing

/// How a team checks its own cache in its own test suite: each check is one call, and a failure
/// prints RaceLab's report (counts, outcome histogram, verdict) and the line that re-runs it.
@Suite("The render cache renders each key once")
struct RenderCacheTests {
    @Test("the locked cache stays clean under concurrent misses")
    func lockedCacheIsClean() async {
        await expectClean(CacheScenario.lockWholeLookup)
    }

    @Test("the check sees the bug it exists for: the lock-per-access cache renders twice")
    func checkSeesTheBug() async {
        let report = await expectReproduced(CacheScenario.lockPerAccess)
        #expect(report.duplicates > 0)
    }

    @Test("the lock-per-access cache is not clean: a known issue until it is fixed")
    func lockPerAccessIsKnownBroken() async {
        // When someone fixes RenderCache, this known issue stops happening and the test fails:
        // then move the cache to `expectClean` for good.
        await withKnownIssue("RenderCache renders a key twice when two threads miss it together") {
            await expectClean(CacheScenario.lockPerAccess)
        } matching: { issue in
            let report = issue.comments.map(\.rawValue).joined()
            return report.contains("OUTCOME") && report.contains("FORBIDDEN") && report.contains("duplicate")
        }
    }

    @Test("no schedule of two missing threads renders twice with the locked cache")
    func lockedCacheHasNoFailingSchedule() async throws {
        let exploration = try #require(CacheScenario.lockWholeLookup.exploration)
        await expectNoFailingSchedule(exploration)
    }

    @Test("the explorer finds the schedule in which both threads render")
    func lockPerAccessHasAFailingSchedule() async throws {
        let exploration = try #require(CacheScenario.lockPerAccess.exploration)
        let schedule = try #require(await expectFailingSchedule(exploration))
        #expect(schedule.threads == 2)
    }
}
