/// The UI's actor in this lesson: a global actor standing in for `@MainActor`.
///
/// The article's component is `@MainActor`. A command-line runner cannot lend the main thread to
/// it: `racelab` blocks its main thread while the trials run, and a main-actor job would wait for
/// a run loop that never turns. `UIActor` has the semantics that matter here: one serial executor
/// for all of the component's code, and a suspension at every `await` on another actor, during
/// which other jobs (on the UI actor and on the data source) run.
@globalActor
public actor UIActor {
    public static let shared = UIActor()
}
