// Ordinary builds: workers get their memory ceiling.

//go:build !race

package worker

const raceEnabled = false
