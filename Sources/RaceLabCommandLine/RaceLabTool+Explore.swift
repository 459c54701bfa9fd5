import Foundation
import RaceLab

/// `explore`: run a lesson's variants under the schedule explorer and print the failing schedule.
extension RaceLabTool {
    func explore(_ request: ExploreRequest) -> ExitCode {
        guard let lesson = lessons.first(where: { $0.number == request.lesson }) else { return .usage }
        let variants = lesson.variants.filter { variant in
            variant.exploration != nil && (request.variant == nil || request.variant == variant.name)
        }
        var entries: [VariantExploration] = []
        for variant in variants {
            do {
                guard let entry = try VariantExploration.run(variant, options: request.options, replay: request.replay),
                    let exploration = variant.exploration
                else { continue }
                entries.append(entry)
                if !request.json {
                    let heading =
                        "lesson \(lesson.number) (\(lesson.slug)), variant \(entry.variant) [\(entry.kind.rawValue)]: "
                        + exploration.summary
                    print(
                        entry.text(heading: heading) { replay in
                            Self.replayCommand(
                                tool: name,
                                lesson: lesson.number,
                                variant: entry.variant,
                                replay: replay
                            )
                        }
                    )
                }
            } catch {
                // A failed setup is an error of the machine, not a verdict on the variant.
                printError("\(name): error: variant \(variant.name) could not be set up: \(error)")
                return .error
            }
        }
        if request.json {
            let document = ExploreDocument(tool: name, lesson: lesson.number, slug: lesson.slug, variants: entries)
            let printed = printJSON(document, what: "exploration")
            if printed != .success { return printed }
        }
        return entries.allSatisfy(\.asExpected) ? .success : .unexpectedVerdict
    }
}

/// The JSON document `explore --json` prints.
struct ExploreDocument: Encodable {
    var tool: String
    var command = "explore"
    var lesson: Int
    var slug: String
    var variants: [VariantExploration]
}
