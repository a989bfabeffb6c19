package llm

// SetNoProgressLimit lowers MaxBytesWithoutProgress for a test (a flood of
// 64 MiB takes long under the race detector) until restore is called.
func SetNoProgressLimit(n int64) (restore func()) {
	old := noProgressLimit
	noProgressLimit = n
	return func() { noProgressLimit = old }
}
