// A test target that imports RaceLabTesting gets the harness too: one import for a test file.
@_exported import RaceLab
