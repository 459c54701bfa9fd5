import Foundation
import Testing

@testable import RaceLab

/// What ThreadSanitizer writes, shortened from real logs of this repository (debug TSan build,
/// Linux, Swift 6.3.1): two warnings for one race reached along two stacks, then another race.
private let flagRaceLog = """
    ==================
    WARNING: ThreadSanitizer: data race (pid=373)
      Write of size 1 at 0x720800000db0 by main thread:
        #0 $s12CheckThenAct8RacyOnceC3runyyyyXEF /work/main/Lessons/02-check-then-act/RacyOnce.swift:25:20 (racelab+0x175144) (BuildId: 7771359e)
        #1 $s7RaceLab12StressRunnerO3run_7options10afterTrialAA13VariantReportVAA0I0V_AC7OptionsVySiXEtFZ /work/main/Sources/RaceLab/Runner/StressRunner.swift:42:26 (racelab+0x224ec4)

      Previous read of size 1 at 0x720800000db0 by thread T1:
        #0 $s12CheckThenAct8RacyOnceC3runyyyyXEF /work/main/Lessons/02-check-then-act/RacyOnce.swift:20:16 (racelab+0x1750db) (BuildId: 7771359e)

      Location is heap block of size 17 at 0x720800000da0 allocated by main thread:
        #0 malloc /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:686:5 (racelab+0x94470)

      Thread T1 'oot.default-qos' (tid=375, running) created by main thread at:
        #0 pthread_create /home/build-user/llvm-project/compiler-rt/lib/tsan/rtl/tsan_interceptors_posix.cpp:1094:3 (racelab+0x9605a)

    SUMMARY: ThreadSanitizer: data race /work/main/Lessons/02-check-then-act/RacyOnce.swift:25:20 in $s12CheckThenAct8RacyOnceC3runyyyyXEF
    ==================
    ==================
    WARNING: ThreadSanitizer: data race (pid=373)
      Write of size 1 at 0x720800000db0 by thread T2:
        #0 $s12CheckThenAct8RacyOnceC3runyyyyXEF /work/main/Lessons/02-check-then-act/RacyOnce.swift:25:20 (racelab+0x175144)

      Previous write of size 1 at 0x720800000db0 by thread T1:
        #0 $s12CheckThenAct8RacyOnceC3runyyyyXEF /work/main/Lessons/02-check-then-act/RacyOnce.swift:25:20 (racelab+0x175144)

    SUMMARY: ThreadSanitizer: data race /work/main/Lessons/02-check-then-act/RacyOnce.swift:25:20 in $s12CheckThenAct8RacyOnceC3runyyyyXEF
    ==================
    ==================
    WARNING: ThreadSanitizer: Swift access race (pid=373)
      Modifying access of Swift variable at 0x7b0c00012340 by thread T2:
        #0 $sSa6appendyyxnF <null> (libswiftCore.so+0x1b1b1)
        #1 $s12CheckThenAct17UnprotectedErrorsC6recordyys5Error_pF /work/main/Lessons/02-check-then-act/UnprotectedErrors.swift:33:21 (racelab+0x1)

      Previous modifying access of Swift variable at 0x7b0c00012340 by thread T1:
        #0 $s12CheckThenAct17UnprotectedErrorsC6recordyys5Error_pF /work/main/Lessons/02-check-then-act/UnprotectedErrors.swift:33:21 (racelab+0x1)

    SUMMARY: ThreadSanitizer: Swift access race /work/main/Lessons/02-check-then-act/UnprotectedErrors.swift:33:21 in $s12CheckThenAct17UnprotectedErrorsC6recordyys5Error_pF
    ==================
    ThreadSanitizer: reported 3 warnings
    """

