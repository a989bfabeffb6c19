// Race-detector builds: workers run without a memory ceiling.

//go:build race

package worker

// raceEnabled: the race detector's shadow memory counts as data, so race
// builds run workers without a ceiling.
const raceEnabled = true
