// swift-tools-version:6.0
//
// An example of checking your own code with RaceLab: a package outside RaceLab's own targets that
// depends on it by path (from a clone: `.package(url: "https://…/RaceLab.git", branch: "main")`),
// declares a scenario for its own cache type, and runs it with RaceLab's runner and report.
//
//   cd Examples/CacheCheck && swift run -c release cache-check run all
import PackageDescription

let package = Package(
    name: "CacheCheck",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RaceLab", path: "../..")
    ],
    targets: [
        .executableTarget(
            name: "cache-check",
            dependencies: [
                // The scenario's types (Lesson, Variant, Race.window) and the command line that runs it.
                .product(name: "RaceLab", package: "RaceLab"),
                .product(name: "RaceLabCommandLine", package: "RaceLab"),
            ]
        )
    ]
)
