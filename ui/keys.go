// The edge between tcell and the UI: terminal events become commands,
// through the one key table that /help and the README show.

package ui

import "github.com/gdamore/tcell/v2"

// Cmd is one thing a key or the mouse asks the UI to do.
type Cmd int

// The commands. Keys that do nothing map to CmdNone.
const (
	CmdNone         Cmd = iota
	CmdInsert           // type Rune
	CmdSend             // Enter
	CmdNewline          // Ctrl+J, Alt+Enter
	CmdKillEnd          // Ctrl+K
	CmdKillStart        // Ctrl+U
	CmdBackspace        // Backspace
	CmdDelete           // Delete, Ctrl+D
	CmdLeft             // Left, Ctrl+B
	CmdRight            // Right, Ctrl+F
	CmdUp               // Up (command list: previous; history; input: line above)
	CmdDown             // Down
	CmdHome             // Home, Ctrl+A
	CmdEnd              // End, Ctrl+E
	CmdTab              // Tab (command list: complete)
	CmdEscape           // Esc: close the command list, else stop the turn
	CmdPermission       // Shift+Tab: next permission level
	CmdAllow            // y while an approval is pending: once
	CmdAllowSession     // a: the same operation for the rest of the session (a write: read-write)
	CmdDeny             // n while an approval is pending
	CmdDenyNote         // t: refuse with a note typed for the model
	CmdShowJSON         // j: show or hide the pending operation's JSON
	CmdPageUp           // scroll the transcript a screen up
	CmdPageDown         // and down
	CmdInterrupt        // Ctrl+C: clear the input, stop the turn, or exit on a second press
	CmdWheelUp          // scroll up (X, Y: where)
	CmdWheelDown        // scroll down
	CmdPress            // left button pressed at X, Y
	CmdDrag             // moved with the left button held
	CmdRelease          // left button released at X, Y
	CmdFold             // Ctrl+O: fold or unfold the last foldable block on screen
	CmdHelp             // ? on an empty input: the keys and commands
	CmdNextAgent        // Ctrl+T: follow the next subagent of the strip
)

// Action is a command with its argument.
type Action struct {
	Cmd  Cmd
	Rune rune // CmdInsert
	X, Y int  // mouse commands
}

// KeyState is what the meaning of a key depends on besides the key.
type KeyState struct {
	// Answering: an approval waits for its answer and the person is not
	// in the middle of writing a message (see App.answerable), so y, a,
	// n, t and j answer it instead of being typed.
	Answering bool
	// EmptyInput: nothing is typed, so ? asks for the help.
	EmptyInput bool
}

// keyWhen is the state a binding applies in.
type keyWhen int

const (
	always    keyWhen = iota
	answering         // KeyState.Answering
	emptyIn           // KeyState.EmptyInput
)

// keyBinding is one key of a row: key (and r for tcell.KeyRune), the
// modifier that must be held when mod is not 0 (Ctrl is part of the
// key: tcell.KeyCtrlJ), the state it applies in, and its command.
type keyBinding struct {
	key  tcell.Key
	r    rune
	mod  tcell.ModMask
	when keyWhen
	cmd  Cmd
}

// KeyRow is one row of the key table: the keys as written for people and
// what they do. /help draws the rows, the README's key table holds the
// same rows (a test compares them), and KeyAction reads their bindings.
// Mouse rows have no bindings: MouseAction maps the mouse.
type KeyRow struct {
	Keys, Action string
	binds        []keyBinding
}

func bind(k tcell.Key, c Cmd) keyBinding { return keyBinding{key: k, cmd: c} }

func runes(when keyWhen, c Cmd, rs ...rune) []keyBinding {
	var out []keyBinding
	for _, r := range rs {
		out = append(out, keyBinding{key: tcell.KeyRune, r: r, when: when, cmd: c})
	}
	return out
}