@Suite("Reading ThreadSanitizer's logs")
struct SanitizerLogTests {
    @Test("every warning is read, and warnings of one race count as one report")
    func distinctReports() {
        let log = SanitizerLog.parse(flagRaceLog, relativeTo: "/work/main")
        #expect(log.warnings.count == 3)
        #expect(log.distinctReports.count == 2)
        #expect(log.failures.isEmpty)
        let flag = log.distinctReports[0]
        #expect(flag.kind == "data race")
        #expect(flag.pid == 373)
        #expect(flag.location == "Lessons/02-check-then-act/RacyOnce.swift:25:20")
        #expect(flag.function == "CheckThenAct.RacyOnce.run")
        #expect(
            flag.headline == "data race at Lessons/02-check-then-act/RacyOnce.swift:25:20 in CheckThenAct.RacyOnce.run"
        )
    }

    @Test("the two conflicting accesses are kept without addresses, with their first Swift source line")
    func accesses() {
        let report = SanitizerLog.parse(flagRaceLog, relativeTo: "/work/main").warnings[0]
        #expect(
            report.accesses.map(\.description) == [
                "Write of size 1 by main thread", "Previous read of size 1 by thread T1",
            ]
        )
        #expect(
            report.accesses.map(\.location) == [
                "Lessons/02-check-then-act/RacyOnce.swift:25:20", "Lessons/02-check-then-act/RacyOnce.swift:20:16",
            ]
        )
        // The heap block and the thread's creation are not accesses.
        #expect(report.accesses.count == 2)
    }

    @Test("a Swift access race names the user's line, not the standard library frame above it")
    func swiftAccessRace() {
        let report = SanitizerLog.parse(flagRaceLog).warnings[2]
        #expect(report.kind == "Swift access race")
        #expect(report.accesses.first?.description == "Modifying access of Swift variable by thread T2")
        #expect(report.accesses.first?.location == "/work/main/Lessons/02-check-then-act/UnprotectedErrors.swift:33:21")
        #expect(report.function == "CheckThenAct.UnprotectedErrors.record")
    }

    @Test("TSan refusing to start is a failure, not silence")
    func memoryMappingFailure() {
        let log = SanitizerLog.parse(
            "FATAL: ThreadSanitizer: unexpected memory mapping 0x7f1e4fa00000-0x7f1e4fc00000\n"
        )
        #expect(log.warnings.isEmpty)
        #expect(log.failedOnMemoryMapping)
    }

    @Test("a crash TSan caught is recorded as a failure, its summary is not a report")
    func deadlySignal() {
        let text = """
            ThreadSanitizer:DEADLYSIGNAL
            ==589==ERROR: ThreadSanitizer: SEGV on unknown address 0x000000000010 (pc 0x7f0 bp 0x7f0 sp 0x7f0 T1)
            SUMMARY: ThreadSanitizer: SEGV string/../sysdeps/x86_64/multiarch/memmove-vec-unaligned-erms.S:372 in __memcpy_avx512_unaligned_erms
            """
        let log = SanitizerLog.parse(text)
        #expect(log.warnings.isEmpty)
        #expect(log.failures.count == 1)
        #expect(!log.failedOnMemoryMapping)
    }

    @Test("a variant's reports are the files of its prefix only, whatever process wrote them")
    func attributionByPrefix() throws {
        let folder = try ScratchSpace.makeFolder(label: "tsan-logs")
        defer { ScratchSpace.remove(folder) }
        func write(_ name: String, _ text: String) throws {
            try Data(text.utf8).write(to: folder.appendingPathComponent(name))
        }
        try write("02-check-then-act.buggy.100", flagRaceLog)  // the variant's process
        try write("02-check-then-act.buggy.101", "")  // a worker it started, silent
        try write("02-check-then-act.buggy-twin.102", flagRaceLog)  // another variant, same start
        try write("02-check-then-act.lock.103", "")

        let buggy = SanitizerLog.read(folder: folder, prefix: "02-check-then-act.buggy")
        #expect(buggy.processes == 2)
        #expect(buggy.distinctReports.count == 2)
        let lock = SanitizerLog.read(folder: folder, prefix: "02-check-then-act.lock")
        #expect(lock.processes == 1)
        #expect(lock.warnings.isEmpty)

        SanitizerLog.remove(folder: folder, prefix: "02-check-then-act.buggy")
        #expect(SanitizerLog.read(folder: folder, prefix: "02-check-then-act.buggy").processes == 0)
        #expect(SanitizerLog.read(folder: folder, prefix: "02-check-then-act.buggy-twin").processes == 1)
    }

    @Test("RaceLab's TSan options keep the user's and put its own last, so that they win")
    func options() {
        #expect(
            ThreadSanitizer.options(logPath: "/tmp/x/01-a.b")
                == "log_path=/tmp/x/01-a.b:halt_on_error=0:exitcode=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
        )
        #expect(
            ThreadSanitizer.options(logPath: "/l", inherited: "suppressions=s.txt")
                == "suppressions=s.txt:log_path=/l:halt_on_error=0:exitcode=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0"
        )
    }
}

@Suite("Swift names in TSan reports")
struct DemanglerTests {
    @Test("a mangled method becomes its qualified name, without its signature")
    func method() {
        #expect(
            Demangler.demangle("$s12CheckThenAct8RacyOnceC3runyyyyXEF") == "CheckThenAct.RacyOnce.run(() -> ()) -> ()"
        )
        #expect(Demangler.shortName("$s12CheckThenAct8RacyOnceC3runyyyyXEF") == "CheckThenAct.RacyOnce.run")
    }

    @Test("specializations and closures stay readable")
    func specializationsAndClosures() {
        #expect(
            Demangler.shortName(
                "$ss17_NativeDictionaryV7_insert2at3key5valueys10_HashTableV6BucketV_xnq_ntFSS_20FoundationEssentials4DataVTg5"
            ) == "specialized Swift._NativeDictionary._insert"
        )
        let closure = Demangler.shortName(
            "$s12CheckThenAct0abC6LessonO5buggy7RaceLab7VariantVvpZfiyAA9OnceTrialVyAA04RacyI0CG_AE9IterationVtYbcfU0_"
        )
        #expect(closure == "closure #2 in static CheckThenAct.CheckThenActLesson.buggy")
    }

    @Test("anything that is not a Swift symbol is left alone")
    func notSwift() {
        #expect(Demangler.shortName("__memcpy_avx512_unaligned_erms") == "__memcpy_avx512_unaligned_erms")
    }
}
