import Foundation
import RaceLab

/// `explore --shard I/N --output FILE` and `merge`: one variant's dfs search spread over machines
/// (a CI matrix), each exploring a shard in the variant's child process, and the report of the
/// whole search made from their result files.
extension RaceLabTool {
    /// Explores the request's shard of its one variant and writes the result file.
    func exploreShard(_ request: ExploreRequest, shard: ExploreRequest.Shard, output: String) -> ExitCode {
        ChildProcess.installInterruptHandler(finishing: true)
        guard let lesson = lessons.first(where: { $0.number == request.lessons.first }),
            let variant = request.variant.flatMap(lesson.variant(named:))
        else { return .usage }
        let outcome = IsolatedExploration.runShard(
            variant,
            lesson: lesson.number,
            options: request.options,
            shard: shard.index,
            of: shard.count,
            executable: ChildProcess.currentExecutable
        )
        if let signal = ChildProcess.interruptingSignal { return ExitCode(interruptedBy: signal) }
        let what = "shard \(shard.index)/\(shard.count) of variant \(variant.name)"
        let result: ShardResult
        switch outcome {
        case .explored(let explored): result = explored
        case .setupFailed(let why):
            printError("\(name): error: \(what) could not be explored: \(why)")
            return .error
        case .failed(let failure):
            printError("\(name): error: \(what) wrote no result: \(failure.verdict.rawValue), \(failure.verdictReason)")
            return .error
        }
        let file = ShardFile(
            tool: name,
            lesson: lesson.number,
            slug: lesson.slug,
            variant: variant.name,
            result: result
        )
        do {
            try OutputPath.writeAtomically(try JSONText.encode(file), to: output)
        } catch {
            printError("\(name): error: cannot write \(what) to \(quoted(output)): \(describeError(error))")
            return .error
        }
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        print(
            "\(what) of lesson \(lesson.number): " + counted(result.taskCount, "task") + ", "
                + counted(result.schedules, "schedule") + " in \(String(format: "%.3f", result.elapsedSeconds)) s; "
                + "wrote \(quoted(output))"
        )
        return .success
    }

    /// Reads the shards' result files and prints the report of the whole search, as `explore` does.
    func merge(_ request: MergeRequest) -> ExitCode {
        let files: [(path: String, file: ShardFile)]
        do {
            files = try request.files.map { ($0, try readShardFile($0)) }
        } catch {
            printError("\(name): error: \(error)")
            return .usage
        }
        if let refusal = refusal(of: files) {
            printError("\(name): error: \(refusal)")
            return .usage
        }
        let first = files[0].file
        guard let lesson = lessons.first(where: { $0.number == first.lesson && $0.slug == first.slug }),
            let variant = lesson.variant(named: first.variant), let exploration = variant.exploration
        else {
            printError(
                "\(name): error: \(quoted(files[0].path)) is of lesson \(first.lesson) (\(first.slug)) variant "
                    + "\(first.variant), which this \(name) does not have"
            )
            return .usage
        }
        let report: ExplorationReport
        do {
            report = try Explorer.merge(exploration, shards: files.map(\.file.result))
        } catch let refusal as ShardMergeRefusal {
            printError("\(name): error: \(refusal.description)")
            return .usage
        } catch {
            printError("\(name): error: variant \(variant.name) could not be set up: \(error)")
            return .error
        }
        let entry = VariantExploration(variant: variant, report: report)
        let explored = ExploreLesson(
            number: lesson.number,
            slug: lesson.slug,
            title: lesson.title,
            variants: [.explored(entry)]
        )
        if request.json {
            let printed = printJSON(ExploreDocument(tool: name, explored: explored), what: "exploration")
            if printed != .success { return printed }
        } else {
            // The state along the failing schedule, as explore shows it: one replay, in a child.
            var states: [String] = []
            if exploration.describesState, let failing = report.failure?.schedule,
                case .explored(_, let replayed) = IsolatedExploration.run(
                    variant,
                    lesson: lesson.number,
                    options: first.result.options,
                    replay: failing,
                    states: true,
                    executable: ChildProcess.currentExecutable
                )
            {
                states = replayed
            }
            // One variant: its text says everything.
            var said = ExplorationTextMemory()
            print(
                text(
                    of: entry,
                    heading: heading(of: variant, in: lesson, summary: exploration.summary(threads: report.threads)),
                    lesson: lesson,
                    marks: first.result.options.marks,
                    verbose: request.verbose,
                    states: states,
                    said: &said
                )
            )
        }
        return Self.exitCode(for: explored.variants, written: true)
    }

    /// The shard file at `path`.
    ///
    /// - Throws: `ShardMergeRefusal` saying why it cannot be merged.
    private func readShardFile(_ path: String) throws -> ShardFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ShardMergeRefusal(description: "cannot read \(quoted(path)): \(describeError(error))")
        }
        struct Header: Decodable {
            var schemaVersion: Int?
            var command: String?
        }
        let notShard = ShardMergeRefusal(
            description: "\(quoted(path)) is not a result file of '\(name) explore --shard'"
        )
        guard let header = try? JSONDecoder().decode(Header.self, from: data), header.command == "explore --shard",
            let version = header.schemaVersion
        else { throw notShard }
        guard version == ShardFile.schemaVersion else {
            throw ShardMergeRefusal(
                description: "\(quoted(path)) is a shard result of version \(version); "
                    + "this \(name) reads version \(ShardFile.schemaVersion)"
            )
        }
        guard let file = try? JSONDecoder().decode(ShardFile.self, from: data) else { throw notShard }
        guard file.result.schemaVersion == ShardResult.currentSchemaVersion else {
            throw ShardMergeRefusal(
                description: "\(quoted(path)) holds a search result of version \(file.result.schemaVersion); "
                    + "this \(name) reads version \(ShardResult.currentSchemaVersion)"
            )
        }
        return file
    }

    /// Why `files` are not shards 1...N of one exploration; nil when they are.
    private func refusal(of files: [(path: String, file: ShardFile)]) -> String? {
        let (path, first) = files[0]
        func name(_ file: ShardFile) -> String {
            "lesson \(file.lesson) (\(file.slug)) variant \(file.variant)"
        }
        var seen: [Int: String] = [:]
        for (otherPath, file) in files {
            if name(file) != name(first) {
                return "\(quoted(path)) is of \(name(first)), \(quoted(otherPath)) of \(name(file))"
            }
            if file.result.shards != first.result.shards {
                return "\(quoted(path)) is a shard of \(first.result.shards), \(quoted(otherPath)) of "
                    + "\(file.result.shards)"
            }
            if file.result.fingerprint != first.result.fingerprint {
                return "\(quoted(path)) and \(quoted(otherPath)) explored different programs "
                    + "(fingerprints \(first.result.fingerprint) and \(file.result.fingerprint))"
            }
            let options = [first, file].map { try? JSONText.encode($0.result.options, pretty: false) }
            if options[0] != options[1] {
                return "\(quoted(path)) and \(quoted(otherPath)) explored with different options"
            }
            if let earlier = seen.updateValue(otherPath, forKey: file.result.shard) {
                return "shard \(file.result.shard)/\(file.result.shards) is given twice: \(quoted(earlier)) and "
                    + "\(quoted(otherPath))"
            }
        }
        let missing = (1...first.result.shards).filter { seen[$0] == nil }
        guard missing.isEmpty else {
            return "shard\(missing.count == 1 ? "" : "s") \(missing.map(String.init).joined(separator: ", ")) of "
                + "\(first.result.shards) missing: every shard 1...\(first.result.shards) is needed once"
        }
        return nil
    }
}
