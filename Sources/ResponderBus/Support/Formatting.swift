/// Formats a number of points without a trailing `.0` for whole numbers: `291`, `20.5`.
func formatPoints(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
        return String(Int64(value))
    }
    return String(value)
}
