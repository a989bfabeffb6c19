//go:build !linux

// Process trees elsewhere: no subreaper, so only process groups are killed.

package reaper

import "errors"

// Subreap is not available outside Linux.
func Subreap() error { return errors.New("no child subreaper on this system") }

// Subreaping reports false outside Linux.
func Subreaping() bool { return false }

// KillDescendants does nothing outside Linux.
func KillDescendants() int { return 0 }

// Session does nothing outside Linux.
func Session(sid int) {}

// SweepOrphans does nothing outside Linux.
func SweepOrphans(mark string, live func(pid int) bool) {}

func killGroupTrees(groups map[int]bool, mark string) int { return 0 }
