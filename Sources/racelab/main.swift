import RaceLab

RaceLabTool(lessons: catalog).main()
