// Package ui is harness's full-screen terminal interface, built on tview
// and tcell. It only consumes rlm's events and calls the Backend: it holds
// no agent logic, does no HTTP (token counts and approval descriptions come
// in through Options functions) and saves nothing but what the Backend
// saves.
//
// # The screen
//
//	┌──────────────────────────────────────────┬──────────────┐
//	│ transcript of the agent on screen        │ context      │
//	│ (system message, messages, tool calls,   │ overlay      │
//	│  results, notes), word-wrapped           └──────────────┤
//	├─────────────────────────────────────────────────────────┤
//	│ > input, multi-line, word-wrapped                       │
//	│   /command list while typing a command                  │
//	│ agent │ model │ tokens │ permission │ what keys do now  │
//	└─────────────────────────────────────────────────────────┘
//
// The root primitive is a tview.Pages (rootPages) holding mainView, which lays out the
// transcript widget, the Overlay (context.go, overlay.go), the input, the
// command list and the status line. The transcript shows the root, or while
// a subagent runs, the deepest running subagent; it returns to the caller
// when the subagent ends. Subagents running at once ([rlm] parallel) each
// keep a view of their own and get a row of the strip above the input
// (strip.go: name, depth, state, time); the transcript, the status line
// and the overlay follow one of them: the one whose approval is asked,
// else the one chosen (a click on its row, Ctrl+T), else the first not
// waiting on subagents of its own. The others' events go on into their
// views, which are not drawn.
//
// # The flow of events
//
//	rlm agents  --Emit-->  rlm.Stream  --pump: Ready, wait for the frame, QueueUpdate(batch)-->  App.handle  -->  views  -->  one frame
//	terminal  --tcell event-->  KeyAction / MouseAction (keys.go)  --Action-->  App.do  -->  a frame at once
//	REPL goroutine  --Approvals.Approve-->  App.post  -->  pending approval (y / a / n / t / Esc)
//	frame  --widgets draw-->  frameScreen  --only the changed cells-->  tcell  -->  terminal
//
// Everything the widgets hold belongs to tview's event goroutine. Other
// goroutines (the turn, the REPL asking for approval, description and
// token-count requests) never touch it: they call App.post, which queues a
// function for the pump. post never blocks, so an agent is never stalled
// by the screen. Whatever changes the screen from another goroutine goes
// through post, a countdown too (one post per second shown): never
// QueueUpdate or Draw, which would bypass the frame pacing (and
// QueueUpdate from the event goroutine deadlocks, as tview's doc says).
//
// # Frames
//
// The pump (frames.go) is the frame pacer. It sleeps until an event or a
// posted function arrives, so an idle screen costs nothing; when the last
// frame it drew is less than 16 ms old it waits out the rest of the
// interval while the stream goes on coalescing deltas, then hands
// everything that arrived to the event goroutine in one batch, which draws
// once: at most 60 frames a second, however fast the stream, and the first
// event after a pause is drawn at once. Keys and the mouse do not wait for
// it: tview handles them between batches and draws at once, so a key typed
// during a stream is echoed in the next frame, never behind a backlog. The
// pump's clock is injectable, so tests count frames without sleeping.
//
// A frame's work is what changed and what is visible. Widgets draw on a
// frameScreen (screen.go), a grid of cells that hands tcell only the cells
// that differ from the last frame shown (a frame equal to the last writes
// nothing); mainView fills the background once and the transcript draws
// only its text. The block being streamed into re-wraps from its last line
// only; the running turn's estimates grow by what each delta adds (the
// live rows of the context overlay and the status line's count), and a
// message added to the running turn rebuilds that turn's overlay rows, not
// the session's. BenchmarkStream20k replays a 20,000-token stream and
// reports frames and CPU; scripts/uicost.sh measures the same under tmux.
//
// # The transcript
//
// Each agent's view is a list of blocks (blocks.go): a message part, a tool
// call, its printed output while it runs, its result, an approval, a note.
// Saved messages become blocks when they arrive (MessageAdded, or the whole
// conversation with rlm.Conversation when a root turn starts); streamed
// reasoning, text and tool arguments go into live blocks that the saved
// message replaces. A block wraps its text lazily and caches the lines for
// one width, so a frame wraps only the blocks it draws and re-wraps only the
// one being streamed into, from its last line; saved tool calls are even
// formatted only when first drawn, and a streamed call's arguments once per
// frame. A block is rendered from its own text alone, so any block can be
// rendered again on its own (the last one while it streams). Scrolling is anchored on a block and line, never on an
// absolute line number, so nothing needs the whole session wrapped: a 20 MB,
// 10,000-message session draws a frame in about 2 ms. The context overlay's
// first build over such a session (every turn keyed and estimated, a few
// hundred milliseconds) runs on its own goroutine, so the first frame does
// not wait for it: until it ends, the overlay and the status line say the
// tokens are being counted. Later builds redo only the turns that changed.
//
// Most blocks are their text wrapped in their kind's colour. Some are drawn
// from styled lines (render.go, package styled): replies and reasoning
// through a markdown.Doc, which redraws only the last top-level markdown
// block as a reply grows; apply_patch calls as diffview diffs, a Replace
// File against the old text that Options.Bases recorded just before the
// patch ran (taken at the call's ToolResult); results and printed output
// of more than 12 lines folded to their first and last 4 lines around a
// marker; a subagent's start-up call, output and result folded into one
// line; rlm calls with their subagent's figures (subagents.go: calls, time
// and tokens from the events, or from the saved conversation the Backend
// reads when it is a SubagentLoader). Each class of a styled span gets a
// colour from the theme (theme.go); NO_COLOR drops every colour and keeps
// the attributes. Such a block is copied as shown: styled.CopyRange joins
// its rows where they wrapped and leaves out their decoration.
//
// A click (press and release on one cell) on a fold marker or the
// start-up line folds or unfolds it; on a finished rlm call it opens the
// subagent's saved conversation as a read-only view over the one on screen
// (App.review), named "· Esc returns" in the status line and the overlay
// header; Esc or a click on that header closes it, and the view under it
// was never scrolled. Progress (progress.go): while a request waits for
// its first token or a tool runs, the status line shows a spinner and the
// seconds, ticking on the retry clock; a run() command (rlm.CommandStarted)
// running over a second gets a line under its call with its time.
//
// Following, the last line sits at the bottom. PageUp/PageDown and the wheel
// hold the view at a line until it is scrolled back to the bottom. A mouse
// drag selects text (reverse video) and copies it on release with OSC 52
// (tcell's Screen.SetClipboard).
//
// Never saved or sent: /tools output, command refusals, errors, failure
// notes (FailureNote, emitted by the wiring on the same Stream so it lands
// under its call), approval descriptions and "[stopped by user]"; retry
// notices (retry.go: a rlm.Retry replaces the failed attempt's streamed
// blocks with a note counting down to the retry), notices and Warnings.
//
// # Keys
//
// KeyAction and MouseAction are the only functions that look at tcell
// events; the rest of the package works on Actions. KeyAction reads the
// key table (keys.go, keyTable), which /help draws and the README's key
// table repeats (TestREADMEKeyTable): Enter sends (during a turn the text
// waits until Enter is pressed after it), Ctrl+J or Alt+Enter inserts a
// newline, Ctrl+K and Ctrl+U kill to the end and start of the line, Esc
// closes the command list or stops the turn and every subagent, Shift+Tab
// cycles the permission level (Level, read by the repository jail at each
// operation, and saved with Options.SavePermission), Up and Down on an
// empty input walk the history (history.go), y, a, n, t and j answer the
// pending approval (except while a message is being written: then they
// are typed, until the input is empty or typing pauses for typingGuard),
// PageUp/PageDown and the wheel (three lines) scroll, Ctrl+O folds or
// unfolds the lowest foldable block on screen, ? on an empty input shows
// the help, Ctrl+C clears the input, or stops the turn, or asks for a
// second press within two seconds to exit (on the retry clock, so tests
// move it). A bracketed paste only inserts text.
//
// # Approvals
//
// Approvals (approvals.go) is the rlm.Approver: a request waits at the one
// prompt, the oldest first, led by its line in words (package approval),
// its JSON one key away (j). y allows once; a allows the same operation
// for the rest of the run (Approvals.Session, listed by /tools, never
// saved), or for a write the level refused switches to read-write; n
// refuses; t opens a note input in place of the message input, and Enter
// refuses with an *approval.Refusal carrying the note. The prompt is one
// component (approvalPrompt) over a queue, so approvals from several
// agents wait their turn at it.
//
// # The first screen
//
// An empty session's transcript opens with the welcome (help.go): the
// version, the repository, the model and endpoint, the level in words and
// three hints; it is the document's head, never a block of the view, so
// it is neither saved nor sent, and goes with the first message. The
// transcript sits at the bottom of its area; the overlay starts collapsed
// on a transcript narrower than 120 columns (Overlay.CollapseWhenNarrow).
// The one token figure (App.tokens, Tokens) is the status line's and the
// overlay's total.

// # The session picker
//
// Pick (picker.go) is harness --resume on a terminal: the saved sessions,
// newest first, filtered by what is typed, drawn straight on a tcell
// screen of its own before the UI starts.
//
// # Commands
//
// Typing "/" opens the list of matching commands: Up/Down choose, Tab
// completes, Enter runs (completes /rename so a name can follow), Esc
// closes. /help, /rename NAME, /tools, /init, /compact [FOCUS] and
// /context (through a Backend that is a Compacter), /new and /clear, /exit
// and /quit, then the prompt files' /NAME (Options.Prompts; a repository's
// marked) and the commands the wiring registers (Options.Commands: each
// sends the message its Prompt makes). /init and /NAME send their message
// (prompts.Set.Resolve) as a typed one is sent: while a turn runs the text
// waits in the input. A message starting with a space and "/" is sent
// without the space.
package ui
