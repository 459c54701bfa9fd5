/// This release of RaceLab, as `CHANGELOG.md`'s newest heading and the git tag `v<version>` name it.
///
/// The `racelab` tool prints it for `--version`; a test keeps it and the changelog in step.
public let raceLabVersion = "0.2.0"
