import RaceLab

/// The help a RaceLab tool prints, for the tool and for each command. Usage lines and OPTIONS
/// sections are built from `options(_:)`, so an option is described once (in `OptionHelp`) for
/// every command that takes it.
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
          play <lesson>        Be the scheduler: choose each step and try to break a variant.
          help [command]       Show this help, or a command's.

        OPTIONS:
          -h, --help           Show help.
          --version            Show the version.

        EXIT STATUS: 0 every buggy variant reproduced and every fixed variant clean;
                     1 some variant did not; 2 bad usage (nothing ran); 3 an error (a failed
                     setup or system call, a file not written) kept a variant from a verdict;
                     130 or 143 interrupted by SIGINT (Ctrl-C) or SIGTERM. Each command's
                     help says which of these it uses.

        Run '\(tool) help run' for the options of a run.
        """
    }

    /// The options `command` takes, in the order its usage line and its help list them (`-h` aside).
    static func options(_ command: CommandName) -> [OptionHelp] {
        switch command {
        case .list: [.json(replacing: "the table")]
        case .run:
            [
                .variant(default: "every variant of the lesson"), .trials, .iterations, .noiseSeed, .noise,
                .timeout(default: RunRequest.defaultTimeout), .json(replacing: "text (schema in README.md)"), .junit,
                .html(of: "the report, histograms as bars,"),
            ]
        case .power:
            [
                .variant(default: "every buggy variant"), .trials, .iterations, .noiseSeed,
                .timeout(default: RunRequest.defaultTimeout), .json(replacing: "the tables"),
            ]
        case .matrix:
            [
                .trials, .budget, .noiseSeed, .noise, .timeout(default: MatrixRequest.defaultTimeout), .expectations,
                .probes, .logs, .executable, .json(replacing: "the table"), .junit,
            ]
        case .explore:
            [
                .variant(default: "every explorable variant"), .strategy, .reduction, .threads, .preemptions,
                .schedules, .explorerSeed, .steps, .stall, .marks, .replay, .verbose, .json(replacing: "text"),
                .html(of: "the failing schedules"), .trace,
            ]
        case .play: [.variant(default: "the lesson's first buggy one"), .threads]
        case .help: []
        }
    }

    /// The options `command` accepts, as typed (`--trials`, `--help`): what a mistyped option is
    /// compared with.
    static func optionNames(_ command: CommandName) -> [String] {
        (options(command) + [.help]).compactMap { option in
            option.name.split(separator: " ").last { $0.hasPrefix("--") }.map { String($0.filter { $0 != "," }) }
        }
    }

    func usage(_ command: CommandName?) -> String {
        guard let command else {
            return "usage: \(tool) <command> [options]   (commands: "
                + CommandName.allCases.map(\.rawValue).joined(separator: ", ") + ")"
        }
        let arguments: String
        switch command {
        case .list: arguments = ""
        case .run, .power: arguments = " <lesson|all>"
        case .matrix: arguments = " [<lesson|all>]"
        case .explore: arguments = " <lesson|all>"
        case .play: arguments = " <lesson>"
        case .help: arguments = " [command]"
        }
        let options = Self.options(command).map { " [\($0.usage)]" }.joined()
        return "usage: \(tool) \(command.rawValue)\(arguments)\(options)"
    }

    /// The OPTIONS section of `command`'s help: every option it takes, then `-h, --help`.
    private func optionsSection(_ command: CommandName) -> String {
        (["OPTIONS:"] + (Self.options(command) + [.help]).map(\.section)).joined(separator: "\n")
    }

    func help(_ command: CommandName) -> String {
        switch command {
        case .list:
            """
            \(tool) list: list the lessons and their variants.

            \(usage(.list))

            \(optionsSection(.list))

            Exit status: 0 when the list was printed; 3 when the JSON document could not be
            written; 2 for bad usage.
            """
        case .run:
            """
            \(tool) run: run a lesson's variants and report what went wrong.

            \(usage(.run))

            ARGUMENTS:
              <lesson>             A lesson number (1), its slug (subscript-race), or 'all'.

            \(optionsSection(.run))

            Every variant runs in a child process: a crash is reported as CRASHED with its signal and
            the end of its stderr, a hang as TIMED OUT, an error (a failed setup or system call) as
            ERROR, which is never counted as the bug. Exit status: 0 when every buggy variant
            reproduced its bug and every fixed variant was clean, 1 when a variant got another
            verdict, 3 when errors alone kept variants from a verdict, 2 for bad usage. Interrupted
            (SIGINT, SIGTERM), it reports the variants that finished, marked interrupted, and exits
            130 or 143.
            """
        case .power:
            """
            \(tool) power: measure how likely each buggy variant is to show its bug.

            \(usage(.power))

            Runs every buggy variant of the lesson twice, with noise off and with noise on (each in its
            own process, same seed and workload), and, where the schedule explorer can run the variant,
            samples as many schedules with its random and pct strategies. Reports per strategy: the
            share of trials (or schedules) that exposed the bug with a 95% Wilson confidence interval,
            the first one that exposed it, and the seconds until then.

            ARGUMENTS:
              <lesson>             A lesson number (1), its slug (subscript-race), or 'all'.

            \(optionsSection(.power))

            Exit status: 0 when every measurement completed, 1 when one crashed or timed out, 3 when
            the JSON document could not be written, 2 for bad usage. Interrupted (SIGINT, SIGTERM),
            it stops at once and exits 130 or 143.
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

            \(optionsSection(.matrix))

            Exit status: 0 when every row is as expected (buggy variants reproduced, fixed ones clean
            and silent under TSan, TSan and compiler outcomes as the variants declare); 1
            otherwise, naming each variant and what differs; 3 when a report (--json, --junit)
            could not be written; 2 for bad usage. Interrupted (SIGINT, SIGTERM), it stops at once
            and exits 130 or 143.
            """
        case .explore:
            """
            \(tool) explore: search thread schedules for one that breaks a variant, and replay it.

            \(usage(.explore))

            Runs the variant's real code on a few logical threads, one at a time under a controlled
            scheduler. Threads switch only at scheduling points: the race windows the lesson marks
            (Race.window), the synchronization steps it marks (Race.step), and the operations of
            RaceLock, RaceRecursiveLock, RaceQueue (sync, async, barriers), RaceTask, RaceLockFile
            (file locks, with the kernel's owners), @RaceShared variables (each read and write)
            and Race.handOff. Work items,
            callbacks and tasks the code starts are threads of their own, numbered after the
            program's. With --marks off the marks are ignored, and async code is switched between
            its Swift concurrency jobs instead: it needs no mark at all. A failing schedule is
            printed as a timeline, one column per thread, with a replay string; a deadlock with
            where each thread waits. A thread that reaches no scheduling point within the stall
            limit is reported stuck, with its last point, what it was seen doing, the likely cause
            and the fix; an exploration in which threads never interleave warns that nothing was
            explored, and why. Every variant is explored in a child process: a thread that calls
            exit or traps, or an invariant that traps, is reported as CRASHED for that variant, and
            what the code prints stays out of the report. An option the strategy does not use
            (--reduction for pct or random, --seed for dfs, --preemptions for random) is refused.

            Verdicts: FOUND or NOT FOUND (buggy), CLEAN or FAILED (fixed), REPRODUCED or NOT
            REPRODUCED (a replay). A clean verdict says what it covered: the threads, the
            preemption bound, the reduction, and how much code ran as one step (a data race inside
            a step is ThreadSanitizer's to find). A fixed variant whose search was cut by the
            schedule limit is CLEAN, NOT EXHAUSTIVE: no proof. An error thrown by a thread is
            ERROR (not the bug, unless the exploration declares it its failure); a schedule that
            does not finish within the step bound, or a stuck thread, is INCONCLUSIVE.

            ARGUMENTS:
              <lesson>             A lesson number or slug, or 'all' (every lesson with an
                                   explorable variant).

            \(optionsSection(.explore))

            Exit status: 0 when every buggy variant has a failing schedule (or the replay fails)
            and every fixed variant is CLEAN; 1 when a variant got the other verdict (a crash
            included); 3 when a variant got none (ERROR, INCONCLUSIVE, CLEAN, NOT EXHAUSTIVE), could
            not be set up, or a file could not be written, and none got the other; 2 for bad usage,
            and for a replay string refused because it does not fit the variant. Interrupted (SIGINT,
            SIGTERM), it stops the variant being explored, which gets no verdict, and exits 130 or
            143.
            """
        case .play:
            """
            \(tool) play: be the scheduler of a variant's threads, and try to break it.

            \(usage(.play))

            Runs the variant's real code on a few logical threads, as explore does, but you choose
            which thread runs at each scheduling point. Before each choice it shows every thread
            with the operation it is about to perform, the steps so far as a timeline and, where
            the lesson provides it, the shared state. At the end: whether the invariant broke, the
            whole timeline and its replay string (explore --replay accepts it). For a fixed variant
            it also says how many schedules the explorer checked without breaking it.

            Type a thread number to run that thread to its next scheduling point, or:
              u  undo the last step      h  hint: the next step of a shortest failing schedule
              r  restart                 q  quit                 ?  this list
            Input is plain lines, so a pipe can play too; colours only on a terminal, never with
            NO_COLOR set.

            ARGUMENTS:
              <lesson>             A lesson number or slug.

            \(optionsSection(.play))

            Exit status: 0 when the game ended (by q or end of input); 3 when the variant could not
            be set up; 2 for bad usage. Ctrl-C (SIGINT) or SIGTERM ends it at once: the shell shows
            130 or 143.
            """
        case .help:
            """
            \(tool) help: show help for the tool or one command.

            \(usage(.help))

            Exit status: 0; 2 for a command that does not exist.
            """
        }
    }
}
