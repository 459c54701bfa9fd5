/// The one name a mistyped word most likely meant, for a usage error's "did you mean": `rn` → `run`,
/// `--trails` → `--trials`, `Buggy` → `buggy`.
///
/// A name that differs only in case wins; otherwise the nearest name by edit distance (insertions,
/// deletions, substitutions and swaps of two neighbours), at most 2 edits and fewer than the word has
/// characters, so that a short word is not "corrected" into an unrelated one. Ties go to the name
/// listed first. Nothing is suggested when nothing is that near.
enum Suggestion {
    static let maximumDistance = 2

    /// The name among `candidates` that `word` most likely meant, or nil.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        if let sameLetters = candidates.first(where: { $0.lowercased() == word.lowercased() }) {
            return sameLetters == word ? nil : sameLetters
        }
        let limit = min(maximumDistance, word.count - 1)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(word.lowercased(), candidate.lowercased())
            if distance <= limit && distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// `"; did you mean 'run'?"` to end a usage error with, or `""` when no name is near `word`.
    static func clause(for word: String, among candidates: [String]) -> String {
        nearest(to: word, among: candidates).map { "; did you mean \(quoted($0))?" } ?? ""
    }

    /// The optimal-string-alignment distance: the edits that turn `a` into `b`, where an edit inserts,
    /// deletes or replaces one character or swaps two neighbours (`--trails` is one swap from
    /// `--trials`).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
