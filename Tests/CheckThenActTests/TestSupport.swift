import CheckThenAct
import Foundation
import RaceLab
import RaceLabTesting

/// The lesson's variant called `name`.
func lessonVariant(_ name: String) -> Variant {
    guard let variant = CheckThenActLesson.lesson.variant(named: name) else {
        fatalError("lesson 2 has no variant named \(name)")
    }
    return variant
}
