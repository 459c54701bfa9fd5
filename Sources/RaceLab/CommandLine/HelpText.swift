/// The help a RaceLab tool prints, for the tool and for each command.
struct HelpText {
    let tool: String

    func overview() -> String {
        """
        \(tool): run concurrency lessons and measure their bugs.

        Each lesson pairs buggy implementations of a real concurrency pattern with fixed ones. The
        runner executes every variant under DispatchQueue.concurrentPerform, each in its own process,
        and reports lost writes, duplicates and inconsistencies in numbers.

        USAGE: \(tool) <command> [options]

        COMMANDS:
          list                 List the lessons and their variants.
          run <lesson>         Run a lesson's variants and report what went wrong.
          power <lesson>       Measure how often each buggy variant shows its bug, noise off and on.
          help [command]       Show this help, or a command's.

        OPTIONS:
          -h, --help           Show help.
          --version            Show the version.

        EXIT STATUS: 0 every buggy variant reproduced and every fixed variant clean;
                     1 some variant did not; 2 bad usage (nothing ran).

        Run '\(tool) help run' for the options of a run.
        """
    }

    func usage(_ command: CommandName?) -> String {
        switch command {
        case .list: "usage: \(tool) list [--json]"
        case .run: "usage: \(tool) run <lesson|all> [--variant NAME] [--trials T] [--iterations N] [--seed S] [--noise on|off] [--timeout S] [--json]"
        case .power: "usage: \(tool) power <lesson|all> [--variant NAME] [--trials T] [--iterations N] [--seed S] [--timeout S] [--json]"
        case .help: "usage: \(tool) help [command]"
        case nil: "usage: \(tool) <command> [options]   (commands: list, run, power, help)"
        }
    }

    func help(_ command: CommandName) -> String {
        switch command {
        case .list:
            """
            \(tool) list: list the lessons and their variants.

            \(usage(.list))

            OPTIONS:
              --json               One JSON document instead of the table.
            """
        case .run:
            """
            \(tool) run: run a lesson's variants and report what went wrong.

            \(usage(.run))

            ARGUMENTS:
              <lesson>             A lesson number (1), its slug (subscript-race), or 'all'.

            OPTIONS:
              --variant NAME       Run only this variant of the lesson.
              --trials T           Independent trials per variant (default: the lesson's).
              --iterations N       Operations per trial, one per concurrentPerform iteration
                                   (default: the lesson's).
              --seed S             Seed for the noise at race windows, decimal or 0x hex
                                   (default: a new one, printed in the report).
              --noise on|off       Inject seeded yields, spins and sleeps at the race windows the
                                   lesson code marks (default: on). With 'off' the report shows how
                                   often the bug appears on its own.
              --timeout S          Seconds a variant may run before it is killed and reported as
                                   timed out (default: \(formatSeconds(RunRequest.defaultTimeout))).
              --json               Print one JSON document (schema in README.md) instead of text.
              -h, --help           Show this help.

            Every variant runs in a child process: a crash is reported as CRASHED with its signal and
            the end of its stderr, a hang as TIMED OUT. Exit status: 0 when every buggy variant
            reproduced its bug and every fixed variant was clean, 1 otherwise, 2 for bad usage.
            """
        case .power:
            """
            \(tool) power: measure how likely each buggy variant is to show its bug.

            \(usage(.power))

            Runs every buggy variant of the lesson twice, with noise off and with noise on (each in its
            own process, same seed and workload), and reports per strategy: the share of trials that
            exposed the bug with a 95% Wilson confidence interval, the first trial that exposed it, and
            the seconds until then. Options are those of 'run'. Exit status: 0 when every measurement
            completed, 1 when one crashed or timed out, 2 for bad usage.
            """
        case .help:
            """
            \(tool) help: show help for the tool or one command.

            \(usage(.help))
            """
        }
    }
}
