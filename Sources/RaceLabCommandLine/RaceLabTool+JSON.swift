import RaceLab

extension RaceLabTool {
    /// Prints `value` on stdout as one JSON document in RaceLab's one format (`JSONText`).
    ///
    /// - Parameter what: names the document in the error line, e.g. `"report"`.
    /// - Returns: `.success`; `.error` when `value` cannot be encoded.
    func printJSON(_ value: some Encodable, what: String) -> ExitCode {
        printJSON(what) { try JSONText.encode(value) }
    }

    /// Prints the JSON text `encode` returns on stdout. When it throws, prints one error line on
    /// stderr and nothing on stdout, so that a reader of stdout never gets an empty or partial document.
    ///
    /// - Returns: `.success`; `.error` when `encode` throws.
    func printJSON(_ what: String, _ encode: () throws -> String) -> ExitCode {
        do {
            print(try encode())
            return .success
        } catch {
            printError("\(name): error: cannot encode the \(what): \(error)")
            return .error
        }
    }
}
