// Ordinary builds of the tests.

//go:build !race

package repl

const raceBuild = false
