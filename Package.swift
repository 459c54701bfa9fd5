// swift-tools-version:6.2
//
// RaceLab: lessons that reproduce real concurrency bugs, and the harness that measures them.
//
// No package dependencies, by design: a workshop must build with no network.
// Swift 6.2 is the minimum: the lessons' tests use exit tests (`#expect(processExitsWith:)`).
// Every target uses the Swift 6 language mode with complete concurrency checking. The buggy lesson
// types are marked `@unchecked Sendable`: they *claim* thread safety, which is exactly the claim each
// lesson disproves at run time.
import PackageDescription

/// The lessons, in workshop order: the module name and its folder under `Lessons/`. This list is
/// the only place a lesson is registered. From it follow the lesson's module (its code; the
/// folder's `README.md`, `APPENDIX.md`, `Exercise/` and `CompilerProbes/` are excluded, since the
/// exercise and the probes are compiled on their own), its test target `Tests/<module>Tests`, and
/// the `racelab` tool's catalog, which the `LessonCatalog` plugin generates from `racelab`'s lesson
/// dependencies (module `X` exposes `XLesson.lesson`). A consistency test (`LessonLayoutTests`)
/// fails when this list, the `Lessons/NN-slug` folders, `racelab list --json`, the README's lesson
/// table and the variants' declared TSan/compiler expectations disagree.
let lessons: [(module: String, folder: String)] = [
    ("SubscriptRace", "01-subscript-race"),
    ("CheckThenAct", "02-check-then-act"),
    ("ActorReentrancy", "03-actor-reentrancy"),
    ("CoordinatorLocking", "04-coordinator-locking"),
    ("PersistentStore", "05-persistent-store"),
    ("AsyncDataSource", "06-async-data-source"),
]

let package = Package(
    name: "RaceLab",
    // The versions `Synchronization` (Atomic, Mutex) and `Task(executorPreference:)` need, so that an
    // app's test target on any Apple platform can depend on `RaceLab` and `RaceLabTesting`. The
    // command line, the lessons and their tests are run on macOS and Linux only (an app cannot spawn
    // the processes they isolate variants in); on tvOS and watchOS, where `posix_spawn` is not
    // allowed, the platform layer reports that a variant's process cannot start.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "RaceLab", targets: ["RaceLab"]),
        // For tests, yours included: expectClean/expectReproduced/expect(No)FailingSchedule (and XCTest's
        // assert* twins) that fail with RaceLab's report; forced interleavings (hooks at race windows).
        .library(name: "RaceLabTesting", targets: ["RaceLabTesting"]),
        // The `racelab` command line as a library: `RaceLabTool(name:lessons:).main()` gives your own
        // executable the same commands, report and exit codes for lessons of your own.
        .library(name: "RaceLabCommandLine", targets: ["RaceLabCommandLine"]),
        .executable(name: "racelab", targets: ["racelab"]),
    ],
    targets: [
        .target(name: "RaceLab"),
        .target(name: "RaceLabTesting", dependencies: ["RaceLab"]),
        // Argument parsing, help text and the commands' output: a client of `RaceLab`.
        .target(name: "RaceLabCommandLine", dependencies: ["RaceLab"]),
        .executableTarget(
            name: "racelab",
            dependencies: ["RaceLab", "RaceLabCommandLine"] + lessons.map { .target(name: $0.module) },
            plugins: ["LessonCatalog"]
        ),
        // Writes `racelab`'s `catalog` (one `XLesson.lesson` per lesson module it depends on).
        // Xcode asks to trust the plugin the first time it builds the package.
        .plugin(
            name: "LessonCatalog",
            capability: .buildTool(),
            dependencies: ["lesson-catalog-generator"]
        ),
        .executableTarget(name: "lesson-catalog-generator", path: "Plugins/LessonCatalogGenerator"),
        // Synthetic scenarios with known outcomes (a deterministic loss, a crash, a hang), used by
        // the harness's own tests to check the runner, the watchdog and the report.
        .executableTarget(name: "racelab-fixtures", dependencies: ["RaceLab", "RaceLabCommandLine"]),
        // `make bench`: the cost of each way to guard shared state, and of the harness itself.
        .executableTarget(name: "racelab-bench", dependencies: ["RaceLab", "SubscriptRace"]),
        .testTarget(name: "RaceLabTests", dependencies: ["RaceLab", "RaceLabTesting"]),
        .testTarget(
            name: "CommandLineTests",
            dependencies: ["RaceLab", "RaceLabCommandLine", "racelab", "racelab-fixtures"],
            // The help text as printed, compared line for line (read by path, not as a resource).
            exclude: ["Golden", "CrashLogs", "TSanReports"]
        ),
    ]
        + lessons.map { lesson in
            .target(
                name: lesson.module,
                dependencies: ["RaceLab"],
                path: "Lessons/\(lesson.folder)",
                exclude: ["README.md", "APPENDIX.md", "Exercise", "CompilerProbes"]
            )
        }
        + lessons.map { lesson in
            .testTarget(
                name: "\(lesson.module)Tests",
                // RaceLabCommandLine: lesson 4's tests run its worker through the `_worker` command.
                dependencies: ["RaceLab", "RaceLabTesting", "RaceLabCommandLine", .target(name: lesson.module)]
            )
        }
)
