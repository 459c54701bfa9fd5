// Compiler probe · lesson 6 · public-properties
// The article's first data source: header, items and footer as public mutable properties, written
// on the data source's queue and read one by one by the UI. Rejected by Swift 6 (a class with
// mutable state, captured by concurrent closures); the lesson's version puts each property behind
// a lock and says @unchecked Sendable, which the compiler accepts, and the UI still reads mixed
// states (each read is safe, the sequence of reads is not).
import Foundation

final class DataSource {
    let queue = DispatchQueue(label: "data-source", attributes: .concurrent)
    var header = "v0"
    var items = ["v0 #0", "v0 #1"]
    var footer = "v0"

    func publish(version: Int) {
        queue.async(flags: .barrier) {
            self.header = "v\(version)"
            self.items = ["v\(version) #0", "v\(version) #1"]
            self.footer = "v\(version)"
        }
    }
}

func render(_ dataSource: DataSource) -> String {
    dataSource.header + dataSource.items.joined() + dataSource.footer
}
