// Package replterm is the terminal face of harness repl: a line-by-line
// loop (not full-screen) over one REPL, with the habits of Python's own
// interactive prompt, for the people who write helpers.
//
//	t := replterm.New(replterm.Options{New: newREPL, HistoryPath: p, Banner: b})
//	// newREPL builds a repl.Options with Output: t.Output and Approver: t
//	os.Exit(t.Run())
//
// # The loop
//
//	person --line--> liner (editing, history, Tab) --chunk--> REPL.Run
//	REPL --Output--> terminal (as printed) --result's rest--> terminal
//	REPL --Approve--> terminal (one key: y, n; Ctrl+C stops the call)
//
// ">>> " asks for a chunk and "... " for more of it while repl.Incomplete
// says a block, bracket or triple-quoted string is still open (a block
// ends with an empty line). What the call prints appears as it is
// printed; when the call ends, the part of the result not already shown
// follows: the value of a trailing expression, the error exactly as the
// model reads it, a truncation notice. A result of "(no output)" shows
// nothing.
//
// Ctrl+C while a call runs stops it (the REPL keeps its state unless its
// worker had to be killed, and the result then says so); at the prompt it
// drops the line, or the unfinished block. Ctrl+D on an empty line exits.
// Tab completes the names REPL code can use now (REPL.Names) and, after
// import or from, the module names; on a line holding only indentation
// it indents by four spaces. Lines are kept in Options.HistoryPath
// (written after every line, at most liner.HistoryLimit of them).
//
// Lines starting with ':' at the ">>> " prompt are the workbench's own
// commands: :reload (REPL.Reload: the helper files again, state kept),
// :reset (a fresh REPL from Options.New) and :help.
//
// # Approvals
//
// Approve shows the operation as the UI's approval prompt does (its
// sentence and the operation as compact JSON), with the description from
// Options.Describe when set, then reads one key: y allows, n denies,
// Ctrl+C denies and stops the call. Input typed before the question was
// shown is discarded first, so type-ahead never answers it.
//
// The line editor is github.com/peterh/liner: it reads the terminal only
// while a prompt is open (no goroutine left reading stdin during a call,
// so Ctrl+C is the terminal's SIGINT then and approvals can read keys),
// and it keeps its history and completion to a small API.
package replterm
