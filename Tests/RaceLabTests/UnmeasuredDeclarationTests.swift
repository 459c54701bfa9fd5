import Foundation
import Testing

@testable import RaceLab

@Suite("A variant declared unmeasured on a system")
struct UnmeasuredDeclarationTests {
    @Test("keeps its reason, has no expectation there, and counts as a declaration")
    func declaration() {
        let variant = Synthetic.clean.unmeasured(on: .macOS, because: "written from the documentation")
        #expect(variant.unmeasuredReasons == [.macOS: "written from the documentation"])
        #expect(variant.toolExpectation(on: .macOS) == nil)
        #expect(variant.toolExpectation(on: .linux) == nil)
        #expect(variant.declaresToolExpectations)
        #expect(!Synthetic.clean.declaresToolExpectations)
    }

    @Test("an expectation on another system stays separate")
    func otherSystem() {
        let variant = Synthetic.clean
            .expecting(tsan: .silent, compiler: .accepted, on: .linux, because: "measured")
            .unmeasured(on: .macOS, because: "not yet")
        #expect(variant.toolExpectation(on: .linux)?.reason == "measured")
        #expect(variant.unmeasuredReasons[.linux] == nil)
        #expect(variant.unmeasuredReasons[.macOS] == "not yet")
    }

    @Test("declaring a system both unmeasured and measured is refused")
    func bothRefused() async {
        await #expect(processExitsWith: .failure) {
            _ = Synthetic.clean
                .unmeasured(on: .linux, because: "not yet")
                .expecting(tsan: .silent, compiler: .accepted, on: .linux, because: "measured")
        }
    }
}
