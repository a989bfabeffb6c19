// Ordinary builds of the tests.

//go:build !race

package main

const raceBuild = false
