//go:build !linux

package main

// hideEnviron does nothing outside Linux.
func hideEnviron() {}
