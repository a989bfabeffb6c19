// The edge between tcell and the UI: terminal events become commands.

package ui

import "github.com/gdamore/tcell/v2"

// Cmd is one thing a key or the mouse asks the UI to do.
type Cmd int

// The commands. Keys that do nothing map to CmdNone.
const (
	CmdNone       Cmd = iota
	CmdInsert         // type Rune
	CmdSend           // Enter
	CmdNewline        // Ctrl+J, Alt+Enter
	CmdKillEnd        // Ctrl+K
	CmdKillStart      // Ctrl+U
	CmdBackspace      // Backspace
	CmdDelete         // Delete, Ctrl+D
	CmdLeft           // Left, Ctrl+B
	CmdRight          // Right, Ctrl+F
	CmdUp             // Up (command list: previous; input: line above)
	CmdDown           // Down
	CmdHome           // Home, Ctrl+A
	CmdEnd            // End, Ctrl+E
	CmdTab            // Tab (command list: complete)
	CmdEscape         // Esc: close the command list, else stop the turn
	CmdPermission     // Shift+Tab: next permission level
	CmdAllow          // y while an approval is pending
	CmdDeny           // n while an approval is pending
	CmdPageUp         // scroll the transcript a screen up
	CmdPageDown       // and down
	CmdInterrupt      // Ctrl+C: stop the turn, or exit when idle
	CmdWheelUp        // scroll a line up (X, Y: where)
	CmdWheelDown      // scroll a line down
	CmdPress          // left button pressed at X, Y
	CmdDrag           // moved with the left button held
	CmdRelease        // left button released at X, Y
	CmdFold           // Ctrl+O: fold or unfold the last foldable block on screen
)

// Action is a command with its argument.
type Action struct {
	Cmd  Cmd
	Rune rune // CmdInsert
	X, Y int  // mouse commands
}

// KeyAction maps a key to an Action. approval says an approval waits for
// y or n, which then answer it instead of being typed.
func KeyAction(ev *tcell.EventKey, approval bool) Action {
	mod := ev.Modifiers()
	switch ev.Key() {
	case tcell.KeyRune:
		r := ev.Rune()
		if approval && mod&(tcell.ModAlt|tcell.ModCtrl) == 0 {
			switch r {
			case 'y', 'Y':
				return Action{Cmd: CmdAllow}
			case 'n', 'N':
				return Action{Cmd: CmdDeny}
			}
		}
		if mod&tcell.ModAlt != 0 {
			return Action{}
		}
		return Action{Cmd: CmdInsert, Rune: r}
	case tcell.KeyEnter:
		if mod&(tcell.ModAlt|tcell.ModShift) != 0 {
			return Action{Cmd: CmdNewline}
		}
		return Action{Cmd: CmdSend}
	case tcell.KeyCtrlJ:
		return Action{Cmd: CmdNewline}
	case tcell.KeyCtrlK:
		return Action{Cmd: CmdKillEnd}
	case tcell.KeyCtrlU:
		return Action{Cmd: CmdKillStart}
	case tcell.KeyBackspace, tcell.KeyBackspace2:
		return Action{Cmd: CmdBackspace}
	case tcell.KeyDelete, tcell.KeyCtrlD:
		return Action{Cmd: CmdDelete}
	case tcell.KeyLeft, tcell.KeyCtrlB:
		return Action{Cmd: CmdLeft}
	case tcell.KeyRight, tcell.KeyCtrlF:
		return Action{Cmd: CmdRight}
	case tcell.KeyUp, tcell.KeyCtrlP:
		return Action{Cmd: CmdUp}
	case tcell.KeyDown, tcell.KeyCtrlN:
		return Action{Cmd: CmdDown}
	case tcell.KeyHome, tcell.KeyCtrlA:
		return Action{Cmd: CmdHome}
	case tcell.KeyEnd, tcell.KeyCtrlE:
		return Action{Cmd: CmdEnd}
	case tcell.KeyTab:
		return Action{Cmd: CmdTab}
	case tcell.KeyBacktab:
		return Action{Cmd: CmdPermission}
	case tcell.KeyEscape:
		return Action{Cmd: CmdEscape}
	case tcell.KeyPgUp:
		return Action{Cmd: CmdPageUp}
	case tcell.KeyPgDn:
		return Action{Cmd: CmdPageDown}
	case tcell.KeyCtrlC:
		return Action{Cmd: CmdInterrupt}
	case tcell.KeyCtrlO:
		return Action{Cmd: CmdFold}
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