// keyTable is every key the UI handles, in the order help shows them.
var keyTable = []KeyRow{
	{"Enter", "send (text typed during a turn waits until you press Enter after it ends)",
		[]keyBinding{bind(tcell.KeyEnter, CmdSend)}},
	{"Ctrl+J, Alt+Enter, Shift+Enter", "new line", []keyBinding{bind(tcell.KeyCtrlJ, CmdNewline),
		{key: tcell.KeyEnter, mod: tcell.ModAlt, cmd: CmdNewline}, {key: tcell.KeyEnter, mod: tcell.ModShift, cmd: CmdNewline}}},
	{"Ctrl+K / Ctrl+U", "delete to the end / start of the line",
		[]keyBinding{bind(tcell.KeyCtrlK, CmdKillEnd), bind(tcell.KeyCtrlU, CmdKillStart)}},
	{"Backspace / Delete, Ctrl+D", "delete the character before / under the cursor",
		[]keyBinding{bind(tcell.KeyBackspace, CmdBackspace), bind(tcell.KeyBackspace2, CmdBackspace),
			bind(tcell.KeyDelete, CmdDelete), bind(tcell.KeyCtrlD, CmdDelete)}},
	{"Left / Right, Ctrl+B / Ctrl+F", "move the cursor",
		[]keyBinding{bind(tcell.KeyLeft, CmdLeft), bind(tcell.KeyCtrlB, CmdLeft),
			bind(tcell.KeyRight, CmdRight), bind(tcell.KeyCtrlF, CmdRight)}},
	{"Home / End, Ctrl+A / Ctrl+E", "to the start / end of the line",
		[]keyBinding{bind(tcell.KeyHome, CmdHome), bind(tcell.KeyCtrlA, CmdHome),
			bind(tcell.KeyEnd, CmdEnd), bind(tcell.KeyCtrlE, CmdEnd)}},
	{"Up / Down, Ctrl+P / Ctrl+N", "on an empty input, the messages sent before (this session's, then older sessions' in this repository); in a message, the line above / below; in the command list, choose",
		[]keyBinding{bind(tcell.KeyUp, CmdUp), bind(tcell.KeyCtrlP, CmdUp),
			bind(tcell.KeyDown, CmdDown), bind(tcell.KeyCtrlN, CmdDown)}},
	{"Tab", "complete the command chosen in the list", []keyBinding{bind(tcell.KeyTab, CmdTab)}},
	{"Esc", "stop the model and every subagent (or close the command list; reading a finished subagent, return to its caller)",
		[]keyBinding{bind(tcell.KeyEscape, CmdEscape)}},
	{"Ctrl+C", "clear the input (it stays in the history); during a turn, stop it as Esc does; on an empty input, press it twice within 2 s to exit",
		[]keyBinding{bind(tcell.KeyCtrlC, CmdInterrupt)}},
	{"Shift+Tab", "cycle the permission none → read-only → read-write (saved to config.toml)",
		[]keyBinding{bind(tcell.KeyBacktab, CmdPermission)}},
	{"y", "allow the pending command or MCP call once (a write: this write once)", runes(answering, CmdAllow, 'y', 'Y')},
	{"a", "allow the same command with the same arguments for the rest of this session, never written to config.toml (a write: switch to read-write, saved as Shift+Tab does)",
		runes(answering, CmdAllowSession, 'a', 'A')},
	{"n", "refuse it", runes(answering, CmdDeny, 'n', 'N')},
	{"t", "refuse it with a note for the model: type it, Enter sends it, Esc goes back", runes(answering, CmdDenyNote, 't', 'T')},
	{"j", "show or hide the pending operation's JSON", runes(answering, CmdShowJSON, 'j', 'J')},
	{"PageUp / PageDown", "scroll a screen; scrolled up, the view holds still until you return to the bottom",
		[]keyBinding{bind(tcell.KeyPgUp, CmdPageUp), bind(tcell.KeyPgDn, CmdPageDown)}},
	{"Ctrl+O", "expand or fold the lowest folded block on screen", []keyBinding{bind(tcell.KeyCtrlO, CmdFold)}},
	{"Ctrl+T", "while subagents run at once ([rlm] parallel): follow the next one in the list above the input (or click its name)",
		[]keyBinding{bind(tcell.KeyCtrlT, CmdNextAgent)}},
	{"?", "on an empty input: this help (the keys and the commands)", runes(emptyIn, CmdHelp, '?')},
	{"mouse wheel", "scroll three lines", nil},
	{"mouse drag", "select text; copied on release with OSC 52", nil},
	{"click", "on a fold line, the start-up line, the FYI line or thinking: expand or fold; on a finished rlm call: read its subagent's conversation; on the context overlay's [-] / [+]: collapse or open it",
		nil},
}

// KeyTable returns the key table's rows.
func KeyTable() []KeyRow { return append([]KeyRow(nil), keyTable...) }

// matches reports whether b is the key k (rune r) with modifiers mod in
// state st. Without a modifier of its own, a binding of Enter does not
// take Alt or Shift (those are new lines), nor a rune Alt or Ctrl.
func (b keyBinding) matches(k tcell.Key, r rune, mod tcell.ModMask, st KeyState) bool {
	if b.key != k || k == tcell.KeyRune && b.r != r {
		return false
	}
	switch {
	case b.mod != 0:
		if mod&b.mod == 0 {
			return false
		}
	case k == tcell.KeyEnter && mod&(tcell.ModAlt|tcell.ModShift) != 0,
		k == tcell.KeyRune && mod&(tcell.ModAlt|tcell.ModCtrl) != 0:
		return false
	}
	switch b.when {
	case answering:
		return st.Answering
	case emptyIn:
		return st.EmptyInput
	}
	return true
}

// KeyAction maps a key to an Action in state st: a binding of the key
// table, else a printable character typed.
func KeyAction(ev *tcell.EventKey, st KeyState) Action {
	k, r, mod := ev.Key(), ev.Rune(), ev.Modifiers()
	for _, row := range keyTable {
		for _, b := range row.binds {
			if b.matches(k, r, mod, st) {
				return Action{Cmd: b.cmd}
			}
		}
	}
	if k == tcell.KeyRune && mod&tcell.ModAlt == 0 {
		return Action{Cmd: CmdInsert, Rune: r}
	}
	return Action{}
}

// MouseAction maps a mouse event to an Action. held says the left button
// was down at the previous mouse event, which tells a drag from a press
// and a release from a plain move.
func MouseAction(ev *tcell.EventMouse, held bool) Action {
	x, y := ev.Position()
	b := ev.Buttons()
	switch {
	case b&tcell.WheelUp != 0:
		return Action{Cmd: CmdWheelUp, X: x, Y: y}
	case b&tcell.WheelDown != 0:
		return Action{Cmd: CmdWheelDown, X: x, Y: y}
	case b&tcell.Button1 != 0 && held:
		return Action{Cmd: CmdDrag, X: x, Y: y}
	case b&tcell.Button1 != 0:
		return Action{Cmd: CmdPress, X: x, Y: y}
	case held:
		return Action{Cmd: CmdRelease, X: x, Y: y}
	}
	return Action{}
}
