import PackagePlugin

/// Generates the `racelab` tool's lesson catalog from the target's dependencies, so that a lesson
/// is registered in one place: its line in `Package.swift`'s `lessons` list.
///
/// Every dependency of the target whose folder is directly under `Lessons/` is a lesson module. By
/// convention module `X` holds `XLesson.swift`, which declares `public enum XLesson` with a
/// `public static let lesson: Lesson`; the plugin refuses a lesson module without that file, so the
/// mistake is named here rather than as a compile error in generated code. The generated file
/// (`LessonCatalog.swift` in the plugin's work folder) imports every lesson module and defines
/// `let catalog: [Lesson]`, sorted by lesson number.
@main
struct LessonCatalog: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let lessonsFolder = context.package.directoryURL.appending(path: "Lessons").standardizedFileURL
        var modules: [String] = []
        for dependency in target.dependencies {
            guard case .target(let candidate) = dependency, let module = candidate as? SourceModuleTarget else {
                continue
            }
            // The module's folder comes from its files: `Target.directoryURL` needs tools version 6.1.
            let files = module.sourceFiles.map { $0.url.standardizedFileURL.path }
            guard let first = files.first, first.hasPrefix(lessonsFolder.path + "/") else { continue }
            let folder = first.dropFirst(lessonsFolder.path.count + 1).prefix { $0 != "/" }
            let entryPoint = "\(module.name)Lesson.swift"
            guard files.contains(lessonsFolder.path + "/\(folder)/" + entryPoint) else {
                throw CatalogError(
                    "lesson module \(module.name) (Lessons/\(folder)) has no \(entryPoint): "
                        + "a lesson module X declares `public enum XLesson { public static let lesson }` in XLesson.swift"
                )
            }
            modules.append(module.name)
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "LessonCatalog.swift")
        return [
            .buildCommand(
                displayName: "Generating the lesson catalog of \(target.name) (\(modules.count) lessons)",
                executable: try context.tool(named: "lesson-catalog-generator").url,
                arguments: [output.path] + modules,
                // The file depends on the module list alone, which is part of the command: SwiftPM
                // runs it again when the list changes.
                inputFiles: [],
                outputFiles: [output]
            )
        ]
    }
}

struct CatalogError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
