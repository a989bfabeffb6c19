// Race-detector builds of the tests.

//go:build race

package repl

// raceBuild: the race detector multiplies memory use, so RSS bounds do not apply.
const raceBuild = true
