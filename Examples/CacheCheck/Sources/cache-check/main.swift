// `cache-check`: RaceLab's command line, run with this package's own scenario.
// Try: cache-check list · cache-check run all · cache-check run 1 --variant lock-per-access --json
import RaceLabCommandLine
import RenderCaching

RaceLabTool(name: "cache-check", lessons: [CacheScenario.lesson]).main()
