// Race-detector builds of the tests.

//go:build race

package main

// raceBuild: REPL workers of race builds have no memory ceiling.
const raceBuild = true
