import Foundation

/// Draws the benchmark as an SVG: one panel per workload, threads on x, time per operation on a
/// log-scale y axis, one line per strategy with min–max bars. Hand-written SVG: no plotting library is available
/// offline, and the format is simple enough.
struct SVGChart {
    /// One panel per name.
    let panels: [String]
    /// Strategy names, in legend order.
    let strategies: [String]
    let threadCounts: [Int]
    /// results[panel index][strategy name][threads]; a strategy missing from a panel draws nothing.
    let results: [[String: [Int: Sample]]]
    let title: String
    /// What the y axis measures, for the subtitle.
    var unit = "ns per operation"
    /// What the x axis counts.
    var xLabel = "threads (tasks for the actor)"
    /// Panels per row; more panels wrap onto further rows.
    var columns = 3

    private let panelWidth = 330.0, panelHeight = 280.0
    private let left = 58.0, top = 74.0, bottom = 46.0, gap = 26.0, legendHeight = 70.0
    private let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2"]

    func render() -> String {
        let values = results.flatMap { $0.values.flatMap { $0.values.flatMap { [$0.minimum, $0.maximum] } } }
            .filter { $0 > 0 }
        let low = pow(10, floor(log10(values.min() ?? 1)))
        let high = pow(10, ceil(log10(values.max() ?? 10)))
        let columnCount = min(columns, panels.count)
        let rows = (panels.count + columnCount - 1) / columnCount
        let rowHeight = panelHeight + bottom + 30
        let width = left + Double(columnCount) * (panelWidth + gap) + 10
        let height = top + Double(rows) * rowHeight - 30 + legendHeight
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="11">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="20" font-size="14" font-weight="bold">\(escape(title))</text>
            <text x="\(left)" y="38" fill="#555">\(unit) (wall time ÷ all operations), median of repeated runs; \
            bars span min–max. Lower is better. Log scale.</text>

            """
        for (index, name) in panels.enumerated() {
            let x0 = left + Double(index % columnCount) * (panelWidth + gap)
            let y0 = top + Double(index / columnCount) * rowHeight
            svg += panel(x0: x0, y0: y0, name: name, results: results[index], low: low, high: high)
        }
        // Legend
        let legendTop = top + Double(rows) * rowHeight - 30
        for (index, strategy) in strategies.enumerated() {
            let column = Double(index % 4)
            let row = Double(index / 4)
            let x = left + column * 230
            let y = legendTop + 14 + row * 20
            svg +=
                "<line x1=\"\(x)\" y1=\"\(y - 4)\" x2=\"\(x + 22)\" y2=\"\(y - 4)\" stroke=\"\(color(index))\" stroke-width=\"2.5\"/>\n"
            svg += "<text x=\"\(x + 28)\" y=\"\(y)\">\(escape(strategy))</text>\n"
        }
        return svg + "</svg>\n"
    }

    private func panel(
        x0: Double,
        y0: Double,
        name: String,
        results: [String: [Int: Sample]],
        low: Double,
        high: Double
    ) -> String {
        let plotHeight = panelHeight
        func xPosition(_ threads: Int) -> Double {
            let index = Double(threadCounts.firstIndex(of: threads) ?? 0)
            return x0 + 20 + index * (panelWidth - 40) / Double(max(1, threadCounts.count - 1))
        }
        func yPosition(_ value: Double) -> Double {
            let fraction = (log10(max(value, low)) - log10(low)) / (log10(high) - log10(low))
            return y0 + plotHeight * (1 - fraction)
        }
        var svg =
            "<text x=\"\(x0 + panelWidth / 2)\" y=\"\(y0 - 6)\" text-anchor=\"middle\" font-weight=\"bold\">\(escape(name))</text>\n"
        svg +=
            "<rect x=\"\(x0)\" y=\"\(y0)\" width=\"\(panelWidth)\" height=\"\(plotHeight)\" fill=\"none\" stroke=\"#999\"/>\n"
        var decade = low
        while decade <= high * 1.0001 {
            let y = yPosition(decade)
            svg += "<line x1=\"\(x0)\" y1=\"\(y)\" x2=\"\(x0 + panelWidth)\" y2=\"\(y)\" stroke=\"#eee\"/>\n"
            svg += "<text x=\"\(x0 - 4)\" y=\"\(y + 4)\" text-anchor=\"end\" fill=\"#555\">\(label(decade))</text>\n"
            decade *= 10
        }
        for threads in threadCounts {
            let x = xPosition(threads)
            svg +=
                "<text x=\"\(x)\" y=\"\(y0 + plotHeight + 16)\" text-anchor=\"middle\" fill=\"#555\">\(threads)</text>\n"
        }
        svg +=
            "<text x=\"\(x0 + panelWidth / 2)\" y=\"\(y0 + plotHeight + 32)\" text-anchor=\"middle\" fill=\"#555\">\(escape(xLabel))</text>\n"
        for (index, strategy) in strategies.enumerated() {
            guard let samples = results[strategy] else { continue }
            let points = threadCounts.compactMap { threads in samples[threads].map { (threads, $0) } }
            let path = points.map { "\(xPosition($0.0)),\(yPosition($0.1.median))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"\(color(index))\" stroke-width=\"2\"/>\n"
            for (threads, sample) in points {
                let x = xPosition(threads) + Double(index - strategies.count / 2) * 2
                svg +=
                    "<line x1=\"\(x)\" y1=\"\(yPosition(sample.minimum))\" x2=\"\(x)\" y2=\"\(yPosition(sample.maximum))\" stroke=\"\(color(index))\" stroke-opacity=\"0.6\"/>\n"
                svg +=
                    "<circle cx=\"\(xPosition(threads))\" cy=\"\(yPosition(sample.median))\" r=\"2.5\" fill=\"\(color(index))\"/>\n"
            }
        }
        return svg
    }

    private func color(_ index: Int) -> String { colors[index % colors.count] }

    private func label(_ value: Double) -> String {
        value >= 1 ? String(Int(value)) : String(value)
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
