import RaceLabCommandLine

RaceLabTool(lessons: catalog).main()
