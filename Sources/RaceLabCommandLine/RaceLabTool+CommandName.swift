import Foundation

extension RaceLabTool {
    /// The tool as a command that runs it again from where it was started: the path it was invoked
    /// by when that path names this tool (`.build/release/racelab`, as `make lesson-1` runs it, so
    /// that the replay lines it prints run as printed from the repository root), else its name. A
    /// path with characters a shell treats specially is not printed (its name is); nor is the
    /// program's path when the tool runs in-process (a test calling `run(_:)`).
    var commandName: String {
        let invoked = CommandLine.arguments.first ?? ""
        let plain = invoked.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._-+:@%=,".contains($0)) }
        guard plain, invoked.contains("/"), (invoked as NSString).lastPathComponent == name else { return name }
        return invoked
    }
}
