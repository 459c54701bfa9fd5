// swift-tools-version:6.0
//
// An example of checking your own code with RaceLab: a package outside RaceLab's own targets that
// depends on it by path (from a clone: `.package(url: "https://…/RaceLab.git", branch: "main")`).
// Its library (`RenderCaching`) holds a cache type and a scenario for it; its tests check the cache
// with RaceLabTesting inside `swift test`; its executable runs the same scenario with RaceLab's
// command line.
//
//   cd Examples/CacheCheck && swift test                          # the checks, as tests
//   cd Examples/CacheCheck && swift run -c release cache-check run all
import PackageDescription

let package = Package(
    name: "CacheCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RaceLab", path: "../..")
    ],
    targets: [
        // The code under test, with its `Race.window` mark, and the scenario that exercises it.
        .target(
            name: "RenderCaching",
            dependencies: [.product(name: "RaceLab", package: "RaceLab")]
        ),
        .executableTarget(
            name: "cache-check",
            dependencies: [
                "RenderCaching",
                // The command line that runs the scenario: list, run, --json, exit codes.
                .product(name: "RaceLabCommandLine", package: "RaceLab"),
            ]
        ),
        .testTarget(
            name: "RenderCachingTests",
            dependencies: [
                "RenderCaching",
                // expectClean, expectReproduced, ...; it re-exports RaceLab.
                .product(name: "RaceLabTesting", package: "RaceLab"),
            ]
        ),
    ]
)
