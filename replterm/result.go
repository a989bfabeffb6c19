// What of a call's result is left to show once its printed output has
// been shown as it came.

package replterm

import "strings"

// noOutput is the result of a call that printed and returned nothing.
const noOutput = "(no output)"

// Remainder returns the part of result (the text the model gets) not
// already on the terminal as streamed (what the call printed, as it
// printed it). A result is the load report of helper files (after a state
// reset), the printed output, then the trailing value or the error, with
// trailing newlines trimmed and, past output_limit, part of the output
// replaced by a notice. fresh says the text must start on a line of its
// own: it does not continue the streamed output where it stopped.
func Remainder(result, streamed string) (text string, fresh bool) {
	streamed = strings.ToValidUTF8(streamed, "\uFFFD")
	switch {
	case streamed == "":
		if result == noOutput {
			return "", false
		}
		return result, false
	case strings.HasPrefix(result, streamed):
		return result[len(streamed):], false
	case result == strings.TrimRight(streamed, "\n"):
		return "", false // the result trims the final newlines
	}
	if i := strings.Index(result, streamed); i > 0 {
		return strings.TrimRight(result[:i], "\n") + "\n" + strings.TrimLeft(result[i+len(streamed):], "\n"), true // a load report came first
	}
	// The output was cut to make room for the tail: what follows the
	// longest part both hold is the notice and the tail.
	n := 0
	for n < len(result) && n < len(streamed) && result[n] == streamed[n] {
		n++
	}
	return strings.TrimLeft(result[n:], "\n"), true
}
