import Testing

@testable import RaceLab

/// The dependence relation partial-order reduction builds on (`Footprint`), checked directly.
@Suite("Footprints")
struct FootprintTests {
    final class Object {}

    @Test("two reads of one object commute; a read and a write, or two writes, do not")
    func readsCommute() {
        let object = Object()
        let read = Footprint(object: object, access: .read)
        let write = Footprint(object: object)
        #expect(!read.isDependent(on: read))
        #expect(read.isDependent(on: write))
        #expect(write.isDependent(on: read))
        #expect(write.isDependent(on: write))
        #expect(!write.isDependent(on: Footprint(object: Object())))
    }

    @Test("a point that names no object depends on every step, even one that touches nothing")
    func everything() {
        #expect(Footprint(object: nil).isDependent(on: .nothing))
        #expect(Footprint.nothing.isDependent(on: .everything))
    }

    @Test("a write recorded after a read of the same object makes the step a writer of it")
    func writeWins() {
        let object = Object()
        var step = Footprint(object: object, access: .read)
        step.insert(.object(ObjectIdentifier(object)), .write)
        step.insert(.object(ObjectIdentifier(object)), .read)
        #expect(step.isDependent(on: Footprint(object: object, access: .read)))
    }

    @Test("a declaration covers a step that touched no more than it, as strongly")
    func covered() {
        let (object, other) = (Object(), Object())
        let declaredRead = Footprint(object: object, access: .read)
        let declaredWrite = Footprint(object: object)
        #expect(declaredRead.isCovered(by: declaredWrite))
        #expect(!declaredWrite.isCovered(by: declaredRead))
        var more = declaredRead
        more.insert(.object(ObjectIdentifier(other)))
        #expect(!more.isCovered(by: declaredWrite))
        #expect(more.isCovered(by: .everything))
        #expect(!Footprint.everything.isCovered(by: declaredWrite))
    }
}
