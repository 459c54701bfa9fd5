import RaceLab

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
          power <lesson>       Measure how often each buggy variant shows its bug, by strategy.
          matrix [lesson]      Which tool catches which bug: the runner, ThreadSanitizer, Swift 6.
          explore <lesson>     Search thread schedules for one that breaks a variant; replay it.
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
        case .run:
            "usage: \(tool) run <lesson|all> [--variant NAME] [--trials T] [--iterations N] [--seed S] [--noise on|off] [--timeout S] [--json] [--junit FILE]"
        case .power:
            "usage: \(tool) power <lesson|all> [--variant NAME] [--trials T] [--iterations N] [--seed S] [--timeout S] [--json]"
        case .matrix:
            "usage: \(tool) matrix [<lesson|all>] [--trials T] [--budget S] [--seed S] [--noise on|off] [--timeout S] [--expectations FILE] [--probes DIR] [--logs DIR] [--executable PATH] [--json] [--junit FILE]"
        case .explore:
            "usage: \(tool) explore <lesson> [--variant NAME] [--strategy dfs|pct|random] [--threads K] [--preemptions P] [--schedules M] [--seed S] [--steps N] [--replay SCHEDULE] [--json]"
        case .help: "usage: \(tool) help [command]"
        case nil: "usage: \(tool) <command> [options]   (commands: list, run, power, matrix, explore, help)"
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
              --junit FILE         Also write the result as JUnit XML (one test case per variant).
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
            own process, same seed and workload), and, where the schedule explorer can run the variant,
            samples as many schedules with its random and pct strategies. Reports per strategy: the
            share of trials (or schedules) that exposed the bug with a 95% Wilson confidence interval,
            the first one that exposed it, and the seconds until then. Options are those of 'run'.
            Exit status: 0 when every measurement completed, 1 when one crashed or timed out, 2 for
            bad usage.
            """
        case .matrix:
            """
            \(tool) matrix: which tool catches which bug.

            \(usage(.matrix))

            One row per variant: what the stress runner measured, how many distinct races
            ThreadSanitizer reported, and whether the Swift 6 compiler (language mode 6, complete
            concurrency checking) accepts the variant's pattern as developers write it. Each variant
            runs in its own process with TSAN_OPTIONS log_path=<logs>/<lesson>.<variant>, so every
            report is attributed to the variant (and worker processes) that produced it. Build with
            'make tsan', which runs this command from a ThreadSanitizer build; from another build the
            TSan column says 'not measured'.

            ARGUMENTS:
              <lesson>             A lesson number or slug; default 'all' (every lesson, plus
                                   calibration rows: TSan on correct code).

            OPTIONS:
              --trials T           At most T trials per variant (default: the lesson's).
              --budget S           No new trial starts after S seconds per variant; one always
                                   runs (default: \(formatSeconds(MatrixRequest.defaultBudget))). The matrix shows the trials run.
              --seed S, --noise on|off
                                   As for 'run'.
              --timeout S          Watchdog per variant (default: \(formatSeconds(MatrixRequest.defaultTimeout))).
              --expectations FILE  Expected TSan and compiler outcome per variant
                                   (default: \(MatrixRequest.defaultExpectations), if present).
              --probes DIR         Compiler probes, DIR/<NN-slug>/<variant>.swift
                                   (default: \(MatrixRequest.defaultProbes)).
              --logs DIR           Where TSan writes its logs (default: a temporary folder).
              --executable PATH    Run the variants with this build of the tool (default: this one).
              --json               Print one JSON document instead of the table.
              --junit FILE         Also write JUnit XML (one test case per variant).
              -h, --help           Show this help.

            Exit status: 0 when every row is as expected (buggy variants reproduced, fixed ones clean
            and silent under TSan, TSan and compiler outcomes as in the expectations file); 1
            otherwise, naming each variant and what differs; 2 for bad usage.
            """
        case .explore:
            """
            \(tool) explore: search thread schedules for one that breaks a variant, and replay it.

            \(usage(.explore))

            Runs the variant's real code on a few logical threads, one at a time under a controlled
            scheduler. Threads switch only at scheduling points: the race windows the lesson marks
            (Race.window), the synchronization steps it marks (Race.step), and the operations of
            RaceLock, RaceQueue (sync, async, barriers), RaceTask and Race.handOff. Work items,
            callbacks and tasks the code starts are threads of their own, numbered after the
            program's. A failing schedule is printed as a timeline, one column per thread, with a
            replay string; a deadlock with where each thread waits.

            ARGUMENTS:
              <lesson>             A lesson number or slug.

            OPTIONS:
              --variant NAME       Only this variant (default: every explorable variant).
              --strategy S         dfs: every schedule within the preemption bound (default);
                                   pct: Probabilistic Concurrency Testing; random: a random
                                   thread at every point.
              --threads K          Logical threads (default: the exploration's, usually 2).
              --preemptions P      dfs: at most P preemptions; pct: P priority change points
                                   (bug depth d = P+1). Default 2.
              --schedules M        At most M schedules (default 100000 for dfs, 1000 otherwise).
              --seed S             Seed for pct and random (default 0).
              --steps N            Step bound: longer executions are reported as livelock (1000).
              --replay SCHEDULE    Run exactly this schedule (a replay string from a report).
              --json               One JSON document instead of text.
              -h, --help           Show this help.

            Exit status: 0 when every buggy variant has a failing schedule (or the replay fails)
            and no fixed variant has one; 1 otherwise; 2 for bad usage.
            """
        case .help:
            """
            \(tool) help: show help for the tool or one command.

            \(usage(.help))
            """
        }
    }
}
